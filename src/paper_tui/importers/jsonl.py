"""JSON Lines with our own field names (``title``, ``authors``, ``abstract``, ``venue`` …,
the :class:`~paper_tui.model.Paper` field names; paperlists' names are read too). What the
venue says is read by :func:`paper_tui.venue_signals.from_record`."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

from paper_tui import venue_signals
from paper_tui.errors import SkippedRecord, SourceError
from paper_tui.importers.common import (
    NO_HINTS,
    Hints,
    make_paper,
    parse_year,
    read_lines,
    split_authors,
    split_keywords,
)
from paper_tui.model import Paper

FORMAT = "jsonl"
EXTENSIONS = (".jsonl", ".ndjson")


def sniff(head: str) -> bool:
    first = head.lstrip().split("\n", 1)[0].strip()
    return first.startswith("{") and first.endswith("}")


def read(path: Path, source: str, hints: Hints = NO_HINTS) -> Iterator[Paper | SourceError]:
    today = venue_signals.today()
    # Split on \n only: records may hold U+2028/U+2029/U+0085, which str.splitlines() splits.
    for number, raw in read_lines(path):
        try:
            record = json.loads(raw)
        except UnicodeDecodeError:
            yield SourceError(path, "not UTF-8 text", line=number)
            continue
        except json.JSONDecodeError as exc:
            yield SourceError(path, f"invalid JSON: {exc.msg}", line=number)
            continue
        if not isinstance(record, dict):
            yield SourceError(path, "not a JSON object", line=number)
            continue
        if not any(str(record.get(key) or "").strip() for key in ("title", "abstract")):
            yield SkippedRecord(path, "no title and no abstract", line=number)
            continue
        yield make_paper(
            source=source,
            title=str(record.get("title") or ""),
            abstract=str(record.get("abstract") or ""),
            authors=split_authors(record.get("authors") or record.get("author")),
            venue=str(record.get("venue") or hints.venue),
            year=parse_year(record.get("year")) or hints.year,
            url=str(record.get("url") or record.get("site") or ""),
            pdf=str(record.get("pdf") or ""),
            keywords=split_keywords(record.get("keywords")),
            bibtex=str(record.get("bibtex") or ""),
            tldr=str(record.get("tldr") or ""),
            track=str(record.get("track") or ""),
            signals=venue_signals.from_record(record, today),
        )
