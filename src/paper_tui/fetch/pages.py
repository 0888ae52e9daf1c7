"""The pages of one source's fetch, kept under the library (``fetching/<name>/``).

Each page is saved as it arrives, with the validators (ETag, Last-Modified) its server
gave, and ``state.json`` says which pages the fetch under way has done. So:

- a fetch that was cut off (killed, offline, a bad page) resumes: the next one, within
  :data:`RESUME_WITHIN_S`, takes the pages already done from here and asks only the rest;
- a re-fetch asks each page conditionally: a 304 takes the kept page, and when every page
  is a 304 the source is unchanged (nothing transferred, nothing imported). It first asks
  the last fetch's pages in their order without reading one (:meth:`Pages.unchanged_since`),
  so an unchanged list of 5 pages of 1,000 notes costs 5 requests and no parsing.

Deleting the directory loses nothing but one full download.
"""

from __future__ import annotations

import gzip
import hashlib
import json
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from paper_tui import atomic
from paper_tui.errors import FetchError
from paper_tui.fetch.http import HttpClient, Response, Validators, with_params
from paper_tui.fetch.report import FetchProgress

T = TypeVar("T")
RESUME_WITHIN_S = 24 * 3600
"""Pages of a fetch that was cut off are taken again for this long; older ones are asked
again (conditionally)."""
STATE = "state.json"


@dataclass
class _Kept:
    file: str
    etag: str | None = None
    last_modified: str | None = None


class PageStore:
    """``fetching/<name>/``: kept pages, their validators and the fetch under way."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.kept: dict[str, _Kept] = {}
        self.done: dict[str, bool] = {}
        """The fetch under way: URL -> whether that page was new (not a 304)."""
        self.last_fetched: str | None = None
        self.last_pages: list[str] = []
        """The pages of the last fetch that ended, in the order it asked them."""
        self.last_asked: str | None = None
        """What that fetch asked for (:attr:`paper_tui.fetch.runner.Fetch.asked`)."""
        self.used: dict[str, None] = {}
        self._started = time.time()
        self._load()

    def _load(self) -> None:
        try:
            state = json.loads((self.root / STATE).read_text("utf-8"))
        except (OSError, ValueError):
            return  # none yet, or damaged: a full fetch makes it again
        if not isinstance(state, dict):
            return
        pages = state.get("pages")
        for url, kept in (pages.items() if isinstance(pages, dict) else ()):
            if isinstance(kept, dict) and isinstance(kept.get("file"), str):
                self.kept[url] = _Kept(kept["file"], _str(kept.get("etag")),
                                       _str(kept.get("last_modified")))
        self.last_fetched = _str(state.get("last_fetched"))
        self.last_asked = _str(state.get("last_asked"))
        last = state.get("last_pages")
        self.last_pages = [u for u in last if isinstance(u, str) and u in self.kept] \
            if isinstance(last, list) else []
        run = state.get("run")
        if isinstance(run, dict) and isinstance(run.get("started"), int | float) \
                and time.time() - run["started"] < RESUME_WITHIN_S \
                and isinstance(run.get("done"), dict):
            self._started = run["started"]
            self.done = {url: bool(new) for url, new in run["done"].items()
                         if url in self.kept}

    def resumed(self, url: str) -> bytes | None:
        """The page, when the fetch under way (cut off earlier) has done it already."""
        return self.body(url) if url in self.done else None

    def validators(self, url: str) -> Validators | None:
        kept = self.kept.get(url)
        if kept is None or not (self.root / kept.file).is_file():
            return None
        return Validators(kept.etag, kept.last_modified)

    def body(self, url: str) -> bytes | None:
        kept = self.kept.get(url)
        if kept is None:
            return None
        try:
            return gzip.decompress((self.root / kept.file).read_bytes())
        except (OSError, EOFError, gzip.BadGzipFile):
            return None

    def save(self, url: str, body: bytes, validators: Validators, new: bool) -> None:
        """Keep a page that was read well, then record it done (a kill between the two
        leaves a page nobody names, never a name without its page)."""
        name = "page-" + hashlib.sha256(url.encode()).hexdigest()[:20] + ".gz"
        if new or url not in self.kept:
            atomic.write_bytes(self.root / name, gzip.compress(body, 1, mtime=0))
        self.kept[url] = _Kept(name, validators.etag, validators.last_modified)
        self.done[url] = new
        self.used[url] = None
        self._save(run=True)

    def use(self, url: str) -> None:
        self.used[url] = None

    @property
    def any_new(self) -> bool:
        return any(self.done.values())

    def finish(self, when: str, asked: str) -> None:
        """The fetch is over (its list imported, or unchanged): forget it, and the pages it
        did not use; ``when`` becomes the source's last fetch, ``asked`` what it asked."""
        self.kept = {url: kept for url, kept in self.kept.items() if url in self.used}
        self.done = {}
        self.last_fetched, self.last_asked = when, asked
        self.last_pages = list(self.used)
        self._save(run=False)
        names = {kept.file for kept in self.kept.values()}
        for page in self.root.glob("page-*.gz"):
            if page.name not in names:
                page.unlink(missing_ok=True)

    def forget(self) -> None:
        """Drop every kept page and the fetch under way."""
        self.kept, self.done, self.used, self.last_pages = {}, {}, {}, []
        for page in self.root.glob("page-*.gz"):
            page.unlink(missing_ok=True)
        self._save(run=False)

    def _save(self, run: bool) -> None:
        state: dict[str, Any] = {
            "pages": {url: {"file": k.file, "etag": k.etag, "last_modified": k.last_modified}
                      for url, k in sorted(self.kept.items())},
            "last_fetched": self.last_fetched, "last_asked": self.last_asked,
            "last_pages": self.last_pages}
        if run:
            state["run"] = {"started": self._started, "done": self.done}
        atomic.write_text(self.root / STATE, json.dumps(state, indent=1))


def _str(value: object) -> str | None:
    return value if isinstance(value, str) else None


@dataclass
class Pages:
    """What a source asks its pages through: the HTTP client (which keeps the source's
    pace), the kept pages (resume and conditional requests; none for a dry run) and the
    counts the report gives."""

    client: HttpClient
    spec: str
    store: PageStore | None = None
    progress: FetchProgress | None = None
    pages: int = 0
    all_unchanged: bool = True
    _asked: dict[str, Response] = field(default_factory=dict, repr=False)
    """Answers :meth:`unchanged_since` got, for :meth:`get` to take instead of asking."""

    @property
    def requests(self) -> int:
        """HTTP requests sent (retries and redirects included)."""
        return self.client.requests

    @property
    def received(self) -> int:
        """Body bytes received, as sent (gzip not yet decoded)."""
        return self.client.bytes_received

    def unchanged_since(self, asked: str) -> bool:
        """Whether every page of the last fetch that asked the same (``asked``) is still
        the same, each asked conditionally in its order without reading one: a re-fetch
        of an unchanged list costs its requests only. False at the first page that
        changed (its answer kept for :meth:`get`), or when there is nothing to compare."""
        store = self.store
        if store is None or store.done or store.last_asked != asked or not store.last_pages:
            return False
        for full in store.last_pages:
            validators = store.validators(full)
            if validators is None or not (validators.etag or validators.last_modified):
                return False
            response = self._asked[full] = self.client.get(full, validators=validators)
            if not response.unchanged:
                return False
        for full in store.last_pages:
            store.use(full)
        self.pages = len(store.last_pages)
        return True

    def get(self, url: str, params: dict[str, str | int], read: Callable[[bytes], T]) -> T:
        """The page at ``url?params`` read by ``read`` (which raises :class:`FetchError`
        or ``ValueError`` for a page that is not what it should be: it is then not kept)."""
        full = with_params(url, params)
        self.pages += 1
        if self.store is not None and (body := self.store.resumed(full)) is not None:
            self.store.use(full)
            self.all_unchanged &= not self.store.done[full]
            return self._read(full, body, read)
        validators = self.store.validators(full) if self.store is not None else None
        response = self._asked.pop(full, None) or \
            self.client.get(url, params=params, validators=validators)
        new = not response.unchanged
        body = response.body
        if not new:
            assert self.store is not None
            kept = self.store.body(full)
            if kept is None:  # the kept page went missing meanwhile: ask for all of it
                response = self.client.get(url, params=params)
                body, new = response.body, True
            else:
                body = kept
        self.all_unchanged &= not new
        found = self._read(full, body, read)
        if self.store is not None:
            self.store.save(full, body, response.validators, new)
        return found

    def _read(self, url: str, body: bytes, read: Callable[[bytes], T]) -> T:
        try:
            return read(body)
        except FetchError as exc:
            raise FetchError(self.spec, f"{exc.message} ({url})") from None
        except (ValueError, RecursionError) as exc:
            raise FetchError(self.spec, f"{_short(str(exc))} ({url})") from None


def _short(message: str, limit: int = 160) -> str:
    message = " ".join(message.split())
    return message if len(message) <= limit else message[: limit - 1] + "…"
