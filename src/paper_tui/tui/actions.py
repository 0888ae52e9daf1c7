"""The app's one-key actions: triage, star, next new, undo, open, like this, sort, cite.

Each calls one core function (the same the CLI calls), then confirms itself in the status
line. None waits on disk: the annotation store saves off the UI's path, and the browser
and the clipboard run in workers. A key redraws only what it changed (see
``_after_change``), so its confirmation and the next paper arrive in one frame.
"""

from __future__ import annotations

import os
import sys
import webbrowser
from typing import TYPE_CHECKING

from textual.widgets import Input

if TYPE_CHECKING:
    from paper_tui.store import Annotations
    from paper_tui.tui.app import PaperApp

    _Base = PaperApp
else:
    _Base = object

STATUS_WORDS = {"to-read": "to read", "read": "read", "skipped": "skipped", "new": "new"}


def _has_graphical_browser() -> bool:
    """False over SSH or on a console, where webbrowser would start a text browser that
    takes over our terminal."""
    if os.environ.get("BROWSER") or sys.platform in ("darwin", "win32"):
        return True
    return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))


class TriageActions(_Base):
    """Mixed into :class:`~paper_tui.tui.app.PaperApp`."""

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """``/`` (a priority key) types a slash while the search box has the focus."""
        if action == "focus_search" and isinstance(self.focused, Input):
            return False
        return super().check_action(action, parameters)

    def _store(self) -> Annotations | None:
        """The annotation store, or None (said in a notification) when it is read-only."""
        store = self.annotations
        if store.read_only_reason:
            self.say(f"annotations are read-only: {store.read_only_reason}",
                     severity="error", timeout=6)
            return None
        return store

    def _after_change(self, count: int, advance: bool = False, triaged_change: int = 0
                      ) -> None:
        """Redraw what a change to ``count`` papers altered, in the key's one frame: for
        the paper under the cursor its row, the abstract view and the status line (and,
        ``advance`` and the config willing, move on to the next paper); else every row."""
        results = self.results_list
        if count != 1 or results.marked:
            self.refresh_current()
            return
        if (advance and self.config.get("triage.advance_after_triage", True)
                and results.cursor < len(results) - 1):
            results.cursor += 1  # repaints the row left and the row reached
        else:
            results.refresh_line(results.cursor)
        self.show_if_changed()  # now, not a frame later when Highlighted arrives
        if results is self._main_results:
            self.search_control.update_status(triaged_change)

    def _subject(self, ids: list[str]) -> str:
        if len(ids) == 1:
            paper = self.current_paper()
            if paper is not None and paper.id == ids[0]:
                label = paper.label
                return f"“{label[:40]}…”" if len(label) > 41 else f"“{label}”"
            return ids[0]
        return f"{len(ids)} papers"

    def action_triage(self, status: str) -> None:
        ids = self.selected_ids()
        store = self._store()
        if not ids or store is None:
            return
        was_new = sum(store.get(paper_id).status == "new" for paper_id in ids)
        store.set_status(ids, status)
        self.say(f"{STATUS_WORDS.get(status, status)}: {self._subject(ids)}")
        change = was_new if status != "new" else was_new - len(ids)
        self._after_change(len(ids), advance=True, triaged_change=change)

    def action_star(self) -> None:
        ids = self.selected_ids()
        store = self._store()
        if not ids or store is None:
            return
        starred = store.toggle_star(ids)
        self.say(f"{'starred' if starred else 'unstarred'}: {self._subject(ids)}")
        self._after_change(len(ids))

    def action_next_new(self) -> None:
        results = self.results_list
        total = len(results)
        for step in range(1, total + 1):
            i = (results.cursor + step) % total
            if self.annotation_of(results.results.paper(i).id).status == "new":
                results.cursor = i
                self.say(f"next new paper: {i + 1:,} of {total:,}")
                return
        self.say("no new papers left in these results")

    def action_undo(self) -> None:
        store = self._store()
        if store is None:
            return
        done = store.undo()
        self.say(f"undone: {done}" if done else "nothing to undo")
        self.refresh_current()

    def action_open_url(self) -> None:
        paper = self.current_paper()
        url = paper and (paper.url or paper.pdf)
        if not url:
            self.say("this paper has no link")
            return
        if not _has_graphical_browser():
            self.copy_to_clipboard(url)
            self.say(f"no browser here; link copied: {url}", timeout=5)
            return
        self.run_worker(lambda: webbrowser.open(url), thread=True, group="browser")
        self.say(f"opening {url}")

    def action_more_like_this(self) -> None:
        paper = self.current_paper()
        if paper is None:
            return
        self.search_control.similar(paper.id, paper.label[:40])
        self.say(f"papers like “{paper.label[:40]}” (Esc: back)")

    def action_leave_similar(self) -> None:
        if self.search_control.mode:
            self.search_control.search(self.search_control.query, immediate=True)

    def action_cycle_sort(self) -> None:
        self.say(f"sorted by {self.search_control.cycle_sort()}")
