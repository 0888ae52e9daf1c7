"""Add papers to a reading list (``a``): filter the lists as you type, or make a new one."""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.fuzzy import Matcher
from textual.widgets import Input, Label, OptionList, Static
from textual.widgets.option_list import Option

from paper_tui.errors import PaperTuiError
from paper_tui.library import Library, ReadingList
from paper_tui.tui.screens.dialog import DIALOG_CSS, Dialog

NEW = "\x00new"
"""Option id of the "new list" entry (no list name can start with NUL)."""


def matching_lists(lists: Sequence[ReadingList], typed: str) -> list[ReadingList]:
    """The lists whose name matches ``typed`` loosely, best first; all by name when empty."""
    if not typed:
        return sorted(lists, key=lambda rl: rl.name.casefold())
    matcher = Matcher(typed)
    scored = [(matcher.match(rl.name), rl) for rl in lists]
    scored = [(s, rl) for s, rl in scored if s > 0]
    scored.sort(key=lambda s_rl: (-s_rl[0], s_rl[1].name.casefold()))
    return [rl for _, rl in scored]


class ListPicker(Dialog[str | None]):
    """Pick (or create) a reading list and add ``ids`` to it; dismisses with its name."""

    DEFAULT_CSS = DIALOG_CSS + """
    ListPicker { align: center middle; }
    ListPicker OptionList { height: auto; max-height: 16; border: none; padding: 0; }
    """
    BINDINGS = [
        Binding("escape", "cancel", "Cancel"),
        Binding("down", "move(1)", show=False),
        Binding("up", "move(-1)", show=False),
    ]

    def __init__(self, lib: Library, ids: Sequence[str]) -> None:
        super().__init__()
        self.lib = lib
        self.ids = list(dict.fromkeys(ids))
        self.lists = lib.reading_lists()
        self.holding = set(lib.lists_of(self.ids[0])) if len(self.ids) == 1 else set()
        # Built here and filled now, not found and filled on mount: keys typed ahead may
        # close the picker (or the app) before it has mounted, and its widgets are gone then.
        self._filter_box = Input(placeholder="filter, or the name of a new list",
                                 id="list-filter")
        self._list_options = OptionList(id="list-options")
        self._error_line = Static("", classes="dialog-error", id="list-error")
        self._show("")

    def compose(self) -> ComposeResult:
        what = "this paper" if len(self.ids) == 1 else f"{len(self.ids):,} marked papers"
        with Vertical(classes="dialog"):
            yield Label(f"Add {what} to a reading list", classes="dialog-title")
            yield self._filter_box
            yield self._list_options
            yield self._error_line
            yield Label("Enter adds · ↑↓ choose · Esc cancels", classes="dialog-hint")

    def _show(self, typed: str) -> None:
        typed = typed.strip()
        options: list[Option] = []
        for rl in matching_lists(self.lists, typed):
            label = Text(rl.name, style="bold")
            label.append(f"  {len(rl.ids):,}", style="dim")
            if rl.name in self.holding:
                label.append("  ✓ already there", style="green")
            if rl.description:
                label.append(f"  {rl.description.splitlines()[0]}", style="italic dim")
            options.append(Option(label, id=rl.name))
        exists = any(rl.name.casefold() == typed.casefold() for rl in self.lists)
        if typed and not exists:
            options.append(Option(Text.assemble(("+ new list ", "bold green"), f"“{typed}”"),
                                  id=NEW))
        elif not self.lists:
            options.append(Option(Text("No reading lists yet: type a name for a new one.",
                                       style="dim"), disabled=True))
        box = self._list_options
        box.set_options(options)
        enabled = [i for i, o in enumerate(options) if not o.disabled]
        box.highlighted = enabled[0] if enabled else None

    @on(Input.Changed, "#list-filter")
    def _typed(self, event: Input.Changed) -> None:
        self._error_line.update("")
        self._show(event.value)

    @on(Input.Submitted, "#list-filter")
    def _submitted(self, event: Input.Submitted) -> None:
        event.stop()
        option = self._list_options.highlighted_option
        if option is not None:
            self._choose(str(option.id))

    @on(OptionList.OptionSelected, "#list-options")
    def _selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self._choose(str(event.option.id))

    def action_move(self, step: int) -> None:
        box = self._list_options
        (box.action_cursor_down if step > 0 else box.action_cursor_up)()

    def action_cancel(self) -> None:
        self.finish(None)

    def _choose(self, option_id: str) -> None:
        name = option_id
        try:
            if option_id == NEW:
                name = self._filter_box.value.strip()
                self.lib.create_list(name)
            self.lib.add_to_list(name, self.ids)
        except PaperTuiError as exc:
            self._error_line.update(str(exc))
            return
        self.finish(name)
