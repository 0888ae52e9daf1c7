"""A vertical scrollbar drawn line by line, for the Line-API views (results, abstract)."""

from __future__ import annotations

from math import ceil
from typing import Any

from rich.color import Color
from rich.segment import Segment
from textual.geometry import Region
from textual.reactive import Reactive
from textual.scrollbar import ScrollBar, ScrollBarRender
from textual.strip import Strip

from paper_tui.tui import textual_internals
from paper_tui.tui.widgets.lines import DirectLines, WidgetPart

DEFAULT_BAR_BACK = Color.parse("#555555")
DEFAULT_BAR = Color.parse("bright_magenta")
"""Rich's scrollbar colours when the style has none (as ScrollBarRender does)."""


class LineScrollBar(DirectLines, ScrollBar):
    """A vertical scrollbar that repaints only the rows of the bar that change.

    Textual's own repaints the whole column on any change, and the bar changes with every
    paper shown (its length does): some 37 rows through the style pipeline, ~2 ms a frame.
    Here the bar is worked out once per change and compared row by row."""

    window_virtual_size: Reactive[int] = Reactive(100, repaint=False)
    window_size: Reactive[int] = Reactive(0, repaint=False)
    position: Reactive[float] = Reactive(0, repaint=False)

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._bar_key: tuple | None = None
        self._bar: list[Strip] = []
        self._rows: dict[Segment, Strip] = {}
        """One strip per distinct row drawn (track, thumb, its ends): the same rows come
        back as the bar moves, with their filtered and cut forms cached on them."""

    def watch_window_virtual_size(self) -> None:
        self._repaint_changed()

    def watch_window_size(self) -> None:
        self._repaint_changed()

    def watch_position(self) -> None:
        self._repaint_changed()

    def _repaint_changed(self) -> None:
        if not self.is_mounted:
            return
        old = self._bar
        new = self._current()
        width = self.outer_size.width
        changed = [Region(0, y, width, 1) for y, strip in enumerate(new)
                   if y >= len(old) or old[y] is not strip]
        if changed:
            self.refresh(*changed)

    def watch_mouse_over(self) -> None:
        self._bar_key = None  # its colours change (Textual repaints the whole bar)

    def watch_grabbed(self) -> None:
        self._bar_key = None

    def _current(self) -> list[Strip]:
        """The bar, drawn again when its size, window, position, state or style changed
        (the last three clear ``_bar_key``)."""
        key = (self.window_virtual_size, self.window_size, self.position, self.outer_size)
        if key != self._bar_key:
            self._bar_key = key
            self._bar = self._draw()
        return self._bar

    def _draw(self) -> list[Strip]:
        width, height = self.outer_size
        bar = self.render()
        if not isinstance(bar, ScrollBarRender) or not height:
            return []
        style = self.app.console.get_style(bar.style)
        window = self.window_size if self.window_size < self.window_virtual_size else 0
        segments = bar.render_bar(size=height, virtual_size=ceil(self.window_virtual_size),
                                  window_size=ceil(window), position=self.position,
                                  thickness=width, vertical=True,
                                  back_color=style.bgcolor or DEFAULT_BAR_BACK,
                                  bar_color=style.color or DEFAULT_BAR)
        rows = self._rows
        return [rows.get(segment) or rows.setdefault(segment, Strip([segment], width))
                for segment in segments.segments if segment.text != "\n"]

    def render_lines(self, crop: Region) -> list[Strip]:
        self._current()  # once a frame, not once a line
        return super().render_lines(crop)

    def render_line(self, y: int) -> Strip:
        bar = self._bar
        return bar[y] if y < len(bar) else Strip.blank(self.outer_size.width)

    def notify_style_update(self) -> None:
        super().notify_style_update()
        self._bar_key = None
        self._rows.clear()


class LineScrolled(WidgetPart):
    """For a Line-API ``ScrollView`` (put it first in the bases): its vertical scrollbar is
    a :class:`LineScrollBar`, created on first use as Textual creates its own."""

    @property
    def vertical_scrollbar(self) -> ScrollBar:
        return textual_internals.vertical_scrollbar(
            self,
            lambda: LineScrollBar(vertical=True, name="vertical",
                                  thickness=self.scrollbar_size_vertical))
