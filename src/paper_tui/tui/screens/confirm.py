"""Two small modals every editor needs: a yes/no question and a one-line text prompt."""

from __future__ import annotations

from collections.abc import Callable

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.widgets import Button, Input, Label, Static

from paper_tui.tui.screens.dialog import DIALOG_CSS, Dialog


class Confirm(Dialog[bool]):
    """Ask a yes/no question; ``y``/Enter on Yes answer True, ``n``/Esc answer False."""

    DEFAULT_CSS = DIALOG_CSS + """
    Confirm { align: center middle; }
    Confirm Horizontal { height: auto; margin-top: 1; }
    Confirm Button { margin-right: 2; }
    """
    BINDINGS = [
        Binding("y", "answer(True)", "Yes"),
        Binding("n,escape", "answer(False)", "No"),
    ]
    AUTO_FOCUS = "#no"
    """Focused as the screen is composed (not on mount: keys typed ahead may close the
    question, or the app, before it has mounted)."""

    def __init__(self, question: str, *, yes: str = "Yes", no: str = "No") -> None:
        super().__init__()
        self.question = question
        self.yes_label = yes
        self.no_label = no

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Label(self.question, classes="dialog-title")
            with Horizontal():
                yield Button(f"{self.yes_label} (y)", id="yes", variant="error")
                yield Button(f"{self.no_label} (n)", id="no", variant="primary")

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.finish(event.button.id == "yes")

    def action_answer(self, answer: bool) -> None:
        self.finish(answer)


class Prompt(Dialog[str | None]):
    """Ask for one line of text. Enter answers it (stripped), Esc answers None.

    ``check`` may return an error message to keep the prompt open (e.g. a name in use).
    """

    DEFAULT_CSS = DIALOG_CSS + "Prompt { align: center middle; }"
    BINDINGS = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, title: str, value: str = "", *, placeholder: str = "",
                 allow_empty: bool = False,
                 check: Callable[[str], str | None] | None = None) -> None:
        super().__init__()
        self.title_text = title
        self.value = value
        self.placeholder = placeholder
        self.allow_empty = allow_empty
        self.check = check
        self._error_line = Static("", classes="dialog-error", id="prompt-error")

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Label(self.title_text, classes="dialog-title")
            yield Input(self.value, placeholder=self.placeholder, id="prompt-input")
            yield self._error_line
            yield Label("Enter accepts · Esc cancels", classes="dialog-hint")

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        text = event.value.strip()
        problem = None if text or self.allow_empty else "Type something, or Esc to cancel."
        if problem is None and self.check is not None:
            problem = self.check(text)
        if problem:
            self._error_line.update(problem)
            return
        self.finish(text)

    def action_cancel(self) -> None:
        self.finish(None)
