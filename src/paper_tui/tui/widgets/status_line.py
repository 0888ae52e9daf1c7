"""The status line: hits for the query, triage progress, the active sort and filters, and
on its right the last action's confirmation."""

from __future__ import annotations

from time import monotonic
from typing import TYPE_CHECKING

from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual.strip import Strip
from textual.timer import Timer
from textual.widget import Widget

from paper_tui.tui.widgets.lines import DirectLines
from paper_tui.vocabulary import count

if TYPE_CHECKING:
    from paper_tui.library import Library

SEVERITY_STYLES = {"information": "bold", "warning": "bold yellow", "error": "bold red"}
MARGIN = 1
"""Blank columns left and right, drawn in the line (as CSS padding they would send the
line through Textual's style pipeline on every key)."""
DEMO = ("demo: the bundled NeurIPS 2026 list · `paper-tui import FILE` or `fetch` your own "
        "· `paper-tui sources remove neurips-2026` drops it")
"""After the status while the library holds the bundled list alone (a new library's demo)."""


def status_text(hits: int | None, busy: bool, triaged: int | None, total: int | None,
                sort: str, mode: str = "", error: str | None = None,
                suggestion: str | None = None, share: tuple[int, int] | None = None,
                watch_news: int | None = None) -> Text:
    """``hits`` is None before the first search finishes; ``busy`` while a newer runs;
    ``share``: (triaged, assigned) of the reader's share of the team's split;
    ``watch_news``: papers the last fetch of the watches brought."""
    out = Text(no_wrap=True, overflow="ellipsis")
    if error:
        out.append(error, "bold red")
    elif hits is None:
        out.append("searching…", "italic")
    else:
        out.append(count(hits, "hit"), "bold")
        if suggestion:
            out.append(f"  did you mean: {suggestion}", "italic")
    if busy and hits is not None:
        out.append(" …")
    if triaged is not None and total:
        out.append(f"  │  {triaged:,} / {total:,} triaged")
    if share is not None:
        out.append(f"  │  your share: {share[0]:,} / {share[1]:,}")
    out.append(f"  │  sort: {sort}")
    if watch_news:
        out.append(f"  │  {watch_news:,} new in your watches", "bold")
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


class StatusLine(DirectLines, Widget):
    """One line of fixed size: :meth:`show` and :meth:`say` repaint just this line (no
    layout pass, unlike a Static or a toast), and only when its text changes."""

    DEFAULT_CSS = """
    StatusLine { height: 1; background: $panel; color: $foreground; }
    StatusLine > .status--message { color: $accent; }
    """
    COMPONENT_CLASSES = {"status--message"}

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.text = Text("")
        """The status part (hits, triage progress, sort, mode), with the demo's note."""
        self._status = Text("")
        self._library: Library | None = None
        self.message = Text("")
        """The last confirmation, shown on the right until it times out."""
        self._expiry: Timer | None = None
        self._expires_at = 0.0
        self._timer_at = 0.0
        self._message_styles: dict[str, Style] = {}
        self._line: Strip | None = None
        self._drawn_for: tuple | None = None

    def on_mount(self) -> None:
        self._library = getattr(self.screen, "library", None)  # the main screen's
        self.show(self._status)

    def show(self, text: Text) -> None:
        """Show ``text``; and the demo's note while the library holds the bundled list
        alone (asked each time: a few entries of the manifest in memory, and an import
        or a removal in the app changes it)."""
        self._status = text
        if self._library is not None and self._library.shows_demo():
            text = text.copy()
            text.append(f"  │  {DEMO}", "italic")
        if text != self.text:
            self.text = text
            self.refresh()

    def say(self, message: str, *, severity: str = "information", timeout: float = 2.0
            ) -> None:
        """Show ``message`` on the right for ``timeout`` seconds."""
        self.message = Text(message, style=self._message_style(severity))
        self.refresh()
        self._expires_at = monotonic() + timeout
        # One timer at a time, not one per key: a later expiry is checked when it fires.
        if self._expiry is None or self._expires_at < self._timer_at:
            self._arm(timeout)

    def _arm(self, delay: float) -> None:
        if self._expiry is not None:
            self._expiry.stop()
        self._timer_at = monotonic() + delay
        self._expiry = self.set_timer(delay, self._expire, name="status message")

    def _message_style(self, severity: str) -> Style:
        style = self._message_styles.get(severity)
        if style is None:
            accent = self.get_component_rich_style("status--message", partial=True)
            style = self._message_styles[severity] = accent + Style.parse(
                SEVERITY_STYLES.get(severity, "bold"))
        return style

    def _expire(self) -> None:
        """The message's time is up, unless a newer message has pushed it back."""
        self._expiry = None
        left = self._expires_at - monotonic()
        if left > 0.01:
            self._arm(left)
            return
        self.message = Text("")
        self.refresh()

    def render(self) -> Text:
        return status_line(self.text, self.message, self._text_width())

    def _text_width(self) -> int:
        return max(0, self.content_region.width - 2 * MARGIN)

    def render_line(self, y: int) -> Strip:
        """The line, drawn once per change (Textual's render() path costs ~1 ms a frame)."""
        width = self.content_region.width
        key = (self.text, self.message, width)
        if key != self._drawn_for or self._line is None:
            base = self.rich_style
            text_width = self._text_width()
            text = status_line(self.text, self.message, text_width)
            body = Strip(text.render(self.app.console), text.cell_len).crop_extend(
                0, text_width, base).apply_style(base)
            margin = Segment(" " * MARGIN, Style(bgcolor=base.bgcolor))  # as CSS padding
            line = Strip([margin, *body, margin], text_width + 2 * MARGIN)
            self._line = line if width >= 2 * MARGIN else line.crop(0, width)
            self._drawn_for = key
        return self._line if y == 0 else Strip.blank(width, self.rich_style)

    def notify_style_update(self) -> None:
        super().notify_style_update()
        self._line = None
        self._message_styles.clear()
