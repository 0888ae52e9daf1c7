"""The editing keys: tags, notes, reading lists, citations and marks.

Every action works on the selection (:func:`~paper_tui.tui.controllers.triage.selected_ids`):
the marked papers, or else the one under the cursor. The tag and note editors are built
once and reused (installed screens, never removed); their screens, and what they need
(TextArea, citations, export), are imported when first used, never before the first paint.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from textual.message import Message
from textual.screen import Screen

from paper_tui.model import Paper
from paper_tui.tui import textual_internals
from paper_tui.tui.controllers.triage import selected_ids, writable
from paper_tui.tui.widgets.results import ResultsList
from paper_tui.vocabulary import count

if TYPE_CHECKING:
    from paper_tui.library import Library, Results
    from paper_tui.tui.host import ResultsHost
    from paper_tui.tui.screens.note_editor import NoteEditor
    from paper_tui.tui.screens.tag_editor import TagChange, TagEditor

EDITORS = ("tag-editor", "note-editor")
"""The editors the app builds once and reuses (installed screens, never removed)."""

BUILD_EDITORS_AFTER = 0.2
"""Seconds after the first results are shown (so the first paint never waits for it)."""


def make_editor(name: str, library: Library) -> TagEditor | NoteEditor:
    """A new editor of this kind (its screen's module imported on first use)."""
    if name == "tag-editor":
        from paper_tui.tui.screens.tag_editor import TagEditor

        return TagEditor(library)
    from paper_tui.tui.screens.note_editor import NoteEditor

    return NoteEditor(library)


class AllMarked(Message):
    """The ids of every hit of ``shown`` (read in a worker) to mark in ``results_list``."""

    def __init__(self, results_list: ResultsList, shown: Results, ids: list[str]) -> None:
        super().__init__()
        self.results_list = results_list
        self.shown = shown
        self.ids = ids


class EditingController:
    """The editing keys of one screen's results list."""

    def __init__(self, host: ResultsHost) -> None:
        self.host = host
        self._editors_planned = False

    def _selected_papers(self) -> list[Paper]:
        library = self.host.library
        return [paper for pid in selected_ids(self.host)
                if (paper := library.lookup(pid)) is not None]

    # -- editors ---------------------------------------------------------------------------
    def plan_editors(self) -> None:
        """The first results are on screen: build the editors soon after, unseen, so ``t``
        and ``n`` only push a ready screen (no compose, mount or CSS on the key's path)."""
        if not self._editors_planned:
            self._editors_planned = True
            self.host.app.set_timer(BUILD_EDITORS_AFTER, self._build_editors)

    def _build_editors(self) -> None:
        for name in EDITORS:
            textual_internals.build_screen(self.host.app, self._editor(name))

    def _editor(self, name: str) -> Screen[Any]:
        """The app's one editor of this kind, installed: closing it keeps it for next time."""
        app = self.host.app
        if not app.is_screen_installed(name):
            app.install_screen(make_editor(name, self.host.library), name)
        return app.get_screen(name)

    def edit_tags(self) -> None:
        from paper_tui.tui.screens.tag_editor import TagEditor

        ids = selected_ids(self.host)
        paper = self.host.results_list.current_paper()
        title = f"Tags of {paper.label}" if paper and ids == [paper.id] else None
        if ids and writable(self.host):
            editor = self._editor("tag-editor")
            assert isinstance(editor, TagEditor)
            editor.prepare(ids, title=title)
            self.host.app.push_screen(editor, self._tags_edited)

    def _tags_edited(self, change: TagChange | None) -> None:
        if change is not None:
            self.host.say(change.summary())
            self.host.refresh_current()

    def edit_note(self) -> None:
        from paper_tui.tui.screens.note_editor import NoteEditor

        paper = self.host.results_list.current_paper()
        if paper is not None and writable(self.host):
            editor = self._editor("note-editor")
            assert isinstance(editor, NoteEditor)
            editor.prepare(paper.id, paper.label)
            self.host.app.push_screen(editor, self._note_edited)

    def _note_edited(self, saved: bool | None) -> None:
        if saved:
            self.host.say("note saved")
            self.host.refresh_current()

    def add_to_list(self) -> None:
        ids = selected_ids(self.host)
        if ids and writable(self.host):
            from paper_tui.tui.screens.list_picker import ListPicker

            self.host.app.push_screen(ListPicker(self.host.library, ids),
                                      lambda name: self._added_to_list(ids, name))

    def _added_to_list(self, ids: list[str], name: str | None) -> None:
        if name:
            self.host.say(f"added {count(len(ids), 'paper')} to {name!r}")
            self.host.refresh_current()

    def copy_citation(self) -> None:
        from paper_tui.tui.screens.style_picker import copy_citations

        papers = self._selected_papers()
        if papers:
            copy_citations(self.host.app, self.host.library, papers)

    def copy_citation_as(self) -> None:
        from paper_tui.tui.screens.style_picker import StylePicker, copy_citations

        papers = self._selected_papers()
        app, library = self.host.app, self.host.library

        def chosen(style: str | None) -> None:
            if style:
                copy_citations(app, library, papers, style)

        if papers:
            app.push_screen(StylePicker(library, papers), chosen)

    # -- marks -----------------------------------------------------------------------------
    def toggle_mark(self) -> None:
        results = self.host.results_list
        paper = results.current_paper()
        if paper is None:
            return
        results.marked.symmetric_difference_update({paper.id})
        if results.cursor < len(results) - 1:
            results.cursor += 1
        results.refresh()
        self.host.say(f"{len(results.marked):,} marked")

    def mark_all(self) -> None:
        """Mark every hit. The ids come from the index's id column (no paper is loaded), in
        a thread worker so even 87,549 hits never hold a key; the marks arrive as a message
        (:class:`AllMarked`, to the host, which hands it to :meth:`all_marked`)."""
        results = self.host.results_list
        shown = results.results
        if shown is None or not len(shown):
            return
        if len(shown) > 1000:
            self.host.say(f"marking {len(shown):,} papers…")

        def read_ids() -> None:
            ids = shown.ids()
            self.host.post_message(AllMarked(results, shown, ids))

        self.host.app.run_worker(read_ids, thread=True, exclusive=True, group="mark-all")

    def all_marked(self, message: AllMarked) -> None:
        if message.results_list.results is not message.shown:
            return  # the results changed meanwhile: these marks would surprise
        message.results_list.marked.update(message.ids)
        message.results_list.refresh()
        self.host.say(f"{len(message.results_list.marked):,} marked "
                      f"({self.host.key_hint('clear-marks')} clears)")

    def clear_marks(self) -> None:
        results = self.host.results_list
        count = len(results.marked)
        results.marked.clear()
        results.refresh()
        self.host.say(f"{count:,} unmarked" if count else "nothing was marked")
