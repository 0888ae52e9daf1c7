"""A paper as one CSL-JSON item: what every CSL style renders, and what the CSL-JSON export
writes, built once so that BibTeX, the CSL styles and the exports agree.

They agree on the names (split as the BibTeX ``author`` field splits them: particles as
``non-dropping-particle``, suffixes as ``suffix``, a one-word name as a ``literal``), the
venue (the proceedings or journal title a BibTeX ``booktitle``/``journal`` names, the short
name as ``container-title-short``), the year, and the pages, volume, publisher and DOI when
the source's own BibTeX entry says them (``bibtex`` reads them from it too). A paper
without authors gets none: styles put the title first, never an invented "Anonymous".
"""

from __future__ import annotations

import re
from typing import Any

from paper_tui import display
from paper_tui.citations.bibtex import container
from paper_tui.citations.names import author_names, split_name
from paper_tui.citations.source_entry import SourceEntry, source_entry
from paper_tui.model import Paper
from paper_tui.venue.fields import EXPORT_ORDER
from paper_tui.venue.names import display_venue

PREPRINT_VENUES = {"arxiv", "corr"}
_DOI = re.compile(r"^https?://(?:dx\.)?doi\.org/(10\..+)$", re.IGNORECASE)
_ENTRY_TYPES = {"article": "article-journal", "inproceedings": "paper-conference",
                "conference": "paper-conference", "incollection": "chapter", "book": "book",
                "phdthesis": "thesis", "mastersthesis": "thesis", "techreport": "report"}
"""The source entry's type -> the CSL type (others: as the venue says)."""
RENDERED_ONLY = ("abstract", "keyword", "custom")
"""Fields the export keeps and no style prints (left out when rendering)."""

SIGNALS_IN_CUSTOM = EXPORT_ORDER
"""What the venue said (every field of :mod:`paper_tui.venue.fields`), kept in ``custom``
(read back by the CSL-JSON importer)."""


def title_of(paper: Paper) -> str:
    """The title as a reader sees it (LaTeX and Markdown resolved)."""
    return paper.display_title or display.plain(paper.title)


def doi_of(url: str) -> str:
    """The DOI in a ``https://doi.org/…`` link; empty for any other link."""
    m = _DOI.match(url)
    return m.group(1) if m else ""


def is_preprint(paper: Paper) -> bool:
    return paper.venue.lower() in PREPRINT_VENUES


def csl_names(paper: Paper) -> list[dict[str, str]]:
    """The authors as CSL name objects."""
    names: list[dict[str, str]] = []
    for author in author_names(display.plain(a) for a in paper.authors):
        name = split_name(author)
        if not name.first:
            names.append({"literal": " ".join(p for p in (name.last, name.jr) if p)})
            continue
        person = {"family": name.last, "given": name.first}
        if name.von:
            person["non-dropping-particle"] = name.von
        if name.jr:
            person["suffix"] = name.jr
        names.append(person)
    return names


def _entry_value(entry: SourceEntry, name: str) -> str:
    """A field of the source's entry as text (LaTeX resolved), empty when absent."""
    return " ".join(display.plain(entry.fields.get(name, "")).split())


def _kind(paper: Paper, entry: SourceEntry | None) -> str:
    if entry is not None and entry.kind in _ENTRY_TYPES:
        return _ENTRY_TYPES[entry.kind]
    if is_preprint(paper) or not paper.venue:
        return "article"
    return "article-journal" if container(paper)[1] else "paper-conference"


def csl_item(paper: Paper, key: str) -> dict[str, Any]:
    """One CSL-JSON item keyed ``key``; ``custom`` keeps the pdf link, the paper's id and
    what the venue said of it (those known) for a round trip (CSL has no variables for
    them; processors ignore ``custom``)."""
    entry = source_entry(paper)
    item: dict[str, Any] = {"id": key, "type": _kind(paper, entry), "title": title_of(paper)}
    if authors := csl_names(paper):
        item["author"] = authors
    if paper.year:
        item["issued"] = {"date-parts": [[paper.year]]}
    venue_name = container(paper)[0]
    if entry is not None:
        venue_name = (_entry_value(entry, "booktitle") or _entry_value(entry, "journal")
                      or venue_name)
    if venue_name:
        item["container-title"] = venue_name
        short = display_venue(paper.venue) if paper.venue else ""
        if short and short != venue_name:
            item["container-title-short"] = short
    if entry is not None:
        pages = _entry_value(entry, "pages").replace("--", "-")
        for field, value in (("page", pages), ("volume", _entry_value(entry, "volume")),
                             ("publisher", _entry_value(entry, "publisher"))):
            if value:
                item[field] = value
    if paper.url:
        item["URL"] = paper.url
    doi = doi_of(paper.url) or (_entry_value(entry, "doi") if entry is not None else "")
    if doi:
        item["DOI"] = doi
    if paper.abstract:
        item["abstract"] = paper.display_abstract or paper.abstract
    if paper.keywords:
        item["keyword"] = ", ".join(paper.keywords)
    signals = paper.to_record()
    item["custom"] = {"paper-tui-id": paper.id, **({"pdf": paper.pdf} if paper.pdf else {}),
                      **{k: signals[k] for k in SIGNALS_IN_CUSTOM if k in signals}}
    return item
