"""The dialogs the controllers open (:class:`~paper_tui.tui.host.Dialogs`), made here so a
controller never imports a screen.

Each dialog's module is imported when it is first opened, never before the first paint
(the editors need TextArea, the style picker the citations). The tag and note editors are
built once and reused: installed screens, never removed.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from textual.screen import Screen

from paper_tui.tui import textual_internals

if TYPE_CHECKING:
    from paper_tui.model import Paper
    from paper_tui.tui.host import EditedTags, LibraryPane
    from paper_tui.tui.screens.note_editor import NoteEditor
    from paper_tui.tui.screens.tag_editor import TagEditor

EDITORS = ("tag-editor", "note-editor")
"""The editors the app builds once and reuses (installed screens, never removed)."""


class DialogOpener:
    """The dialogs of the screen ``host``, in its app, on its library."""

    def __init__(self, host: LibraryPane) -> None:
        self.host = host

    def _make_editor(self, name: str) -> TagEditor | NoteEditor:
        """A new editor of this kind (its screen's module imported on first use)."""
        if name == "tag-editor":
            from paper_tui.tui.screens.tag_editor import TagEditor

            return TagEditor(self.host.library)
        from paper_tui.tui.screens.note_editor import NoteEditor

        return NoteEditor(self.host.library)

    def _editor(self, name: str) -> Screen[Any]:
        """The app's one editor of this kind, installed: closing it keeps it for next time."""
        app = self.host.app
        if not app.is_screen_installed(name):
            app.install_screen(self._make_editor(name), name)
        return app.get_screen(name)

    def build_editors(self) -> None:
        for name in EDITORS:
            textual_internals.build_screen(self.host.app, self._editor(name))

    def tag_editor(self, ids: list[str], title: str | None) -> Screen[EditedTags | None]:
        from paper_tui.tui.screens.tag_editor import TagEditor

        editor = self._editor("tag-editor")
        assert isinstance(editor, TagEditor)
        editor.prepare(ids, title=title)
        return cast("Screen[EditedTags | None]", editor)  # closes with a TagChange or None

    def note_editor(self, paper_id: str, label: str) -> Screen[bool]:
        from paper_tui.tui.screens.note_editor import NoteEditor

        editor = self._editor("note-editor")
        assert isinstance(editor, NoteEditor)
        editor.prepare(paper_id, label)
        return editor

    def list_picker(self, ids: list[str]) -> Screen[str | None]:
        from paper_tui.tui.screens.list_picker import ListPicker

        return ListPicker(self.host.library, ids)

    def style_picker(self, papers: Sequence[Paper]) -> Screen[str | None]:
        from paper_tui.tui.screens.style_picker import StylePicker

        return StylePicker(self.host.library, papers)

    def prompt(self, title: str, value: str = "", *, placeholder: str = "",
               allow_empty: bool = False, check: Callable[[str], str | None] | None = None
               ) -> Screen[str | None]:
        from paper_tui.tui.screens.confirm import Prompt

        return Prompt(title, value, placeholder=placeholder, allow_empty=allow_empty,
                      check=check)

    def confirm(self, question: str, yes: str) -> Screen[bool]:
        from paper_tui.tui.screens.confirm import Confirm

        return Confirm(question, yes=yes)

    def export(self, papers: Sequence[Paper], name: str, description: str
               ) -> Screen[Path | None]:
        from paper_tui.tui.screens.export_dialog import ExportDialog

        return ExportDialog(self.host.library, papers, name, description=description)
