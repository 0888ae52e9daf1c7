"""Reading lists (``L``): every list with its count and description, and one list opened.

An opened list shows its papers in the same results/abstract layout as the main screen,
in the list's own order, which ``J``/``K`` change. Every change goes through the library,
which saves it.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.widgets import Label, OptionList
from textual.widgets.option_list import Option

from paper_tui.library import Hit, Library
from paper_tui.model import Paper
from paper_tui.tui.controllers.citing import CitingController
from paper_tui.tui.controllers.lists import ListsController
from paper_tui.tui.screens.dialog_opener import DialogOpener
from paper_tui.tui.screens.results_screen import (
    LISTS_SCREEN_KEYS,
    OPENED_LIST_KEYS,
    ReaderScreen,
    ResultsScreen,
)
from paper_tui.tui.widgets.abstract import AbstractView
from paper_tui.tui.widgets.footer import KeyFooter
from paper_tui.tui.widgets.results import ResultsList
from paper_tui.vocabulary import count


class ListResults:
    """A reading list's papers in list order, as results (a
    :class:`~paper_tui.library.Results`).

    Ids the library does not hold (papers of a removed source) are left out of the view
    and counted in ``missing``; the list itself keeps them.
    """

    query = ""
    sort = "list"
    """The list's own order."""
    sort_label = None
    error = None
    suggestion = None

    def __init__(self, lib: Library, ids: Sequence[str]) -> None:
        self.papers: list[Paper] = []
        self.missing = 0
        for pid in ids:
            paper = lib.lookup(pid)
            if paper is None:
                self.missing += 1
            else:
                self.papers.append(paper)
        self._index_of = {paper.id: i for i, paper in enumerate(self.papers)}

    def __len__(self) -> int:
        return len(self.papers)

    @property
    def total(self) -> int:
        return len(self.papers)

    def paper(self, i: int) -> Paper:
        return self.papers[i]

    def hit(self, i: int) -> Hit:
        return Hit(self.papers[i])

    def score(self, i: int) -> float | None:
        return None

    def highlights(self, i: int, fields: tuple[str, ...] = ("title", "abstract")
                   ) -> dict[str, list[tuple[int, int]]]:
        return {}

    def ids(self) -> list[str]:
        return [paper.id for paper in self.papers]

    def index_of(self, paper_id: str) -> int | None:
        return self._index_of.get(paper_id)

    def close(self) -> None:
        """Nothing to release (the search core's result sets hold a searcher)."""


class ListsScreen(ReaderScreen):
    """Every reading list: name, count, description. Enter opens one."""

    DEFAULT_CSS = """
    ListsScreen > Label { padding: 0 1; text-style: bold; }
    ListsScreen > OptionList { height: 1fr; }
    """
    BINDINGS = [*LISTS_SCREEN_KEYS]

    def __init__(self, lib: Library) -> None:
        super().__init__()
        self.library = lib
        self.dialogs = DialogOpener(self)
        self.lists = ListsController(self, self.dialogs, CitingController(self, self.dialogs))
        # Built here, not found on mount: keys typed ahead may close the screen (or the
        # app) before it has mounted, and its widgets are gone by then.
        self._title_label = Label("", id="lists-title")
        self._lists_box = OptionList(id="lists")

    def compose(self) -> ComposeResult:
        yield self._title_label
        yield self._lists_box
        yield KeyFooter()

    def on_mount(self) -> None:
        self._show()

    def on_screen_resume(self) -> None:
        self._show(self.list_name())

    def _show(self, keep: str | None = None) -> None:
        box = self._lists_box
        lists = sorted(self.library.reading_lists(), key=lambda rl: rl.name.casefold())
        options = []
        for rl in lists:
            label = Text(rl.name, style="bold")
            label.append(f"  {count(len(rl.ids), 'paper')}", style="dim")
            if rl.description:
                label.append("\n  " + rl.description.strip().replace("\n", "\n  "),
                             style="italic")
            options.append(Option(label, id=rl.name))
        if not options:
            options.append(Option(Text(
                f"No reading lists yet. Press {self.key_hint('list-new')} to make one, or "
                f"{self.key_hint('add-to-list')} on a paper in the results.", style="dim"),
                disabled=True))
        box.set_options(options)
        names = [rl.name for rl in lists]
        box.highlighted = names.index(keep) if keep in names else (0 if names else None)
        hints = " · ".join(f"{self.key_hint(binding_id)} {what}" for binding_id, what in (
            ("list-new", "new"), ("list-rename", "rename"), ("list-describe", "describe"),
            ("list-delete", "delete"), ("list-export", "export"), ("list-cite", "cite")))
        self._title_label.update(f"Reading lists ({len(names)}) · Enter opens · {hints}")

    def list_name(self) -> str | None:
        option = self._lists_box.highlighted_option
        return str(option.id) if option is not None and option.id else None

    def list_changed(self, name: str | None) -> None:
        self._show(name)

    @on(OptionList.OptionSelected, "#lists")
    def _open(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.app.push_screen(ReadingListScreen(self.library, str(event.option.id)))

    def action_new_list(self) -> None:
        def named(name: str | None) -> None:
            if name and self.lists.attempt(self.library.create_list, name):
                self._show(name)

        self.app.push_screen(self.dialogs.prompt("Name of the new reading list",
                                                 check=self.lists.name_taken(None)), named)

    def action_cite(self) -> None:
        self.lists.cite()

    def action_cite_as(self) -> None:
        self.lists.cite_as()

    # -- the list keys (the same on both screens) --------------------------------------------
    def action_rename(self) -> None:
        self.lists.rename()

    def action_describe(self) -> None:
        self.lists.describe()

    def action_delete_list(self) -> None:
        self.lists.delete()

    def action_export(self) -> None:
        self.lists.export()


class ReadingListScreen(ResultsScreen):
    """One reading list in the main screen's results/abstract layout (side by side, or
    one above the other below 120 columns); J/K reorder, d removes a paper.

    The keys acting on results (triage, tags, notes, citations, marks, …) work here on the
    list's papers as on the main screen (see ``OPENED_LIST_KEYS``). The view follows the
    list: after an undo, or a change by another process, it is read again."""

    DEFAULT_CSS = """
    ReadingListScreen > #list-header { padding: 0 1; height: auto; }
    """
    BINDINGS = [*OPENED_LIST_KEYS]

    def __init__(self, lib: Library, name: str) -> None:
        super().__init__(lib)
        self.name_shown = name
        """The list shown (it follows a rename)."""
        self.lists = ListsController(self, self.dialogs, self.citing)
        # Built here, not found on mount: keys typed ahead may close the screen (or the
        # app) before it has mounted, and its widgets are gone by then.
        self._header = Label("", id="list-header")
        self._list_shown: tuple[str, tuple[str, ...], str] | None = None
        self._results = ResultsList(self.library.annotation, id="results")
        self._abstract = AbstractView(id="abstract")

    def compose(self) -> ComposeResult:
        yield self._header
        with Horizontal(id="panes"):
            yield self.results_list
            yield self.abstract
        yield KeyFooter()

    def on_mount(self) -> None:
        self._load()

    def on_screen_resume(self) -> None:
        self._follow_list()
        self.results_list.refresh()
        self.show_current()

    def refresh_current(self) -> None:
        self._follow_list()
        super().refresh_current()

    def _follow_list(self) -> None:
        """Read the list again when it changed under the view (an undo, another process,
        a sync), keeping the cursor on its paper."""
        rl = self.library.reading_list(self.name_shown)
        if rl is None or (rl.name, rl.ids, rl.description) != self._list_shown:
            paper = self.results_list.current_paper()
            self._load(paper.id if paper else None)

    def _load(self, keep: str | None = None) -> None:
        rl = self.library.reading_list(self.name_shown)
        if rl is None:  # deleted, or renamed elsewhere
            self._leave()
            return
        self._list_shown = (rl.name, rl.ids, rl.description)
        results = ListResults(self.library, rl.ids)
        self.results_list.set_results(results, keep_id=keep)
        header = Text(f"{rl.name}", style="bold")
        header.append(f"  {count(len(rl.ids), 'paper')}", style="dim")
        if results.missing:
            header.append(f" ({results.missing} not in the library)", style="dim")
        if rl.description:
            header.append(f"  {rl.description.strip()}", style="italic")
        move = f"{self.key_hint('list-move-down')}/{self.key_hint('list-move-up')} move"
        hints = (f"{self.key_hint(binding_id)} {what}" for binding_id, what in (
            ("list-remove", "remove"), ("list-rename", "rename"),
            ("list-describe", "describe"), ("list-export", "export")))
        cite = f"{self.key_hint('mark-all')} {self.key_hint('copy-citation')} cite all"
        header.append(f"  · {move} · {' · '.join(hints)} · {cite}", style="dim")
        self._header.update(header)
        self.show_current()

    def on_results_list_highlighted(self, message: ResultsList.Highlighted) -> None:
        message.stop()
        self.show_current()

    def on_results_list_open_abstract(self, message: ResultsList.OpenAbstract) -> None:
        message.stop()
        self.abstract.focus()

    def list_name(self) -> str | None:
        return self.name_shown

    def _leave(self) -> None:
        """Back to the lists, unless this screen is no longer in front (then another
        would be closed in its place)."""
        if self.is_active:
            self.dismiss()

    def list_changed(self, name: str | None) -> None:
        if name is None:
            self._leave()
            return
        self.name_shown = name
        paper = self.results_list.current_paper()
        self._load(paper.id if paper else None)

    def action_move(self, step: int) -> None:
        paper = self.results_list.current_paper()
        if paper is None:
            return
        ids = self.lists.reading_list(self.name_shown).ids
        if paper.id not in ids:  # taken out by another process meanwhile
            return
        index = ids.index(paper.id) + step
        if 0 <= index < len(ids) and self.lists.attempt(self.library.move_in_list,
                                                        self.name_shown, paper.id, index):
            self._load(paper.id)

    def action_remove(self) -> None:
        ids = sorted(self.results_list.marked) or (
            [p.id] if (p := self.results_list.current_paper()) else [])
        if not ids:
            return
        cursor = self.results_list.cursor
        if self.lists.attempt(self.library.remove_from_list, self.name_shown, ids):
            self.results_list.marked.clear()
            self._load()
            self.results_list.cursor = min(cursor, max(0, len(self.results_list) - 1))
            self.app.notify(f"Removed {count(len(ids), 'paper')} from {self.name_shown!r}")

    # -- the list keys (the same on both screens) --------------------------------------------
    def action_rename(self) -> None:
        self.lists.rename()

    def action_describe(self) -> None:
        self.lists.describe()

    def action_delete_list(self) -> None:
        self.lists.delete()

    def action_export(self) -> None:
        self.lists.export()
