"""The one-key annotation actions: triage, star, next new, undo, open the paper's link.

Each calls one core function (the same the CLI calls), then confirms itself in the status
line. None waits on disk: the annotation store saves off the UI's path, and the browser
runs in a worker. A key redraws only what it changed (see :meth:`TriageController.redraw`),
so its confirmation and the next paper arrive in one frame.
"""

from __future__ import annotations

import os
import sys
import webbrowser
from typing import TYPE_CHECKING

from paper_tui.inert import inert_line

if TYPE_CHECKING:
    from paper_tui.store import Annotations
    from paper_tui.tui.host import ResultsHost

STATUS_WORDS = {"to-read": "to read", "read": "read", "skipped": "skipped", "new": "new"}


def _has_graphical_browser() -> bool:
    """False over SSH or on a console, where webbrowser would start a text browser that
    takes over our terminal."""
    if os.environ.get("BROWSER") or sys.platform in ("darwin", "win32"):
        return True
    return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))


def selected_ids(host: ResultsHost) -> list[str]:
    """The marked papers, or else the one under the cursor."""
    results = host.results_list
    if results.marked:
        return sorted(results.marked)
    paper = results.current_paper()
    return [paper.id] if paper else []


def writable_store(host: ResultsHost) -> Annotations | None:
    """The annotation store, or None (said in a notification) when it is read-only."""
    store = host.library.annotations
    if store.read_only_reason:
        host.say(f"annotations are read-only: {store.read_only_reason}",
                 severity="error", timeout=6)
        return None
    return store


class TriageController:
    """The annotation keys of one screen's results list."""

    def __init__(self, host: ResultsHost) -> None:
        self.host = host

    def redraw(self, count: int, advance: bool = False, triaged_change: int = 0) -> None:
        """Redraw what a change to ``count`` papers altered, in the key's one frame: for
        the paper under the cursor its row, the abstract view and the status line (and,
        ``advance`` and the config willing, move on to the next paper); else every row."""
        host = self.host
        results = host.results_list
        if count != 1 or results.marked:
            host.refresh_current()
            return
        if (advance and host.config.get("triage.advance_after_triage", True)
                and results.cursor < len(results) - 1):
            results.cursor += 1  # repaints the row left and the row reached
        else:
            results.refresh_line(results.cursor)
        host.show_if_changed()  # now, not a frame later when Highlighted arrives
        host.triage_counted(triaged_change)

    def _subject(self, ids: list[str]) -> str:
        if len(ids) == 1:
            paper = self.host.results_list.current_paper()
            if paper is not None and paper.id == ids[0]:
                label = paper.label
                return f"“{label[:40]}…”" if len(label) > 41 else f"“{label}”"
            return ids[0]
        return f"{len(ids)} papers"

    def set_status(self, status: str) -> None:
        ids = selected_ids(self.host)
        store = writable_store(self.host)
        if not ids or store is None:
            return
        was_new = sum(store.get(paper_id).status == "new" for paper_id in ids)
        store.set_status(ids, status)
        self.host.say(f"{STATUS_WORDS.get(status, status)}: {self._subject(ids)}")
        change = was_new if status != "new" else was_new - len(ids)
        self.redraw(len(ids), advance=True, triaged_change=change)

    def star(self) -> None:
        ids = selected_ids(self.host)
        store = writable_store(self.host)
        if not ids or store is None:
            return
        starred = store.toggle_star(ids)
        self.host.say(f"{'starred' if starred else 'unstarred'}: {self._subject(ids)}")
        self.redraw(len(ids))

    def next_new(self) -> None:
        results = self.host.results_list
        annotations = self.host.library.annotations
        total = len(results)
        for step in range(1, total + 1):
            i = (results.cursor + step) % total
            if annotations.get(results.results.paper(i).id).status == "new":
                results.cursor = i
                self.host.say(f"next new paper: {i + 1:,} of {total:,}")
                return
        self.host.say("no new papers left in these results")

    def undo(self) -> None:
        store = writable_store(self.host)
        if store is None:
            return
        done = store.undo()
        self.host.say(f"undone: {done}" if done else "nothing to undo")
        self.host.refresh_current()

    def open_url(self) -> None:
        paper = self.host.results_list.current_paper()
        # inert: it goes to the clipboard (pasted into a shell later) or a browser's argv
        url = inert_line(paper.url or paper.pdf) if paper else ""
        if not url:
            self.host.say("this paper has no link")
            return
        app = self.host.app
        if not _has_graphical_browser():
            app.copy_to_clipboard(url)
            self.host.say(f"no browser here; link copied: {url}", timeout=5)
            return
        app.run_worker(lambda: webbrowser.open(url), thread=True, group="browser")
        self.host.say(f"opening {url}")
