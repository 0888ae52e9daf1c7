"""BibTeX files, through bibtexparser. The entry itself is kept as the paper's ``bibtex``."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import bibtexparser
from bibtexparser.bibdatabase import BibDatabase
from bibtexparser.bparser import BibTexParser
from bibtexparser.bwriter import BibTexWriter

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
from paper_tui.model import Paper

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
        title = entry.get("title", "").replace("{", "").replace("}", "")
        abstract = entry.get("abstract", "")
        if not abstract.strip() and not title.strip():
            yield SourceError(path, f"entry {key!r} has neither title nor abstract",
                              record=number)
            continue
        authors = tuple(a.strip() for a in entry.get("author", "").replace("\n", " ")
                        .split(" and ") if a.strip())
        url = entry.get("url", "")
        if not url and entry.get("doi"):
            url = "https://doi.org/" + entry["doi"]
        try:
            paper = make_paper(
                source=source, title=title, abstract=abstract, authors=authors,
                venue=entry.get("booktitle") or entry.get("journal") or hints.venue,
                year=parse_year(entry.get("year")) or hints.year, url=url,
                pdf=entry.get("pdf", ""), keywords=split_keywords(entry.get("keywords")),
                bibtex=_entry_text(entry),
            )
        except FieldError as exc:
            yield SourceError(path, f"entry {key!r}: {exc}", record=number)
            continue
        yield paper
