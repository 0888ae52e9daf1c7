"""The public "paperlists" JSON format: a JSON array of conference paper objects.

Venue and year come from the file name (``nips2018.json``) unless the record says
otherwise. Its ``id`` may be missing or repeated, so ids are derived from content. Every
record is a paper, with or without an abstract. What the venue says (``status``, ``rating``
/ ``rating_avg``, ``primary_area``, ``award``, ``gs_citation``, ``github``, ``project``,
``aff``, ``aff_country_unique``) is read by :func:`paper_tui.venue_signals.from_record`.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from paper_tui import venue_signals
from paper_tui.errors import SourceError
from paper_tui.importers.common import (
    NO_HINTS,
    Hints,
    make_paper,
    parse_year,
    read_json,
    split_authors,
    split_keywords,
)
from paper_tui.model import Paper

FORMAT = "paperlists"
EXTENSIONS = (".json",)


def sniff(head: str) -> bool:
    return head.lstrip().startswith("[")


def record_to_paper(record: dict, source: str, venue: str, year: int | None,
                    today: str = "") -> Paper:
    """One record as a paper; ``today`` dates its citation count."""
    return make_paper(
        source=source,
        title=str(record.get("title") or ""),
        abstract=str(record.get("abstract") or ""),
        authors=split_authors(record.get("author") or record.get("authors")),
        venue=str(record.get("venue") or venue),
        year=parse_year(record.get("year")) or year,
        url=str(record.get("site") or record.get("url") or ""),
        pdf=str(record.get("pdf") or ""),
        keywords=split_keywords(record.get("keywords")),
        bibtex=str(record.get("bibtex") or ""),
        tldr=str(record.get("tldr") or ""),
        track=str(record.get("track") or ""),
        signals=venue_signals.from_record(record, today),
    )


def read(path: Path, source: str, hints: Hints = NO_HINTS) -> Iterator[Paper | SourceError]:
    records = read_json(path)
    if not isinstance(records, list):
        raise SourceError(path, "expected a JSON array of paper objects")
    venue, year = hints.venue_year(path)
    today = venue_signals.today()
    for number, record in enumerate(records, 1):
        if not isinstance(record, dict):
            yield SourceError(path, "not a JSON object", record=number)
            continue
        if not any(str(record.get(key) or "").strip() for key in ("title", "abstract")):
            yield SourceError(path, "record has neither title nor abstract", record=number)
            continue
        yield record_to_paper(record, source, venue, year, today)
