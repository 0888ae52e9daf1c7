"""CSV with a header row naming the fields (``title``, ``abstract``, ``authors`` …: the
:class:`~paper_tui.model.Paper` field names, a few common aliases and paperlists' names).
What the venue says is read by :func:`paper_tui.venue.signals.from_record`."""

from __future__ import annotations

import csv
import io
from collections.abc import Iterator
from pathlib import Path

from paper_tui.errors import SourceError
from paper_tui.importers.common import (
    NO_HINTS,
    FieldError,
    Hints,
    make_paper,
    parse_year,
    read_text,
    split_authors,
    split_keywords,
)
from paper_tui.model import Paper
from paper_tui.venue import signals as venue_signals

FORMAT = "csv"
EXTENSIONS = (".csv", ".tsv")
_ALIASES = {"author": "authors", "summary": "abstract", "link": "url", "site": "url",
            "booktitle": "venue", "conference": "venue"}


def sniff(head: str) -> bool:
    first = head.split("\n", 1)[0].lower()
    return ("abstract" in first or "title" in first) and ("," in first or "\t" in first)


def read(path: Path, source: str, hints: Hints = NO_HINTS) -> Iterator[Paper | SourceError]:
    text = read_text(path)
    dialect = "excel-tab" if path.name.endswith((".tsv", ".tsv.gz")) else "excel"
    # newline="": rows end at \r\n, \n or a lone \r (old Mac files), and a quoted cell
    # keeps its own line breaks, as the csv module expects.
    reader = csv.DictReader(io.StringIO(text, newline=""), dialect=dialect)
    try:
        names = reader.fieldnames or []
    except csv.Error as exc:
        raise SourceError(path, f"malformed CSV header: {exc}", line=1) from None
    header = [(_ALIASES.get(h.strip().lower(), h.strip().lower()) if h else "") for h in names]
    if "abstract" not in header and "title" not in header:
        raise SourceError(path, "header row names neither 'title' nor 'abstract'", line=1)
    venue, year = hints.venue_year(path)
    today = venue_signals.today()
    rows = iter(reader)
    while True:
        line = reader.line_num + 1
        try:
            row = next(rows)
        except StopIteration:
            return
        except csv.Error as exc:  # a NUL, a cell past the csv module's size limit, …
            yield SourceError(path, f"malformed CSV: {exc}", line=line)
            continue
        record = {header[i]: v for i, v in enumerate(row.values()) if i < len(header)
                  and isinstance(v, str)}
        if not any((record.get(k) or "").strip() for k in ("abstract", "title")):
            yield SourceError(path, "row has neither title nor abstract", line=reader.line_num)
            continue
        try:
            paper = record_to_paper(record, source, venue, year, today)
        except FieldError as exc:
            yield SourceError(path, str(exc), line=reader.line_num)
            continue
        yield paper


def record_to_paper(record: dict[str, str], source: str, venue: str, year: int | None,
                    today: str = "") -> Paper:
    """One row as a paper; ``today`` dates its citation count."""
    return make_paper(
        source=source, title=record.get("title", ""), abstract=record.get("abstract", ""),
        authors=split_authors(record.get("authors")), venue=record.get("venue") or venue,
        year=parse_year(record.get("year")) or year, url=record.get("url", ""),
        pdf=record.get("pdf", ""), keywords=split_keywords(record.get("keywords")),
        bibtex=record.get("bibtex", ""), tldr=record.get("tldr", ""),
        track=record.get("track", ""), signals=venue_signals.from_record(record, today),
    )
