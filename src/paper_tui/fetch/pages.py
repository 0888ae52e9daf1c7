"""The pages of one source's fetch, kept under the library (``fetching/<name>/``).

Each page is saved as it arrives, with the validators (ETag, Last-Modified) its server
gave, and ``state.json`` says which pages the fetch under way has done. So:

- a fetch that was cut off (killed, offline, a bad page) resumes: the next one, within
  :data:`RESUME_WITHIN_S`, takes the pages already done from here and asks only the rest.
  It asks the first page again (conditionally) first: when that changed, so did the list,
  and the fetch starts over (pages of two versions of a list never make one);
- a re-fetch asks each page conditionally: a 304 takes the kept page, and when every page
  is a 304 the source is unchanged (nothing transferred, nothing imported). It first asks
  the last fetch's pages in their order without reading one (:meth:`Pages.unchanged_since`),
  so an unchanged list of 5 pages of 1,000 notes costs 5 requests and no parsing.

Deleting the directory loses nothing but one full download.
"""

from __future__ import annotations

import contextlib
import datetime
import gzip
import hashlib
import json
import math
import re
import shutil
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from paper_tui.errors import FetchError, SourceError
from paper_tui.fetch.http import HttpClient, Response, Validators, with_params
from paper_tui.fetch.report import FetchProgress
from paper_tui.trust import atomic
from paper_tui.trust.bounded_gzip import gunzip_bytes

T = TypeVar("T")
SAVE_EXTRA_EVERY_S = 2.0
"""The state of a fetch under way is saved after each page, but after requests more (a
venue's thousands of forums) at most this often, and when it ends: the last seconds' of
them are asked again by a fetch resuming one that was cut off."""
RESUME_WITHIN_S = 24 * 3600
"""Pages of a fetch that was cut off are taken again for this long; older ones are asked
again (conditionally)."""
STATE = "state.json"


@dataclass
class _Kept:
    file: str
    etag: str | None = None
    last_modified: str | None = None
    extra: bool = False
    """Not a page of the list: a request more for what its pages lack (an OpenReview
    forum's replies), counted apart."""


class PageStore:
    """``fetching/<name>/``: kept pages, their validators and the fetch under way.

    ``made_for`` names what the pages were asked for (the SOURCE and the base URLs its
    config gives): a state made for anything else is not used (a changed ``fetch.*_url``
    asks the new host). A state that cannot be read whole is discarded, with one line
    through ``warn``: the directory is derived, the fetch starts over."""

    def __init__(self, root: Path, made_for: str = "",
                 warn: Callable[[str], None] | None = None) -> None:
        self.root = root
        self.made_for = made_for
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
        self._saved = 0.0  # time.monotonic() of the last save of the fetch under way
        try:
            self._load()
        except _Damaged as exc:
            self._discard()
            if warn is not None:
                warn(f"{self.root / STATE}: damaged ({exc}); discarded, the fetch starts over")

    def _load(self) -> None:
        if not self.root.exists() and not self.root.is_symlink():
            return
        if not self.root.is_dir():
            raise _Damaged("not a directory")
        try:
            data, _ = atomic.read_regular(self.root / STATE)
        except FileNotFoundError:
            return  # none yet: a full fetch makes it
        except OSError as exc:
            raise _Damaged(exc.strerror or str(exc)) from None
        try:
            state = json.loads(data)
        except (ValueError, RecursionError):
            raise _Damaged("not JSON") from None
        if not isinstance(state, dict):
            raise _Damaged("not a JSON object")
        if state.get("made_for") != self.made_for:
            self._discard()  # made for another SOURCE or host: nothing of it applies
            return
        self.kept = _pages(state.get("pages"))
        self.last_fetched = _date(state.get("last_fetched"))
        self.last_asked = _optional(state, "last_asked")
        last = state.get("last_pages", [])
        if not isinstance(last, list) or not all(u in self.kept for u in last):
            raise _Damaged("last_pages is not a list of its pages")
        self.last_pages = list(last)
        run = state.get("run")
        if run is None:
            return
        if not isinstance(run, dict) or not isinstance(run.get("done"), dict) \
                or not all(u in self.kept and isinstance(new, bool)
                           for u, new in run["done"].items()) \
                or not _finite(run.get("started")):
            raise _Damaged("run is not a fetch under way")
        if 0 <= time.time() - run["started"] < RESUME_WITHIN_S:
            self._started = run["started"]
            self.done = dict(run["done"])

    def _discard(self) -> None:
        """Nothing of the directory is kept (a file or link in its place goes too)."""
        self.kept, self.done, self.last_pages = {}, {}, []
        self.last_fetched = self.last_asked = None
        if self.root.is_dir() and not self.root.is_symlink():
            shutil.rmtree(self.root, ignore_errors=True)
        else:
            with contextlib.suppress(OSError):
                self.root.unlink()

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
            path = self.root / kept.file
            return gunzip_bytes(atomic.read_regular(path)[0], str(path))
        except (OSError, SourceError):
            return None

    def save(self, url: str, body: bytes, validators: Validators, new: bool,
             extra: bool = False) -> None:
        """Keep a page that was read well, then record it done (a kill between the two
        leaves a page nobody names, never a name without its page)."""
        name = "page-" + hashlib.sha256(url.encode()).hexdigest()[:20] + ".gz"
        if new or url not in self.kept:
            atomic.write_bytes(self.root / name, gzip.compress(body, 1, mtime=0))
        self.kept[url] = _Kept(name, validators.etag, validators.last_modified, extra)
        self.done[url] = new
        self.used[url] = None
        if not extra or time.monotonic() - self._saved >= SAVE_EXTRA_EVERY_S:
            self._save(run=True)

    def flush(self) -> None:
        """Save the fetch under way now (what :meth:`save` left for later: a fetch that
        fails resumes after every page it got)."""
        if self.done:
            self._save(run=True)

    def start_over(self) -> None:
        """The fetch under way resumes nothing of the one that was cut off (the list
        changed since: its pages and the new ones would mix two versions)."""
        self.done = {}
        self._started = time.time()

    def forget_run(self) -> None:
        """No fetch is under way any more (its kept pages stay, asked conditionally)."""
        self.done, self.used = {}, {}
        self._save(run=False)

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
            "made_for": self.made_for,
            "pages": {url: {"file": k.file, "etag": k.etag, "last_modified": k.last_modified,
                            **({"extra": True} if k.extra else {})}
                      for url, k in sorted(self.kept.items())},
            "last_fetched": self.last_fetched, "last_asked": self.last_asked,
            "last_pages": self.last_pages}
        if run:
            state["run"] = {"started": self._started, "done": self.done}
        atomic.write_text(self.root / STATE, json.dumps(state, indent=1))
        self._saved = time.monotonic()


class _Damaged(Exception):
    """``state.json`` cannot be what this module wrote (the message says what)."""


_PAGE_FILE = re.compile(r"page-[0-9a-f]{20}\.gz")


def _pages(value: object) -> dict[str, _Kept]:
    if not isinstance(value, dict):
        raise _Damaged("pages is not an object")
    kept = {}
    for url, page in value.items():
        if not isinstance(page, dict) or not isinstance(page.get("file"), str) \
                or not _PAGE_FILE.fullmatch(page["file"]):
            raise _Damaged(f"the page of {_short(url, 80)} names no page file")
        kept[url] = _Kept(page["file"], _optional(page, "etag"),
                          _optional(page, "last_modified"), page.get("extra") is True)
    return kept


def _optional(state: dict[str, Any], key: str) -> str | None:
    value = state.get(key)
    if value is not None and not isinstance(value, str):
        raise _Damaged(f"{key} is not text")
    return value


def _date(value: object) -> str | None:
    if value is None:
        return None
    try:
        if not isinstance(value, str):
            raise ValueError
        datetime.date.fromisoformat(value)
    except ValueError:
        raise _Damaged(f"last_fetched {_short(repr(value), 40)} is not a date") from None
    return value


def _finite(value: object) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool) \
        and math.isfinite(value)


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
    extra: int = 0
    """Requests more, for what the pages lack (:meth:`get` with ``extra``): not pages."""
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
        self.extra = sum(1 for full in store.last_pages if store.kept[full].extra)
        self.pages = len(store.last_pages) - self.extra
        return True

    def get(self, url: str, params: dict[str, str | int], read: Callable[[bytes], T],
            extra: bool = False) -> T:
        """The page at ``url?params`` read by ``read`` (which raises :class:`FetchError`
        or ``ValueError`` for a page that is not what it should be: it is then not kept).
        ``extra``: not a page of the list but a request more for what its pages lack
        (counted in :attr:`extra`; kept, resumed and asked conditionally all the same)."""
        full = with_params(url, params)
        if extra:
            self.extra += 1
        else:
            self.pages += 1
        store = self.store
        first_of_resumed = not extra and self.pages == 1 and store is not None \
            and bool(store.done)
        if store is not None and not first_of_resumed \
                and (body := store.resumed(full)) is not None:
            try:
                found = self._read(full, body, read)
            except FetchError:
                store.done.pop(full)  # a kept page that does not read: asked again
            else:
                store.use(full)
                self.all_unchanged &= not store.done[full]
                return found
        validators = store.validators(full) if store is not None else None
        response = self._asked.pop(full, None) or \
            self.client.get(url, params=params, validators=validators)
        new = not response.unchanged
        body = response.body
        if not new:
            assert store is not None
            kept = store.body(full)
            if kept is None:  # the kept page went missing meanwhile: ask for all of it
                response = self.client.get(url, params=params)
                body, new = response.body, True
            else:
                body = kept
        if first_of_resumed:
            assert store is not None
            if new and body != store.body(full):
                store.start_over()  # the list changed since: none of its pages is this one's
            else:
                new = new or store.done.get(full, False)  # new to the library all the same
        try:
            found = self._read(full, body, read)
        except FetchError:
            if new:
                raise
            # a 304 for a kept page that does not read (damaged on disk): ask for all of it
            response = self.client.get(url, params=params)
            body, new = response.body, True
            found = self._read(full, body, read)
        self.all_unchanged &= not new
        if store is not None:
            store.save(full, body, response.validators, new, extra)
        return found

    def flush(self) -> None:
        """Keep what the fetch under way got so far (it is about to fail)."""
        if self.store is not None:
            self.store.flush()

    def start_over(self) -> None:
        """The pages read so far are of a list that changed while it was fetched: the next
        fetch asks every page again (none is resumed)."""
        if self.store is not None:
            self.store.forget_run()

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
