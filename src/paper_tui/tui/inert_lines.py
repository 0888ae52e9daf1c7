"""The app's last line filter: no escape sequence or control character from data reaches
the terminal, whichever widget draws it.

Textual hands each line it draws, as segments, to the app's line filters before the
compositor writes it (``App.get_line_filters``; :class:`~paper_tui.tui.widgets.lines.
DirectLines` applies them too). Text from data is laid out by Rich and Textual, which count
a control character as zero cells wide but pass it on, so a title holding ``ESC ]0;…``
would rename the terminal window from the results list, the abstract view, a picker, a
notification or the help screen alike. Here, in one place, each segment's text is made
inert (:func:`paper_tui.trust.inert.inert_line`; a line break in a no-wrap row, zero cells wide
too, is removed) and a link target with such a character is cleaned the same way (it
would go out inside the OSC 8 sequence). A sequence's payload was laid out as cells
(``]0;title``): its room is kept as blanks, so nothing after it moves.

A line is filtered once: Textual caches the filtered strip, and most segments are checked
with one C-level scan. The app's own sequences (colours, OSC 52 for copying) are made by
the driver from styles, not from segment text, and never pass through here.
"""

from __future__ import annotations

from rich.cells import cell_len, set_cell_size
from rich.segment import Segment
from textual.color import Color
from textual.filter import LineFilter

from paper_tui.trust.inert import inert_line, is_inert


class InertLines(LineFilter):
    """Makes the text and the link targets of every segment drawn inert."""

    def apply(self, segments: list[Segment], background: Color) -> list[Segment]:
        out: list[Segment] | None = None
        for index, segment in enumerate(segments):
            text, style, control = segment
            if control:
                continue
            link = style.link if style is not None else None
            text_ok = is_inert(text, one_line=True)
            if text_ok and (not link or is_inert(link, one_line=True)):
                continue
            if out is None:
                out = list(segments)
            if not text_ok:
                text = set_cell_size(inert_line(text, breaks=""), cell_len(text))
            if style is not None and link and not is_inert(link, one_line=True):
                style = style.update_link(inert_line(link) or None)
            out[index] = Segment(text, style)
        return segments if out is None else out
