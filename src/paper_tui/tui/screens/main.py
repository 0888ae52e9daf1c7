"""The main screen: search on top, results and abstract side by side (stacked when
narrow), the status line, the footer; and the keys that belong to the search.

It owns its panes and their actions, so its keys are checked here, by the screen: none
while a dialog is over it (the app's quit and palette, ``app.*`` actions, are the app's
to check), and ``/`` types a slash while the search box has the focus. The keys acting on
the results are shared with an opened reading list (:mod:`.results_screen`).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal
from textual.message import Message
from textual.widgets import Input

from paper_tui.tui import collector
from paper_tui.tui.controllers.reviews import (
    REVIEWS_KEY,
    RatingMoved,
    ReviewsController,
    ReviewsRead,
)
from paper_tui.tui.controllers.search import ResultsReady, SearchController
from paper_tui.tui.controllers.sync import SyncController, SyncDone, SyncProgress
from paper_tui.tui.controllers.watches import (
    WatchesController,
    WatchesDone,
    WatchesProgress,
)
from paper_tui.tui.query_thread import QueryThread
from paper_tui.tui.screens.results_screen import (
    CITE_AND_MARK_KEYS,
    EDIT_KEYS,
    HELP_KEY,
    TRIAGE_KEYS,
    ResultsScreen,
)
from paper_tui.tui.widgets.abstract import AbstractView
from paper_tui.tui.widgets.facets import FacetOptions, FacetsPanel, narrow
from paper_tui.tui.widgets.footer import KeyFooter
from paper_tui.tui.widgets.import_progress import ImportProgress, summary
from paper_tui.tui.widgets.results import ResultsList
from paper_tui.tui.widgets.search_box import SearchBox
from paper_tui.tui.widgets.status_line import StatusLine
from paper_tui.vocabulary import FOR_YOU

if TYPE_CHECKING:
    from paper_tui.config import Settings
    from paper_tui.library import Library, PaperDetail

APP_KEYS = [
    Binding("ctrl+p", "app.command_palette", "Commands", show=False, priority=True,
            id="command-palette", tooltip="Command palette (every action, themes)"),
    Binding("q", "app.quit", "Quit", id="quit", tooltip="Quit"),
]
"""The app's own keys (bound on the app too, for every screen), listed here as well so
the footer and the help show them in their place among this screen's keys."""


IN_FACETS = frozenset({"focus_search", "help", "toggle_facets"})
"""The screen's actions that work with the facets panel focused (with the panel's own)."""


class Relearned(Message):
    """The recommender learned from new labels: the "for you" order may have changed."""


class QueryFailed(Message):
    """A query job raised (a bug): the screen raises it again, so the app stops with one
    line and a crash log, as for any other bug."""

    def __init__(self, error: Exception) -> None:
        super().__init__()
        self.error = error


class MainScreen(ResultsScreen):
    """The library searched: the query, its results, the paper under the cursor."""

    class Ready(Message):
        """The panes are composed and the first search is under way."""

    BINDINGS = [
        # priority: runs as the key arrives, before keys typed right after it are handed to
        # the focused pane (so "/query" typed in one burst lands in the search box)
        Binding("slash", "focus_search", "Search", id="search", priority=True),
        *TRIAGE_KEYS,
        Binding("m", "more_like_this", "Like this", show=False, id="more-like-this",
                tooltip="List papers like this one"),
        Binding("escape", "leave_similar", "Back", show=False, id="leave-similar",
                tooltip="Back from 'like this' to the query's results"),
        Binding("S", "pick_sort", "Sort", show=False, id="sort",
                tooltip="Sort by… (a picker: relevance, year, title, rating, citations, "
                        "consensus, team, for you)"),
        Binding("ctrl+s", "cycle_sort", "Next sort", show=False, id="cycle-sort",
                tooltip="Sort by the next sort (relevance, year, title, rating, …)"),
        HELP_KEY,
        *APP_KEYS,
        *EDIT_KEYS,
        Binding("L", "reading_lists", "Lists", id="reading-lists",
                tooltip="Reading lists: open, reorder, rename, export"),
        *CITE_AND_MARK_KEYS,
        Binding("f", "toggle_facets", "Facets", show=False, id="facets",
                tooltip="Into the facets panel (counts per status, tag, venue, year, "
                        "decision, area…); in it, hide it"),
        Binding("Y", "sync", "Sync", show=False, id="sync",
                tooltip="Sync the team's triage through git (paper-tui sync)"),
        Binding("T", "team", "Team", show=False, id="team",
                tooltip="The team: who covered what, the picks, the disputed"),
        REVIEWS_KEY,
    ]

    status_line: StatusLine
    """The status line (hits, triage count, sort, confirmations), once mounted."""

    def __init__(self, library: Library, settings: Settings) -> None:
        super().__init__(library)
        self.history_size = settings.search.history_size
        self.queries = QueryThread("paper-tui queries",
                                   lambda error: self.post_message(QueryFailed(error)))
        """Where the searches and the facet counts run (quitting never waits for one)."""
        self.search = SearchController(self, settings.search, self.queries)
        self.team_sync = SyncController(self)
        self.sync_minutes = settings.sync.every_minutes
        self.watch_fetch = WatchesController(self)
        self.reviews = ReviewsController(self)

    def compose(self) -> ComposeResult:
        yield SearchBox(history_size=self.history_size,
                        placeholder="Search: words, \"phrases\", title: author: year: …",
                        id="search")
        with Horizontal(id="panes"):
            yield ResultsList(self.library.annotation, announce=False, id="results",
                              moved_of=self.library.rating_move)
            abstract = AbstractView(id="abstract")
            abstract.moves = self.reviews.moves
            yield abstract
        yield StatusLine(id="status")
        yield KeyFooter()

    def on_mount(self) -> None:
        self.status_line = self.query_one(StatusLine)
        self.watch(self.results_list, "cursor", self._cursor_moved, init=False)
        self.results_list.focus()
        self.search.search("", immediate=True)
        self.post_message(self.Ready())
        team = self.library.in_team()
        if team:  # the team's files, read off the UI thread
            self.run_worker(self.library.reload_team, thread=True, group="team")
        if team and self.sync_minutes > 0:
            self.set_interval(self.sync_minutes * 60, self.action_sync)

    def on_unmount(self) -> None:
        self.queries.stop()

    def on_query_failed(self, message: QueryFailed) -> None:
        raise message.error

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if not self.is_active:
            return False
        if action == "focus_search" and isinstance(self.focused, Input):
            return False
        if action not in IN_FACETS and self._in_facets():
            return False  # the panel's keys, not the paper keys (nor in the footer)
        return super().check_action(action, parameters)

    def _in_facets(self) -> bool:
        focused = self.focused
        return focused is not None and isinstance(focused.parent, FacetsPanel)

    # -- the panes -------------------------------------------------------------------------
    def set_query(self, query: str) -> None:
        """Put ``query`` in the search box and search it."""
        self.query_one(SearchBox).value = query

    @property
    def query_text(self) -> str:
        """The query searched now."""
        return self.search.query

    def highlight_query(self) -> str:
        return self.search.query

    def refresh_results(self) -> None:
        """Search again with the same query and sort, keeping the cursor on its paper."""
        self.search.search(self.search.query, immediate=True, keep=True)

    def triage_counted(self, change: int) -> None:
        self.search.update_status(change)
        if self.search.for_you:  # learn from the key after its frame, then reorder
            self.app.call_after_refresh(self.run_worker, self._learn_again, thread=True,
                                        group="for-you", exclusive=True,
                                        exit_on_error=False)

    def _learn_again(self) -> None:
        if self.library.refresh_recommendations():
            self.post_message(Relearned())

    def on_relearned(self, message: Relearned) -> None:
        if self.search.for_you:
            self.refresh_results()

    def context_lines(self, detail: PaperDetail) -> tuple[str, ...]:
        lines = super().context_lines(detail)
        shown = self.results_list.results
        if self.search.for_you and shown is not None and shown.sort == FOR_YOU:  # learned
            why = self.library.why(detail.id)
            if why:
                lines = (*lines, f"for you: {why}")
        return lines

    # -- the reviews (the work in controllers/reviews.py) ---------------------------------
    def show_current(self) -> None:
        super().show_current()
        self.reviews.paper_shown(self.abstract, self.query_one("#panes"))

    def action_toggle_reviews(self) -> None:
        self.reviews.toggle(self.abstract, self.query_one("#panes"))

    def on_rating_moved(self, message: RatingMoved) -> None:
        self.reviews.rating_moved(message, self.abstract)

    def on_reviews_read(self, message: ReviewsRead) -> None:
        self.reviews.reviews_read(message)

    def library_shown(self) -> None:
        """Results are on screen: the editors can be built (once, soon after the first)."""
        self.editing.plan_editors()

    def _cursor_moved(self) -> None:
        """The list's cursor moved: show its paper in the same frame as the cursor (a
        Highlighted message would arrive only after that frame, costing a second one; the
        main list posts none). Not while another results screen is in front."""
        front = self.app.screen
        if front is self or not isinstance(front, ResultsScreen):
            self.show_if_changed()

    def on_results_list_open_abstract(self, _message: ResultsList.OpenAbstract) -> None:
        self.set_focus(self.reading_pane())

    def on_results_ready(self, message: ResultsReady) -> None:
        self.search.apply(message)
        self.refresh_facets()
        if not collector.tuned():
            self.app.call_after_refresh(collector.tune)

    # -- the search box --------------------------------------------------------------------
    def on_input_changed(self, message: Input.Changed) -> None:
        if isinstance(message.input, SearchBox):
            self.search.search(message.value)

    def on_input_blurred(self, message: Input.Blurred) -> None:
        """Typing is over: wrap the paper after the cursor now (skipped while typing)."""
        if isinstance(message.input, SearchBox):
            results = self.results_list
            self.app.call_after_refresh(self.prepare_next, results, results.results,
                                        self.abstract, results.cursor)

    def on_input_submitted(self, message: Input.Submitted) -> None:
        if isinstance(message.input, SearchBox):
            message.input.remember(message.value)
            self.search.search(message.value, immediate=True)
            self.set_focus(self.results_list)
            self.results_list.cursor = 0

    # -- the search keys -------------------------------------------------------------------
    def action_focus_search(self) -> None:
        # Focus now, not after the queued keys: "/" typed fast with a query must not send
        # the query's letters to the results as commands. (Same for every focus move here.)
        self.set_focus(self.query_one(SearchBox))

    def action_more_like_this(self) -> None:
        paper = self.current_paper()
        if paper is None:
            return
        self.search.similar(paper.id, paper.label[:40])
        self.say(f"papers like “{paper.label[:40]}” ({self.key_hint('leave-similar')}: back)")

    def action_leave_similar(self) -> None:
        if self.search.mode:
            self.search.search(self.search.query, immediate=True, keep_id=self.search.similar_to)

    def action_cycle_sort(self) -> None:
        self.say(f"sorted by {self.search.cycle_sort()}")

    def action_pick_sort(self) -> None:
        from paper_tui.tui.screens.sort_picker import SortPicker

        def chosen(sort: str | None) -> None:
            if sort:
                self.say(f"sorted by {self.search.sort_by(sort)}")

        self.app.push_screen(SortPicker(self.search.sort, self.library.sorts()), chosen)

    def action_sync(self) -> None:
        if self.team_sync.start():
            self.run_worker(self.team_sync.run, thread=True, group="sync",
                            exit_on_error=False)

    def on_sync_progress(self, message: SyncProgress) -> None:
        self.team_sync.progress(message)

    def on_sync_done(self, message: SyncDone) -> None:
        self.team_sync.done(message)

    def action_fetch_watches(self) -> None:
        """The palette's "Fetch watches": ``paper-tui fetch --watches`` in a worker."""
        if self.watch_fetch.start():
            self.run_worker(self.watch_fetch.run, thread=True, group="watches")

    def on_watches_progress(self, message: WatchesProgress) -> None:
        self.watch_fetch.progress(message)

    def on_watches_done(self, message: WatchesDone) -> None:
        self.watch_fetch.done(message)

    def watch_news(self, new: int | None) -> None:
        """Say ``12 new in your watches`` in the status line (None: say nothing)."""
        self.search.watch_news = new
        self.search.update_status()

    def action_team(self) -> None:
        from paper_tui.tui.screens.team_screen import TeamScreen

        def opened(query: str) -> None:
            self.set_query(query)
            self.say(f"team: {query}")

        self.app.push_screen(TeamScreen(self.library, self.queries, self.search.query, opened))

    def action_reading_lists(self) -> None:
        from paper_tui.tui.screens.lists_screen import ListsScreen

        self.app.push_screen(ListsScreen(self.library), lambda _: self.refresh_current())

    # -- facets ----------------------------------------------------------------------------
    async def action_toggle_facets(self) -> None:
        """Show the facets panel and go into it; from inside it, hide it (the focus goes
        back to the results)."""
        panels = self.query(FacetsPanel)
        panel = panels.first() if panels else None
        if panel is not None and panel.display and panel.has_focus_within:
            panel.display = False
            self.set_focus(self.results_list)
            return
        if panel is None:
            panel = FacetsPanel(id="facets")
            await self.query_one("#panes").mount(panel)
        panel.display = True
        panel.update_for(self.queries, self.library, self.search.query)
        self.set_focus(panel.query_one(FacetOptions))

    def refresh_facets(self) -> None:
        """The query changed: recount the facets if the panel is shown."""
        for panel in self.query(FacetsPanel):
            if panel.display:
                panel.update_for(self.queries, self.library, self.search.query)

    def annotations_counted(self) -> None:
        """The annotations changed (the status line's recount, once per burst of keys):
        the facets count again if shown, else when shown next."""
        for panel in self.query(FacetsPanel):
            panel.annotations_changed()
        self.refresh_facets()

    def on_facets_panel_chosen(self, message: FacetsPanel.Chosen) -> None:
        """Narrow the query, and back to its results (as Enter in the search box)."""
        self.set_query(narrow(self.search.query, message.field, message.value))
        self.set_focus(self.results_list)
        self.say(f"narrowed to {message.term}")

    def on_facets_panel_left(self, _message: FacetsPanel.Left) -> None:
        self.set_focus(self.results_list)

    # -- import ----------------------------------------------------------------------------
    def start_import(self, paths: Sequence[Path]) -> None:
        """Import ``paths`` in a worker with a progress bar; the app stays usable."""
        bar = ImportProgress(id="import")
        self.mount(bar)
        bar.start(self.library, paths)

    def on_import_progress_done(self, message: ImportProgress.Done) -> None:
        for bar in self.query(ImportProgress):
            bar.remove()
        report = message.report
        if report is None:
            self.say(f"import failed: {message.error}", severity="error", timeout=15)
            return
        self.say(summary(report), severity="error" if report.errors else "information",
                 timeout=15 if report.errors else 5)
        if report.sources:
            self.set_query(" OR ".join(f"source:{s}" for s in report.sources))
        else:
            self.refresh_results()
