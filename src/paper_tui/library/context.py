"""What a front started from the command line works in: the config files read, and the
library opened lazily and once (progress and warnings on the terminal, before any screen).

The command line makes one (``paper-tui COMMAND``) and hands it to the app when it starts
it (``paper-tui`` alone), so neither front needs the other for it.
"""

from __future__ import annotations

import sys
from pathlib import Path

from paper_tui import config as config_mod
from paper_tui.library.facade import Library
from paper_tui.library.importing import Progress


class Context:
    """The config (``config_file`` over the user's over the shipped defaults) and the
    library in ``library_dir`` (else as the settings say), opened on first use."""

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
    print(f"paper-tui: {message}", file=sys.stderr)


def progress_printer() -> Progress | None:
    """A progress callback drawing one updating line on a terminal; None elsewhere."""
    if not sys.stderr.isatty():
        return None

    def show(stage: str, done: int, total: int | None) -> None:
        of = f"/{total:,}" if total else ""
        end = "\n" if total and done >= total else ""
        sys.stderr.write(f"\r\x1b[K{stage}: {done:,}{of} papers{end}")
        sys.stderr.flush()

    return show
