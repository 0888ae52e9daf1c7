"""What a front started from the command line works in: the config files read, and the
library opened lazily and once.

The command line makes one (``paper-tui COMMAND``) and hands it to the app when it starts
it (``paper-tui`` alone), so neither front needs the other for it. How progress and
warnings reach the terminal before any screen is the command line's to say: it passes
them in (``cli/terminal.py``).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from paper_tui import config as config_mod

if TYPE_CHECKING:  # the library's modules load when it is opened, not before
    from paper_tui.library.facade import Library
    from paper_tui.library.importing import Progress


class Context:
    """The config (``config_file`` over the user's over the shipped defaults) and the
    library in ``library_dir`` (else as the settings say), opened on first use.

    ``progress()`` gives the callback that draws an opening's progress (None: draw none);
    ``warn(message)`` tells the user what they should know (an index being rebuilt)."""

    def __init__(self, library_dir: str | None = None, config_file: Path | None = None, *,
                 progress: Callable[[], Progress | None] = lambda: None,
                 warn: Callable[[str], None] | None = None,
                 bundled: bool | None = None) -> None:
        """``bundled``: whether a new library starts with the bundled list (None: as the
        ``bundled_lists`` setting says; False for a command that brings its own list)."""
        self.library_dir = library_dir
        self.bundled = bundled
        self.config = config_mod.load(config_file)
        self.progress = progress
        self.warn = warn
        self._library: Library | None = None

    @property
    def library(self) -> Library:
        if self._library is None:
            from paper_tui.library.facade import Library

            self._library = Library.open(self.library_dir, config=self.config,
                                         bundled=self.bundled, progress=self.progress(),
                                         warn=self.warn)
        return self._library

    def close(self) -> None:
        if self._library is not None:
            self._library.close()
