"""What every source module gives the runner: the list as one file, and how it was asked."""

from __future__ import annotations

import datetime
import json
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from paper_tui.config import FetchSettings
from paper_tui.fetch.spec import Spec
from paper_tui.venue.reviews import Review

MAX_PAGES = 1000
"""A source that keeps sending pages past this many is not paging as documented."""


@dataclass(frozen=True)
class Options:
    settings: FetchSettings
    since: datetime.date
    """arXiv categories: the oldest submission date to fetch."""
    all_decisions: bool = False
    """OpenReview: rejected, withdrawn and pending submissions too."""
    previous: Path | None = None
    """The file this source's last fetch made (an arXiv category's list grows from it)."""
    reviews: bool = False
    """OpenReview: each paper's reviews, meta-review, decision and comments too."""


class Listing:
    """A fetched list: how many papers it holds and the file's bytes (in a format
    ``importers/`` reads), made when first asked for (an unchanged list never is)."""

    def __init__(self, body: bytes | Callable[[], bytes], papers: int) -> None:
        self._body = body
        self.papers = papers
        self.reviews: dict[str, list[Review]] | None = None
        """OpenReview with ``--reviews``: each paper's reviews, by its forum id."""
        self.notice = ""
        """A line the reader should see (a venue that publishes no reviews)."""

    @property
    def body(self) -> bytes:
        if callable(self._body):
            self._body = self._body()
        return self._body


def json_page(body: bytes) -> Any:
    """A page's JSON; ``ValueError`` naming what is wrong."""
    try:
        return json.loads(body)
    except UnicodeDecodeError:
        raise ValueError("the page is not UTF-8 text") from None
    except json.JSONDecodeError as exc:
        raise ValueError(f"the page is not JSON ({exc.msg} at line {exc.lineno} column "
                         f"{exc.colno}{_cut(body)})") from None


def _cut(body: bytes) -> str:
    return "; cut off?" if body and not body.rstrip().endswith((b"}", b"]")) else ""


def slug(text: str) -> str:
    """File-name-safe, lower case: ``ICLR.cc/2025/Conference`` -> ``iclr-cc-2025-conference``."""
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-") or "list"


def file_name(spec: Spec) -> str:
    """The name of the file a source's fetch makes under ``fetched/``: it names the
    library source (``importers.registry.source_id``), so a re-fetch replaces it, and
    for Paper Copilot and URLs of such files it starts with the list's NAMEYEAR, where the
    importer reads venue and year."""
    if spec.kind == "openreview":
        return f"openreview-{slug(spec.value)}.json"
    if spec.kind == "paperlists":
        return f"{spec.value}.paperlists.json"
    if spec.kind == "arxiv":
        return f"arxiv-{slug(spec.value)}.atom"
    if spec.kind == "arxiv-ids":
        return f"arxiv-{slug(spec.value)[:80]}.atom"
    if spec.kind == "dblp":
        return f"dblp-{slug(spec.value)}.jsonl"
    return url_file_name(spec.value)


def url_file_name(url: str) -> str:
    """``https://host/x/nips2018.json`` -> ``nips2018.host.json``: the list's own name first
    (venue and year), the host (two URLs' lists of one name stay two), its extensions."""
    from urllib.parse import urlsplit

    from paper_tui.fetch.uri import to_uri

    parts = urlsplit(url)
    last = parts.path.rstrip("/").rsplit("/", 1)[-1]
    stem, dot, suffixes = last.partition(".")
    host = slug(urlsplit(to_uri(url)).hostname or "host")  # 例え.jp: xn--r8jz45g-jp
    stem = re.sub(r"[^A-Za-z0-9_\-]+", "-", stem).strip("-")[:80]
    suffixes = re.sub(r"[^A-Za-z0-9.]+", "", suffixes)[:20]
    named = f"{stem}.{host}" if stem else host
    return f"{named}.{suffixes}" if dot and suffixes else named
