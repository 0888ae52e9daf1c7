"""Any URL of a file paper-tui imports: fetched whole, stored under a name made from the
URL (``nips2018.example-org.json``), its format told by content as an import's is."""

from __future__ import annotations

from paper_tui.fetch.listing import Listing, Options
from paper_tui.fetch.pages import Pages
from paper_tui.fetch.spec import Spec


def fetch(spec: Spec, pages: Pages, options: Options) -> Listing:
    body = pages.get(spec.value, {}, _page)
    return Listing(body, 0)  # counted by the import


def _page(body: bytes) -> bytes:
    if not body.strip():
        raise ValueError("the file is empty")
    return body
