"""The Textual front. Imported lazily by the CLI, so CLI commands never import textual."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from paper_tui.cli.context import Context


def run(ctx: Context) -> int:
    """Open the app on the context's library; returns the exit status."""
    from paper_tui.tui.app import PaperApp

    PaperApp(ctx.library, ctx.config).run()
    return 0
