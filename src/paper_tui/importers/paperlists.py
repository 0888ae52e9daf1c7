"""The public "paperlists" JSON format: a JSON array of conference paper objects (or the
same array as YAML: ``paper-tui export -f yaml`` and ``-f json`` write it, so either export
imports again, with the same paper ids).

Venue and year come from the file name (``nips2018.json``) unless the record says
otherwise. Its ``id`` may be missing or repeated, so ids are derived from content. Every
record is a paper, with or without an abstract. What the venue says (``status``, ``rating``
/ ``rating_avg``, ``primary_area``, ``award``, ``gs_citation``, ``github``, ``project``,
``aff``, ``aff_country_unique``) is read by :func:`paper_tui.venue.signals.from_record`.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from paper_tui.errors import SourceError
from paper_tui.importers import fields
from paper_tui.importers.common import (
    NO_HINTS,
    FieldError,
    Hints,
    bare_suffix,
    make_paper,
    read_json,
)
from paper_tui.importers.yaml_list import read_yaml
from paper_tui.model import Paper
from paper_tui.venue import signals as venue_signals

FORMAT = "paperlists"
EXTENSIONS = (".json", ".yaml", ".yml")


def sniff(head: str) -> bool:
    return head.lstrip().startswith("[")


def record_to_paper(record: dict, source: str, venue: str, year: int | None,
                    today: str = "") -> Paper:
    """A paper from one record (:class:`FieldError` for a field of a type that means
    nothing here); ``today`` dates its citation count."""
    title = fields.text(record.get("title"), "title")
    abstract = fields.text(record.get("abstract"), "abstract")
    if record.get("title_generated") is True and abstract.strip():  # our export's: a
        title = ""  # title derived from the abstract is derived again, keeping the id
    return make_paper(
        source=source,
        title=title,
        abstract=abstract,
        authors=fields.names(*fields.pick(record, "author", "authors")),
        venue=fields.text(record.get("venue"), "venue") or venue,
        year=fields.year(record.get("year"), "year") or year,
        url=fields.text(*fields.pick(record, "site", "url")),
        pdf=fields.text(record.get("pdf"), "pdf"),
        keywords=fields.words(record.get("keywords"), "keywords"),
        bibtex=fields.text(record.get("bibtex"), "bibtex"),
        tldr=fields.text(record.get("tldr"), "tldr"),
        track=fields.text(record.get("track"), "track"),
        signals=venue_signals.from_record(record, today),
    )


def read(path: Path, source: str, hints: Hints = NO_HINTS) -> Iterator[Paper | SourceError]:
    as_yaml = bare_suffix(path) in (".yaml", ".yml")
    records = read_yaml(path) if as_yaml else read_json(path)
    whole, one = ("a YAML list of paper records", "a mapping") if as_yaml else \
        ("a JSON array of paper objects", "a JSON object")
    if not isinstance(records, list):
        raise SourceError(path, f"expected {whole}")
    venue, year = hints.venue_year(path)
    today = venue_signals.today()
    for number, record in enumerate(records, 1):
        if not isinstance(record, dict):
            yield SourceError(path, f"not {one}", record=number)
            continue
        try:
            if not any(fields.text(record.get(key), key).strip() for key in ("title", "abstract")):
                yield SourceError(path, "record has neither title nor abstract", record=number)
                continue
            paper = record_to_paper(record, source, venue, year, today)
        except FieldError as exc:
            yield SourceError(path, str(exc), record=number)
            continue
        yield paper
