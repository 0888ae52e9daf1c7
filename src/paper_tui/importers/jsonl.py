"""JSON Lines with our own field names (``title``, ``authors``, ``abstract``, ``venue`` …)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

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
        if not str(record.get("abstract") or "").strip():
            yield SkippedRecord(path, "no abstract", line=number)
            continue
        yield make_paper(
            source=source,
            title=str(record.get("title") or ""),
            abstract=str(record["abstract"]),
            authors=split_authors(record.get("authors") or record.get("author")),
            venue=str(record.get("venue") or hints.venue),
            year=parse_year(record.get("year")) or hints.year,
            url=str(record.get("url") or ""),
            pdf=str(record.get("pdf") or ""),
            keywords=split_keywords(record.get("keywords")),
            bibtex=str(record.get("bibtex") or ""),
            tldr=str(record.get("tldr") or ""),
            track=str(record.get("track") or ""),
            decision=str(record.get("status") or record.get("decision") or ""),
        )
