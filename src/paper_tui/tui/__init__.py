"""The Textual front. Imported lazily by the CLI, so CLI commands never import textual."""

from __future__ import annotations

from typing import TYPE_CHECKING

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
