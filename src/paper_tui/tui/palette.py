"""The command palette (``ctrl+p``): Textual's, closing once and cleanly."""

from __future__ import annotations

from typing import Any

from textual import on
from textual.await_complete import AwaitComplete
from textual.command import CommandPalette
from textual.messages import Prune


class Palette(CommandPalette):
    """Textual's command palette, which closes itself only while it is in front, and
    stops searching before its parts are taken down.

    Textual 8.2's palette closes itself again when a selection queued behind the one that
    closed it arrives (Enter on a command as the list fills): the second close took the
    screen below it, the last one ending the app with ScreenStackError.

    Its search worker is cancelled only once the palette itself unmounts, after its
    command list is gone: a search delivering results in between (quitting the app with
    the palette open while it searches) failed on the missing list and ended the app
    with a traceback."""

    def dismiss(self, result: Any = None) -> AwaitComplete:
        if not self.is_active:
            return AwaitComplete.nothing()
        return super().dismiss(result)

    @on(Prune)
    def stop_searching(self) -> None:
        """Cancel the search first: Prune reaches the palette before its children go."""
        self.workers.cancel_node(self)
