"""The program that opens a PDF: ``pdf.viewer`` in config, else ``$PDF_VIEWER``, else
the desktop's opener (``xdg-open``, macOS's ``open``); none over a bare SSH session, where
the path is what a reader can use."""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
from collections.abc import Mapping
from pathlib import Path

OPENERS = ("xdg-open", "open")


def command(configured: str, path: Path,
            environ: Mapping[str, str] | None = None) -> list[str] | None:
    """The command line that opens ``path``; None when there is no viewer to run."""
    environ = os.environ if environ is None else environ
    for chosen in (configured, environ.get("PDF_VIEWER", "")):
        words = shlex.split(chosen) if chosen.strip() else []
        if words:
            return [*words, str(path)]
    for name in OPENERS:
        found = shutil.which(name, path=environ.get("PATH"))
        if found:
            return [found, str(path)]
    return None


def launch(argv: list[str]) -> None:
    """Start the viewer on its own (a session of its own: it outlives the command, and a
    Ctrl-C in the terminal is not its); OSError when it cannot be started."""
    subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                     stderr=subprocess.DEVNULL, start_new_session=True, close_fds=True)
