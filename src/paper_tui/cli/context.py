"""What every command needs: the config and the library, opened lazily and once."""

from __future__ import annotations

import sys
from pathlib import Path

from paper_tui import config as config_mod
from paper_tui.cli.streams import write_control
from paper_tui.inert import inert_line
from paper_tui.library import Library


class Context:
    def __init__(self, library_dir: str | None = None, config_file: Path | None = None) -> None:
        self.library_dir = library_dir
        self.config = config_mod.load(config_file)
        self._library: Library | None = None

    @property
    def library(self) -> Library:
        if self._library is None:
            self._library = Library.open(self.library_dir, config=self.config,
                                         progress=progress_printer(), warn=warn)
        return self._library

    def close(self) -> None:
        if self._library is not None:
            self._library.close()


def warn(message: str) -> None:
    """One line on stderr (a file name or detail in ``message`` never breaks it)."""
    print(f"paper-tui: {inert_line(message)}", file=sys.stderr)


def progress_printer():
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
