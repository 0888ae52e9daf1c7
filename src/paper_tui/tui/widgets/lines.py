"""Line-API widgets whose lines reach the screen as they are drawn."""

from __future__ import annotations

from collections.abc import Callable, Iterable

from textual.geometry import Region
from textual.strip import Strip
from textual.style import Style


class DirectLines:
    """For a Line-API widget (put it first in the bases) whose ``render_line`` returns
    long-lived strips, already in the widget's colours.

    Textual passes every line through its CSS pipeline (borders, padding, tint, opacity)
    and makes a new strip of it on each repaint, so the app's line filters and the
    compositor's cuts are worked out again for every line of every frame (~50 µs a line).
    Without that CSS the pipeline changes nothing in a line but its identity: here the
    widget's own strip is used, and the filtered and cut lines stay cached on it. With
    any such CSS (a border in the narrow layout, say) Textual's pipeline draws as before.
    """

    def render_lines(self, crop: Region) -> list[Strip]:
        if not self._plain_lines():
            return super().render_lines(crop)  # type: ignore[misc]
        width, height = self.region.size  # type: ignore[attr-defined]
        finish = self._finisher(width)
        render_line = self.render_line  # type: ignore[attr-defined]
        strips = [finish(render_line(y) if y < height else Strip.blank(width))
                  for y in crop.line_range]
        if crop.column_span != (0, width):
            x1, x2 = crop.column_span
            strips = [strip.crop(x1, x2) for strip in strips]
        return strips

    def finish_lines(self, strips: Iterable[Strip]) -> None:
        """Make now, and cache on ``strips``, the lines :meth:`render_lines` will hand
        the compositor when they are shown (for lines drawn ahead of time)."""
        if self._plain_lines():
            finish = self._finisher(self.region.width)  # type: ignore[attr-defined]
            for strip in strips:
                finish(strip)

    def _finisher(self, width: int) -> Callable[[Strip], Strip]:
        """What Textual's pipeline does to a line of this widget: pad it to the width in
        the background colour, then the app's filters (both cached on the strip)."""
        base_background, background = self.background_colors  # type: ignore[attr-defined]
        pad = Style(background=base_background + background).rich_style
        filters = self.app.get_line_filters()  # type: ignore[attr-defined]

        def finish(strip: Strip) -> Strip:
            strip = strip.adjust_cell_length(width, pad)
            for line_filter in filters:
                strip = strip.apply_filter(line_filter, background)
            return strip
        return finish

    def _plain_lines(self) -> bool:
        """True when the CSS pipeline would leave this widget's lines as they are."""
        styles = self.styles  # type: ignore[attr-defined]
        if any(styles.gutter) or any(edge for edge, _color in styles.outline):
            return False
        if styles.tint.a or styles.text_opacity != 1 or self.opacity != 1:  # type: ignore[attr-defined]
            return False
        if styles.has_rule("hatch") and styles.hatch != "none":
            return False
        return not (self.auto_links and self.hover_style._link_id)  # type: ignore[attr-defined]
