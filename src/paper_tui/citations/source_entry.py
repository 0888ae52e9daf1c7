"""The BibTeX entry a source gave a paper, when it describes that paper.

The source's own entry is used for citing when the import carried one *and* it describes
the paper (one well-formed entry whose title, year and authors' last names agree with the
record); otherwise a generated entry stands in, so a citation always matches what the
reader saw. Parsed by hand (a few lines of scanning), since only one entry is ever read.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache

from paper_tui.citations.latex import balanced
from paper_tui.model import Paper, slug

_HEAD = re.compile(r"\s*@\s*([A-Za-z]+)\s*([{(])\s*([^\s,{}()\"#%'=]+)\s*,")
_FIELD_NAME = re.compile(r"\s*([A-Za-z][\w\-:.+/]*)\s*=\s*")
_NOT_ENTRIES = {"comment", "string", "preamble"}
_BARE_VALUE = re.compile(r"[A-Za-z0-9_\-.:+/]+")  # a number or a macro name (``aug``)


@dataclass(frozen=True)
class SourceEntry:
    """A source's own entry that describes its paper: the text as the source gave it, its
    key (and where the key is in the text), its type and fields (lower-case names, values
    as written, LaTeX and all)."""

    text: str
    key: str
    key_span: tuple[int, int]
    kind: str
    fields: dict[str, str] = field(compare=False, hash=False)


def _scan_value(text: str, i: int) -> tuple[str, int] | None:
    """One value part at ``text[i]``: ``{…}``, ``"…"``, a number or a macro name."""
    if i >= len(text):
        return None
    ch = text[i]
    if ch in "{\"":
        depth = 0
        for j in range(i + 1, len(text)):
            c = text[j]
            if c == "{":
                depth += 1
            elif c == "}":
                if depth == 0:
                    return (text[i + 1:j], j + 1) if ch == "{" else None
                depth -= 1
            elif c == '"' and ch == '"' and depth == 0:
                return text[i + 1:j], j + 1
        return None
    m = _BARE_VALUE.match(text, i)
    return (m.group(0), m.end()) if m else None


def _parse_entry(text: str) -> tuple[str, str, tuple[int, int], dict[str, str]] | None:
    """``(type, key, key span, fields)`` when ``text`` is exactly one well-formed entry."""
    head = _HEAD.match(text)
    if head is None or head.group(1).lower() in _NOT_ENTRIES or not balanced(text):
        return None
    closer = "}" if head.group(2) == "{" else ")"
    fields: dict[str, str] = {}
    i = head.end()
    while True:
        while i < len(text) and text[i].isspace():
            i += 1
        if i < len(text) and text[i] == closer:
            return ((head.group(1).lower(), head.group(3), head.span(3), fields)
                    if not text[i + 1:].strip() else None)
        m = _FIELD_NAME.match(text, i)
        if m is None:
            return None
        i, parts = m.end(), []
        while True:
            scanned = _scan_value(text, i)
            if scanned is None:
                return None
            part, i = scanned
            parts.append(part)
            while i < len(text) and text[i].isspace():
                i += 1
            if i < len(text) and text[i] == "#":
                i += 1
                while i < len(text) and text[i].isspace():
                    i += 1
                continue
            break
        fields[m.group(1).lower()] = "".join(parts)
        if i < len(text) and text[i] == ",":
            i += 1
        elif i >= len(text) or text[i] != closer:
            return None


def _fold(text: str) -> str:
    """Letters and digits only, LaTeX commands dropped: for comparing, never for output."""
    return slug(re.sub(r"\\(?:[A-Za-z]+|.)", "", text))


def split_and(value: str) -> list[str]:
    """A BibTeX name list's names (``and`` at brace depth 0 separates them)."""
    names, depth, start = [], 0, 0
    for m in re.finditer(r"[{}]|\s+and\s+", value, re.IGNORECASE):
        token = m.group(0)
        if token == "{":
            depth += 1
        elif token == "}":
            depth -= 1
        elif depth == 0:
            names.append(value[start:m.start()])
            start = m.end()
    names.append(value[start:])
    return [n.strip() for n in names if n.strip()]


def _last_word(name: str) -> str:
    name = name.split(",")[0] if "," in name else name
    words = name.split()
    return _fold(words[-1]) if words else ""


def source_entry(paper: Paper) -> SourceEntry | None:
    """The source's own BibTeX entry when it is one well-formed entry whose title, year and
    authors' last names agree with ``paper`` (public lists sometimes attach another paper's
    entry, or the proceedings' publication year)."""
    return _source_entry(paper.bibtex, paper.title, paper.year, paper.authors)


@lru_cache(maxsize=4096)
def _source_entry(bibtex: str, title: str, year: int | None,
                  authors: tuple[str, ...]) -> SourceEntry | None:
    if not bibtex:
        return None
    parsed = _parse_entry(bibtex)
    if parsed is None:
        return None
    kind, key, span, fields = parsed
    if _fold(fields.get("title", "")) != _fold(title):
        return None
    if year is not None and re.findall(r"\d{4}", fields.get("year", ""))[:1] != [str(year)]:
        return None
    names = split_and(fields.get("author", ""))
    if [_last_word(n) for n in names] != [_last_word(a) for a in authors]:
        return None
    return SourceEntry(bibtex, key, span, kind, fields)
