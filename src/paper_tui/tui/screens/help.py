"""The help screen: every action with the keys it has *now* (read from the live keymap)."""

from __future__ import annotations

from collections.abc import Sequence

from rich.table import Table
from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.widgets import Static

from paper_tui.tui.keymap import KeyAction, screen_key_hint
from paper_tui.tui.screens.dialog import Dialog
from paper_tui.tui.screens.results_screen import CLOSE_HELP_KEY

WHERE = {"anywhere": "Outside the search box", "results": "In the results",
         "abstract": "In the abstract", "search": "In the search box",
         "facets-options": "In the facets panel"}


def keys_table(actions: Sequence[KeyAction]) -> Table:
    """The keys grouped by where they work, in the order the app declares them."""
    table = Table(box=None, expand=True, pad_edge=False, show_edge=False)
    table.add_column("Keys", style="bold", no_wrap=True)
    table.add_column("Action")
    table.add_column("Id (for keymap:)", style="dim", no_wrap=True)
    groups: dict[str, list[KeyAction]] = {}
    for action in actions:
        groups.setdefault(action.where, []).append(action)
    for where, group in groups.items():
        table.add_row(WHERE.get(where, where), style="italic", end_section=False)
        for action in group:
            table.add_row(action.key_display, action.help, action.id)
        table.add_row()
    return table


class HelpScreen(Dialog[None]):
    """Lists the keys; any of Esc, q or ? closes it."""

    BINDINGS = [CLOSE_HELP_KEY]

    DEFAULT_CSS = """
    HelpScreen { align: center middle; }
    HelpScreen #help-keys, HelpScreen #help-hint { height: auto; }
    HelpScreen > VerticalScroll {
        width: 90%; max-width: 100; height: auto; max-height: 90%;
        border: round $primary; background: $surface; padding: 0 1;
    }
    """

    def __init__(self, actions: Sequence[KeyAction], config_hint: str) -> None:
        super().__init__()
        self.actions = list(actions)
        self.config_hint = config_hint

    def compose(self) -> ComposeResult:
        with VerticalScroll() as scroll:
            scroll.border_title = "Keys"
            scroll.border_subtitle = f"{screen_key_hint(self, 'close-help')} closes"
            yield Static(keys_table(self.actions), id="help-keys")
            yield Static(self.config_hint, id="help-hint")

    def action_close_help(self) -> None:
        self.finish(None)
