"""A bug is one line for the user and a traceback in a crash log, never a traceback on screen."""

from __future__ import annotations

import os
import sys
import tempfile
import time
import traceback
from pathlib import Path

from paper_tui import __version__, paths

INTERNAL_ERROR = 70
"""Exit status of a command stopped by a bug (``EX_SOFTWARE``); a user's error exits 1."""


def write_crash_log(exc: BaseException, argv: list[str] | None = None) -> Path | None:
    """Write ``exc``'s traceback to a new file in the crash log dir (or the temp dir if that
    cannot be written); the file's path, or None if no file could be written."""
    stamp = time.strftime("%Y%m%d-%H%M%S")
    text = (f"paper-tui {__version__}, Python {sys.version.split()[0]}, "
            f"{time.strftime('%Y-%m-%d %H:%M:%S %Z')}\n"
            f"command: {' '.join(argv if argv is not None else sys.argv)}\n\n"
            + "".join(traceback.format_exception(exc)))
    for folder in (paths.crash_log_dir(), Path(tempfile.gettempdir())):
        try:
            folder.mkdir(parents=True, exist_ok=True)
            path = folder / f"crash-{stamp}-{os.getpid()}.log"
            path.write_text(text, "utf-8")
            return path
        except OSError:
            continue
    return None


def internal_error_line(exc: BaseException, log: Path | None) -> str:
    """The one line a user sees for a bug."""
    what = f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__
    where = f"details in {log}" if log else "no crash log could be written"
    return f"paper-tui: internal error: {what} ({where})"
