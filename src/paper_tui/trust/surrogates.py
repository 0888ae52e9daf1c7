"""Text that came from bytes which are not UTF-8: a file name or a command-line argument
on Linux may hold any bytes, which Python hands over as lone surrogates
(``surrogateescape``: byte 0xff becomes U+DCFF). Such text cannot be written as UTF-8, so
it has to be refused (a tag, a query) or shown escaped (a file name in a message)."""

from __future__ import annotations

import re

_SURROGATE = re.compile("[\ud800-\udfff]")
_ESCAPED_BYTE = range(0xDC80, 0xDD00)
"""The surrogates ``surrogateescape`` makes of the bytes 0x80-0xff."""


def has_surrogates(text: str) -> bool:
    """Whether ``text`` holds a character that cannot be written as UTF-8."""
    return _SURROGATE.search(text) is not None


def escape_surrogates(text: str) -> str:
    """``text`` with each surrogate written as an escape: an undecodable byte as the byte
    it was (``\\xff``), any other lone surrogate as its code (``\\ud800``); the rest as is.
    The result can always be written as UTF-8."""
    return _SURROGATE.sub(_escape, text)


def _escape(match: re.Match[str]) -> str:
    code = ord(match.group())
    return f"\\x{code - 0xDC00:02x}" if code in _ESCAPED_BYTE else f"\\u{code:04x}"


def json_escape_surrogates(json_text: str) -> str:
    """JSON text (``json.dumps(..., ensure_ascii=False)``) with each surrogate written as
    the ``\\u`` escape ``ensure_ascii`` would give it: the text can be written as UTF-8, and
    ``json.loads`` gives the very same strings back (a file name keeps its bytes). A
    surrogate can only stand inside a JSON string, where the escape means the same."""
    return _SURROGATE.sub(lambda match: f"\\u{ord(match.group()):04x}", json_text)
