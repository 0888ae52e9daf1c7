"""The search box: an Input with query history on up/down."""

from __future__ import annotations

from textual.binding import Binding
from textual.geometry import Size
from textual.reactive import Reactive
from textual.widgets import Input


class SearchBox(Input):
    """Typing posts ``Input.Changed`` (the app searches); up/down walk the history."""

    virtual_size: Reactive[Size] = Reactive(Size(0, 0), layout=False)
    """The typed text's width. Input sets it on every key, and a Widget's would lay the
    whole screen out again each time (~20 ms on a key's path); a one-line box with no
    scrollbar only needs itself repainted."""

    BINDINGS = [
        Binding("up", "history(-1)", "Older query", show=False, id="history-back"),
        Binding("down", "history(1)", "Newer query", show=False, id="history-forward"),
        Binding("escape", "leave", "Leave search", id="leave-search"),
    ]

    def __init__(self, history_size: int = 100, **kwargs) -> None:
        super().__init__(**kwargs)
        self.history: list[str] = []
        self.history_size = history_size
        self._position: int | None = None

    def remember(self, query: str) -> None:
        """Add a query to the history (most recent last, no duplicates)."""
        query = query.strip()
        if not query:
            return
        if query in self.history:
            self.history.remove(query)
        self.history.append(query)
        del self.history[:-self.history_size]
        self._position = None

    def action_history(self, step: int) -> None:
        if not self.history:
            return
        last = len(self.history)
        start = self._position
        if start is None or self.value != (self.history[start] if start < last else ""):
            # a new walk, from what is typed: past a query the same as it
            start = last - 1 if step < 0 and self.value.strip() == self.history[-1] else last
        position = start + step
        position = max(0, min(position, last))
        self._position = position
        self.value = self.history[position] if position < last else ""
        self.cursor_position = len(self.value)

    def action_leave(self) -> None:
        self.screen.set_focus(self.screen.query_one("#results"))  # now: keys may be queued
