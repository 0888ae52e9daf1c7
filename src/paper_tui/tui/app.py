"""The paper-tui app: layout, key bindings and the wiring between panes and the library.

How to wire a screen in (part 2 editors, pickers, …):

* give the action a ``Binding(key, "action_name", "Label", id="my-action")`` in
  ``PaperApp.BINDINGS`` (the id makes it remappable, listed in help and the palette);
* in ``action_my_action`` push your screen: ``self.push_screen(MyScreen(...), callback)``;
* talk to the app only through its small surface: ``app.library``, ``app.annotations``,
  ``app.current_paper()``, ``app.selected_ids()``, ``app.refresh_results()``,
  ``app.refresh_current()``, ``app.set_query(q)``, ``app.say(message)``;
* side panels (facets) can be mounted into ``#panes`` next to ``#results``.
"""

from __future__ import annotations

import gc
from collections import deque
from collections.abc import Iterable
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

from textual.app import App, ComposeResult, SystemCommand
from textual.binding import Binding
from textual.containers import Horizontal
from textual.message import Message
from textual.screen import Screen
from textual.widgets import Footer, Input

from paper_tui.config import Config
from paper_tui.errors import StoreError
from paper_tui.library import Library
from paper_tui.model import Paper
from paper_tui.tui import keymap as keymap_mod
from paper_tui.tui import themes as themes_mod
from paper_tui.tui.actions import TriageActions
from paper_tui.tui.editing import EDITING_BINDINGS, EditingActions
from paper_tui.tui.search import ResultsReady, SearchController
from paper_tui.tui.widgets.abstract import AbstractView
from paper_tui.tui.widgets.results import ResultsList
from paper_tui.tui.widgets.search_box import SearchBox
from paper_tui.tui.widgets.status_line import StatusLine

if TYPE_CHECKING:
    from paper_tui.store import Annotation, Annotations

DEFAULT_THEME = "paper-dark"
SAID_KEPT = 50
GC_YOUNG_OBJECTS = 50_000
"""Allocations between automatic collections of young objects once the app is up (Python's
default, 700, collects several times inside every key's frame); the app collects them
itself after each frame instead."""


class SaveState(Message):
    """From the annotation store's thread: a save failed or recovered, or files changed."""

    def __init__(self, error: str | None, changed: bool = False) -> None:
        self.error = error
        self.changed = changed
        super().__init__()


class PaperApp(EditingActions, TriageActions, App[None]):
    """Search on top, results and abstract side by side (stacked when narrow), status, keys."""

    CSS_PATH = Path(__file__).with_name("app.tcss")  # absolute: subclasses live elsewhere
    TITLE = "paper-tui"
    HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (120, "-wide")]

    BINDINGS = [
        # priority: runs as the key arrives, before keys typed right after it are handed to
        # the focused pane (so "/query" typed in one burst lands in the search box)
        Binding("slash", "focus_search", "Search", id="search", priority=True),
        Binding("i", "triage('to-read')", "To read", id="to-read",
                tooltip="Mark as to read"),
        Binding("r", "triage('read')", "Read", id="read", tooltip="Mark as read"),
        Binding("x", "triage('skipped')", "Skip", id="skip", tooltip="Mark as skipped"),
        Binding("s", "star", "Star", id="star", tooltip="Star / unstar"),
        Binding("space", "next_new", "Next new", id="next-new",
                tooltip="Jump to the next paper still new"),
        Binding("z", "undo", "Undo", id="undo", tooltip="Undo the last annotation change"),
        Binding("o", "open_url", "Open", show=False, id="open-url",
                tooltip="Open the paper's page in the browser"),
        Binding("m", "more_like_this", "Like this", show=False, id="more-like-this",
                tooltip="List papers like this one"),
        Binding("escape", "leave_similar", "Back", show=False, id="leave-similar",
                tooltip="Back from 'like this' to the query's results"),
        Binding("S", "cycle_sort", "Sort", show=False, id="sort",
                tooltip="Sort by relevance, year or title"),
        Binding("question_mark", "help", "Help", id="help", tooltip="Show every key"),
        Binding("ctrl+p", "command_palette", "Commands", show=False, priority=True,
                id="command-palette", tooltip="Command palette (every action, themes)"),
        Binding("q", "quit", "Quit", id="quit", tooltip="Quit"),
        *EDITING_BINDINGS,
    ]

    def __init__(self, library: Library, config: Config, *,
                 theme_dirs: Iterable | None = None, import_paths: Iterable = ()) -> None:
        super().__init__()
        self.import_paths = list(import_paths)
        self.library = library
        self.config = config
        self.problems: list[str] = list(config.problems)
        self._register_themes(theme_dirs)
        self.search_control = SearchController(self)
        self._shown: tuple | None = None
        """(result set, cursor, annotation) the abstract view shows: skip redundant redraws."""
        self.said: deque[str] = deque(maxlen=SAID_KEPT)
        """The last confirmations shown (:meth:`say`), newest last."""
        self._gc_threshold: tuple[int, int, int] | None = None
        """Python's collector thresholds before :meth:`_tune_collector` (put back on exit)."""

    # -- layout ----------------------------------------------------------------------------
    def compose(self) -> ComposeResult:
        yield SearchBox(history_size=int(self.config.get("search.history_size", 100)),
                        placeholder="Search: words, \"phrases\", title: author: year: …",
                        id="search")
        with Horizontal(id="panes"):
            yield ResultsList(self.annotation_of, announce=False, id="results")
            yield AbstractView(id="abstract")
        yield StatusLine(id="status")
        yield Footer()

    def on_mount(self) -> None:
        known = keymap_mod.binding_ids(self._binding_nodes())
        keymap, problems = keymap_mod.config_keymap(self.config.get("keymap") or {}, known)
        self.problems += problems
        self.keymap = self._normalize_keymap(keymap)
        self.set_keymap(self.keymap)
        self.theme_changed_signal.subscribe(self, self._theme_changed)
        for problem in self.problems:
            self.notify(problem, title="config", severity="warning", timeout=10)
        self.annotations.add_save_listener(self._saved)
        self.annotations.add_change_listener(self._changed_elsewhere)
        self._main_results = self.query_one(ResultsList)
        self._main_abstract = self.query_one(AbstractView)
        self._status_line = self.query_one(StatusLine)
        self.watch(self._main_results, "cursor", self._main_cursor_moved, init=False)
        self._main_results.focus()
        self.search_control.search("", immediate=True)
        if self.import_paths:
            self.start_import(self.import_paths)

    # -- themes ----------------------------------------------------------------------------
    def _register_themes(self, theme_dirs: Iterable | None) -> None:
        found, problems = themes_mod.load_themes(theme_dirs if theme_dirs is not None
                                                 else themes_mod.theme_dirs())
        self.problems += problems
        for theme in found:
            self.register_theme(theme)
        wanted = themes_mod.saved_theme() or str(self.config.get("theme", DEFAULT_THEME))
        if wanted not in self.available_themes:
            self.problems.append(f"config theme: no theme named {wanted!r}; "
                                 f"using {DEFAULT_THEME}")
            wanted = DEFAULT_THEME if DEFAULT_THEME in self.available_themes else "textual-dark"
        self._chosen_theme = wanted
        self.theme = wanted

    def _theme_changed(self, theme: Any) -> None:
        if theme.name != self._chosen_theme:
            self._chosen_theme = theme.name
            self.say(f"theme: {theme.name} (remembered)")
            self.run_worker(partial(themes_mod.save_theme, theme.name), thread=True,
                            group="state")

    # -- the surface other screens use -----------------------------------------------------
    @property
    def annotations(self) -> Annotations:
        return self.library.annotations

    def annotation_of(self, paper_id: str) -> Annotation:
        return self.library.annotations.get(paper_id)

    @property
    def results_list(self) -> ResultsList:
        """The active screen's results list (an opened reading list has its own), else the
        main screen's: the keys act on what the reader sees."""
        screen = self.screen
        if screen is self.screen_stack[0]:  # the common case, without a DOM query per key
            return self._main_results
        here = screen.query("#results")
        return here.first(ResultsList) if here else self._main_results

    @property
    def main_results(self) -> ResultsList:
        """The main screen's results list, whatever screen is on top."""
        return self._main_results

    @property
    def status_line(self) -> StatusLine:
        """The main screen's status line."""
        return self._status_line

    def current_paper(self) -> Paper | None:
        return self.results_list.current_paper()

    def selected_ids(self) -> list[str]:
        """The marked papers, or else the one under the cursor."""
        results = self.results_list
        if results.marked:
            return sorted(results.marked)
        paper = results.current_paper()
        return [paper.id] if paper else []

    def refresh_results(self) -> None:
        """Search again with the same query and sort, keeping the cursor on its paper."""
        self.search_control.search(self.search_control.query, immediate=True, keep=True)

    def refresh_current(self) -> None:
        """Redraw the rows and the abstract view (after an annotation change)."""
        self.results_list.refresh()
        self.show_current()
        self.search_control.update_status()

    def set_query(self, query: str) -> None:
        """Put ``query`` in the search box and search it."""
        self.query_one(SearchBox).value = query

    def say(self, message: str, *, severity: str = "information", timeout: float = 2.0
            ) -> None:
        """Confirm an action in the status line: one line repainted, no layout (a toast
        would mount a widget and lay the screen out again on every key). Warnings and
        errors, and anything said while the main screen is hidden, are also a toast."""
        self.said.append(message)
        main_visible = self.screen_stack[0].is_current
        if main_visible:
            self._status_line.say(message, severity=severity, timeout=timeout)
        if severity != "information" or not main_visible:
            self.notify(message, severity=severity, timeout=timeout)  # type: ignore[arg-type]

    # -- wiring ----------------------------------------------------------------------------
    def show_current(self) -> None:
        """Show the paper under the cursor, as it is now, in the abstract view; once that
        frame is out, wrap the next paper ahead (the one a triage key moves to)."""
        results = self.results_list
        paper = results.current_paper()
        view = (self._main_abstract if results is self._main_results
                else results.screen.query_one(AbstractView))
        if paper is None:
            view.show(None)
        else:
            note = self.annotation_of(paper.id)
            view.show(paper, note, self.library.lists.lists_of(paper.id),
                      results.highlights(results.cursor))
            self.call_after_refresh(self._prepare_next, results, results.results, view,
                                    results.cursor)
        self._shown = (results.results, results.cursor, note if paper else None)

    def _prepare_next(self, results: ResultsList, shown: Any, view: AbstractView,
                      cursor: int) -> None:
        """Wrap the paper after ``cursor`` and draw its row as the cursor's, unless the
        reader has moved on already."""
        if (results.results is not shown or results.cursor != cursor
                or cursor + 1 >= len(results) or not view.is_mounted):
            return
        if isinstance(self.focused, SearchBox):  # typing: the next key brings other results
            if self._gc_threshold is not None:
                gc.collect(0)
            return
        paper = results.results.paper(cursor + 1)
        view.prepare(paper, self.annotation_of(paper.id), self.library.lists.lists_of(paper.id),
                     results.highlights(cursor + 1))
        results.prepare_row(cursor + 1)
        if self._gc_threshold is not None:
            gc.collect(1)  # the key's garbage, now rather than inside the next key

    def show_if_changed(self) -> None:
        """:meth:`show_current` unless the abstract view shows that paper as it is."""
        results = self.results_list
        paper = results.current_paper()
        now = (results.results, results.cursor,
               self.annotation_of(paper.id) if paper else None)
        if now != self._shown:
            self.show_current()

    def _main_cursor_moved(self) -> None:
        """The main list's cursor moved: show its paper in the same frame as the cursor
        (a Highlighted message would arrive only after that frame, costing a second one;
        the main list posts none)."""
        if self.results_list is self._main_results:
            self.show_if_changed()

    def on_results_list_highlighted(self, _message: ResultsList.Highlighted) -> None:
        self.show_if_changed()  # other screens' lists (the main one is watched)

    def on_results_list_open_abstract(self, _message: ResultsList.OpenAbstract) -> None:
        self.screen.set_focus(self.query_one(AbstractView))

    def on_results_ready(self, message: ResultsReady) -> None:
        self.search_control.apply(message)
        self.refresh_facets()
        if self._gc_threshold is None:
            self.call_after_refresh(self._tune_collector)

    def _tune_collector(self) -> None:
        """After the first paint: freeze what startup built (Textual, the index, the
        papers), so no collection scans it again (a full one took up to 90 ms in the middle
        of a key), and collect young objects between keys rather than inside them. numpy,
        which the search core imports on first use (~0.1 s), is imported here, while the
        reader looks at the first screen, not on their first keystroke."""
        if self._gc_threshold is None:
            self._gc_threshold = gc.get_threshold()
            import numpy  # noqa: F401

            gc.freeze()
            gc.set_threshold(GC_YOUNG_OBJECTS, *self._gc_threshold[1:])

    def on_input_changed(self, message: Input.Changed) -> None:
        if isinstance(message.input, SearchBox):
            self.search_control.search(message.value)

    def on_input_blurred(self, message: Input.Blurred) -> None:
        """Typing is over: wrap the paper after the cursor now (skipped while typing)."""
        if isinstance(message.input, SearchBox):
            results = self._main_results
            self.call_after_refresh(self._prepare_next, results, results.results,
                                    self._main_abstract, results.cursor)

    def on_input_submitted(self, message: Input.Submitted) -> None:
        if isinstance(message.input, SearchBox):
            message.input.remember(message.value)
            self.search_control.search(message.value, immediate=True)
            results = self.results_list
            self.screen.set_focus(results)
            results.cursor = 0

    def _saved(self, error: str | None) -> None:
        """The store's saver thread: a save failed (the message) or works again (None)."""
        self.post_message(SaveState(error))

    def _changed_elsewhere(self, _ids: set[str]) -> None:
        """The saver thread: another process or a hand edit changed annotations."""
        self.post_message(SaveState(None, changed=True))

    def on_save_state(self, message: SaveState) -> None:
        if message.changed:
            self.refresh_current()
        elif message.error:
            self.say(f"saving annotations failed: {message.error}", severity="error",
                     timeout=10)
        else:
            self.say("annotations are saved again")

    def on_unmount(self) -> None:
        """Every acknowledged change is on disk before the app is gone (and the collector
        is as it was)."""
        if self._gc_threshold is not None:
            gc.set_threshold(*self._gc_threshold)
            gc.unfreeze()
        try:
            self.annotations.flush()
        except StoreError as exc:
            self.log.error(f"saving annotations failed: {exc}")

    # -- actions ---------------------------------------------------------------------------
    def action_focus_search(self) -> None:
        # Focus now, not after the queued keys: "/" typed fast with a query must not send
        # the query's letters to the results as commands. (Same for every focus move here.)
        self.screen.set_focus(self.query_one(SearchBox))

    def action_help(self) -> None:
        from paper_tui.tui.screens.help import HelpScreen

        hint = ("Remap any key in your config.yaml by its id, e.g.  keymap: {star: \"*\"}  "
                "(`paper-tui config` shows where the file is).")
        self.push_screen(HelpScreen(self.live_keys(), hint))

    def live_keys(self) -> list[keymap_mod.KeyAction]:
        return keymap_mod.live_bindings(self._binding_nodes(), self.keymap)

    def _binding_nodes(self) -> list:
        main: Screen = self.screen_stack[0]
        return [self, *main.query("*")]

    def get_system_commands(self, screen: Screen) -> Iterable[SystemCommand]:
        yield from super().get_system_commands(screen)
        for key in self.live_keys():
            if key.id in ("command-palette", "quit"):
                continue
            yield SystemCommand(key.help, f"{key.description} ({key.key_display})",
                                partial(self.run_action, key.action, key.owner))
