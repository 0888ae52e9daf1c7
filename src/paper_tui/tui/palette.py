"""The command palette (``ctrl+p``): Textual's, closing once."""

from __future__ import annotations

from typing import Any

from textual.await_complete import AwaitComplete
from textual.command import CommandPalette


class Palette(CommandPalette):
    """Textual's command palette, which closes itself only while it is in front.

    Textual 8.2's palette closes itself again when a selection queued behind the one that
    closed it arrives (Enter on a command as the list fills): the second close took the
    screen below it, the last one ending the app with ScreenStackError."""

    def dismiss(self, result: Any = None) -> AwaitComplete:
        if not self.is_active:
            return AwaitComplete.nothing()
        return super().dismiss(result)
