"""Line-API widgets whose lines reach the screen as they are drawn."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING

from rich.segment import Segment
from textual.cache import LRUCache
from textual.color import Color
from textual.geometry import Region
from textual.strip import Strip
from textual.style import Style

from paper_tui.tui import textual_internals

if TYPE_CHECKING:
    from textual.widget import Widget

    WidgetPart = Widget
    """What the mixin uses of the widget it is mixed into (type checking only)."""
else:
    WidgetPart = object

FINISHED_KEPT = 1024
"""Finished lines kept per widget when they need a new strip (a side border): a few
screens' worth."""

Sides = tuple["Segment | None", "Segment | None"]


class DirectLines(WidgetPart):
    """For a Line-API widget (put it first in the bases) whose ``render_line`` returns
    long-lived strips, already in the widget's colours.

    Textual passes every line through its CSS pipeline (borders, padding, tint, opacity)
    and makes a new strip of it on each repaint, so the app's line filters and the
    compositor's cuts are worked out again for every line of every frame (~50 µs a line).
    Here, when the widget's CSS is at most a left or right border, a line is finished the
    way that pipeline would (padded to the width, the border added, the app's filters
    applied) once per strip, and the finished line is reused as long as the strip is: its
    filtered and cut forms stay cached on it. With any other CSS chrome (a top border in
    the narrow layout, padding, tint) Textual's pipeline draws as before.
    """

    _finished: LRUCache[int, tuple[Strip, tuple, Strip]] | None = None
    _lines_kept: dict[int, Strip] | None = None
    """The finished lines on screen by row, kept until Textual marks a row dirty (its
    styles cache's bookkeeping, which every repaint request goes through)."""
    _kept_for: tuple | None = None

    def render_lines(self, crop: Region) -> list[Strip]:
        finisher = self._finisher()
        dirty = textual_internals.dirty_lines(self)
        if finisher is None or dirty is None:
            if self._lines_kept is not None:
                self._lines_kept = None
                # its lines were not kept up to date meanwhile
                textual_internals.clear_styles_cache(self)
            return super().render_lines(crop)
        finish, key = finisher
        width, height = self.region.size
        if self._lines_kept is None or self._kept_for != key:
            self._lines_kept, self._kept_for = {}, key
        kept = self._lines_kept
        render_line = self.render_line
        strips = []
        for y in crop.line_range:
            strip = kept.get(y)
            if strip is None or y in dirty:
                strip = kept[y] = finish(render_line(y) if y < height else Strip.blank(width))
            strips.append(strip)
        dirty.difference_update(crop.line_range)
        if crop.column_span != (0, width):
            x1, x2 = crop.column_span
            strips = [strip.crop(x1, x2) for strip in strips]
        return strips

    def finish_lines(self, strips: Iterable[Strip]) -> None:
        """Make now the lines :meth:`render_lines` will hand the compositor when
        ``strips`` are shown (for lines drawn ahead of time)."""
        finisher = self._finisher()
        if finisher is not None:
            finish, _key = finisher
            for strip in strips:
                finish(strip)

    def _finisher(self) -> tuple[Callable[[Strip], Strip], tuple] | None:
        """What Textual's pipeline does to a content line of this widget, and what that
        depends on (width, borders, background, filters); None when the pipeline would do
        more than this can (see :meth:`_plain_sides`)."""
        base_background, background = self.background_colors
        sides = self._plain_sides(base_background, background)
        if sides is None:
            return None
        width = self.region.width
        pad = Style(background=base_background + background).rich_style
        filters = self.app.get_line_filters()
        left, right = sides
        content_width = width - (left is not None) - (right is not None)

        def filtered(strip: Strip) -> Strip:
            for line_filter in filters:
                strip = strip.apply_filter(line_filter, background)
            return strip

        key = (width, sides, background, tuple(filters))
        if left is None and right is None:
            def finish(strip: Strip) -> Strip:
                # the padded and filtered strips are cached on the strip itself
                return filtered(strip.adjust_cell_length(width, pad))
        else:
            if self._finished is None:
                self._finished = LRUCache(FINISHED_KEPT)
            finished = self._finished

            def finish(strip: Strip) -> Strip:
                kept = finished.get(id(strip))
                if kept is not None and kept[0] is strip and kept[1] == key:
                    return kept[2]
                line = strip.adjust_cell_length(content_width, pad)
                segments = [*([left] if left else []), *line, *([right] if right else [])]
                done = filtered(Strip(segments, width))
                finished[id(strip)] = (strip, key, done)  # holds the strip: its id stays
                return done
        return finish, key

    def _plain_sides(self, base_background: Color, background: Color) -> Sides | None:
        """The left and right border segments when the CSS pipeline would do no more to
        this widget's lines than add them (None for either side without a border);
        None when it would do more."""
        styles = self.styles
        if any(styles.padding) or any(edge for edge, _color in styles.outline):
            return None
        (top, _), (right, right_color), (bottom, _), (left, left_color) = styles.border
        if top or bottom:
            return None
        if styles.tint.a or styles.text_opacity != 1 or self.opacity != 1:
            return None
        if styles.has_rule("hatch") and styles.hatch != "none":
            return None
        if self.auto_links and textual_internals.has_hover_links(
                self.hover_style):
            return None
        if not (left or right):
            return (None, None)
        inner = Style(background=base_background + background)
        outer = Style(background=base_background)
        left_side = right_side = None
        if left:
            left_side = textual_internals.border_segment(
                left, inner, outer, Style(foreground=base_background + left_color), 0)
            if left_side is None:
                return None
        if right:
            right_side = textual_internals.border_segment(
                right, inner, outer, Style(foreground=base_background + right_color), 2)
            if right_side is None:
                return None
        return left_side, right_side
