"""Paper Copilot's lists (github.com/papercopilot/paperlists): one JSON array per venue
and year, ``GET {paperlists_url}/NAME/NAMEYEAR.json``, stored as it came (the name the
runner gives it, ``NAMEYEAR.paperlists.json``, tells the importer venue and year)."""

from __future__ import annotations

import re

from paper_tui.fetch.listing import Listing, Options, json_page
from paper_tui.fetch.pages import Pages
from paper_tui.fetch.spec import Spec


def fetch(spec: Spec, pages: Pages, options: Options) -> Listing:
    name = re.match(r"[a-z]+", spec.value)
    assert name is not None  # the spec's form
    url = f"{options.settings.paperlists_url}/{name.group(0)}/{spec.value}.json"
    body, papers = pages.get(url, {}, _page)
    if pages.progress is not None:
        pages.progress(f"{spec.text} page 1", papers, papers)
    return Listing(body, papers)


def _page(body: bytes) -> tuple[bytes, int]:
    data = json_page(body)
    if not isinstance(data, list) or not all(isinstance(r, dict) for r in data):
        raise ValueError("not a Paper Copilot list: expected a JSON array of papers")
    return body, len(data)
