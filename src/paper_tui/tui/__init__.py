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

    from paper_tui.cli.context import Context


def run(ctx: Context, import_paths: Sequence[Path] = ()) -> int:
    """Open the app on the context's library (importing ``import_paths`` in the
    background, then showing them); returns the exit status."""
    from paper_tui.tui.app import PaperApp

    PaperApp(ctx.library, ctx.config, import_paths=import_paths).run()
    return 0
