"""The Textual front. Imported lazily by the CLI, so CLI commands never import textual."""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

MAX_FPS = "120"
"""Textual's frame cap, set here before textual is first imported (it reads
``TEXTUAL_FPS`` once; a value in the environment wins). At its default of 60 a frame
that follows another, such as the results of a search after the echo of the key typed,
waits 17-33 ms for Textual's frame timer; at 120, 8-17 ms. Frames are still drawn only
when something changed."""

os.environ.setdefault("TEXTUAL_FPS", MAX_FPS)

if TYPE_CHECKING:
    from collections.abc import Sequence
    from pathlib import Path

    from paper_tui.library.context import Context


def run(ctx: Context, import_paths: Sequence[Path] = ()) -> int:
    """Open the app on the context's library (importing ``import_paths`` in the
    background, then showing them); returns the exit status: 70 after a bug, which the
    user sees as one line (the traceback goes to a crash log)."""
    import sys

    from paper_tui.crash import INTERNAL_ERROR, internal_error_line, write_crash_log
    from paper_tui.tui import textual_internals
    from paper_tui.tui.app import PaperApp

    app = PaperApp(ctx.library, ctx.config, import_paths=import_paths)
    crashes: list[BaseException] = []
    textual_internals.report_crashes(app, crashes.append)
    app.run()
    if crashes:
        log = write_crash_log(crashes[0], ["paper-tui", *sys.argv[1:]])
        print(internal_error_line(crashes[0], log), file=sys.stderr)
        return INTERNAL_ERROR
    return 0
