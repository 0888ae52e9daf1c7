"""BibTeX files, through bibtexparser. The entry itself is kept as the paper's ``bibtex``.

Names are read as BibTeX reads them: split at a top-level ``and`` (not one in braces),
``Last, First`` and ``Last, Jr, First`` turned round, LaTeX resolved (``M{\\"u}ller, J{\\"o}rg``
-> ``Jörg Müller``); ``and others`` is dropped. The title keeps its LaTeX for the display
text to resolve (``\\emph{x}`` italic, ``{\\"U}ber`` Über, math as math). A ``booktitle``
that is a known venue's proceedings title names that venue (``NeurIPS``).

A paper's id is still derived from the entry as paper-tui read it before it read names and
LaTeX this way (braces dropped, names as written, the booktitle as venue), so a library
that imported a ``.bib`` file keeps its ids, and the annotations on them, on re-import.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import bibtexparser
from bibtexparser.bibdatabase import BibDatabase
from bibtexparser.bparser import BibTexParser
from bibtexparser.bwriter import BibTexWriter

from paper_tui import display
from paper_tui.errors import SourceError
from paper_tui.importers.common import (
    NO_HINTS,
    FieldError,
    Hints,
    make_paper,
    parse_year,
    read_text,
    split_keywords,
)
from paper_tui.model import Paper, make_id
from paper_tui.venue.names import display_venue, from_proceedings

FORMAT = "bibtex"
EXTENSIONS = (".bib", ".bibtex")


def sniff(head: str) -> bool:
    return head.lstrip().startswith("@")


def _entry_text(entry: dict) -> str:
    db = BibDatabase()
    db.entries = [entry]
    writer = BibTexWriter()
    writer.indent = "  "
    return writer.write(db).strip()


_AND = re.compile(r"\s+and\s+")
_COMMA = re.compile(r",\s*")


def _top_level(text: str, separator: re.Pattern[str]) -> list[str]:
    """``text`` split where ``separator`` matches outside braces."""
    parts, start, depth, at = [], 0, 0, 0
    while at < len(text):
        ch = text[at]
        if ch == "\\":
            at += 2
            continue
        if ch == "{":
            depth += 1
        elif ch == "}":
            depth = max(0, depth - 1)
        elif depth == 0 and (m := separator.match(text, at)):
            parts.append(text[start:at])
            start = at = m.end()
            continue
        at += 1
    parts.append(text[start:])
    return parts


def _name(raw: str) -> str:
    """One BibTeX name as it is written in prose: ``de la Fuente, Ana`` -> ``Ana de la
    Fuente``, ``Smith, Jr., John`` -> ``John Smith Jr.``."""
    parts = [display.plain(part).strip() for part in _top_level(raw, _COMMA)]
    if len(parts) == 2:
        parts = [parts[1], parts[0]]
    elif len(parts) == 3:
        parts = [parts[2], parts[0], parts[1]]
    return " ".join(" ".join(p for p in parts if p).split())


def _authors(raw: str) -> tuple[str, ...]:
    names = _top_level(" ".join(raw.split()), _AND)
    return tuple(name for name in map(_name, names) if name and name != "others")


def read(path: Path, source: str, hints: Hints = NO_HINTS) -> Iterator[Paper | SourceError]:
    text = read_text(path)
    parser = BibTexParser(common_strings=True, ignore_nonstandard_types=False)
    try:
        db = bibtexparser.loads(text, parser=parser)
    except Exception as exc:  # bibtexparser raises pyparsing errors of many kinds
        raise SourceError(path, f"invalid BibTeX: {exc}") from None
    if not db.entries:
        raise SourceError(path, "no BibTeX entries found")
    for number, entry in enumerate(db.entries, 1):
        key = entry.get("ID", f"#{number}")
        title = entry.get("title", "")
        abstract = entry.get("abstract", "")
        if not abstract.strip() and not title.strip():
            yield SourceError(path, f"entry {key!r} has neither title nor abstract",
                              record=number)
            continue
        url = entry.get("url", "")
        if not url and entry.get("doi"):
            url = "https://doi.org/" + entry["doi"]
        venue = entry.get("booktitle") or entry.get("journal") or hints.venue
        year = parse_year(entry.get("year")) or hints.year
        try:
            paper = make_paper(
                source=source, title=title, abstract=abstract,
                authors=_authors(entry.get("author", "")),
                venue=from_proceedings(display.plain(venue)), year=year, url=url,
                pdf=entry.get("pdf", ""), keywords=split_keywords(entry.get("keywords")),
                bibtex=_entry_text(entry), paper_id=_first_id(entry, venue, year, abstract),
            )
        except FieldError as exc:
            yield SourceError(path, f"entry {key!r}: {exc}", record=number)
            continue
        yield paper


def _first_id(entry: dict, venue: str, year: int | None, abstract: str) -> str:
    """The id paper-tui has always given this entry (see the module's docstring)."""
    title = " ".join(entry.get("title", "").replace("{", "").replace("}", "").split())
    authors = tuple(a.strip() for a in entry.get("author", "").replace("\n", " ")
                    .split(" and ") if a.strip())
    return make_id(display_venue(venue) if venue else "", year, title, authors,
                   abstract.strip())
