"""Copying the citations of papers (``c``, ``C`` on the results; ``c``, ``C`` on the
reading lists): the one flow of every screen.

``Library.cite`` gives the papers their citation keys, which writes ``citekeys.yaml``
under its lock: it runs in a thread worker, never on the UI thread. The worker hands the
text to the UI thread for OSC 52 (through Textual, at once: it reaches the local
terminal's clipboard over SSH), then tries the system clipboard (its tool may take a
moment; a CSL style goes there as HTML too where the tool can offer it), after OSC 52 so
that the HTML is what stays. Then it posts one message back, :class:`CitationCopied`, that
says the one outcome (:func:`~paper_tui.clipboard.copy_or_send`): copied with the tool,
else sent through the terminal; a style that cannot be used is a warning, nothing copied.
"""

from __future__ import annotations

import contextlib
from collections.abc import Sequence
from functools import partial
from typing import TYPE_CHECKING, Any

from textual.message import Message

from paper_tui.errors import PaperTuiError

if TYPE_CHECKING:
    from textual.app import App
    from textual.notifications import SeverityLevel

    from paper_tui.model import Paper
    from paper_tui.tui.host import Dialogs, LibraryPane


class CitationCopied(Message):
    """From the citing worker: what became of a copy, to say in a toast."""

    def __init__(self, said: str, severity: SeverityLevel, timeout: float) -> None:
        super().__init__()
        self.said = said
        self.severity: SeverityLevel = severity
        self.timeout = timeout


def say_copied(app: App[Any], message: CitationCopied) -> None:
    """Say the outcome of a copy (every screen that cites hands its message here)."""
    app.notify(message.said, severity=message.severity, timeout=message.timeout)


class CitingController:
    """Copies citations of papers for the screen ``host``."""

    def __init__(self, host: LibraryPane, dialogs: Dialogs) -> None:
        self.host = host
        self.dialogs = dialogs

    def copy(self, papers: Sequence[Paper], style: str | None = None) -> None:
        """Copy the citations of ``papers`` in ``style`` (default: the configured one)."""
        if papers:
            app = self.host.app  # found here, on the UI thread
            app.run_worker(partial(self._copy, app, list(papers), style), thread=True,
                           group="clipboard")

    def copy_as(self, papers: Sequence[Paper]) -> None:
        """Ask for a style, then copy the citations of ``papers`` in it."""
        if not papers:
            return
        chosen_papers = list(papers)

        def chosen(style: str | None) -> None:
            if style:
                self.copy(chosen_papers, style)

        self.host.app.push_screen(self.dialogs.style_picker(chosen_papers), chosen)

    def _copy(self, app: App[Any], papers: list[Paper], style: str | None) -> None:
        """The worker's part: cite (keys given out), OSC 52 through the UI thread, then the
        system clipboard; the outcome posted back."""
        from paper_tui import citations, clipboard

        try:
            citation = self.host.library.cite(papers, style)
        except PaperTuiError as exc:
            self._said(app, CitationCopied(str(exc), "warning", 8))
            return
        text = citation.text
        try:
            app.call_from_thread(app.copy_to_clipboard, text)
        except RuntimeError:  # the app is gone meanwhile
            return
        what = citations.describe_briefly(citation.style, len(papers))
        result = clipboard.copy_or_send(text, what, html=citation.html, sent=True)
        said = result.message[:1].upper() + result.message[1:]
        self._said(app, CitationCopied(said, "information", 4 if result.confirmed else 8))

    def _said(self, app: App[Any], message: CitationCopied) -> None:
        """Post the outcome back to the screen; to the app, when that screen has closed
        meanwhile (the reader left it at once): the outcome is always said."""
        if not self.host.post_message(message):
            with contextlib.suppress(RuntimeError):  # the app is gone too
                app.call_from_thread(say_copied, app, message)
