"""Org text from data with no live link but to the web, a file or a DOI.

Emacs follows an Org link on a click or ``C-c C-o``: ``[[elisp:(…)]]`` evaluates Lisp,
``[[shell:…]]`` runs a command, each one ``yes`` away. Titles, notes, list names and
addresses in an Org export come from data, so every link type but ``http``, ``https``,
``file`` and ``doi`` is made text: a zero-width space (U+200B, Org's own escape
character) goes between the type and its colon — in bracket links (``[[type:…]]``),
angle links (``<type:…>``) and plain links (``type:…`` in running text) alike. The text
reads the same; Org finds no link type in it.
"""

from __future__ import annotations

import re

LIVE = frozenset({"http", "https", "file", "doi"})
"""The link types an Org export keeps live."""

_ESCAPE = "\u200b"
# A live link's address, kept whole up to what ends a link (its port, ``host:8080``, is no
# link type); else a word before a colon: right after ``[[`` or ``<`` (a bracket link's
# path may start with a space), or followed by what a plain link's path starts with.
_TYPE = re.compile(r"(?i:https?|file|doi):[^\s\[\]<>]*"
                   r"|(?:(?<=\[\[)|(?<=<))[A-Za-z][\w+.-]*(?=:)|[A-Za-z][\w+.-]*(?=:\S)")


def org_inert(text: str) -> str:
    """``text`` with every Org link type but :data:`LIVE` broken."""
    if ":" not in text:
        return text
    return _TYPE.sub(_broken, text)


def _broken(match: re.Match[str]) -> str:
    word = match.group()
    return word if ":" in word or word.lower() in LIVE else word + _ESCAPE


_UNSAFE_IN_TARGET = re.compile(r"[\s\[\]\\]")


def org_link(url: str, label: str) -> str | None:
    """``[[url][label]]``, the address's brackets, backslashes and spaces percent-encoded
    (they would end the link); None when its type is not :data:`LIVE` (say it as text)."""
    scheme, colon, _ = url.partition(":")
    if not colon or scheme.lower() not in LIVE:
        return None
    target = _UNSAFE_IN_TARGET.sub(
        lambda m: "".join(f"%{b:02X}" for b in m.group().encode()), url)
    return f"[[{target}][{org_inert(label)}]]"
