"""The team sync in the app: `paper-tui sync` in a worker, its progress in the status line.

The worker only posts messages; what the sync takes in reaches the app like another
process's save (the annotation service's change listeners), and the results are searched
again when it is done.
"""

from __future__ import annotations

import subprocess
import sys
from typing import Protocol

from textual.message import Message

from paper_tui.cli.team import LISTED, STEP
from paper_tui.errors import PaperTuiError
from paper_tui.library import Library


class SyncHost(Protocol):
    library: Library

    def say(self, message: str, *, severity: str = "information",
            timeout: float = 2.0) -> None: ...
    def post_message(self, message: Message) -> bool: ...
    def refresh_results(self) -> None: ...
    def refresh_current(self) -> None: ...

    @property
    def query_text(self) -> str: ...


class SyncProgress(Message):
    def __init__(self, step: str) -> None:
        super().__init__()
        self.step = step


class SyncDone(Message):
    def __init__(self, summary: str | None, error: str | None, listed: bool = False) -> None:
        """``listed``: what is listed may have changed (papers or reading lists came in)."""
        super().__init__()
        self.summary = summary
        self.error = error
        self.listed = listed


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
        """The worker thread's part: `paper-tui sync` as a process of its own (its Python
        work would otherwise hold this interpreter while the reader triages); what it
        takes in reaches the app as any other process's change does."""
        command = [sys.executable, "-m", "paper_tui", "--library",
                   str(self.host.library.root), "sync", "--steps"]
        try:
            proc = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                    stderr=subprocess.PIPE, text=True)
        except OSError as exc:
            self.host.post_message(SyncDone(None, f"cannot run paper-tui sync: {exc}"))
            return
        assert proc.stderr is not None and proc.stdout is not None
        listed, errors = False, []
        for line in proc.stderr:
            line = line.rstrip("\n")
            if line == STEP + LISTED:
                listed = True
            elif line.startswith(STEP):
                self.host.post_message(SyncProgress(line.removeprefix(STEP)))
            elif line:
                errors.append(line.removeprefix("paper-tui: "))
        summary = proc.stdout.read().strip()
        if proc.wait() != 0:
            self.host.post_message(SyncDone(None, errors[-1] if errors else
                                            f"paper-tui sync stopped ({proc.returncode})"))
            return
        self.host.library.team.reload()  # parsed here, not when a paper is drawn
        self.host.post_message(SyncDone(summary.splitlines()[-1] if summary else "done",
                                        None, listed))

    def progress(self, message: SyncProgress) -> None:
        self.host.say(f"sync: {message.step}", timeout=30)

    def done(self, message: SyncDone) -> None:
        self.running = False
        if message.error:
            self.host.say(f"sync: {message.error}", severity="error", timeout=10)
        else:
            self.host.say(f"sync: {message.summary}", timeout=6)
            if message.listed or "by:" in self.host.query_text:
                self.host.refresh_results()  # search again: the hits may differ
            else:
                self.host.refresh_current()  # the team's marks on the paper shown
