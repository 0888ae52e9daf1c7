"""The note editor (``n``): a text area over the paper; ctrl+s saves, nothing is lost silently.

Esc with unsaved text asks before discarding it, and so does quitting the app while the
editor is open (the app's quit action calls :func:`quit_guarded`).
"""

from __future__ import annotations

from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.widgets import Label, Static, TextArea

from paper_tui.errors import PaperTuiError
from paper_tui.library import Library
from paper_tui.tui.screens.confirm import Confirm
from paper_tui.tui.screens.dialog import DIALOG_CSS, Dialog


class NoteEditor(Dialog[bool]):
    """Edit one paper's note. Dismisses True when a changed note was saved, else False.

    Opaque, like the tag editor (see there): the title names the paper.
    """

    DEFAULT_CSS = DIALOG_CSS + """
    NoteEditor { align: center middle; background: $background; }
    NoteEditor .dialog { width: 100; height: 80%; }
    NoteEditor TextArea { height: 1fr; }
    """
    BINDINGS = [
        Binding("ctrl+s", "save", "Save"),
        Binding("escape", "close", "Close"),
    ]

    def __init__(self, lib: Library, paper_id: str | None = None, label: str | None = None
                 ) -> None:
        super().__init__()
        self.lib = lib
        self.paper_id = self.original = self.label = ""
        # Built here, not found on mount: the editor is built unseen after the first paint,
        # and the app may be closing by then (its widgets gone before it mounts).
        self._title_label = Label("", classes="dialog-title", id="note-title")
        self._text_area = TextArea("", id="note-text", soft_wrap=True)
        self._error_line = Static("", classes="dialog-error", id="note-error")
        if paper_id is not None:
            self.prepare(paper_id, label)

    def prepare(self, paper_id: str, label: str | None = None) -> None:
        """Point the editor at ``paper_id``'s note. The app keeps one editor and calls this
        before each push: a reused screen opens without compose, mount or CSS."""
        self.paper_id = paper_id
        self.original = self.lib.annotation(paper_id).note
        self.label = label or self._label()
        if self.is_mounted:
            self._load()

    def _label(self) -> str:
        try:
            return self.lib.paper(self.paper_id).label
        except PaperTuiError:
            return self.paper_id

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield self._title_label
            yield self._text_area
            yield self._error_line
            yield Label("ctrl+s saves · Esc closes", classes="dialog-hint")

    def on_mount(self) -> None:
        self._load()

    def _load(self) -> None:
        """Show the note (cursor at its end, focused) with no error."""
        self._title_label.update(f"Note on {self.label}")
        self._error_line.update("")
        area = self._text_area
        area.load_text(self.original)
        area.move_cursor(area.document.end)
        self.set_focus(area, scroll_visible=False)

    @property
    def text(self) -> str:
        return self._text_area.text

    @property
    def dirty(self) -> bool:
        """True while the text area holds text that is not saved."""
        return self.text.rstrip() != self.original.rstrip()

    def action_save(self) -> None:
        if not self.dirty:
            self.finish(False)
            return
        try:
            self.lib.set_note(self.paper_id, self.text.rstrip())
        except PaperTuiError as exc:
            self._error_line.update(f"Not saved: {exc}")
            return
        self.finish(True)

    def action_close(self) -> None:
        if not self.dirty:
            self.finish(False)
            return

        def answered(discard: bool | None) -> None:
            if discard:
                self.finish(False)

        self.app.push_screen(Confirm("Discard the unsaved note?", yes="Discard", no="Keep editing"),
                             answered)

    def ask_before_quit(self) -> None:
        """The app is quitting: ask first, since the note would be lost."""

        def answered(quit_anyway: bool | None) -> None:
            if quit_anyway:
                self.app.exit()

        self.app.push_screen(Confirm("Quit and lose the unsaved note?", yes="Quit",
                                     no="Keep editing"), answered)


def quit_guarded(app: App) -> None:
    """Quit the app, unless an open note editor holds unsaved text: then ask first."""
    for screen in reversed(app.screen_stack):
        if isinstance(screen, Confirm):
            return  # a question is already open: answer it first
        if isinstance(screen, NoteEditor) and screen.dirty:
            screen.ask_before_quit()
            return
    app.exit()
