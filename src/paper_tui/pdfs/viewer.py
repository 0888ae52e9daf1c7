"""The program that opens a PDF: ``pdf.viewer`` in config, else ``$PDF_VIEWER``, else
the desktop's opener (``xdg-open``, macOS's ``open``); none over a bare SSH session, where
the path is what a reader can use."""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import sys
from collections.abc import Mapping
from pathlib import Path


def command(configured: str, path: Path,
            environ: Mapping[str, str] | None = None) -> list[str] | None:
    """The command line that opens ``path``; None when there is no viewer to run."""
    environ = os.environ if environ is None else environ
    for chosen in (configured, environ.get("PDF_VIEWER", "")):
        words = shlex.split(chosen) if chosen.strip() else []
        if words:
            return [*words, str(path)]
    opener = desktop_opener(environ)
    found = shutil.which(opener, path=environ.get("PATH")) if opener else None
    return [found, str(path)] if found else None


def desktop_opener(environ: Mapping[str, str], platform: str = sys.platform) -> str | None:
    """macOS's ``open``; elsewhere ``xdg-open``, but only with a display to open on (over a
    bare SSH session it would start a text browser in the terminal, or fail silently). Never
    ``open`` off macOS: on Linux that name is ``openvt``."""
    if platform == "darwin":
        return "open"
    if environ.get("DISPLAY") or environ.get("WAYLAND_DISPLAY"):
        return "xdg-open"
    return None


def launch(argv: list[str]) -> None:
    """Start the viewer on its own (a session of its own: it outlives the command, and a
    Ctrl-C in the terminal is not its); OSError when it cannot be started."""
    subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                     stderr=subprocess.DEVNULL, start_new_session=True, close_fds=True)
