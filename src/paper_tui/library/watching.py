"""The watches run: every watch's SOURCE fetched once (two watches of one source share its
fetch), the new papers of each counted and matched against its query, what each found
kept with it in ``watches.yaml``. Imported only by ``paper-tui fetch --watches`` and the
app's "Fetch watches" (it brings the HTTP client)."""

from __future__ import annotations

import time
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass

from paper_tui.errors import StoreError
from paper_tui.fetch.report import FetchProgress, FetchReport, SourceFetch
from paper_tui.store.watches import Watch, Watches, WatchRun


@dataclass(frozen=True)
class WatchOutcome:
    """What one watch's run found."""

    watch: Watch
    fetch: SourceFetch
    new: int
    """Papers its source brought that the library did not hold before."""
    matched: int | None
    """Of those, how many match the watch's query (None: it has none)."""

    @property
    def failed(self) -> bool:
        return self.fetch.status == "failed"

    def line(self) -> str:
        """``cs.LG: 143 new, 12 match "diffusion"`` (``cs.LG: 143 new`` without a query);
        a failure: ``cs.LG: <the fetch's one line>``."""
        if self.failed:
            return f"{self.watch.name}: {self.fetch.error or 'failed'}"
        text = f"{self.watch.name}: {self.new:,} new"
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


Fetch = Callable[[Sequence[str], FetchProgress | None], FetchReport]
Matching = Callable[[str], Collection[str]]
"""``matching(query)``: the ids of the library's papers that match ``query``."""


def run_watches(watches: Watches, fetch: Fetch, matching: Matching,
                progress: FetchProgress | None = None) -> WatchesReport:
    """Fetch every watch's source and say per watch what was new; each watch's run is
    kept in ``watches.yaml`` (what ``paper-tui watch`` shows)."""
    watches.refresh()
    every = watches.all()
    if not every:
        return WatchesReport(())
    specs = list(dict.fromkeys(w.source for w in every))
    report = fetch(specs, progress)
    by_spec = dict(zip(specs, report.sources, strict=True))
    outcomes = []
    for watch in every:
        fetched = by_spec[watch.source]
        new = fetched.new_ids
        matched = None
        if watch.query and fetched.status != "failed":
            matched = len(set(new) & set(matching(watch.query))) if new else 0
        outcomes.append(WatchOutcome(watch, fetched, len(new), matched))
    try:
        watches.record_runs({o.watch.name: _run(o) for o in outcomes}, time.time())
    except StoreError as exc:  # a damaged or unwritable file: the papers are in anyway
        return WatchesReport(tuple(outcomes), f"what the watches found is not kept: {exc}")
    return WatchesReport(tuple(outcomes))


def _run(outcome: WatchOutcome) -> WatchRun:
    fetched = outcome.fetch
    outcome_word = fetched.status if fetched.status in ("fetched", "unchanged", "failed") \
        else "fetched"
    return WatchRun(outcome_word, fetched.source_id or "", outcome.new, outcome.matched,
                    fetched.error or "")
