"""One SOURCE fetched: its pages asked (resumed, conditional, at the source's pace) and
its list assembled, ready to be written under the library and imported.

The library (``library/fetching.py``) imports what this returns; this module never
touches ``sources/`` or the index.
"""

from __future__ import annotations

import contextlib
import datetime
import json
from collections.abc import Callable, Iterator
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
from paper_tui.trust import atomic

SOURCES: dict[str, ModuleType] = {"openreview": openreview, "paperlists": paperlists,
                                  "arxiv": arxiv, "arxiv-ids": arxiv, "dblp": dblp,
                                  "url": url}
DEFAULT_SINCE_DAYS = 7
FETCHED = "fetched"
"""Under the library: the file each source's last fetch made (what was imported)."""
FETCHING = "fetching"
"""Under the library: each source's kept pages (:mod:`paper_tui.fetch.pages`)."""


@dataclass
class Fetch:
    """One source's fetch: :meth:`run` gets its list; the pages' counts stay readable
    after a failure."""

    spec: Spec
    pages: Pages
    options: Options
    path: Path
    """Where the list goes: ``fetched/<name>`` (its name names the library source)."""
    listing: Listing | None = None

    @property
    def asked(self) -> str:
        """What this fetch asks besides its SOURCE (a page's answer depends on it)."""
        since = self.options.since.isoformat() if self.spec.kind == "arxiv" else ""
        reviews = " reviews" if self.options.reviews and self.spec.kind == "openreview" else ""
        return f"since={since} all={self.options.all_decisions}{reviews}"

    def unchanged_at_once(self) -> bool:
        """Every page of the last fetch still the same (asked conditionally, none read)."""
        with self._named():
            return self.pages.unchanged_since(self.asked)

    def run(self) -> Listing:
        """The source's list (:class:`FetchError`, one line, when it cannot be had whole)."""
        with self._named():
            self.listing = SOURCES[self.spec.kind].fetch(self.spec, self.pages, self.options)
        return self.listing

    @contextlib.contextmanager
    def _named(self) -> Iterator[None]:
        """The client's errors name the URL: the SOURCE goes first, so a line says which
        of several failed."""
        try:
            yield
        except FetchError as exc:
            if exc.where == self.spec.text:
                raise
            raise FetchError(self.spec.text, f"{exc.message} ({exc.where})") from None

    @property
    def unchanged(self) -> bool:
        """Every page a 304 (or kept from a cut-off fetch that found nothing new)."""
        return self.pages.all_unchanged

    def finish(self) -> None:
        """The list is in the library (or unchanged): the fetch is over."""
        if self.pages.store is not None:
            self.pages.store.finish(datetime.date.today().isoformat(), self.asked)

    def forget(self) -> None:
        """The list could not be imported: keep nothing of this fetch (the next one asks
        every page again)."""
        if self.pages.store is not None:
            self.pages.store.forget()


def made_for(spec: Spec, settings: FetchSettings) -> str:
    """What a source's kept pages were asked of: the SOURCE and the base URLs of its
    kind in the config (pages kept for another host are not this source's)."""
    bases = {"openreview": (settings.openreview_url, settings.openreview_v1_url),
             "paperlists": (settings.paperlists_url,), "arxiv": (settings.arxiv_url,),
             "arxiv-ids": (settings.arxiv_url,), "dblp": (settings.dblp_url,),
             "url": ()}[spec.kind]
    return " ".join((spec.text, *bases))


SAME_LISTS = ".same-lists.json"
"""Under ``fetched/``: SOURCE -> the file of the library source it is the same list as
(:func:`same_list`), so its fetches update that source."""


def target(root: Path, spec: Spec) -> Path:
    """The file under ``fetched/`` the source's list goes to: its own, or that of the
    source it was found to be the same list as (while that file is there)."""
    own = root / FETCHED / file_name(spec)
    other = _same_lists(root).get(spec.text)
    if other is not None and not own.is_file() and (root / FETCHED / other).is_file():
        return root / FETCHED / other
    return own


def same_list(root: Path, spec: Spec, path: Path) -> None:
    """From now on ``spec``'s list goes to ``path`` (``fetched/<name>``), another
    source's file with the same list."""
    same = {**_same_lists(root), spec.text: path.name}
    atomic.write_text(root / FETCHED / SAME_LISTS, json.dumps(same, indent=1))


def _same_lists(root: Path) -> dict[str, str]:
    try:
        same = json.loads(atomic.read_regular(root / FETCHED / SAME_LISTS)[0])
    except (OSError, ValueError, RecursionError):
        return {}  # none yet, or damaged: each source its own file
    if not isinstance(same, dict):
        return {}
    return {k: v for k, v in same.items() if isinstance(k, str) and isinstance(v, str)
            and v == Path(v).name and not v.startswith(".") and v != SAME_LISTS}


@contextlib.contextmanager
def source_lock(root: Path, spec: Spec) -> Iterator[None]:
    """One fetch of a source at a time (a second says so in one line)."""
    folder = root / FETCHING
    if folder.is_symlink() or (folder.exists() and not folder.is_dir()):
        folder.unlink()  # derived: whatever took its place goes
    folder.mkdir(parents=True, exist_ok=True)
    lock = filelock.FileLock(str(folder / f"{target(root, spec).name}.lock"), timeout=0)
    try:
        lock.acquire()
    except filelock.Timeout:
        raise FetchError(spec.text, "another paper-tui is fetching it right now") from None
    try:
        yield
    finally:
        lock.release()


def start(spec: Spec, root: Path, settings: FetchSettings, *,
          since: datetime.date | None = None, all_decisions: bool = False,
          dry_run: bool = False, progress: FetchProgress | None = None,
          warn: Callable[[str], None] | None = None, reviews: bool = False) -> Fetch:
    """A fetch of one source, ready to :meth:`~Fetch.run`. A dry run keeps no page and
    asks nothing conditionally. ``warn`` says that a damaged state was discarded."""
    path = target(root, spec)
    store = PageStore(root / FETCHING / file_name(spec), made_for(spec, settings), warn)

    def waited(reason: str, seconds: float) -> None:
        if progress is not None:
            progress(f"{spec.text} waiting {seconds:.0f} s ({reason})", 0, None)

    pace = settings.arxiv_delay_s if spec.kind in ("arxiv", "arxiv-ids") else 0.0
    client = HttpClient(settings, on_wait=waited, min_interval_s=pace)
    pages = Pages(client, spec.text, None if dry_run else store, progress)
    if since is None:
        since = datetime.date.fromisoformat(store.last_fetched) if store.last_fetched else \
            datetime.date.today() - datetime.timedelta(days=DEFAULT_SINCE_DAYS)
    options = Options(settings, since, all_decisions, path if path.is_file() else None,
                      reviews)
    return Fetch(spec, pages, options, path)
