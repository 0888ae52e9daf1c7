"""A bug is one line for the user and a traceback in a crash log, never a traceback on
screen. Below both fronts: the command line and the app report a bug the same way.

Nothing here may fail on the text it is given: an argument or a file name with bytes that
are not UTF-8 reaches an exception's message as lone surrogates, which are written
escaped (``\\xff``), in the log and in the line alike."""

from __future__ import annotations

import contextlib
import os
import sys
import tempfile
import time
import traceback
from pathlib import Path

from paper_tui import __version__, paths
from paper_tui.trust.surrogates import escape_surrogates

INTERNAL_ERROR = 70
"""Exit status of a command stopped by a bug (``EX_SOFTWARE``); a user's error exits 1."""


def write_crash_log(exc: BaseException, argv: list[str] | None = None) -> Path | None:
    """Write ``exc``'s traceback to a new file in the crash log dir (or the temp dir if that
    cannot be written); the file's path, or None if no file could be written."""
    stamp = time.strftime("%Y%m%d-%H%M%S")
    text = escape_surrogates(
        f"paper-tui {__version__}, Python {sys.version.split()[0]}, "
        f"{time.strftime('%Y-%m-%d %H:%M:%S %Z')}\n"
        f"command: {' '.join(argv if argv is not None else sys.argv)}\n\n"
        + "".join(traceback.format_exception(exc)))
    for folder in _log_folders():
        try:
            folder.mkdir(parents=True, exist_ok=True)
            path = folder / f"crash-{stamp}-{os.getpid()}.log"
            path.write_text(text, "utf-8")
            return path
        except OSError:
            continue
    return None


def _log_folders() -> list[Path]:
    """Where a crash log may go, best first (finding the user's log dir can fail too)."""
    folders = []
    with contextlib.suppress(Exception):  # a broken environment must not hide the bug
        folders.append(paths.crash_log_dir())
    return [*folders, Path(tempfile.gettempdir())]


def internal_error_line(exc: BaseException, log: Path | None) -> str:
    """The one line a user sees for a bug (any surrogate in it escaped)."""
    try:
        message = str(exc)
    except Exception:  # an exception whose str() fails is still a bug to report
        message = ""
    what = f"{type(exc).__name__}: {message}" if message else type(exc).__name__
    where = f"details in {log}" if log else "no crash log could be written"
    line = " ".join(f"paper-tui: internal error: {what} ({where})".splitlines())
    return escape_surrogates(line)
