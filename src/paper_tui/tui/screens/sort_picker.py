"""Choose how the results are sorted (``S``): type to filter the sorts, Enter chooses."""

from __future__ import annotations

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.fuzzy import Matcher
from textual.widgets import Input, Label, OptionList
from textual.widgets.option_list import Option

from paper_tui.tui.screens.dialog import DIALOG_CSS, Dialog
from paper_tui.vocabulary import FOR_YOU, RATING_CHANGE, SORTS, TEAM_SORT

WHAT = {"relevance": "best match first (no query: the list's order)",
        "year": "newest first",
        "title": "A to Z",
        "rating": "the reviewers' mean, highest first",
        "citations": "most cited first",
        "consensus": "the reviewers' mean less their spread",
        RATING_CHANGE: "the mean's rise since the first fetch, biggest first",
        TEAM_SORT: "most team members kept, then most starred",
        FOR_YOU: "what you kept and skipped taught it"}
"""Each sort in a few words, as the picker lists it."""


def matching_sorts(typed: str, sorts: tuple[str, ...] = SORTS) -> list[str]:
    """The ``sorts`` whose name matches ``typed`` loosely, best first; all in their order
    when nothing is typed."""
    typed = typed.strip()
    if not typed:
        return list(sorts)
    matcher = Matcher(typed)
    scored = [(matcher.match(sort), i, sort) for i, sort in enumerate(sorts)]
    return [sort for score, _, sort in sorted(scored, key=lambda s: (-s[0], s[1]))
            if score > 0]


class SortPicker(Dialog[str | None]):
    """The sorts, the one in force highlighted; dismisses with the sort chosen."""

    DEFAULT_CSS = DIALOG_CSS + """
    SortPicker { align: center middle; }
    SortPicker .dialog { width: 60; }
    SortPicker OptionList { height: auto; max-height: 10; border: none; padding: 0; }
    """
    BINDINGS = [
        Binding("escape", "cancel", "Cancel"),
        Binding("down", "move(1)", show=False),
        Binding("up", "move(-1)", show=False),
    ]

    def __init__(self, current: str, sorts: tuple[str, ...] = SORTS) -> None:
        """``sorts``: those offered (the library's: ``rating-change`` once a rating
        moved)."""
        super().__init__()
        self.current = current
        self.sorts = sorts
        # Built here, not found on mount: keys typed ahead may close the picker (or the
        # app) before it has mounted, and its widgets are gone then.
        self._filter_box = Input(placeholder="type to filter: rat, cit, for…", id="sort-filter")
        self._sort_options = OptionList(id="sort-options")
        self._show("")

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Label("Sort the results by", classes="dialog-title")
            yield self._filter_box
            yield self._sort_options
            yield Label("Enter sorts · ↑↓ choose · Esc cancels", classes="dialog-hint")

    def on_mount(self) -> None:
        self._filter_box.focus()

    def _show(self, typed: str) -> None:
        sorts = matching_sorts(typed, self.sorts)
        options = []
        for sort in sorts:
            label = Text(sort, style="bold")
            label.append(f"  {WHAT[sort]}", style="dim")
            if sort == self.current:
                label.append("  (now)", style="green")
            options.append(Option(label, id=sort))
        if not options:
            options.append(Option(Text(f"no sort matches {typed.strip()!r}", style="dim"),
                                  disabled=True))
        box = self._sort_options
        box.set_options(options)
        if not sorts:
            box.highlighted = None
        elif typed.strip() or self.current not in sorts:
            box.highlighted = 0
        else:
            box.highlighted = sorts.index(self.current)

    @on(Input.Changed, "#sort-filter")
    def _typed(self, event: Input.Changed) -> None:
        self._show(event.value)

    @on(Input.Submitted, "#sort-filter")
    def _submitted(self, event: Input.Submitted) -> None:
        event.stop()
        option = self._sort_options.highlighted_option
        if option is not None and not option.disabled:
            self.finish(str(option.id))

    @on(OptionList.OptionSelected, "#sort-options")
    def _selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.finish(str(event.option.id))

    def action_move(self, step: int) -> None:
        box = self._sort_options
        (box.action_cursor_down if step > 0 else box.action_cursor_up)()

    def action_cancel(self) -> None:
        self.finish(None)
