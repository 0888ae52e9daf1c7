"""DBLP's search API: every record of a volume's table of contents,
``GET {dblp_url}/search/publ/api?q=toc:db/conf/nips/neurips2024.bht:&format=json&h=1000&f=``,
paged by ``f`` (the first hit) until the ``@total`` the first page gives.

``dblp:conf/nips/neurips2024`` names the volume as DBLP does (its page is
``dblp.org/db/conf/nips/neurips2024.html``); ``dblp:conf/iclr/2024`` is read as
``conf/iclr/iclr2024`` (see :func:`paper_tui.fetch.spec.dblp_key`). The volume's front
matter (type ``Editorship``) is left out. DBLP has no abstracts: the stored file is JSON
Lines with our field names (title, authors, venue, year, url), which search and naming
use as they use DBLP's XML.
"""

from __future__ import annotations

import json
import re
from typing import Any

from paper_tui.errors import FetchError
from paper_tui.fetch.listing import MAX_PAGES, Listing, Options, json_page
from paper_tui.fetch.pages import Pages
from paper_tui.fetch.spec import Spec, dblp_toc

HITS = 1000
"""Hits per page: the most DBLP's API gives."""
_LEFT_OUT = ("Editorship",)


def fetch(spec: Spec, pages: Pages, options: Options) -> Listing:
    url = f"{options.settings.dblp_url}/search/publ/api"
    records: list[dict[str, Any]] = []
    first, total = 0, None
    while total is None or first < total:
        if pages.pages >= MAX_PAGES:
            raise FetchError(spec.text, f"more than {MAX_PAGES} pages: stopped")
        page_total, hits = pages.get(url, {"q": dblp_toc(spec.value), "format": "json",
                                           "h": HITS, "f": first}, _page)
        total = page_total if total is None else total
        if not hits and first < total:
            raise FetchError(spec.text, f"the list was cut off: {first:,} of {total:,} "
                             "records came")
        first += len(hits)
        records += (r for hit in hits if (r := _record(hit)) is not None)
        if pages.progress is not None:
            pages.progress(f"{spec.text} page {pages.pages}", first, total)
    if not records:
        raise FetchError(spec.text, f"DBLP has no volume {spec.value!r} (its key is in the "
                         "volume's address: dblp.org/db/conf/nips/neurips2024.html -> "
                         "dblp:conf/nips/neurips2024)")
    return Listing(lambda: "".join(json.dumps(r, ensure_ascii=False) + "\n"
                                   for r in records).encode(), len(records))


def _page(body: bytes) -> tuple[int, list[Any]]:
    data = json_page(body)
    hits = data.get("result", {}).get("hits") if isinstance(data, dict) and \
        isinstance(data.get("result"), dict) else None
    if not isinstance(hits, dict):
        raise ValueError('not a DBLP search result: no "result.hits"')
    total = _int(hits.get("@total"))
    if total is None:
        raise ValueError('not a DBLP search result: no "@total"')
    found = hits.get("hit", [])
    return total, found if isinstance(found, list) else [found]


def _int(value: object, most: int = 10**12) -> int | None:
    """A count or year DBLP gives (a number, or ASCII digits in a string) of at most
    ``most``; None for anything else (``"²"``, 400 digits, ``-1``, ``true``)."""
    if isinstance(value, str):
        value = value.strip()
        if not (value.isascii() and value.isdigit() and len(value) <= len(str(most))):
            return None
        value = int(value)
    if not isinstance(value, int) or isinstance(value, bool):
        return None
    return value if 0 <= value <= most else None


def _record(hit: Any) -> dict[str, Any] | None:
    """A hit as one of our JSON Lines records; None for front matter and non-records."""
    info = hit.get("info") if isinstance(hit, dict) else None
    if not isinstance(info, dict) or info.get("type") in _LEFT_OUT:
        return None
    title = _text(info.get("title"))
    if not title:
        return None
    authors = info.get("authors", {})
    people = authors.get("author", []) if isinstance(authors, dict) else []
    names = [_name(p) for p in (people if isinstance(people, list) else [people])]
    venue = info.get("venue")
    record: dict[str, Any] = {
        "title": re.sub(r"(?<![.?!])\.$", "", title.strip()),  # DBLP ends titles with "."
        "authors": [n for n in names if n],
        "venue": _text(venue[0] if isinstance(venue, list) and venue else venue),
        "year": _int(info.get("year"), most=9999) or None,
        "url": _text(_first(info.get("ee"))) or _text(info.get("url")),
    }
    return {key: value for key, value in record.items() if value}


def _first(value: Any) -> Any:
    return value[0] if isinstance(value, list) and value else value


def _text(value: Any) -> str:
    return value if isinstance(value, str) else ""


def _name(person: Any) -> str:
    """``{"@pid": "…", "text": "Jane Doe 0001"}`` -> ``Jane Doe`` (DBLP's homonym number
    dropped)."""
    text = person.get("text") if isinstance(person, dict) else person
    return re.sub(r"\s+\d{4}$", "", text.strip()) if isinstance(text, str) else ""
