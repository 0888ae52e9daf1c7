"""The watches: one saved (its name, its SOURCE and its query checked first), and their
run: every watch's SOURCE fetched once (two watches of one source share its fetch), the
new papers of each counted and matched against its query, what each found kept with it
in ``watches.yaml``. Imported only by ``paper-tui fetch --watches``, the app's "Fetch
watches" and a watch being added (it brings the HTTP client); listing and dropping
watches never import it.

One watch never takes down the others: each source is fetched on its own, and what its
watches found is kept before the next source is fetched. A source that fails (a server's
error, a response that crashes a parser, its traceback then in a crash log, a server that
hangs up) is its watches' failure, one line each, kept as their ``error``; a query that
cannot be read (a hand-edited ``watches.yaml``) is a warning naming the watch, never
"0 match". A watch's new papers are the fetch's and the papers of its source that entered
the library since it last reported (imported by a run that failed or was killed after its
import): none is left unsaid.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass
from pathlib import Path

from paper_tui.crash import internal_error_line, write_crash_log
from paper_tui.errors import PaperTuiError, QueryError, StoreError
from paper_tui.fetch.report import FetchProgress, FetchReport, SourceFetch
from paper_tui.holdings.arrivals import Arrivals
from paper_tui.index import PaperIndex
from paper_tui.store.watches import Watch, Watches, WatchRun


@dataclass(frozen=True)
class WatchOutcome:
    """What one watch's run found."""

    watch: Watch
    fetch: SourceFetch
    new: int
    """Papers its source brought that the library did not hold before."""
    matched: int | None
    """Of those, how many match the watch's query (None: it has none, or it cannot be
    read)."""
    problem: str = ""
    """Why its query could not be matched (one line; the fetch itself went well)."""

    @property
    def failed(self) -> bool:
        return self.fetch.status == "failed"

    def line(self) -> str:
        """``cs.LG: 143 new, 12 match "diffusion"`` (``cs.LG: 143 new`` without a query);
        a failure: ``cs.LG: <the fetch's one line>``; a query that cannot be read:
        ``cs.LG: 143 new; its query cannot be read (…)``."""
        if self.failed:
            return f"{self.watch.name}: {self.fetch.error or 'failed'}"
        text = f"{self.watch.name}: {self.new:,} new"
        if self.problem:
            return f"{text}; {self.problem}"
        return text if self.matched is None else \
            f'{text}, {self.matched:,} match "{self.watch.query}"'


@dataclass(frozen=True)
class WatchesReport:
    outcomes: tuple[WatchOutcome, ...]
    not_kept: str | None = None
    """Why what the watches found could not be kept in ``watches.yaml`` (one line)."""

    @property
    def failed(self) -> bool:
        return self.not_kept is not None or any(o.failed for o in self.outcomes)

    @property
    def new(self) -> int:
        """New papers over every watch (a paper two watches brought counted once)."""
        return len({pid for o in self.outcomes for pid in o.fetch.new_ids})


Fetch = Callable[[Sequence[str], FetchProgress | None, bool | None], FetchReport]
"""``fetch(sources, progress, reviews)``: ``reviews`` True for a watch that carries
``--reviews``, None for the config's ``fetch.reviews``."""
Matching = Callable[[str], Collection[str]]
"""``matching(query)``: the ids of the library's papers that match ``query``;
:class:`~paper_tui.errors.QueryError` when it cannot be read."""
Arrived = Callable[[str, float], Collection[str]]
"""``arrived(source_id, after)``: the papers of a source that entered the library after
``after`` (seconds since the epoch)."""


def add_watch(watches: Watches, root: Path, index: PaperIndex, name: str, source: str,
              query: str = "", reviews: bool = False) -> Watch:
    """Save a watch of the library at ``root``: ``source`` as ``paper-tui fetch`` takes
    it, the new papers it brings matched against ``query``; ``reviews``: fetched with
    ``--reviews`` (an OpenReview venue's reviews and rating history). :class:`PaperTuiError` (one
    line) for a name taken or not a name, an empty source, a query that cannot be read."""
    from paper_tui.query.added import NAME

    name, source, query = name.strip(), source.strip(), " ".join(query.split())
    if not NAME.fullmatch(name):
        raise PaperTuiError(f"watch name {name!r}: use letters, digits, '.', '_' and "
                            "'-' (at most 64), e.g. cs.LG or iclr-orals")
    if not source:
        raise PaperTuiError("a watch needs a SOURCE, e.g. arxiv:cs.LG")
    from paper_tui.fetch import spec
    from paper_tui.fetch.runner import target
    from paper_tui.holdings.sources import source_id

    parsed = spec.parse(source)  # FetchError, one line, for none of the forms
    if reviews and parsed.kind != "openreview":
        raise PaperTuiError(f"--reviews: only an OpenReview venue has reviews to fetch, "
                            f"not {parsed.text}")
    # the source its fetches go into is known now: watch:NAME finds a list fetched
    # before the watch was added, without waiting for its first run
    into = source_id(target(root, parsed))
    if re.search(r"(?<![\w\"-])watch:", query, re.IGNORECASE):
        raise QueryError("a watch's query cannot name a watch (watch:)")
    if query:
        matching(index, query)  # QueryError, one line, as its runs and a search read it
    watches.refresh()
    taken = watches.get(name)
    if taken is not None:
        raise PaperTuiError(f"there is a watch named {taken.name} already "
                            f"({taken.source}): `paper-tui watch remove {taken.name}` "
                            "first")
    watch = Watch(name, parsed.text, query, into, reviews=reviews)
    watches.add(watch)
    return watch


def matching(index: PaperIndex, query: str) -> list[str]:
    """The ids of the papers ``query`` finds, as a search finds them; QueryError when
    it cannot be read."""
    results = index.results(query)
    try:
        if results.error:
            raise QueryError(results.error)
        return results.ids() if len(results) else []  # (an empty index has no ids)
    finally:
        results.close()


def arrived_from(arrivals: Arrivals) -> Arrived:
    """What entered the library from a source after a time, as ``arrivals`` keep it."""
    def arrived(source_id: str, after: float) -> set[str]:
        seen = arrivals.first_seen()
        return {pid for pid in arrivals.of_source(source_id) if seen.get(pid, 0) > after}

    return arrived


def run_watches(watches: Watches, fetch: Fetch, matching: Matching,
                progress: FetchProgress | None = None, arrived: Arrived | None = None
                ) -> WatchesReport:
    """Fetch every watch's source (with its reviews when a watch of it carries
    ``--reviews``) and say per watch what was new; each watch's run is kept in
    ``watches.yaml`` (what ``paper-tui watch`` shows) as soon as its source is
    fetched. One source's failure, of any kind, is its watches' lines, not the run's end."""
    watches.refresh()
    every = watches.all()
    by_source: dict[str, list[Watch]] = {}
    for watch in every:
        by_source.setdefault(watch.source, []).append(watch)
    found: dict[str, WatchOutcome] = {}
    not_kept = None
    for spec, group in by_source.items():
        reviews = True if any(w.reviews for w in group) else None
        fetched = _fetch_one(fetch, spec, progress, reviews)
        outcomes = [_outcome(watch, fetched, matching, arrived) for watch in group]
        found.update((o.watch.name, o) for o in outcomes)
        try:
            watches.record_runs({o.watch.name: _run(o) for o in outcomes}, time.time())
        except StoreError as exc:  # a damaged or unwritable file: the papers are in anyway
            not_kept = not_kept or f"what the watches found is not kept: {exc}"
    return WatchesReport(tuple(found[w.name] for w in every), not_kept)


def _fetch_one(fetch: Fetch, spec: str, progress: FetchProgress | None,
               reviews: bool | None = None) -> SourceFetch:
    """One source's fetch; a failure of any kind as a failed fetch (one line)."""
    try:
        sources = fetch([spec], progress, reviews).sources
    except PaperTuiError as exc:
        return _failed(spec, str(exc))
    except Exception as exc:  # a bug a hostile server found: its watches', no other's
        log = write_crash_log(exc)
        return _failed(spec, internal_error_line(exc, log).removeprefix("paper-tui: "))
    if len(sources) != 1:
        return _failed(spec, f"{len(sources)} lists fetched for one source")
    return sources[0]


def _failed(spec: str, error: str) -> SourceFetch:
    return SourceFetch(spec, "failed", None, 0, (), 0, 0, " ".join(error.split()))


def _outcome(watch: Watch, fetched: SourceFetch, matching: Matching,
             arrived: Arrived | None) -> WatchOutcome:
    if fetched.status == "failed":  # what it may have imported: said by the next run
        return WatchOutcome(watch, fetched, 0, None)
    new = set(fetched.new_ids)
    source_id = fetched.source_id or watch.source_id
    if arrived is not None and source_id and watch.reported is not None:
        new |= set(arrived(source_id, watch.reported))  # what a failed run left unsaid
    if not watch.query:
        return WatchOutcome(watch, fetched, len(new), None)
    try:
        matching_ids = matching(watch.query)  # even with nothing new: say a bad query
    except PaperTuiError as exc:
        return WatchOutcome(watch, fetched, len(new), None,
                            f"its query cannot be read ({exc}): fix it in watches.yaml")
    except Exception as exc:  # a query that crashes the search: this watch's line only
        log = write_crash_log(exc)
        return WatchOutcome(watch, fetched, len(new), None, "its query cannot be matched ("
                            + internal_error_line(exc, log).removeprefix("paper-tui: ") + ")")
    return WatchOutcome(watch, fetched, len(new), len(new & set(matching_ids)))


def _run(outcome: WatchOutcome) -> WatchRun:
    fetched = outcome.fetch
    outcome_word = fetched.status if fetched.status in ("fetched", "unchanged", "failed") \
        else "fetched"
    return WatchRun(outcome_word, fetched.source_id or "", outcome.new, outcome.matched,
                    fetched.error or outcome.problem)
