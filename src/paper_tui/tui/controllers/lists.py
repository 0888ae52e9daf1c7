"""The reading-list keys: rename, describe, delete, export and cite a list, on the lists'
list (``L``) and on an opened list alike.

The list they act on is the host's (:class:`ListsHost`); every change goes through the
library, which saves it; a change it refuses is said in a toast.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from paper_tui.errors import PaperTuiError
from paper_tui.library import ReadingList
from paper_tui.tui.host import LibraryPane
from paper_tui.vocabulary import count

if TYPE_CHECKING:
    from paper_tui.model import Paper
    from paper_tui.tui.controllers.citing import CitingController
    from paper_tui.tui.host import Dialogs


class ListsHost(LibraryPane, Protocol):
    """A screen showing a reading list (or a list of them, one highlighted)."""

    def list_name(self) -> str | None:
        """The list the keys act on (None: there is none)."""

    def list_changed(self, name: str | None) -> None:
        """The list ``name`` changed (None: it was deleted)."""


class ListsController:
    """The list keys of one screen."""

    def __init__(self, host: ListsHost, dialogs: Dialogs, citing: CitingController) -> None:
        self.host = host
        self.dialogs = dialogs
        self.citing = citing

    def reading_list(self, name: str) -> ReadingList:
        """The list of that name, now (an empty one if another process just deleted it)."""
        return self.host.library.reading_list(name) or ReadingList(name)

    def attempt(self, what: Callable[..., object], *args: Any) -> bool:
        """Make a change through the library; False (and said) when it refuses."""
        try:
            what(*args)
        except PaperTuiError as exc:
            self.host.app.notify(str(exc), severity="error", timeout=8)
            return False
        return True

    def name_taken(self, current: str | None) -> Callable[[str], str | None]:
        """A prompt's check: a name another list has already (``current``: this one's)."""
        def check(name: str) -> str | None:
            if name != current and self.host.library.reading_list(name) is not None:
                return f"There is already a list named {name!r}."
            return None

        return check

    def rename(self) -> None:
        old = self.host.list_name()
        if old is None:
            return
        library = self.host.library

        def renamed(new: str | None) -> None:
            if new and new != old and self.attempt(library.rename_list, old, new):
                self.host.app.notify(f"Renamed {old!r} to {new!r}")
                self.host.list_changed(new)

        self.host.app.push_screen(
            self.dialogs.prompt(f"Rename {old!r} to", old, check=self.name_taken(old)),
            renamed)

    def describe(self) -> None:
        name = self.host.list_name()
        if name is None:
            return
        current = self.reading_list(name).description
        library = self.host.library

        def described(text: str | None) -> None:
            if text is not None and self.attempt(library.describe_list, name, text):
                self.host.list_changed(name)

        self.host.app.push_screen(
            self.dialogs.prompt(f"Describe {name!r}", current,
                                placeholder="what this list is for", allow_empty=True),
            described)

    def delete(self) -> None:
        name = self.host.list_name()
        if name is None:
            return
        papers = count(len(self.reading_list(name).ids), "paper")
        library = self.host.library

        def answered(yes: bool | None) -> None:
            if yes and self.attempt(library.delete_list, name):
                self.host.app.notify(f"Deleted the list {name!r}")
                self.host.list_changed(None)

        self.host.app.push_screen(
            self.dialogs.confirm(f"Delete the reading list {name!r} ({papers})? "
                                 "The papers stay in the library.", yes="Delete"), answered)

    def papers(self) -> list[Paper]:
        """The list's papers the library holds, in the list's order."""
        name = self.host.list_name()
        if not name:
            return []
        library = self.host.library
        return [paper for pid in self.reading_list(name).ids
                if (paper := library.lookup(pid)) is not None]

    def export(self) -> None:
        name = self.host.list_name()
        if name is None:
            return

        def written(path: Path | None) -> None:
            if path is not None:
                self.host.app.notify(f"Exported {name!r} to {path}")

        description = self.reading_list(name).description
        self.host.app.push_screen(self.dialogs.export(self.papers(), name, description),
                                  written)

    def cite(self) -> None:
        self.citing.copy(self.papers())

    def cite_as(self) -> None:
        self.citing.copy_as(self.papers())
