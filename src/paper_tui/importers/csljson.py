"""CSL-JSON, the citation data of Zotero / Better BibTeX, pandoc and manubot: an array of
items (one item alone too) with ``author`` (``family`` / ``given`` or ``literal``),
``issued.date-parts``, ``container-title``, ``DOI``, ``URL``, ``abstract`` (and the pdf
link paper-tui's own export keeps in ``custom``)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

from paper_tui.errors import SourceError
from paper_tui.importers.common import (
    NO_HINTS,
    Hints,
    make_paper,
    parse_year,
    read_json,
    split_keywords,
)
from paper_tui.model import Paper
from paper_tui.venues import proceedings

FORMAT = "csl-json"
EXTENSIONS = (".json", ".csljson")
_CUES = ('"issued"', '"container-title"', '"family"', '"literal"', '"date-parts"')


def sniff(head: str) -> bool:
    return head.lstrip()[:1] in "[{" and '"type"' in head and any(c in head for c in _CUES)


def name(person: Any) -> str:
    """``{"family": "Doe", "given": "John"}`` -> ``John Doe``; ``literal`` as it is."""
    if isinstance(person, str):
        return person.strip()
    if not isinstance(person, dict):
        return ""
    if person.get("literal"):
        return str(person["literal"]).strip()
    parts = (person.get("given"), person.get("dropping-particle"),
             person.get("non-dropping-particle"), person.get("family"),
             person.get("suffix"))
    return " ".join(str(p).strip() for p in parts if p and str(p).strip())


def issued_year(item: dict) -> int | None:
    issued = item.get("issued")
    if isinstance(issued, dict):
        parts = issued.get("date-parts")
        if isinstance(parts, list) and parts and isinstance(parts[0], list) and parts[0]:
            return parse_year(parts[0][0])
        return parse_year(issued.get("raw") or issued.get("literal"))
    return parse_year(issued)


def _venue(item: dict) -> str:
    """``container-title``, or its short form when the title is exactly the proceedings
    title of that venue (paper-tui's own export: the paper keeps its venue, and its id)."""
    venue = str(item.get("container-title") or item.get("event") or "")
    short = str(item.get("container-title-short") or "")
    return short if short and venue and proceedings(short) == venue else venue


def item_to_paper(item: dict, source: str, hints: Hints) -> Paper:
    listed = item.get("author")
    authors: list[Any] = listed if isinstance(listed, list) else []
    url = str(item.get("URL") or "")
    doi = str(item.get("DOI") or "")
    if doi and not url:
        url = "https://doi.org/" + doi
    keyword = item.get("keyword")
    given = item.get("custom")
    custom: dict[str, Any] = given if isinstance(given, dict) else {}
    return make_paper(
        source=source, title=str(item.get("title") or ""),
        abstract=str(item.get("abstract") or ""),
        authors=[n for n in map(name, authors) if n],
        venue=_venue(item) or hints.venue,
        year=issued_year(item) or hints.year, url=url, pdf=str(custom.get("pdf") or ""),
        keywords=split_keywords(keyword if isinstance(keyword, str | list) else None),
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
        if not (str(item.get("title") or "").strip() or str(item.get("abstract") or "").strip()):
            yield SourceError(path, f"item {item.get('id', '')!r} has neither title nor "
                              "abstract", record=number)
            continue
        yield item_to_paper(item, source, hints)
