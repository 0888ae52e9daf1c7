"""Text from data made inert before a terminal sees it.

Titles, abstracts, names, tags, notes, list names, file names and error details come from
files, team-mates and typing: any of them may hold a terminal escape sequence (``ESC ]0;…``
renames the window, ``ESC ]52;c;…`` sets the clipboard, ``ESC [2J`` clears the screen) or
a lone control character. Every front shows such text only through these functions:

* :func:`inert_text` for text that may span lines (a note, an abstract, a whole export):
  escape sequences are removed whole (CSI ``ESC [ … final``; OSC, DCS, SOS, PM, APC and
  tmux's ``ESC k`` strings up to their BEL or ST; two-character ``ESC x``; their 8-bit C1
  forms), then every other C0 and C1 control character and DEL. Tabs and newlines stay;
  CR, CR LF, NEL and the Unicode line and paragraph separators become a newline.
* :func:`inert_line` for a field that is one line (a title, a tag, a file name in an
  error line): the same, and every line break or tab becomes a space, so such a field
  never breaks the line it is shown on.

A C1 byte that reached Python undecoded (a non-UTF-8 file name, as the surrogates
U+DC80-U+DC9F) is removed as well: a terminal that is not in UTF-8 mode would get the raw
byte back, and 0x9b is CSI there.

Bidi embeddings, overrides and isolates (U+202A-U+202E, U+2066-U+2069) are removed too:
each holds its state until a closer or the end of the line, so one field could reverse the
text printed after it (a file name ``evil\\u202etxt.exe`` shows as ``evilexe.txt``). The
marks that hold no state (LRM, RLM, ALM) stay: right-to-left text needs them.

:func:`shown_name` is for a file name in a message (``wrote 38 papers to FILE``): each
control character, line break and bidi control written as an escape (``\\n``,
``\\x1b``, ``\\u202e``), an undecodable byte as the byte it was (``\\xff``), so the name
stays one line and can still be told apart from a similar one.

:func:`escape_in_strings` is for the outputs that keep the data as it is (``--json``, JSON,
CSL-JSON, YAML exports): it writes those characters as ``\\uXXXX`` escapes, which is still
the same data, and leaves nothing raw for a terminal to act on.

Each function is linear in the text's length (no pattern here can scan past the next
control character, and only control characters start a match) and returns the text itself
when it holds no such character, the case of almost all real text: one C-level scan
(``bench/inert.py``).
"""

from __future__ import annotations

import dataclasses
import operator
import re
from collections.abc import Callable
from functools import lru_cache
from itertools import chain
from typing import Any

from paper_tui.model import Paper
from paper_tui.trust.surrogates import escape_surrogates

_CONTROLS = "\x00-\x1f\x7f-\x9f\udc80-\udc9f"
_BIDI = "\u202a-\u202e\u2066-\u2069"
_SEPARATORS = "\u2028\u2029"

# Escape sequences, removed whole. A string (OSC, DCS, …) ends at its BEL or ST, or where
# a terminal would end it, at the next ESC or C1 control (the next sequence), or at any
# other control character or the end of the text (the terminal would swallow what follows
# as the string's; here it stays, on the next line). So its body never holds a control
# character, and a payload never shows.
_SEQUENCE = (
    rf"(?:\x1b[\]P^_Xk]|[\x90\x98\x9d\x9e\x9f])[^{_CONTROLS}]*(?:\x07|\x1b\\|\x9c)?"  # strings
    r"|(?:\x1b\[|\x9b)[\x30-\x3f]*[\x20-\x2f]*[\x40-\x7e]"  # CSI
    r"|\x1b[\x20-\x2f]*[\x30-\x7e]"  # ESC with intermediates and a final: ESC ( B, ESC c
)
# One pass each, left to right: a whole sequence, else a line break (a run of them and of
# tabs, in a line), else any other control character.
_IN_TEXT = re.compile(rf"(?:{_SEQUENCE})|(?P<br>\r\n?|[\x85{_SEPARATORS}])"
                      rf"|[\x00-\x08\x0b-\x1f\x7f-\x9f\udc80-\udc9f{_BIDI}]")
_IN_LINE = re.compile(rf"(?:{_SEQUENCE})|(?P<br>[\t\n\x0b\x0c\r\x85{_SEPARATORS}]+)"
                      rf"|[{_CONTROLS}{_BIDI}]")
_UNSAFE_IN_TEXT = re.compile(
    rf"[\x00-\x08\x0b-\x1f\x7f-\x9f\udc80-\udc9f{_SEPARATORS}{_BIDI}]")
_UNSAFE_IN_LINE = re.compile(rf"[{_CONTROLS}{_SEPARATORS}{_BIDI}]")
# JSON escapes C0 itself (and YAML C0 and C1); what it leaves raw, written as \uXXXX
_RAW_IN_JSON = re.compile(rf"[\x7f-\x9f\udc80-\udc9f{_SEPARATORS}{_BIDI}]")


_IN_NAME = re.compile(rf"[\x00-\x1f\x7f-\x9f{_SEPARATORS}{_BIDI}]")
_NAMED_ESCAPES = {"\n": "\\n", "\t": "\\t", "\r": "\\r"}


# ASCII text (most of it) can hold only C0 controls and DEL: bytes.translate finds those
# several times faster than a regular expression scans for the whole set.
_C0_AND_DEL_IN_TEXT = bytes([*range(0x00, 0x09), *range(0x0B, 0x20), 0x7F])
_C0_AND_DEL_IN_LINE = bytes([*range(0x00, 0x20), 0x7F])


def _clean_in_text(text: str) -> bool:
    """Nothing in ``text`` for :func:`inert_text` to change."""
    if text.isascii():
        data = text.encode("ascii")
        return len(data.translate(None, _C0_AND_DEL_IN_TEXT)) == len(data)
    return _UNSAFE_IN_TEXT.search(text) is None


def _clean_in_line(text: str) -> bool:
    """Nothing in ``text`` for :func:`inert_line` to change."""
    if text.isascii():
        data = text.encode("ascii")
        return len(data.translate(None, _C0_AND_DEL_IN_LINE)) == len(data)
    return _UNSAFE_IN_LINE.search(text) is None


def _newline_or_nothing(match: re.Match[str]) -> str:
    return "\n" if match.lastgroup == "br" else ""


def inert_text(text: str) -> str:
    """``text`` without escape sequences or control characters; tabs and newlines kept,
    other line breaks made newlines."""
    if _clean_in_text(text):
        return text
    return _IN_TEXT.sub(_newline_or_nothing, text)


def inert_line(text: str, *, breaks: str = " ") -> str:
    """``text`` as one line: without escape sequences or control characters, and each run
    of line breaks and tabs ``breaks`` (a space; the app's last filter, which must not
    widen a line already laid out, passes ``""``)."""
    if _clean_in_line(text):
        return text
    return _IN_LINE.sub(lambda m: breaks if m.lastgroup == "br" else "", text)


def shown_name(name: object) -> str:
    """A file name (a path, or text) for a message line: one line, every control
    character escaped (``a\\nb``), undecodable bytes as ``\\xff``."""
    text = escape_surrogates(str(name))
    if _clean_in_line(text):
        return text
    return _IN_NAME.sub(_escape_char, text)


def _escape_char(match: re.Match[str]) -> str:
    char = match.group()
    if char in _NAMED_ESCAPES:
        return _NAMED_ESCAPES[char]
    code = ord(char)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def inert_line_offsets(text: str) -> tuple[str, Callable[[int], int]]:
    """:func:`inert_line` of ``text``, and where each offset into ``text`` went in it: for
    spans laid over the text (emphasis, matched words). The identity when nothing
    changed."""
    if _clean_in_line(text):
        return text, _same
    pieces: list[str] = []
    offsets: list[int] = []
    cursor = shown = 0
    for match in _IN_LINE.finditer(text):
        start, end = match.span()
        offsets.extend(range(shown, shown + start - cursor))
        pieces.append(text[cursor:start])
        shown += start - cursor
        offsets.extend([shown] * (end - start))  # what is removed or replaced: its start
        if match.lastgroup == "br":
            pieces.append(" ")
            shown += 1
        cursor = end
    offsets.extend(range(shown, shown + len(text) - cursor + 1))
    pieces.append(text[cursor:])
    last = len(text)
    return "".join(pieces), lambda offset: offsets[max(0, min(offset, last))]


def _same(offset: int) -> int:
    return offset


def is_inert(text: str, *, one_line: bool = False) -> bool:
    """True when ``text`` holds nothing :func:`inert_text` (or :func:`inert_line`) would
    change."""
    return _clean_in_line(text) if one_line else _clean_in_text(text)


def _maybe_raw(text: str) -> bool:
    """Whether ``text`` may hold a character :data:`_RAW_IN_JSON` matches: DEL is the one
    ASCII one."""
    return not text.isascii() or "\x7f" in text


def needs_escape(text: str) -> bool:
    """True when ``text`` holds a character :func:`escape_in_strings` writes as an escape
    (a YAML writer double-quotes such a string, where the escape means the character)."""
    return _maybe_raw(text) and _RAW_IN_JSON.search(text) is not None


def escape_in_strings(serialized: str) -> str:
    """JSON (or YAML whose strings holding these characters are double-quoted) with DEL,
    the C1 controls, the line and paragraph separators and the bidi controls written as
    ``\\uXXXX`` escapes: the same data, nothing raw left for a terminal to act on. JSON
    writes every C0 control as an escape already; these characters can only stand inside
    strings, where the escape means the character."""
    if not _maybe_raw(serialized) or _RAW_IN_JSON.search(serialized) is None:
        return serialized
    return _RAW_IN_JSON.sub(lambda m: f"\\u{ord(m.group()):04x}", serialized)


_TEXTS = ("abstract", "display_abstract", "bibtex", "tldr")
"""A paper's text fields of many lines; its other text fields (by type) are one line each,
the id aside."""
_FIELDS = dataclasses.fields(Paper)
_ONE_LINE = tuple(f.name for f in _FIELDS if f.type == "str" and f.name not in (*_TEXTS, "id"))
_ONE_LINE_EACH = tuple(f.name for f in _FIELDS if f.type == "tuple[str, ...]")
"""Many-valued fields (authors, keywords, countries): each value one line."""
_one_line, _texts = operator.attrgetter(*_ONE_LINE), operator.attrgetter(*_TEXTS)
_each = operator.attrgetter(*_ONE_LINE_EACH)


@lru_cache(maxsize=4096)
def inert_paper(paper: Paper) -> Paper:
    """``paper`` as people are shown it (citations, exports for reading): every text field
    inert, a one-line field on one line; ``paper`` itself when nothing changes. The id is
    left as it is, the key its annotations are found by: show it through
    :func:`inert_line`. The emphasis spans of a display text that changed are dropped
    (their offsets were into the old text). Cached: a citation asks for the same paper's
    key and its entry. The fields are found by their types: a text field added to
    :class:`~paper_tui.model.Paper` is made inert with the others."""
    one_line = "".join(_one_line(paper)) + "".join(chain.from_iterable(_each(paper))) \
        + "".join(chain.from_iterable(paper.affiliations))
    texts = _texts(paper)
    if _clean_in_line(one_line) and _clean_in_text("".join(texts)):
        return paper  # almost every paper: two scans, not one a field
    changed: dict[str, Any] = {}
    for name, value in zip(_ONE_LINE, _one_line(paper), strict=True):
        if (clean := inert_line(value)) is not value:
            changed[name] = clean
    for name, value in zip(_TEXTS, texts, strict=True):
        if (clean := inert_text(value)) is not value:
            changed[name] = clean
    for name in _ONE_LINE_EACH:
        values = getattr(paper, name)
        cleaned = tuple(inert_line(value) for value in values)
        if any(a is not b for a, b in zip(cleaned, values, strict=True)):
            changed[name] = cleaned
    clean_affiliations = tuple(tuple(inert_line(a) for a in names)
                               for names in paper.affiliations)
    if clean_affiliations != paper.affiliations:
        changed["affiliations"] = clean_affiliations
    if "display_title" in changed:
        changed["title_emphasis"] = ()
    if "display_abstract" in changed:
        changed["abstract_emphasis"] = ()
    return dataclasses.replace(paper, **changed)
