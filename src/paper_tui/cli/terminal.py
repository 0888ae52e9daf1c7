"""What the command line draws on the terminal besides its output: warnings and the
progress line of an import or an index rebuild (handed to the library's context)."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING

from paper_tui.cli.streams import write_control
from paper_tui.inert import inert_line

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
        write_control(sys.stderr, "\r\x1b[K")  # the line drawn again: the CLI's own
        sys.stderr.write(f"{inert_line(stage)}: {done:,}{of} papers{end}")
        sys.stderr.flush()

    return show
