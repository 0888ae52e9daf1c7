"""Search as you type: one search at a time on the app's query thread, the newest text next.

A key starts its search at once when none is running (no debounce by default). Keys that
come while one runs only replace the search waiting to go next (:mod:`..query_thread`), so
a burst of keys costs one search per search time, not one per key, and never several
searches fighting for the interpreter. Each search gets a generation number; the job only
builds the results and posts them (jobs never touch widgets). The app shows a finished
search unless a newer one is already shown, so the screen follows the typing as fast as
searches finish and a slow stale query can never overwrite a newer one.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from typing import TYPE_CHECKING, Protocol

from textual.message import Message
from textual.timer import Timer

from paper_tui.library import FOR_YOU, SORTS, Results
from paper_tui.tui.controllers.watches import LOOKED
from paper_tui.tui.host import ResultsPane
from paper_tui.tui.widgets.status_line import status_text

if TYPE_CHECKING:
    from paper_tui.config import SearchSettings
    from paper_tui.model import Paper
    from paper_tui.tui.query_thread import QueryThread
    from paper_tui.tui.widgets.status_line import StatusLine

RECOUNT_DELAY = 0.05
"""Seconds after a change before the status line's triage count is worked out again."""


class ResultsReady(Message):
    """A search finished; ``results`` are the receiver's now (it closes them)."""

    def __init__(self, generation: int, results: Results, keep_id: str | None, mode: str,
                 total: int | None = None) -> None:
        self.generation = generation
        self.total = total
        """Papers in the library, counted in the worker too (never on the UI thread)."""
        self.results = results
        self.keep_id = keep_id
        self.mode = mode
        super().__init__()


class SearchHost(ResultsPane, Protocol):
    """The screen the searches are shown on (the main screen)."""

    @property
    def status_line(self) -> StatusLine: ...

    def current_paper(self) -> Paper | None: ...

    def library_shown(self) -> None:
        """A search's results are on screen (the first ones, or any later)."""

    def annotations_counted(self) -> None:
        """The triage count was worked out again after a change: what else counts the
        annotations can follow now (once per burst of keys)."""


@dataclass
class _Job:
    run: Callable[[], Results]
    generation: int
    keep_id: str | None
    mode: str


FIRST_SCREEN_SHOWN = 0.25
"""Seconds the first screen is left alone before the "for you" order replaces it: loading
the learner's libraries then takes the interpreter for ~0.3 s."""


class SearchController:
    """Owns the query, the sort and the result set on screen."""

    def __init__(self, host: SearchHost, settings: SearchSettings,
                 queries: QueryThread) -> None:
        """``queries``: the thread the searches run on."""
        self.host = host
        self.queries = queries
        self.query = ""
        self.sort = settings.sort
        self.debounce = settings.debounce_ms / 1000
        self.mode = ""
        self._first = True  # no search shown yet
        self.generation = 0
        self.shown_generation = 0
        self._debounce: Timer | None = None
        """The search waiting for the typing to pause (``search.debounce_ms``)."""
        self.searching = False
        self.error: str | None = None
        self._triaged: int | None = None
        self._share: tuple[int, int] | None = None
        """(triaged, assigned) of the reader's share of the team's split, if any."""
        self._total: int | None = None
        self.watch_news: int | None = None
        """Papers the last fetch of the watches brought, until a query looks at them."""
        self._recount: Timer | None = None
        self.similar_to: str | None = None
        """The paper "more like this" started from (the cursor goes back to it)."""
        """The last query's error (its results are not shown: the previous ones stay)."""

    def search(self, query: str, *, immediate: bool = False, keep: bool = False,
               keep_id: str | None = None) -> None:
        """Search ``query`` now, or right after the search running (replacing any text that
        was waiting: only the newest is searched); the cursor stays on the paper under it
        (``keep``) or goes to ``keep_id``, when they are among the hits."""
        self.query = query
        if self.watch_news is not None and LOOKED.search(query):
            self.watch_news = None  # the reader is looking at what came in
        paper = self.host.current_paper() if keep else None
        keep_id = keep_id or (paper.id if paper else None)
        # The first screen in the list's order; the "for you" one follows (learning from
        # the labels imports the learner's libraries: first paint does not wait for that)
        sort = "relevance" if self._first and self.for_you else self.sort
        self._start(partial(self.host.library.results, query, sort=sort),
                    0.0 if immediate else self.debounce, keep_id, "")

    def similar(self, paper_id: str, label: str) -> None:
        self.similar_to = paper_id
        self._start(partial(self.host.library.similar, paper_id), 0.0, None, f"like: {label}")

    @property
    def for_you(self) -> bool:
        return self.sort == FOR_YOU

    def cycle_sort(self) -> str:
        """Sort by the next of the sorts the library offers now (``rating-change`` only
        once a paper's rating moved: :meth:`Library.sorts`)."""
        offered = self.host.library.sorts()
        after = SORTS[SORTS.index(self.sort) + 1:] + SORTS if self.sort in SORTS else SORTS
        return self.sort_by(next(sort for sort in after if sort in offered))

    def sort_by(self, sort: str) -> str:
        """Search the query again sorted by ``sort``, the cursor on the first row (the
        papers the new order puts first are the ones to see)."""
        self.sort = sort
        self.search(self.query, immediate=True)
        return sort

    def _start(self, run: Callable[[], Results], delay: float, keep_id: str | None,
               mode: str) -> None:
        self.generation += 1
        self.searching = True
        self._search_status()
        job = _Job(run, self.generation, keep_id, mode)
        if self._debounce is not None:  # a newer key: the wait starts again
            self._debounce.stop()
            self._debounce = None
        if delay:
            self._debounce = self.host.app.set_timer(delay, partial(self._submit, job))
        else:
            self._submit(job)

    def _submit(self, job: _Job) -> None:
        self._debounce = None
        self.queries.submit("search", partial(self._work, job))

    def _work(self, job: _Job) -> None:
        """On the query thread: run one search and post it."""
        results = job.run()
        total = self.host.library.count()
        if not len(results):
            _ = results.suggestion  # "did you mean" is worked out here, not in a frame
        if self.queries.stopped:  # the app has gone meanwhile
            results.close()
            return
        self.host.post_message(ResultsReady(job.generation, results, job.keep_id, job.mode,
                                           total))

    def apply(self, message: ResultsReady) -> None:
        """Show a finished search unless a newer one is shown already."""
        if message.generation <= self.shown_generation:
            message.results.close()
            return
        self.shown_generation = message.generation
        self.searching = message.generation != self.generation
        self.mode = message.mode
        if message.total is not None:
            self._total = message.total
        results_list = self.host.results_list
        old = results_list.results
        self.error = message.results.error
        if self.error and old is not None:  # keep the last good results under the error
            message.results.close()
            self._search_status()
            return
        results_list.set_results(message.results, message.keep_id)
        if old is not None:
            old.close()
        self._search_status()
        self.host.library_shown()
        if self._first:
            self._first = False
            if self.for_you:  # once the first screen is out (and drawn by the terminal)
                self.host.app.set_timer(FIRST_SCREEN_SHOWN, partial(
                    self.search, self.query, immediate=True, keep=True))

    def update_status(self, triaged_change: int = 0) -> None:
        """Redraw the status line now; the triage count follows a moment later.

        ``triaged_change``: papers a key has just triaged (or untriaged, negative), so the
        key's own frame already shows the count the recount then confirms."""
        if self._triaged is not None:
            self._triaged += triaged_change
        self._draw_status()
        if self._recount is None:  # counting 20,000 annotations must not delay a key's frame
            self._recount = self.host.app.set_timer(RECOUNT_DELAY, self._count_triaged)

    def _search_status(self) -> None:
        """Redraw the status line for a search. The triage count changes only with the
        annotations (whose changes call :meth:`update_status`), not with each key typed."""
        if self._triaged is None:
            self.update_status()
        else:
            self._draw_status()

    def _count_triaged(self) -> None:
        self._recount = None
        self._triaged = self.host.library.triaged_count()
        self._share = self.host.library.share_progress()
        self._draw_status()
        self.host.annotations_counted()

    def _draw_status(self) -> None:
        if not self.host.app.screen_stack:  # a timer that fires while the app shuts down
            return
        results = self.host.results_list.results
        if results is None:
            hits, sort, suggestion = None, self.sort, None
        else:  # the sort as the results name it: "for you: 12 kept, 31 skipped"
            hits, sort, suggestion = len(results), results.sort_label or self.sort, \
                results.suggestion
        self.host.status_line.show(status_text(
            hits, self.searching, self._triaged, self._total, sort, self.mode,
            self.error, suggestion, self._share, self.watch_news))
