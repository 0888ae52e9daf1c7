"""CSV with a header row naming the fields (``title``, ``abstract``, ``authors`` …: the
:class:`~paper_tui.model.Paper` field names, a few common aliases and paperlists' names).
What the venue says is read by :func:`paper_tui.venue_signals.from_record`."""

from __future__ import annotations

import csv
import io
from collections.abc import Iterator
from pathlib import Path

from paper_tui import venue_signals
from paper_tui.errors import SourceError
from paper_tui.importers.common import (
    NO_HINTS,
    Hints,
    make_paper,
    parse_year,
    read_text,
    split_authors,
    split_keywords,
)
from paper_tui.model import Paper

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
    reader = csv.DictReader(io.StringIO(text), dialect=dialect)
    header = [(_ALIASES.get(h.strip().lower(), h.strip().lower()) if h else "")
              for h in (reader.fieldnames or [])]
    if "abstract" not in header and "title" not in header:
        raise SourceError(path, "header row names neither 'title' nor 'abstract'", line=1)
    venue, year = hints.venue_year(path)
    today = venue_signals.today()
    try:
        for row in reader:
            record = {header[i]: v for i, v in enumerate(row.values()) if i < len(header)
                      and isinstance(v, str)}
            line = reader.line_num
            if not any((record.get(k) or "").strip() for k in ("abstract", "title")):
                yield SourceError(path, "row has neither title nor abstract", line=line)
                continue
            yield make_paper(
                source=source, title=record.get("title", ""), abstract=record.get("abstract", ""),
                authors=split_authors(record.get("authors")), venue=record.get("venue") or venue,
                year=parse_year(record.get("year")) or year, url=record.get("url", ""),
                pdf=record.get("pdf", ""), keywords=split_keywords(record.get("keywords")),
                bibtex=record.get("bibtex", ""), tldr=record.get("tldr", ""),
                track=record.get("track", ""),
                signals=venue_signals.from_record(record, today),
            )
    except csv.Error as exc:
        raise SourceError(path, f"malformed CSV: {exc}", line=reader.line_num) from None
