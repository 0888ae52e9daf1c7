"""Plain-text paper lists: a header naming venue and year, then one abstract a paragraph.

This is the bundled NeurIPS 2026 format. Chunks of one list (``000_…``, ``003_…``) share a
header, so they land in one venue. A chunk can start mid-word; that abstract is kept and
marked ``truncated``.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

from paper_tui.errors import SourceError
from paper_tui.importers.common import NO_HINTS, FieldError, Hints, make_paper, read_text
from paper_tui.model import Paper

FORMAT = "text"
EXTENSIONS = (".txt", ".text")
_HEADER = re.compile(r"(?P<venue>[A-Za-z][A-Za-z0-9\-]*)\s*'?(?P<year>(?:19|20)\d{2})\b")
_PARAGRAPH_BREAK = re.compile(r"\n[ \t]*\n")


def sniff(head: str) -> bool:
    first, _, rest = head.partition("\n")
    return bool(_HEADER.search(first)) and len(first) < 200 and "\n\n" in "\n" + rest


def read(path: Path, source: str, hints: Hints = NO_HINTS) -> Iterator[Paper | SourceError]:
    text = read_text(path).replace("\r\n", "\n")
    header, _, body = text.partition("\n")
    m = _HEADER.search(header)
    year: int | None
    if m:
        venue, year = m.group("venue"), int(m.group("year"))
    else:
        venue, year = hints.venue_year(path)
        if not venue:
            raise SourceError(path, "first line names no venue and year "
                              "(expected a header such as 'NeurIPS 2026 paper list')", line=1)
    line = 2
    count = 0
    for paragraph in _PARAGRAPH_BREAK.split(body):
        start_line = line + (len(paragraph) - len(paragraph.lstrip("\n")))
        line += paragraph.count("\n") + 2
        abstract = " ".join(paragraph.split())
        if not abstract:
            continue
        count += 1
        if len(abstract) < 40:
            yield SourceError(path, f"paragraph too short to be an abstract: {abstract!r}",
                              line=start_line)
            continue
        # A chunk cut from a longer list may begin mid-word ("rocess Reward Models ...").
        truncated = count == 1 and abstract[0].islower()
        try:
            paper = make_paper(source=source, abstract=abstract, venue=venue, year=year,
                               truncated=truncated)
        except FieldError as exc:
            yield SourceError(path, str(exc), line=start_line)
            continue
        yield paper
    if count == 0:
        raise SourceError(path, "no abstracts after the header line")
