"""What screens and controllers use of the app and of each other, as protocols.

:class:`~paper_tui.tui.app.PaperApp` provides :class:`AppHost`; the screens with results
(:class:`~paper_tui.tui.screens.results_screen.ResultsScreen`) provide
:class:`ResultsHost` to the triage and editing controllers, the main screen a
:class:`ResultsPane` to the search controller; every screen that cites or shows a reading
list a :class:`LibraryPane` (the lists screens a
:class:`~paper_tui.tui.controllers.lists.ListsHost`), and :class:`Dialogs` to open the
dialogs the keys need. Nothing here imports the app or a screen, so no module needs the
class it talks to.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from collections.abc import Callable, Sequence
    from pathlib import Path

    from textual.app import App
    from textual.message import Message
    from textual.screen import Screen

    from paper_tui.config import Settings
    from paper_tui.library import Library
    from paper_tui.model import Paper
    from paper_tui.tui.widgets.results import ResultsList


class AppHost(Protocol):
    """The app, as the screens use it beyond Textual's ``App``."""

    @property
    def settings(self) -> Settings: ...

    def say(self, message: str, *, severity: str = "information", timeout: float = 2.0
            ) -> None:
        """Confirm an action in the status line (a toast for errors and hidden screens)."""

    def status_changed(self) -> None:
        """Annotations changed: redraw the main status line (the triage count follows)."""

    def show_help(self, screen: Screen | None = None) -> None:
        """Show every key of ``screen`` (the main screen's when None), with the keys it
        has now."""


class LibraryPane(Protocol):
    """A screen in an app, on a library; it takes messages (from workers too)."""

    @property
    def app(self) -> App[Any]: ...

    @property
    def library(self) -> Library: ...

    def post_message(self, message: Message) -> bool: ...


class ResultsPane(LibraryPane, Protocol):
    """A screen with a results list, in an app, on a library; it takes messages."""

    @property
    def results_list(self) -> ResultsList: ...


class EditedTags(Protocol):
    """What the tag editor closes with when it changed tags."""

    def summary(self) -> str:
        """The change in a line (``tagged 2 papers: ML``)."""


class Dialogs(Protocol):
    """The dialogs the controllers open, each ready to push (its screen imported when
    first used). The screens provide it (``tui/screens/dialogs.py``): a controller never
    imports a screen."""

    def build_editors(self) -> None:
        """Build the tag and note editors now, unseen (so their keys only push a ready
        screen)."""

    def tag_editor(self, ids: list[str], title: str | None) -> Screen[EditedTags | None]:
        """The app's one tag editor, ready for ``ids`` (``title``: its heading, when
        one paper)."""
        ...

    def note_editor(self, paper_id: str, label: str) -> Screen[bool]:
        """The app's one note editor, ready for the note of ``paper_id``."""
        ...

    def list_picker(self, ids: list[str]) -> Screen[str | None]:
        """Add ``ids`` to a reading list (or a new one): closes with its name."""
        ...

    def style_picker(self, papers: Sequence[Paper]) -> Screen[str | None]:
        """Choose a citation style for ``papers``: closes with it."""
        ...

    def prompt(self, title: str, value: str = "", *, placeholder: str = "",
               allow_empty: bool = False, check: Callable[[str], str | None] | None = None
               ) -> Screen[str | None]:
        """Ask for a line of text (``check``: why a text will not do, or None)."""
        ...

    def confirm(self, question: str, yes: str) -> Screen[bool]:
        """Ask yes or no."""
        ...

    def export(self, papers: Sequence[Paper], name: str, description: str
               ) -> Screen[Path | None]:
        """Export ``papers`` (a list named ``name``) to a file: closes with its path."""
        ...


class ResultsHost(ResultsPane, Protocol):
    """A screen with a results list and an abstract view, as the keys acting on them see it."""

    @property
    def settings(self) -> Settings: ...

    def say(self, message: str, *, severity: str = "information", timeout: float = 2.0
            ) -> None: ...

    def refresh_current(self) -> None:
        """Redraw the rows and the abstract view (after an annotation change)."""

    def show_if_changed(self) -> None:
        """Show the paper under the cursor unless the abstract view shows it as it is."""

    def triage_counted(self, change: int) -> None:
        """A key has just triaged ``change`` papers (untriaged, when negative)."""

    def key_hint(self, binding_id: str) -> str:
        """The key ``binding_id`` has on this screen now, as a hint names it (``u``)."""
