"""CSL-JSON, the citation data of Zotero / Better BibTeX, pandoc and manubot: an array of
items (one item alone too) with ``author`` (``family`` / ``given`` or ``literal``),
``issued.date-parts``, ``container-title``, ``DOI``, ``URL``, ``abstract`` (and the pdf
link and what the venue said, which paper-tui's own export keeps in ``custom``)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

from paper_tui.errors import SourceError
from paper_tui.importers import fields
from paper_tui.importers.common import NO_HINTS, FieldError, Hints, make_paper, read_json
from paper_tui.model import Paper
from paper_tui.venue import signals as venue_signals
from paper_tui.venue.names import proceedings

FORMAT = "csl-json"
EXTENSIONS = (".json", ".csljson")
_CUES = ('"issued"', '"container-title"', '"family"', '"literal"', '"date-parts"')
_NAME_PARTS = ("given", "dropping-particle", "non-dropping-particle", "family", "suffix")


def sniff(head: str) -> bool:
    return head.lstrip()[:1] in "[{" and '"type"' in head and any(c in head for c in _CUES)


def name(person: Any) -> str:
    """``{"family": "Doe", "given": "John"}`` -> ``John Doe``; ``literal`` as it is."""
    if isinstance(person, str):
        return fields.text(person, "author").strip()
    if not isinstance(person, dict):
        raise FieldError("author holds an entry that is neither a name nor a name object")
    literal = fields.text(person.get("literal"), "author literal")
    if literal:
        return literal.strip()
    parts = (fields.text(person.get(key), f"author {key}") for key in _NAME_PARTS)
    return " ".join(p.strip() for p in parts if p.strip())


def issued_year(item: dict) -> int | None:
    issued = item.get("issued")
    if isinstance(issued, dict):
        parts = issued.get("date-parts")
        if isinstance(parts, list) and parts and isinstance(parts[0], list) and parts[0]:
            return fields.year(parts[0][0], "issued")
        return fields.year(issued.get("raw") or issued.get("literal"), "issued")
    return fields.year(issued, "issued")


def _venue(item: dict) -> str:
    """``container-title``, or its short form when the title is exactly the proceedings
    title of that venue (paper-tui's own export: the paper keeps its venue, and its id)."""
    venue = fields.text(*fields.pick(item, "container-title", "event"))
    short = fields.text(item.get("container-title-short"), "container-title-short")
    return short if short and venue and proceedings(short) == venue else venue


def item_to_paper(item: dict, source: str, hints: Hints) -> Paper:
    """A paper from one item (:class:`FieldError` for a field of a type that means
    nothing here)."""
    authors = item.get("author")
    if authors is not None and not isinstance(authors, list):
        raise FieldError("author is not a list of names")
    url = fields.text(item.get("URL"), "URL")
    doi = fields.text(item.get("DOI"), "DOI")
    if doi and not url:
        url = "https://doi.org/" + doi
    custom = item.get("custom")
    if not isinstance(custom, dict):
        custom = {}
    return make_paper(
        source=source, title=fields.text(item.get("title"), "title"),
        abstract=fields.text(item.get("abstract"), "abstract"),
        authors=[n for n in map(name, authors or ()) if n],
        venue=_venue(item) or hints.venue,
        year=issued_year(item) or hints.year, url=url,
        pdf=fields.text(custom.get("pdf"), "custom pdf"),
        keywords=fields.words(item.get("keyword"), "keyword"),
        signals=venue_signals.from_record(custom, venue_signals.today()) if custom
        else venue_signals.NO_SIGNALS,
    )


def read(path: Path, source: str, hints: Hints = NO_HINTS) -> Iterator[Paper | SourceError]:
    data = read_json(path)
    items = [data] if isinstance(data, dict) else data
    if not isinstance(items, list):
        raise SourceError(path, "expected CSL-JSON: an array of items")
    for number, item in enumerate(items, 1):
        if not isinstance(item, dict):
            yield SourceError(path, "not a CSL-JSON item (a JSON object)", record=number)
            continue
        try:
            if not (fields.text(item.get("title"), "title").strip()
                    or fields.text(item.get("abstract"), "abstract").strip()):
                yield SourceError(path, f"item {fields.text(item.get('id'), 'id')!r} has "
                                  "neither title nor abstract", record=number)
                continue
            paper = item_to_paper(item, source, hints)
        except FieldError as exc:
            yield SourceError(path, str(exc), record=number)
            continue
        yield paper
