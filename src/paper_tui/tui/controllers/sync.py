"""The team sync in the app: `paper-tui sync` in a worker, its progress in the status line.

The worker only posts messages; what the sync takes in reaches the app like another
process's save (the annotation service's change listeners), and the results are searched
again when it is done.
"""

from __future__ import annotations

import subprocess
import sys
import time
from collections.abc import Callable
from typing import Protocol

from textual.message import Message
from textual.timer import Timer

from paper_tui.library import Library
from paper_tui.team.steps import LISTED, read_step


class SyncHost(Protocol):
    library: Library

    def say(self, message: str, *, severity: str = "information",
            timeout: float = 2.0) -> None: ...
    def post_message(self, message: Message) -> bool: ...
    def refresh_results(self) -> None: ...
    def refresh_current(self) -> None: ...
    def set_timer(self, delay: float, callback: Callable[[], object]) -> Timer: ...

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


STEP_SHOWN_FOR = 0.5
"""Seconds a step stays in the status line at least ("starting" included): later steps
that come faster (four within 50 ms on a quick sync) are shown as the latest one, so a
sync of under half a second draws only its start and its outcome. Each step shown is a
frame, and a triage key pressed just after a frame waits for the next one (Textual draws
60 frames a second at most)."""


class SyncController:
    def __init__(self, host: SyncHost) -> None:
        self.host = host
        self.running = False
        self._step = ""
        self._step_shown_at = 0.0
        self._step_timer: Timer | None = None

    def start(self) -> bool:
        """Begin a sync unless one runs; False when one was running."""
        if self.running:
            self.host.say("a sync is already running")
            return False
        self.running = True
        self._show_step("starting")
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
        with self.host.library.team_syncing():  # the files it changed are read here, after
            for line in proc.stderr:
                line = line.rstrip("\n")
                step = read_step(line)
                if step == LISTED:
                    listed = True
                elif step is not None:
                    self.host.post_message(SyncProgress(step))
                elif line:
                    errors.append(line.removeprefix("paper-tui: "))
            summary = proc.stdout.read().strip()
            failed = proc.wait() != 0
        if failed:
            self.host.post_message(SyncDone(None, errors[-1] if errors else
                                            f"paper-tui sync stopped ({proc.returncode})"))
            return
        self.host.post_message(SyncDone(summary.splitlines()[-1] if summary else "done",
                                        None, listed))

    def progress(self, message: SyncProgress) -> None:
        if self._step_timer is not None:  # due soon: it will show this step instead
            self._step = message.step
            return
        wait = self._step_shown_at + STEP_SHOWN_FOR - time.monotonic()
        if wait <= 0:
            self._show_step(message.step)
        else:
            self._step = message.step
            self._step_timer = self.host.set_timer(wait, self._show_latest_step)

    def _show_latest_step(self) -> None:
        self._step_timer = None  # done() stops the timer: this never runs after the outcome
        self._show_step(self._step)

    def _show_step(self, step: str) -> None:
        self._step_shown_at = time.monotonic()
        self.host.say(f"sync: {step}", timeout=30)

    def done(self, message: SyncDone) -> None:
        self.running = False
        if self._step_timer is not None:
            self._step_timer.stop()
            self._step_timer = None
        if message.error:
            self.host.say(f"sync: {message.error}", severity="error", timeout=10)
        else:
            self.host.say(f"sync: {message.summary}", timeout=6)
            if message.listed or "by:" in self.host.query_text:
                self.host.refresh_results()  # search again: the hits may differ
            else:
                self.host.refresh_current()  # the team's marks on the paper shown
