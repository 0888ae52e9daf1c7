"""The status line: hits for the query, triage progress, the active sort and filters, and
on its right the last action's confirmation."""

from __future__ import annotations

from rich.style import Style
from rich.text import Text
from textual.strip import Strip
from textual.timer import Timer
from textual.widget import Widget

SEVERITY_STYLES = {"information": "bold", "warning": "bold yellow", "error": "bold red"}


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


def status_line(status: Text, message: Text | None, width: int) -> Text:
    """``status`` on the left and ``message`` on the right of one line ``width`` cells wide.

    The message (what the last key did) gets the room the status leaves, and at least
    half the line; whichever does not fit is cut with an ellipsis."""
    if not message or not message.plain:
        return status
    room = max(width - status.cell_len - 2, min(message.cell_len, width // 2))
    message = message.copy()
    message.truncate(max(room, 0), overflow="ellipsis")
    left = status.copy()
    left.truncate(max(width - message.cell_len - 2, 0), overflow="ellipsis", pad=True)
    out = Text(no_wrap=True, overflow="ellipsis", end="")
    out.append_text(left)
    out.append("  ")
    out.append_text(message)
    return out


class StatusLine(Widget):
    """One line of fixed size: :meth:`show` and :meth:`say` repaint just this line (no
    layout pass, unlike a Static or a toast), and only when its text changes."""

    DEFAULT_CSS = """
    StatusLine { height: 1; background: $panel; color: $foreground; padding: 0 1; }
    StatusLine > .status--message { color: $accent; }
    """
    COMPONENT_CLASSES = {"status--message"}

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.text = Text("")
        """The status part (hits, triage progress, sort, mode)."""
        self.message = Text("")
        """The last confirmation, shown on the right until it times out."""
        self._expiry: Timer | None = None
        self._line: Strip | None = None
        self._drawn_for: tuple | None = None

    def show(self, text: Text) -> None:
        if text != self.text:
            self.text = text
            self.refresh()

    def say(self, message: str, *, severity: str = "information", timeout: float = 2.0
            ) -> None:
        """Show ``message`` on the right for ``timeout`` seconds."""
        accent = self.get_component_rich_style("status--message", partial=True)
        style = accent + Style.parse(SEVERITY_STYLES.get(severity, "bold"))
        self.message = Text(message, style=style)
        self.refresh()
        if self._expiry is not None:
            self._expiry.stop()
        self._expiry = self.set_timer(timeout, self._expire, name="status message")

    def _expire(self) -> None:
        self._expiry = None
        self.message = Text("")
        self.refresh()

    def render(self) -> Text:
        return status_line(self.text, self.message, self.content_region.width)

    def render_line(self, y: int) -> Strip:
        """The line, drawn once per change (Textual's render() path costs ~1 ms a frame)."""
        width = self.content_region.width
        key = (self.text, self.message, width)
        if key != self._drawn_for or self._line is None:
            base = self.rich_style
            text = status_line(self.text, self.message, width)
            self._line = Strip(text.render(self.app.console), text.cell_len).crop_extend(
                0, width, base).apply_style(base)
            self._drawn_for = key
        return self._line if y == 0 else Strip.blank(width, self.rich_style)

    def notify_style_update(self) -> None:
        super().notify_style_update()
        self._line = None
