"""The watches fetched in the app (the palette's "Fetch watches"): ``Library.fetch_watches``
in a thread worker that only posts messages, its progress in the status line, then what
was new (``12 new in your watches`` stays in the status line until the reader searches
``added:`` or ``watch:``) and the results searched again."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Protocol

from textual.message import Message

from paper_tui.errors import PaperTuiError

if TYPE_CHECKING:
    from paper_tui.library import Library


class WatchesHost(Protocol):
    library: Library

    def say(self, message: str, *, severity: str = "information",
            timeout: float = 2.0) -> None: ...
    def post_message(self, message: Message) -> bool: ...
    def refresh_results(self) -> None: ...
    def watch_news(self, new: int | None) -> None: ...


class WatchesProgress(Message):
    def __init__(self, stage: str, done: int, total: int | None) -> None:
        super().__init__()
        self.stage = stage
        self.done = done
        self.total = total


class WatchesDone(Message):
    def __init__(self, lines: tuple[str, ...], new: int, failed: tuple[str, ...],
                 error: str | None = None) -> None:
        """``lines``: a line per watch that ran; ``new``: papers new in them all;
        ``failed``: the line of each watch that failed; ``error``: why none ran."""
        super().__init__()
        self.lines = lines
        self.new = new
        self.failed = failed
        self.error = error


LOOKED = re.compile(r"(?<![\w\"])(?:added|watch):", re.IGNORECASE)
"""A query that looks at what came in: the reader has seen the news."""


def news(new: int) -> str:
    """What the status line says after a fetch of the watches."""
    return f"{new:,} new in your watches"


class WatchesController:
    def __init__(self, host: WatchesHost) -> None:
        self.host = host
        self.running = False

    def start(self) -> bool:
        """Begin fetching the watches unless it runs already; False when it did, or when
        there are no watches (both said in the status line)."""
        if self.running:
            self.host.say("the watches are being fetched already")
            return False
        if not self.host.library.watches():
            self.host.say("no watches yet: paper-tui watch add NAME SOURCE [--query Q]",
                          severity="warning", timeout=6)
            return False
        self.running = True
        self.host.say("watches: starting", timeout=30)
        return True

    def run(self) -> None:
        """The worker thread's part: fetch every watch's source, import what came."""
        def progress(stage: str, done: int, total: int | None) -> None:
            self.host.post_message(WatchesProgress(stage, done, total))

        try:
            report = self.host.library.fetch_watches(progress=progress)
        except PaperTuiError as exc:  # e.g. the library's lock held for too long
            self.host.post_message(WatchesDone((), 0, (), str(exc)))
            return
        failed = tuple(o.line() for o in report.outcomes if o.failed or o.problem)
        self.host.post_message(WatchesDone(
            tuple(o.line() for o in report.outcomes if not o.failed), report.new,
            failed + ((report.not_kept,) if report.not_kept else ())))

    def progress(self, message: WatchesProgress) -> None:
        of = f"/{message.total:,}" if message.total else ""
        papers = f": {message.done:,}{of} papers" if message.done else ""
        self.host.say(f"watches: {message.stage}{papers}", timeout=30)

    def done(self, message: WatchesDone) -> None:
        self.running = False
        if message.error:
            self.host.say(f"watches: {message.error}", severity="error", timeout=10)
            return
        if message.failed:
            self.host.say(f"watches: {' · '.join(message.failed)}", severity="error",
                          timeout=10)
        else:
            self.host.say(f"watches: {' · '.join(message.lines)}", timeout=6)
        self.host.watch_news(message.new if message.new else None)
        self.host.refresh_results()  # what came in may be among the hits
