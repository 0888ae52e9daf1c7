"""What the command line draws on the terminal besides its output: warnings, the
progress line of an import or an index rebuild (handed to the library's context) and a
fetch's progress bar."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING

from paper_tui.cli.streams import write_control
from paper_tui.trust.inert import inert_line

if TYPE_CHECKING:  # a command that opens no library never loads the index
    from paper_tui.library.importing import Progress


def warn(message: str) -> None:
    """One line on stderr (a file name or detail in ``message`` never breaks it)."""
    print(f"paper-tui: {inert_line(message)}", file=sys.stderr)


def progress_printer() -> Progress | None:
    """A progress callback drawing one updating line on a terminal; None elsewhere."""
    if not sys.stderr.isatty():
        return None

    def show(stage: str, done: int, total: int | None) -> None:
        of = f"/{total:,}" if total else ""
        end = "\n" if total and done >= total else ""
        _redraw(f"{inert_line(stage)}: {done:,}{of} papers{end}")

    return show


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
