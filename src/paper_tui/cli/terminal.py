"""What the command line draws on the terminal besides its output: warnings, the
progress line of an import or an index rebuild (handed to the library's context) and a
fetch's progress bar."""

from __future__ import annotations

import os
import sys
import time
from collections import deque
from collections.abc import Callable

from paper_tui.cli.streams import write_control
from paper_tui.trust.inert import inert_line


def warn(message: str) -> None:
    """One line on stderr (a file name or detail in ``message`` never breaks it)."""
    print(f"paper-tui: {inert_line(message)}", file=sys.stderr)


def progress_printer() -> ImportLine | None:
    """A progress callback drawing one updating line on a terminal; None elsewhere."""
    return ImportLine() if sys.stderr.isatty() else None


class Pace:
    """How fast a stage goes: papers and bytes of the file per second over the last
    :data:`WINDOW` seconds (not since the start: an import slows as its index grows), and
    the time left at that byte rate, said once the stage has run :data:`QUIET` seconds.
    ``add(now, done, read)`` records a count (``now`` in seconds, any origin)."""

    WINDOW = 10.0
    QUIET = 2.0

    def __init__(self) -> None:
        self.samples: deque[tuple[float, int, int]] = deque()
        self.first: float | None = None

    def add(self, now: float, done: int, read: int = 0) -> None:
        self.samples.append((now, done, read))
        self.first = now if self.first is None else self.first
        # one sample at or before the window's start stays: the rate's base
        while len(self.samples) > 2 and self.samples[1][0] <= now - self.WINDOW:
            self.samples.popleft()

    def _span(self) -> tuple[float, int, int] | None:
        """Seconds, papers and bytes between the rate's base and the last count."""
        if len(self.samples) < 2:
            return None
        (start, done0, read0), (now, done, read) = self.samples[0], self.samples[-1]
        return (now - start, done - done0, read - read0) if now > start else None

    def papers_per_second(self) -> float | None:
        span = self._span()
        return span[1] / span[0] if span else None

    def seconds_left(self, size: int) -> float | None:
        """The bytes left of a file of ``size`` at the recent byte rate; None in the
        stage's first seconds, or while nothing of the file was read of late."""
        span = self._span()
        if not span or span[2] <= 0 or self.samples[-1][0] - (self.first or 0) < self.QUIET:
            return None
        return max(size - self.samples[-1][2], 0) / (span[2] / span[0])


def duration(seconds: float) -> str:
    """``45 s``, ``4 min 15 s``, ``2 h 05 min``."""
    whole = round(seconds)
    if whole < 60:
        return f"{whole} s"
    if whole < 3600:
        return f"{whole // 60} min {whole % 60} s"
    return f"{whole // 3600} h {whole // 60 % 60:02d} min"


class ImportLine:
    """An import's (or a rebuild's) progress line: the count and the recent papers/s; for
    a file whose position is known (:meth:`through_file`), a bar of the bytes read, and the
    time left."""

    WIDTH = 16

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self.stage = ""
        self.pace = Pace()
        self.last = ""
        self.drawn = False

    def __call__(self, stage: str, done: int, total: int | None) -> None:
        of = f"/{total:,}" if total else ""
        end = "\n" if total and done >= total else ""
        rate = self._rate(stage, done, 0)
        self._draw(f"{inert_line(stage)}: {done:,}{of} papers{rate}", end)

    def through_file(self, stage: str, done: int, read: int, size: int) -> None:
        """The count, and ``read`` bytes of the file's ``size`` read so far."""
        rate = self._rate(stage, done, read)
        filled = self.WIDTH * read // size if size else self.WIDTH
        percent = 100 * read // size if size else 100
        left = self.pace.seconds_left(size)
        self._draw(f"{inert_line(stage)} [{'#' * filled}{'.' * (self.WIDTH - filled)}] "
                   f"{percent}% {done:,} papers{rate}"
                   + (f"  {duration(left)} left" if left is not None else ""))

    def _rate(self, stage: str, done: int, read: int) -> str:
        if stage != self.stage:
            self.stage, self.pace = stage, Pace()
        if not self.pace.samples or self.pace.samples[-1][1:] != (done, read):
            self.pace.add(self.clock(), done, read)
        rate = self.pace.papers_per_second()
        return f"  {rate:,.0f} papers/s" if rate is not None else ""

    def _draw(self, line: str, end: str = "") -> None:
        line = line[:_columns() - 1] + end
        if line != self.last:  # (the count after a commit: the same line)
            _redraw(line)
        self.last, self.drawn = line, not end

    def finish(self) -> None:
        """The line stays, and what follows starts on a line of its own."""
        if self.drawn:
            sys.stderr.write("\n")
            sys.stderr.flush()
            self.drawn = False


def _columns() -> int:
    """The terminal's width (201 when it says none: a new pseudo-terminal's is 0)."""
    try:
        columns = os.get_terminal_size(sys.stderr.fileno()).columns
    except (OSError, ValueError):
        columns = 0
    return columns if columns > 20 else 201


def _redraw(line: str) -> None:
    """``line`` over the progress line drawn before (the CLI's own control sequence)."""
    write_control(sys.stderr, "\r\x1b[K")
    sys.stderr.write(line)
    sys.stderr.flush()


class ProgressBar:
    """One line redrawn on stderr: the stage, a bar when the total is known, the count."""

    WIDTH = 24

    def __init__(self) -> None:
        self.drawn = False

    def __call__(self, stage: str, done: int, total: int | None) -> None:
        if total:
            filled = min(self.WIDTH, self.WIDTH * done // max(total, 1))
            bar = f" [{'#' * filled}{'.' * (self.WIDTH - filled)}] {done:,}/{total:,}"
        else:
            bar = f" {done:,}" if done else ""
        _redraw(inert_line(f"{stage}{bar}")[:200])
        self.drawn = True

    def clear(self) -> None:
        if self.drawn:
            _redraw("")
