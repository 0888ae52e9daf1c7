"""The reviews view: what the reviewers wrote of the highlighted paper, in the abstract
pane (the reviews key toggles it with the abstract).

The meta-review and the decision first, then each review with its scores in one line at
the top (rating, confidence, soundness, …) and its text fields, then the thread of
comments, indented. ``]`` and ``[`` move from one review to the next. Every text from the
venue is made inert before it is laid out (:mod:`paper_tui.trust.inert`). The reviews are
read off the UI thread (:mod:`paper_tui.tui.controllers.reviews`) and handed here.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual.binding import Binding
from textual.geometry import Size
from textual.scroll_view import ScrollView
from textual.strip import Strip

from paper_tui.trust.inert import inert_line, inert_text
from paper_tui.venue import reviews as reviews_mod

if TYPE_CHECKING:
    from paper_tui.library import PaperReviews
    from paper_tui.model import Paper
    from paper_tui.venue.reviews import RatingPoint

LOADING = "Reading the reviews…"
NO_PAPER = "No paper to show."
HOW_TO_GET = ("No reviews kept for this paper: paper-tui fetch openreview:VENUE_ID --reviews "
              "gets its venue's")
NONE_PUBLISHED = "No reviews: the venue published none for this paper."
MARGIN = 1
SPARKS = "▁▂▃▄▅▆▇█"

def sparkline(history: Sequence[RatingPoint]) -> str:
    """The mean rating of each point as a bar, lowest ``▁`` to highest ``█`` (the range of
    the history's own means); ``""`` with fewer than two points."""
    means = [p.mean for p in history if p.mean is not None]
    if len(means) < 2:
        return ""
    low, high = min(means), max(means)
    span = high - low
    if span <= 0:
        return SPARKS[3] * len(means)
    return "".join(SPARKS[round((m - low) / span * (len(SPARKS) - 1))] for m in means)


def moved_text(history: Sequence[RatingPoint]) -> str:
    """The venue line's words for how the rating moved: ``5.3 → 6.0 (+0.7 since 20 Nov)
    ▃▇``; ``""`` when it has not (fewer than two points)."""
    change = reviews_mod.change_text(history)
    if not change:
        return ""
    spark = sparkline(history)
    return f"{change} {spark}" if spark else change




Block = tuple[int, Text]
"""A paragraph and its indent (wrapped lines keep it)."""


def render_sections(paper: Paper | None, reviewed: PaperReviews | None) -> list[list[Block]]:
    """The view's text, one section per review (the first: the paper's title and how its
    rating moved); a paper without reviews is one line saying so."""
    if paper is None:
        return [[(0, Text(NO_PAPER, style="italic"))]]
    head: list[Block] = [(0, Text(inert_line(paper.display_title or paper.title),
                                  style="bold"))]
    if reviewed is None:
        return [head, [(0, Text(LOADING, style="italic"))]]
    if moved := moved_text(reviewed.history):
        head.append((0, Text("rating " + moved, style="italic")))
    if reviewed.reviews is None:
        return [head, [(0, Text(HOW_TO_GET, style="italic"))]]
    if not reviewed.reviews:
        return [head, [(0, Text(NONE_PUBLISHED, style="italic"))]]
    depth = reviews_mod.thread_depth(reviewed.reviews)
    sections = [head]
    for review in reviews_mod.in_order(reviewed.reviews):
        indent = 2 * (depth.get(review.id, 0) if review.kind == "comment" else 0)
        out: list[Block] = [(indent, Text(inert_line(review.heading()), style="bold reverse"
                                          if review.kind in ("meta-review", "decision")
                                          else "bold underline"))]
        if scores := review.scores_line():
            out.append((indent, Text(inert_line(scores), style="bold")))
        for name, text in review.fields:
            out.append((indent, Text(name.replace("_", " ").capitalize(), style="italic")))
            out += [(indent + 2, Text(line)) for line in inert_text(text).strip().splitlines()]
        sections.append(out)
    return sections


def plain(sections: list[list[Block]]) -> str:
    """The sections as plain text, a blank line between (tests read it)."""
    return "\n\n".join("\n".join(" " * indent + text.plain for indent, text in section)
                       for section in sections)


class ReviewsView(ScrollView, can_focus=True):
    """The reviews of one paper, wrapped to the width and drawn line by line; ``]``/``[``
    scroll to the next or the previous review's heading."""

    BINDINGS = [
        Binding("right_square_bracket", "next_review", "Next review", show=False,
                id="next-review", tooltip="Reviews view: to the next review"),
        Binding("left_square_bracket", "previous_review", "Previous review", show=False,
                id="previous-review", tooltip="Reviews view: to the previous review"),
        Binding("j", "scroll_down", "Scroll down", show=False, id="reviews-down"),
        Binding("k", "scroll_up", "Scroll up", show=False, id="reviews-up"),
        Binding("escape", "back", "Back to results", show=False, id="reviews-back"),
    ]

    DEFAULT_CSS = """
    ReviewsView { overflow-x: hidden; overflow-y: scroll; background: $background; }
    ReviewsView:focus { background-tint: $primary 5%; }
    Screen.-wide ReviewsView { width: 1fr; height: 100%; }
    Screen.-narrow ReviewsView { width: 100%; height: 1fr; border-top: hkey $panel-lighten-2; }
    """

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._paper: Paper | None = None
        self._reviewed: PaperReviews | None = None
        self._lines: list[Strip] = []
        self.starts: list[int] = []
        """The line each section (the title, then each review) starts at."""
        self._wrapped_for: Size | None = None

    @property
    def paper(self) -> Paper | None:
        return self._paper

    @property
    def text(self) -> Text:
        """What is shown, unwrapped (tests read ``text.plain``)."""
        return Text(plain(render_sections(self._paper, self._reviewed)))

    def show(self, paper: Paper | None, reviewed: PaperReviews | None) -> None:
        """Show ``paper``'s reviews (None: still being read), from the top."""
        self._paper, self._reviewed = paper, reviewed
        self._wrapped_for = None
        self.scroll_to(y=0, animate=False)
        self._wrap()
        self.refresh()

    def _wrap(self) -> None:
        width = self.scrollable_content_region.width
        if width <= 0:
            return
        self._wrapped_for = self.outer_size
        base = self.rich_style
        blank = Style(bgcolor=base.bgcolor)
        console = self.app.console
        lines: list[Strip] = []
        starts: list[int] = []
        for section in render_sections(self._paper, self._reviewed):
            if lines:
                lines.append(Strip.blank(width, blank))
            starts.append(len(lines))
            for indent, text in section:
                indent = min(indent, max(0, width // 2))
                options = console.options.update_width(max(1, width - 2 * MARGIN - indent))
                left = Segment(" " * (MARGIN + indent), blank)
                lines += [Strip([left, *Segment.apply_style(line, base)])
                          .crop_extend(0, width, blank)
                          for line in console.render_lines(text, options, pad=False)]
        self._lines, self.starts = lines, starts
        self.virtual_size = Size(width, len(lines))

    def on_resize(self) -> None:
        self._wrap()
        self.refresh()

    def render_line(self, y: int) -> Strip:
        if self._wrapped_for != self.outer_size:
            self._wrap()
        index = self.scroll_offset.y + y
        if index < len(self._lines):
            return self._lines[index]
        return Strip.blank(self.size.width, self.rich_style)

    def action_next_review(self) -> None:
        top = self.scroll_offset.y
        after = [s for s in self.starts[1:] if s > top]
        if after:
            self.scroll_to(y=after[0], animate=False)

    def action_previous_review(self) -> None:
        top = self.scroll_offset.y
        before = [s for s in self.starts if s < top]
        self.scroll_to(y=before[-1] if before else 0, animate=False)

    def action_back(self) -> None:
        self.screen.set_focus(self.screen.query_one("#results"))
