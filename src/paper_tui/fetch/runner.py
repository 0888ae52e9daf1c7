"""One SOURCE fetched: its pages asked (resumed, conditional, at the source's pace) and
its list assembled, ready to be written under the library and imported.

The library (``library/fetching.py``) imports what this returns; this module never
touches ``sources/`` or the index.
"""

from __future__ import annotations

import contextlib
import datetime
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType

import filelock

from paper_tui.config import FetchSettings
from paper_tui.errors import FetchError
from paper_tui.fetch import arxiv, dblp, openreview, paperlists, url
from paper_tui.fetch.http import HttpClient
from paper_tui.fetch.listing import Listing, Options, file_name
from paper_tui.fetch.pages import Pages, PageStore
from paper_tui.fetch.report import FetchProgress
from paper_tui.fetch.spec import Spec

SOURCES: dict[str, ModuleType] = {"openreview": openreview, "paperlists": paperlists,
                                  "arxiv": arxiv, "arxiv-ids": arxiv, "dblp": dblp,
                                  "url": url}
DEFAULT_SINCE_DAYS = 7
FETCHED = "fetched"
"""Under the library: the file each source's last fetch made (what was imported)."""
FETCHING = "fetching"
"""Under the library: each source's kept pages (:mod:`paper_tui.fetch.pages`)."""


@dataclass
class Fetched:
    spec: Spec
    listing: Listing
    pages: Pages
    path: Path
    """Where the list goes: ``fetched/<name>`` (its name names the library source)."""

    @property
    def unchanged(self) -> bool:
        """Every page a 304 (or kept from a cut-off fetch that found nothing new)."""
        return self.pages.all_unchanged

    def finish(self) -> None:
        """The list is in the library (or unchanged): the fetch is over."""
        if self.pages.store is not None:
            self.pages.store.finish(datetime.date.today().isoformat())

    def forget(self) -> None:
        """The list could not be imported: keep nothing of this fetch (the next one asks
        every page again)."""
        if self.pages.store is not None:
            self.pages.store.forget()


def target(root: Path, spec: Spec) -> Path:
    return root / FETCHED / file_name(spec)


@contextlib.contextmanager
def source_lock(root: Path, spec: Spec) -> Iterator[None]:
    """One fetch of a source at a time (a second says so in one line)."""
    folder = root / FETCHING
    folder.mkdir(parents=True, exist_ok=True)
    lock = filelock.FileLock(str(folder / f"{file_name(spec)}.lock"), timeout=0)
    try:
        lock.acquire()
    except filelock.Timeout:
        raise FetchError(spec.text, "another paper-tui is fetching it right now") from None
    try:
        yield
    finally:
        lock.release()


def fetch_list(spec: Spec, root: Path, settings: FetchSettings, *,
               since: datetime.date | None = None, all_decisions: bool = False,
               dry_run: bool = False, progress: FetchProgress | None = None) -> Fetched:
    """Fetch one source's list (:class:`FetchError`, one line, when it cannot be had
    whole). A dry run keeps no page and asks nothing conditionally."""
    path = target(root, spec)
    store = None if dry_run else PageStore(root / FETCHING / path.name)

    def waited(reason: str, seconds: float) -> None:
        if progress is not None:
            progress(f"{spec.text} waiting {seconds:.0f} s ({reason})", 0, None)

    client = HttpClient(settings, on_wait=waited)
    pace = settings.arxiv_delay_s if spec.kind in ("arxiv", "arxiv-ids") else 0.0
    pages = Pages(client, spec.text, store, pace, progress)
    if since is None:
        last = store.last_fetched if store is not None else None
        since = datetime.date.fromisoformat(last) if last else \
            datetime.date.today() - datetime.timedelta(days=DEFAULT_SINCE_DAYS)
    options = Options(settings, since, all_decisions, path if path.is_file() else None)
    try:
        listing = SOURCES[spec.kind].fetch(spec, pages, options)
    except FetchError as exc:
        if exc.where == spec.text:
            raise
        # the client names the URL: the SOURCE first, so a line says which of several
        raise FetchError(spec.text, f"{exc.message} ({exc.where})") from None
    return Fetched(spec, listing, pages, path)
