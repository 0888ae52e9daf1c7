"""The one-key annotation actions: triage, star, next new, undo, open the paper's link or
its code.

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

from paper_tui.trust.inert import inert_line
from paper_tui.vocabulary import count, status_label

if TYPE_CHECKING:
    from paper_tui.tui.host import ResultsHost


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


def writable(host: ResultsHost) -> bool:
    """Whether annotations can be changed now; when not, the reason is said (a
    notification)."""
    reason = host.library.read_only_reason
    if reason:
        host.say(f"annotations are read-only: {reason}", severity="error", timeout=6)
        return False
    return True


def quoted_title(label: str) -> str:
    """A paper's title as a message quotes it: “…”, cut after 40 characters."""
    return f"“{label[:40]}…”" if len(label) > 41 else f"“{label}”"


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
        if (advance and host.settings.triage.advance_after_triage
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
                return quoted_title(paper.label)
            return ids[0]
        return count(len(ids), "paper")

    def set_status(self, status: str) -> None:
        ids = selected_ids(self.host)
        library = self.host.library
        if not writable(self.host) or not ids:
            return
        was_new = sum(library.annotation(paper_id).status == "new" for paper_id in ids)
        library.set_status(ids, status)
        self.host.say(f"{status_label(status)}: {self._subject(ids)}")
        change = was_new if status != "new" else was_new - len(ids)
        self.redraw(len(ids), advance=True, triaged_change=change)

    def star(self) -> None:
        ids = selected_ids(self.host)
        if not writable(self.host) or not ids:
            return
        starred = self.host.library.toggle_star(ids)
        self.host.say(f"{'starred' if starred else 'unstarred'}: {self._subject(ids)}")
        self.redraw(len(ids))

    def next_new(self) -> None:
        results = self.host.results_list
        shown = results.results
        library = self.host.library
        total = len(results)
        for step in range(1, total + 1):
            i = (results.cursor + step) % total
            if shown is not None and library.annotation(shown.paper(i).id).status == "new":
                results.cursor = i
                self.host.say(f"next new paper: {i + 1:,} of {total:,}")
                return
        self.host.say("no new papers left in these results")

    def undo(self) -> None:
        if not writable(self.host):
            return
        done = self.host.library.undo()
        self.host.say(f"undone: {self._titled(done)}" if done else "nothing to undo")
        self.host.refresh_current()

    def _titled(self, done: str) -> str:
        """What an undo undid, the paper it was on named by its title (the annotations
        describe a change as ``status read on ID``)."""
        what, on, subject = done.rpartition(" on ")
        paper = self.host.library.lookup(subject) if on else None
        return f"{what} on {quoted_title(paper.label)}" if paper is not None else done

    def open_url(self) -> None:
        paper = self.host.results_list.current_paper()
        self._open((paper.url or paper.pdf) if paper else "", "this paper has no link")

    def open_code(self) -> None:
        paper = self.host.results_list.current_paper()
        self._open(paper.code if paper else "", "this paper has no link to its code")

    def _open(self, link: str, missing: str) -> None:
        """Open ``link`` in the browser; without a display, copy it."""
        # inert: it goes to the clipboard (pasted into a shell later) or a browser's argv
        url = inert_line(link)
        if not url:
            self.host.say(missing)
            return
        app = self.host.app
        if not _has_graphical_browser():  # nor a clipboard: through the terminal
            from paper_tui.clipboard import sent_through_terminal

            app.copy_to_clipboard(url)
            self.host.say(f"no browser here; {sent_through_terminal(f'the link {url}').message}",
                          timeout=8)
            return
        app.run_worker(lambda: webbrowser.open(url), thread=True, group="browser")
        self.host.say(f"opening {url}")
