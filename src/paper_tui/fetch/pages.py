"""The pages of one source's fetch, kept under the library (``fetching/<name>/``).

Each page is saved as it arrives, with the validators (ETag, Last-Modified) its server
gave, and ``state.json`` says which pages the fetch under way has done. So:

- a fetch that was cut off (killed, offline, a bad page) resumes: the next one, within
  :data:`RESUME_WITHIN_S`, takes the pages already done from here and asks only the rest;
- a re-fetch asks each page conditionally: a 304 takes the kept page, and when every page
  is a 304 the source is unchanged (nothing transferred, nothing imported).

Deleting the directory loses nothing but one full download.
"""

from __future__ import annotations

import gzip
import hashlib
import json
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from paper_tui import atomic
from paper_tui.errors import FetchError
from paper_tui.fetch.http import HttpClient, Validators, with_params

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
        self.used: set[str] = set()
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
        self.used.add(url)
        self._save(run=True)

    def use(self, url: str) -> None:
        self.used.add(url)

    @property
    def any_new(self) -> bool:
        return any(self.done.values())

    def finish(self, when: str | None) -> None:
        """The fetch is over (its list imported, or unchanged): forget it, and the pages it
        did not use; ``when`` becomes the source's last fetch."""
        self.kept = {url: kept for url, kept in self.kept.items() if url in self.used}
        self.done = {}
        if when is not None:
            self.last_fetched = when
        self._save(run=False)
        names = {kept.file for kept in self.kept.values()}
        for page in self.root.glob("page-*.gz"):
            if page.name not in names:
                page.unlink(missing_ok=True)

    def forget(self) -> None:
        """Drop every kept page and the fetch under way."""
        self.kept, self.done, self.used = {}, {}, set()
        for page in self.root.glob("page-*.gz"):
            page.unlink(missing_ok=True)
        self._save(run=False)

    def _save(self, run: bool) -> None:
        state: dict[str, Any] = {
            "pages": {url: {"file": k.file, "etag": k.etag, "last_modified": k.last_modified}
                      for url, k in sorted(self.kept.items())},
            "last_fetched": self.last_fetched}
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
    progress: Callable[[str, int, int | None], None] | None = None
    pages: int = 0
    all_unchanged: bool = True

    @property
    def requests(self) -> int:
        """HTTP requests sent (retries and redirects included)."""
        return self.client.requests

    @property
    def received(self) -> int:
        """Body bytes received, as sent (gzip not yet decoded)."""
        return self.client.bytes_received

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
        response = self.client.get(url, params=params, validators=validators)
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
