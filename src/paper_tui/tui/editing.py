"""The app's editing keys (part 2): tags, notes, reading lists, marks, facets, import.

Mixed into :class:`~paper_tui.tui.app.PaperApp` next to the triage actions. Every action
works on ``selected_ids()``: the marked papers, or else the one under the cursor.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING

from textual.binding import Binding
from textual.message import Message
from textual.screen import ModalScreen, Screen

from paper_tui.errors import UnknownPaperError
from paper_tui.model import Paper
from paper_tui.tui.widgets.facets import FacetsPanel, narrow
from paper_tui.tui.widgets.import_progress import ImportProgress, summary
from paper_tui.tui.widgets.results import ResultsList

if TYPE_CHECKING:
    from paper_tui.tui.app import PaperApp
    from paper_tui.tui.screens.tag_editor import TagChange

    _Base = PaperApp
else:
    _Base = object

EDITING_BINDINGS = [
    Binding("t", "edit_tags", "Tags", id="tags", tooltip="Add or remove tags"),
    Binding("n", "edit_note", "Note", id="note", tooltip="Write the paper's note"),
    Binding("a", "add_to_list", "Add to list", id="add-to-list",
            tooltip="Add to a reading list (or a new one)"),
    Binding("L", "reading_lists", "Lists", id="reading-lists",
            tooltip="Reading lists: open, reorder, rename, export"),
    Binding("c", "copy_citation", "Cite", id="copy-citation",
            tooltip="Copy the citation in the default style"),
    Binding("C", "copy_citation_as", "Cite as", show=False, id="copy-citation-as",
            tooltip="Copy the citation in a style you pick"),
    Binding("v", "toggle_mark", "Mark", show=False, id="mark",
            tooltip="Mark / unmark the paper (actions then act on the marked papers)"),
    Binding("V", "mark_all", "Mark all", show=False, id="mark-all",
            tooltip="Mark every paper shown"),
    Binding("u", "clear_marks", "Clear marks", show=False, id="clear-marks",
            tooltip="Unmark all papers"),
    Binding("f", "toggle_facets", "Facets", show=False, id="facets",
            tooltip="Show / hide counts per status, tag, venue, year"),
]


class AllMarked(Message):
    """The ids of every hit of ``shown`` (read in a worker) to mark in ``results_list``."""

    def __init__(self, results_list: ResultsList, shown: object, ids: list[str]) -> None:
        super().__init__()
        self.results_list = results_list
        self.shown = shown
        self.ids = ids


ANYWHERE = {"quit", "command_palette"}
"""App actions that make sense under any screen; the others act on a results list."""
MAIN_ONLY = {"focus_search", "more_like_this", "leave_similar", "cycle_sort", "toggle_facets",
             "reading_lists"}
"""Actions on the search itself: only on the main screen, not in an opened reading list."""


EDITORS = ("tag-editor", "note-editor")
"""The editors the app builds once and reuses (installed screens, never removed)."""


def editor_class(name: str) -> type[Screen]:
    """The screen class of an editor. The screens (and what they need: TextArea,
    citations, export) are imported when first used, never before the first paint."""
    from paper_tui.tui.screens.note_editor import NoteEditor
    from paper_tui.tui.screens.tag_editor import TagEditor

    return {"tag-editor": TagEditor, "note-editor": NoteEditor}[name]


BUILD_EDITORS_AFTER = 0.2
"""Seconds after the first results are shown (so the first paint never waits for it)."""


class EditingActions(_Base):
    """Mixed into :class:`~paper_tui.tui.app.PaperApp`."""

    _editors_planned = False

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """The app's own keys act on the active screen's results list: none under a modal,
        only help on a screen without results (the lists screen), and no search keys in
        an opened reading list. Other actions (``app.pop_screen`` …) are not touched."""
        screen = self.screen
        if screen is self.screen_stack[0] or action not in self._own_actions():
            return super().check_action(action, parameters)
        if isinstance(screen, ModalScreen):
            return action in ANYWHERE
        if not screen.query("#results"):
            return action in ANYWHERE or action == "help"
        if action in MAIN_ONLY:
            return False
        return super().check_action(action, parameters)

    @classmethod
    @cache
    def _own_actions(cls) -> frozenset[str]:
        return frozenset(b.action.partition("(")[0] for b in cls.BINDINGS
                         if isinstance(b, Binding))

    def _selected_papers(self) -> list[Paper]:
        papers = []
        for pid in self.selected_ids():
            try:
                papers.append(self.library.paper(pid))
            except UnknownPaperError:
                continue
        return papers

    def _count(self, ids: Sequence[str]) -> str:
        return "1 paper" if len(ids) == 1 else f"{len(ids):,} papers"

    # -- editors ---------------------------------------------------------------------------
    def library_shown(self) -> None:
        """The first results are on screen: build the editors soon after, unseen, so ``t``
        and ``n`` only push a ready screen (no compose, mount or CSS on the key's path)."""
        if not self._editors_planned:
            self._editors_planned = True
            self.set_timer(BUILD_EDITORS_AFTER, self._build_editors)

    def _build_editors(self) -> None:
        for name in EDITORS:
            # compose and mount now (what push_screen does first for a screen not running)
            self._get_screen(self._editor(name))

    def _editor(self, name: str) -> Screen:
        """The app's one editor of this kind, installed: closing it keeps it for next time."""
        if not self.is_screen_installed(name):
            self.install_screen(editor_class(name)(self.library), name)
        return self.get_screen(name)

    def action_edit_tags(self) -> None:
        ids = self.selected_ids()
        paper = self.current_paper()
        title = f"Tags of {paper.label}" if paper and ids == [paper.id] else None
        if ids and self._store() is not None:
            editor = self._editor("tag-editor")
            editor.prepare(ids, title=title)
            self.push_screen(editor, self._tags_edited)

    def _tags_edited(self, change: TagChange | None) -> None:
        if change is not None:
            self.say(change.summary())
            self.refresh_current()

    def action_edit_note(self) -> None:
        paper = self.current_paper()
        if paper is not None and self._store() is not None:
            editor = self._editor("note-editor")
            editor.prepare(paper.id, paper.label)
            self.push_screen(editor, self._note_edited)

    def _note_edited(self, saved: bool | None) -> None:
        if saved:
            self.say("note saved")
            self.refresh_current()

    def action_add_to_list(self) -> None:
        ids = self.selected_ids()
        if ids and self._store() is not None:
            from paper_tui.tui.screens.list_picker import ListPicker

            self.push_screen(ListPicker(self.library, ids),
                             lambda name: self._added_to_list(ids, name))

    def _added_to_list(self, ids: list[str], name: str | None) -> None:
        if name:
            self.say(f"added {self._count(ids)} to {name!r}")
            self.refresh_current()

    def action_reading_lists(self) -> None:
        from paper_tui.tui.screens.lists_screen import ListsScreen

        self.push_screen(ListsScreen(self.library), lambda _: self.refresh_current())

    def action_copy_citation(self) -> None:
        from paper_tui.tui.screens.style_picker import copy_citations, default_style

        papers = self._selected_papers()
        if papers:
            copy_citations(self, papers, default_style(self))

    def action_copy_citation_as(self) -> None:
        from paper_tui.tui.screens.style_picker import StylePicker, copy_citations, default_style

        papers = self._selected_papers()
        if papers:
            self.push_screen(StylePicker(papers, default_style(self)),
                             lambda style: copy_citations(self, papers, style) if style
                             else None)

    # -- marks -----------------------------------------------------------------------------
    def action_toggle_mark(self) -> None:
        results = self.results_list
        paper = results.current_paper()
        if paper is None:
            return
        results.marked.symmetric_difference_update({paper.id})
        if results.cursor < len(results) - 1:
            results.cursor += 1
        results.refresh()
        self.say(f"{len(results.marked):,} marked")

    def action_mark_all(self) -> None:
        """Mark every hit. The ids come from the index's id column (no paper is loaded), in
        a thread worker so even 87,549 hits never hold a key; the marks arrive as a message."""
        results = self.results_list
        shown = results.results
        if shown is None or not len(shown):
            return
        if len(shown) > 1000:
            self.say(f"marking {len(shown):,} papers…")

        def read_ids() -> None:
            ids = shown.ids()
            self.post_message(AllMarked(results, shown, ids))

        self.run_worker(read_ids, thread=True, exclusive=True, group="mark-all")

    def on_all_marked(self, message: AllMarked) -> None:
        if message.results_list.results is not message.shown:
            return  # the results changed meanwhile: these marks would surprise
        message.results_list.marked.update(message.ids)
        message.results_list.refresh()
        self.say(f"{len(message.results_list.marked):,} marked (u clears)")

    def action_clear_marks(self) -> None:
        results = self.results_list
        count = len(results.marked)
        results.marked.clear()
        results.refresh()
        self.say(f"{count:,} unmarked" if count else "nothing was marked")

    # -- facets ----------------------------------------------------------------------------
    def action_toggle_facets(self) -> None:
        panels = self.query(FacetsPanel)
        if panels:
            panel = panels.first()
            panel.display = not panel.display
        else:
            panel = FacetsPanel(id="facets")
            self.query_one("#panes").mount(panel)
        if panel.display:
            panel.update_for(self.library, self.search_control.query)

    def refresh_facets(self) -> None:
        """The query changed: recount the facets if the panel is shown."""
        for panel in self.query(FacetsPanel):
            if panel.display:
                panel.update_for(self.library, self.search_control.query)

    def on_facets_panel_chosen(self, message: FacetsPanel.Chosen) -> None:
        self.set_query(narrow(self.search_control.query, message.field, message.value))
        self.say(f"narrowed to {message.term}")

    # -- import ----------------------------------------------------------------------------
    def start_import(self, paths: Sequence[Path]) -> None:
        """Import ``paths`` in a worker with a progress bar; the app stays usable."""
        bar = ImportProgress(id="import")
        self.screen_stack[0].mount(bar)
        bar.start(self.library, paths)

    def on_import_progress_done(self, message: ImportProgress.Done) -> None:
        for bar in self.screen_stack[0].query(ImportProgress):
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

    # -- quitting --------------------------------------------------------------------------
    async def action_quit(self) -> None:
        from paper_tui.tui.screens.note_editor import quit_guarded

        quit_guarded(self)
