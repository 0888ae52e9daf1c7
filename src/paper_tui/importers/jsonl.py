"""JSON Lines with our own field names (``title``, ``authors``, ``abstract``, ``venue`` …,
the :class:`~paper_tui.model.Paper` field names; paperlists' names are read too). What the
venue says is read by :func:`paper_tui.venue.signals.from_record`."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

from paper_tui.errors import SkippedRecord, SourceError
from paper_tui.importers import fields
from paper_tui.importers.common import (
    NO_HINTS,
    FieldError,
    Hints,
    load_json,
    make_paper,
    read_lines,
)
from paper_tui.model import Paper
from paper_tui.venue import signals as venue_signals

FORMAT = "jsonl"
EXTENSIONS = (".jsonl", ".ndjson")


def sniff(head: str) -> bool:
    first = head.lstrip().split("\n", 1)[0].strip()
    return first.startswith("{") and first.endswith("}")


def record_to_paper(record: dict, source: str, hints: Hints, today: str = "") -> Paper:
    """A paper from one record (:class:`FieldError` for a field of a type that means
    nothing here); ``today`` dates its citation count."""
    return make_paper(
        source=source,
        title=fields.text(record.get("title"), "title"),
        abstract=fields.text(record.get("abstract"), "abstract"),
        authors=fields.names(*fields.pick(record, "authors", "author")),
        venue=fields.text(record.get("venue"), "venue") or hints.venue,
        year=fields.year(record.get("year"), "year") or hints.year,
        url=fields.text(*fields.pick(record, "url", "site")),
        pdf=fields.text(record.get("pdf"), "pdf"),
        keywords=fields.words(record.get("keywords"), "keywords"),
        bibtex=fields.text(record.get("bibtex"), "bibtex"),
        tldr=fields.text(record.get("tldr"), "tldr"),
        track=fields.text(record.get("track"), "track"),
        signals=venue_signals.from_record(record, today),
    )


def read(path: Path, source: str, hints: Hints = NO_HINTS) -> Iterator[Paper | SourceError]:
    today = venue_signals.today()
    # Split on \n only: records may hold U+2028/U+2029/U+0085, which str.splitlines() splits.
    lines = read_lines(path)
    read_any = False
    try:
        for number, raw in lines:
            read_any = True
            yield _record(path, number, raw, source, hints, today)
    except SourceError as exc:  # cut short or damaged: the lines before it are imported
        if not read_any:
            raise
        yield exc


def _record(path: Path, number: int, raw: bytes, source: str, hints: Hints, today: str
            ) -> Paper | SourceError:
    try:
        record = load_json(raw)
    except UnicodeDecodeError:
        return SourceError(path, "not UTF-8 text", line=number)
    except json.JSONDecodeError as exc:
        return SourceError(path, f"invalid JSON: {exc.msg}", line=number)
    except ValueError as exc:
        return SourceError(path, f"invalid JSON: {exc}", line=number)
    if not isinstance(record, dict):
        return SourceError(path, "not a JSON object", line=number)
    try:
        if not any(fields.text(record.get(key), key).strip() for key in ("title", "abstract")):
            return SkippedRecord(path, "no title and no abstract", line=number)
        return record_to_paper(record, source, hints, today)
    except FieldError as exc:
        return SourceError(path, str(exc), line=number)
