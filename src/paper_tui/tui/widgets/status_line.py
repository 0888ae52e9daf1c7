"""The status line: hits for the query, triage progress, the active sort and filters."""

from __future__ import annotations

from rich.text import Text
from textual.widget import Widget


def status_text(hits: int | None, busy: bool, triaged: int | None, total: int | None,
                sort: str, mode: str = "", error: str | None = None,
                suggestion: str | None = None) -> Text:
    """``hits`` is None before the first search finishes; ``busy`` while a newer runs."""
    out = Text(no_wrap=True, overflow="ellipsis")
    if error:
        out.append(error, "bold red")
    elif hits is None:
        out.append("searching…", "italic")
    else:
        out.append(f"{hits:,} hit{'s' if hits != 1 else ''}", "bold")
        if suggestion:
            out.append(f"  did you mean: {suggestion}", "italic")
    if busy and hits is not None:
        out.append(" …")
    if triaged is not None and total:
        out.append(f"  │  {triaged:,} / {total:,} triaged")
    out.append(f"  │  sort: {sort}")
    if mode:
        out.append(f"  │  {mode}", "italic")
    return out


class StatusLine(Widget):
    """One line; :meth:`show` repaints it without a layout pass (a Static would relayout)."""

    DEFAULT_CSS = """
    StatusLine { height: 1; background: $panel; color: $foreground; padding: 0 1; }
    """

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.text = Text("")

    def show(self, text: Text) -> None:
        self.text = text
        self.refresh()

    def render(self) -> Text:
        return self.text
