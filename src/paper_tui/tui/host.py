"""What screens and controllers use of the app and of each other, as protocols.

:class:`~paper_tui.tui.app.PaperApp` provides :class:`AppHost`; the screens with results
(:class:`~paper_tui.tui.screens.results_screen.ResultsScreen`) provide
:class:`ResultsHost` to the triage and editing controllers, the main screen a
:class:`ResultsPane` to the search controller. Nothing here imports the app
or a screen, so no module needs the class it talks to.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from textual.app import App
    from textual.message import Message
    from textual.screen import Screen

    from paper_tui.config import Settings
    from paper_tui.library import Library
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


class ResultsPane(Protocol):
    """A screen with a results list, in an app, on a library; it takes messages."""

    @property
    def app(self) -> App[Any]: ...

    @property
    def library(self) -> Library: ...

    @property
    def results_list(self) -> ResultsList: ...

    def post_message(self, message: Message) -> bool: ...


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
