"""The editing keys: tags, notes, reading lists, citations and marks.

Every action works on the selection (:func:`~paper_tui.tui.controllers.triage.selected_ids`):
the marked papers, or else the one under the cursor. The dialogs come from the screen
(:class:`~paper_tui.tui.host.Dialogs`): the tag and note editors are built once and
reused, and no dialog is imported before the first paint.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual.message import Message

from paper_tui.model import Paper
from paper_tui.tui.controllers.triage import selected_ids, writable
from paper_tui.tui.widgets.results import ResultsList
from paper_tui.vocabulary import count

if TYPE_CHECKING:
    from paper_tui.library import Results
    from paper_tui.tui.controllers.citing import CitingController
    from paper_tui.tui.host import Dialogs, EditedTags, ResultsHost

BUILD_EDITORS_AFTER = 0.2
"""Seconds after the first results are shown (so the first paint never waits for it)."""


class AllMarked(Message):
    """The ids of every hit of ``shown`` (read in a worker) to mark in ``results_list``."""

    def __init__(self, results_list: ResultsList, shown: Results, ids: list[str]) -> None:
        super().__init__()
        self.results_list = results_list
        self.shown = shown
        self.ids = ids


class EditingController:
    """The editing keys of one screen's results list."""

    def __init__(self, host: ResultsHost, dialogs: Dialogs, citing: CitingController
                 ) -> None:
        self.host = host
        self.dialogs = dialogs
        self.citing = citing
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
            self.host.app.set_timer(BUILD_EDITORS_AFTER, self.dialogs.build_editors)

    def edit_tags(self) -> None:
        ids = selected_ids(self.host)
        paper = self.host.results_list.current_paper()
        title = f"Tags of {paper.label}" if paper and ids == [paper.id] else None
        if ids and writable(self.host):
            self.host.app.push_screen(self.dialogs.tag_editor(ids, title), self._tags_edited)

    def _tags_edited(self, change: EditedTags | None) -> None:
        if change is not None:
            self.host.say(change.summary())
            self.host.refresh_current()

    def edit_note(self) -> None:
        paper = self.host.results_list.current_paper()
        if paper is not None and writable(self.host):
            self.host.app.push_screen(self.dialogs.note_editor(paper.id, paper.label),
                                      self._note_edited)

    def _note_edited(self, saved: bool | None) -> None:
        if saved:
            self.host.say("note saved")
            self.host.refresh_current()

    def add_to_list(self) -> None:
        ids = selected_ids(self.host)
        if ids and writable(self.host):
            self.host.app.push_screen(self.dialogs.list_picker(ids),
                                      lambda name: self._added_to_list(ids, name))

    def _added_to_list(self, ids: list[str], name: str | None) -> None:
        if name:
            self.host.say(f"added {count(len(ids), 'paper')} to {name!r}")
            self.host.refresh_current()

    def copy_citation(self) -> None:
        self.citing.copy(self._selected_papers())

    def copy_citation_as(self) -> None:
        self.citing.copy_as(self._selected_papers())

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
