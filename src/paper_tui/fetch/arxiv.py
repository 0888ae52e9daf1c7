"""arXiv's API (``{arxiv_url}/api/query``): a category's newest submissions, or papers by id.

``arxiv:cs.LG`` asks ``search_query=cat:cs.LG&sortBy=submittedDate&sortOrder=descending``
page by page (``start``, ``max_results``) and stops at the first entry submitted before
``since``; ``arxiv:2401.01234,2312.00001`` asks ``id_list=``. arXiv asks for one request
every 3 s (``fetch.arxiv_delay_s``: the runner keeps that pace). The stored file is one
Atom feed that ``importers/arxiv.py`` reads; a category's feed keeps the entries of its
earlier fetches (a newer version of a paper replaces the older), so fetching a category
every morning grows one list rather than replacing yesterday's.
"""

from __future__ import annotations

import datetime
import xml.etree.ElementTree as ET
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from paper_tui.errors import FetchError
from paper_tui.fetch.listing import MAX_PAGES, Listing, Options
from paper_tui.fetch.pages import Pages
from paper_tui.fetch.spec import Spec
from paper_tui.trust import safe_xml

PAGE_SIZE = 500
ATOM = "http://www.w3.org/2005/Atom"
ARXIV = "http://arxiv.org/schemas/atom"
OPENSEARCH = "http://a9.com/-/spec/opensearch/1.1/"
_NAMESPACES = {"": ATOM, "arxiv": ARXIV, "opensearch": OPENSEARCH}


@dataclass(frozen=True)
class Page:
    total: int | None
    entries: list[ET.Element]


def fetch(spec: Spec, pages: Pages, options: Options) -> Listing:
    url = f"{options.settings.arxiv_url}/api/query"
    if spec.kind == "arxiv-ids":
        ids = spec.value.split(",")
        page = pages.get(url, {"id_list": spec.value, "max_results": len(ids)}, _page)
        if not page.entries:
            raise FetchError(spec.text, "arXiv has no paper with this id")
        return _listing(page.entries)
    entries = _since(spec, url, pages, options.since)
    if options.previous is not None:
        entries = _merged(entries, _previous(options.previous))
    if not entries:
        raise FetchError(spec.text, f"arXiv lists no submission since {options.since} "
                         "(check the category: e.g. cs.LG, math.PR, hep-th)")
    return _listing(entries)


def _since(spec: Spec, url: str, pages: Pages, since: datetime.date) -> list[ET.Element]:
    found: list[ET.Element] = []
    start = 0
    while True:
        if pages.pages >= MAX_PAGES:
            raise FetchError(spec.text, f"more than {MAX_PAGES} pages: stopped")
        page = pages.get(url, {"search_query": f"cat:{spec.value}", "sortBy": "submittedDate",
                               "sortOrder": "descending", "start": start,
                               "max_results": PAGE_SIZE}, _page)
        recent = [e for e in page.entries if (_submitted(e) or since) >= since]
        found += recent
        if pages.progress is not None:
            pages.progress(f"{spec.text} page {pages.pages}", len(found), None)
        start += len(page.entries)
        older = len(recent) < len(page.entries)
        if older or not page.entries or (page.total is not None and start >= page.total):
            if not page.entries and page.total is not None and start < page.total:
                raise FetchError(spec.text, f"the list was cut off: arXiv sent an empty page "
                                 f"at {start:,} of {page.total:,}; try again")
            return found


def _submitted(entry: ET.Element) -> datetime.date | None:
    text = (entry.findtext(f"{{{ATOM}}}published") or "").strip()
    try:
        return datetime.date.fromisoformat(text[:10])
    except ValueError:
        return None


def _page(body: bytes) -> Page:
    try:
        root = safe_xml.fromstring(body)  # a DTD refused, never expanded
    except ET.ParseError as exc:
        raise ValueError(f"the page is not Atom XML ({exc})") from None
    if root.tag != f"{{{ATOM}}}feed":
        raise ValueError("the page is not an Atom feed")
    entries = root.findall(f"{{{ATOM}}}entry")
    for entry in entries:  # the API says what it cannot do as an entry
        if "arxiv.org/api/errors" in (entry.findtext(f"{{{ATOM}}}id") or ""):
            raise FetchError("", "arXiv says: " + " ".join(
                (entry.findtext(f"{{{ATOM}}}summary") or "an error").split()))
    total_text = (root.findtext(f"{{{OPENSEARCH}}}totalResults") or "").strip()
    total = int(total_text) if total_text.isascii() and total_text.isdigit() \
        and len(total_text) <= 12 else None  # not "²", not 400 digits
    return Page(total, entries)


def _previous(path: Path) -> list[ET.Element]:
    try:
        return safe_xml.fromstring(path.read_bytes()).findall(f"{{{ATOM}}}entry")
    except (OSError, ET.ParseError, ValueError):
        return []  # gone or damaged: this fetch's entries alone


def _key(entry: ET.Element) -> str:
    """An entry's arXiv id without its version."""
    text = (entry.findtext(f"{{{ATOM}}}id") or "").strip().rsplit("/abs/", 1)[-1]
    head, _, version = text.rpartition("v")
    return head if head and version.isdigit() else text


def _merged(new: list[ET.Element], old: Iterable[ET.Element]) -> list[ET.Element]:
    seen = {_key(e) for e in new}
    return new + [e for e in old if _key(e) not in seen]


def _listing(entries: list[ET.Element]) -> Listing:
    def feed() -> bytes:
        for prefix, uri in _NAMESPACES.items():
            ET.register_namespace(prefix, uri)
        root = ET.Element(f"{{{ATOM}}}feed")
        ET.SubElement(root, f"{{{ATOM}}}title").text = "arXiv API results fetched by paper-tui"
        root.extend(entries)
        return ET.tostring(root, encoding="utf-8", xml_declaration=True)

    return Listing(feed, len(entries))
