"""What every dialog of the app shares: its look, and closing once."""

from __future__ import annotations

from typing import TypeVar

from textual.screen import ModalScreen

DIALOG_CSS = """
.dialog {
    width: 72;
    max-width: 95%;
    height: auto;
    max-height: 90%;
    padding: 1 2;
    border: thick $primary;
    background: $surface;
}
.dialog-title { text-style: bold; margin-bottom: 1; width: 100%; }
.dialog-hint { color: $text-muted; margin-top: 1; width: 100%; }
.dialog-error { color: $error; height: auto; }
"""

ResultT = TypeVar("ResultT")


class Dialog(ModalScreen[ResultT]):
    """A modal screen that closes with :meth:`finish`, once."""

    def finish(self, result: ResultT | None = None) -> None:
        """Close with ``result``, unless the dialog is no longer in front: a key or a
        message queued behind the one that closed it (a second Enter) would otherwise
        close the screen below it, and the last one ends the app."""
        if self.is_active:
            self.dismiss(result)
