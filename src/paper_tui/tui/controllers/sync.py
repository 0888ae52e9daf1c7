"""The team sync in the app: `paper-tui sync` in a worker, its progress in the status line.

The worker only posts messages; what the sync takes in reaches the app like another
process's save (the annotation service's change listeners), and the results are searched
again when it is done.
"""

from __future__ import annotations

from typing import Protocol

from textual.message import Message

from paper_tui.errors import PaperTuiError
from paper_tui.library import Library


class SyncHost(Protocol):
    library: Library

    def say(self, message: str, *, severity: str = "information",
            timeout: float = 2.0) -> None: ...
    def post_message(self, message: Message) -> bool: ...
    def refresh_results(self) -> None: ...


class SyncProgress(Message):
    def __init__(self, step: str) -> None:
        super().__init__()
        self.step = step


class SyncDone(Message):
    def __init__(self, summary: str | None, error: str | None) -> None:
        super().__init__()
        self.summary = summary
        self.error = error


def team_is_set_up(library: Library) -> bool:
    """Whether this library has synced with a team before (so a timer may sync it)."""
    from paper_tui.team.repo import State

    try:
        return State.load(library.root).name is not None
    except PaperTuiError:
        return False


class SyncController:
    def __init__(self, host: SyncHost) -> None:
        self.host = host
        self.running = False

    def start(self) -> bool:
        """Begin a sync unless one runs; False when one was running."""
        if self.running:
            self.host.say("a sync is already running")
            return False
        self.running = True
        self.host.say("sync: starting", timeout=30)
        return True

    def run(self) -> None:
        """The worker thread's part."""
        from paper_tui.team.sync import run_sync

        try:
            summary = run_sync(self.host.library,
                               lambda step: self.host.post_message(SyncProgress(step)))
            self.host.library.team.reload()  # parsed here, not when a paper is drawn
        except PaperTuiError as exc:
            self.host.post_message(SyncDone(None, str(exc)))
        else:
            self.host.post_message(SyncDone(summary, None))

    def progress(self, message: SyncProgress) -> None:
        self.host.say(f"sync: {message.step}", timeout=30)

    def done(self, message: SyncDone) -> None:
        self.running = False
        if message.error:
            self.host.say(f"sync: {message.error}", severity="error", timeout=10)
        else:
            self.host.say(f"sync: {message.summary}", timeout=6)
            self.host.refresh_results()
