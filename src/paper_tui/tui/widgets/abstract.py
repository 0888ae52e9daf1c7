"""The abstract view: everything about the highlighted paper, scrollable."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual.binding import Binding
from textual.cache import LRUCache
from textual.geometry import Region, Size
from textual.scroll_view import ScrollView
from textual.strip import Strip

from paper_tui.model import DERIVED_TITLE, NO_ABSTRACT, Paper, Span
from paper_tui.trust.inert import inert_line, inert_line_offsets, inert_text
from paper_tui.tui.widgets.lines import DirectLines
from paper_tui.tui.widgets.scrollbar import LineScrolled
from paper_tui.vocabulary import CODE_LINK, STAR, rating_words, status_label, venue_words

if TYPE_CHECKING:
    from paper_tui.library import Annotation

NO_PAPER = "No paper to show."
NAME_NOTE = "  name from the abstract"
BADGE = Style(bold=True, reverse=True)
"""The name badge's look outside the app (the view uses its ``abstract--name`` style)."""
CACHED_PARTS = 64
"""Wrapped headers and abstracts kept (a few screens' worth of papers, at most two widths)."""

MARGIN = 1
"""Blank columns left and right of the text, drawn in the view's own lines (as CSS padding
Textual would add them to every line of every paper shown, again)."""

Highlights = dict[str, list[tuple[int, int]]]
Shown = tuple["Paper | None", "Annotation | None", tuple[str, ...], Highlights,
              tuple[str, ...]]


def _styled(text: str, emphasis: Iterable[Span], matches: Iterable[tuple[int, int]],
            match_style: Style, base: str = "") -> Text:
    """A title or an abstract (one paragraph) made inert, its spans moved with it."""
    shown, at = inert_line_offsets(text)
    out = Text(shown, style=base)
    for start, end, kind in emphasis:
        out.stylize("italic" if kind == "italic" else "bold", at(start), at(end))
    for start, end in matches:
        out.stylize(match_style, at(start), at(end))
    return out


def render_header(paper: Paper, annotation: Annotation, lists: Sequence[str],
                  highlights: dict[str, list[tuple[int, int]]], match_style: Style,
                  team: Sequence[str] = (), name_style: Style = BADGE, moved: str = "") -> Text:
    """The abstract view's text above the abstract: what a triage key changes.

    The title is the source's, as it gave it; a name derived from the abstract is a badge
    on a line of its own, and a title derived for a title-less record says so. Text from
    data is made inert before it is laid out (:mod:`paper_tui.trust.inert`)."""
    out = Text()
    title = _styled(paper.display_title or paper.title, paper.title_emphasis,
                    highlights.get("title", ()), match_style, "bold")
    out.append_text(title)
    out.append("\n")
    if paper.title_generated:
        out.append(DERIVED_TITLE + "\n", "dim italic")
    if paper.badge:
        out.append(f" {inert_line(paper.badge)} ", name_style)
        out.append(NAME_NOTE + "\n", "dim")
    if paper.authors:
        out.append(inert_line(", ".join(paper.authors)))
        out.append("\n")
    affiliations = affiliation_line(paper)
    if affiliations:
        out.append(inert_line(affiliations), "dim")
        out.append("\n")
    where = " ".join(x for x in (paper.venue, str(paper.year or "")) if x)
    meta = [where] if where else []
    if paper.track:
        meta.append(paper.track)
    if meta:
        out.append(inert_line(" · ".join(meta)), "italic")
        out.append("\n")
    out.append_text(venue_line(paper, moved))
    out.append("\n")
    out.append(f"[{status_label(annotation.status)}]", "bold")
    if annotation.starred:
        out.append(f"  {STAR} starred", "bold")
    if annotation.tags:
        out.append(inert_line("  " + " ".join(f"#{t}" for t in annotation.tags)))
    if lists:
        out.append(inert_line("  lists: " + ", ".join(lists)))
    out.append("\n")
    for line in team:  # the other members' triage, why it is ranked here
        label, _, rest = inert_line(line).partition(": ")
        out.append(f"{label}: ", "dim")
        out.append(rest + "\n")
    for label, link in (("url", inert_line(paper.url)), ("pdf", inert_line(paper.pdf))):
        if link:
            out.append(f"{label}: ", "dim")
            out.append(link, f"link {link}")
            out.append("\n")
    if annotation.note:
        out.append("\nNote\n", "bold")
        out.append(inert_text(annotation.note).rstrip() + "\n")
    out.append("\n")
    if not paper.abstract:
        out.append(NO_ABSTRACT + "\n", "italic")
    elif paper.truncated:
        out.append("(the abstract is cut at the start in the source list)\n", "italic")
    return out


def affiliation_line(paper: Paper) -> str:
    """The authors' affiliations, each once in author order, then their countries:
    ``Tsinghua University; Alibaba Group (China, United States)``."""
    affs = dict.fromkeys(" ".join(a.split()) for author in paper.affiliations for a in author)
    line = "; ".join(a for a in affs if a)
    countries = ", ".join(c for c in paper.countries if c.strip())
    if countries:
        line = f"{line} ({countries})" if line else countries
    return line


def venue_line(paper: Paper, moved: str = "") -> Text:
    """What the venue says, one line of what is known: ``Oral · μ 6.8 ± 0.4 (6 7 7 7;
    confidence 4.0) · 312 citations (2026-12-01) · code ↗ · area: RL``, the decision in
    bold, the code and project links as links; empty when the venue says nothing.
    ``moved``: how the rating moved (``5.3 → 6.0 (+0.7 since 20 Nov) ▃▇``), after it."""
    words = [(word, "") for word in venue_words(paper)]
    if moved:
        after = next((i + 1 for i, (word, _) in enumerate(words)
                      if word == rating_words(paper)), 1 if paper.decision_text
                     or paper.decision else 0)
        words.insert(after, (moved, "italic"))
    if paper.decision_text or paper.decision:
        words[0] = (words[0][0], "bold")
    area = words.pop() if paper.area else None  # the area last, after the links
    links = ((CODE_LINK, inert_line(paper.code)), ("project ↗", inert_line(paper.project)))
    styled: list[tuple[str, str | Style]] = [*words, *((label, Style(link=link))
                                                      for label, link in links if link)]
    if area:
        styled.append(area)
    out = Text()
    for word, style in styled:
        if out:
            out.append(" · ")
        out.append(inert_line(word), style)
    if out:
        out.append("\n")
    return out


def render_abstract(paper: Paper, highlights: dict[str, list[tuple[int, int]]],
                    match_style: Style) -> Text:
    """The abstract itself, with emphasis and matched words (the same whatever the
    reader's annotation: wrapped once per paper and width)."""
    return _styled(paper.display_abstract, paper.abstract_emphasis,
                   highlights.get("abstract", ()), match_style)


def render_paper(paper: Paper, annotation: Annotation, lists: Sequence[str],
                 highlights: dict[str, list[tuple[int, int]]], match_style: Style,
                 team: Sequence[str] = (), name_style: Style = BADGE, moved: str = "") -> Text:
    """The abstract view's whole text for one paper."""
    out = render_header(paper, annotation, lists, highlights, match_style, team, name_style,
                        moved)
    out.append_text(render_abstract(paper, highlights, match_style))
    return out


class AbstractView(DirectLines, LineScrolled, ScrollView, can_focus=True):
    """The paper's text, wrapped once per paper and width and drawn line by line.

    A Line-API widget of fixed size: showing another paper repaints only the lines that
    differ, without a layout pass over the whole screen (a Static would relayout on every
    cursor move). The wrapped lines are cached in two parts: the header (what the
    annotation changes) and the abstract (wrapped once per paper and width), and
    :meth:`prepare` wraps a paper ahead of time (the next one, while the reader reads).
    ``Esc`` goes back to the results.
    """

    BINDINGS = [
        Binding("escape", "back", "Back to results", id="back"),
        Binding("j", "scroll_down", "Scroll down", show=False, id="abstract-down"),
        Binding("k", "scroll_up", "Scroll up", show=False, id="abstract-up"),
    ]

    DEFAULT_CSS = """
    AbstractView { overflow-x: hidden; overflow-y: scroll; }
    AbstractView > .abstract--match { color: $accent; text-style: bold underline; }
    AbstractView > .abstract--name {
        color: $text-secondary; background: $secondary-muted; text-style: bold;
    }
    """
    COMPONENT_CLASSES = {"abstract--match", "abstract--name"}

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._shown: Shown = (None, None, (), {}, ())
        self._lines: list[Strip] = []
        self._wrapped_for: Size | None = None
        """The widget size the lines were wrapped for."""
        self._width = 0
        self._base: Style | None = None
        self._match: Style | None = None
        self._badge_style: Style | None = None
        self._parts: LRUCache[tuple, list[Strip]] = LRUCache(CACHED_PARTS)
        self.moves: Mapping[str, str] = {}
        """Paper id -> how its rating moved, for the venue line (the screen's, filled off
        the UI thread: :mod:`paper_tui.tui.controllers.reviews`)."""

    @property
    def paper(self) -> Paper | None:
        """The paper shown."""
        return self._shown[0]

    @property
    def annotation(self) -> Annotation | None:
        """The paper's annotation as shown."""
        return self._shown[1]

    @property
    def text(self) -> Text:
        """What is shown, unwrapped (tests and screenshots read ``text.plain``)."""
        paper, annotation, lists, highlights, team = self._shown
        if paper is None or annotation is None:
            return Text(NO_PAPER, style="italic")
        return render_paper(paper, annotation, lists, highlights, self._match_style(), team,
                            self._name_style(), self.moves.get(paper.id, ""))

    def show(self, paper: Paper | None, annotation: Annotation | None = None,
             lists: Sequence[str] = (), highlights: Highlights | None = None,
             team: Sequence[str] = ()) -> None:
        """Show ``paper``, repainting only the lines that change. ``team``: a line per
        other team member who triaged it."""
        self._shown = (paper, annotation, tuple(lists), highlights or {}, tuple(team))
        old = self._lines
        self.scroll_to(y=0, animate=False)  # a scroll repaints the whole view itself
        if self._wrap():
            self._refresh_changed(old)

    def moved(self) -> None:
        """How a rating moved became known: lay the paper out again, repainting only the
        lines that change."""
        old = self._lines
        if self._wrap():
            self._refresh_changed(old)

    def prepare(self, paper: Paper, annotation: Annotation, lists: Sequence[str] = (),
                highlights: Highlights | None = None, team: Sequence[str] = ()) -> None:
        """Wrap ``paper`` now so that showing it later costs no wrapping."""
        width = self.scrollable_content_region.width
        if width > 0:
            strips = self._strips(paper, annotation, tuple(lists), highlights or {}, width,
                                  tuple(team))
            self.finish_lines(strips[:self.size.height])

    def _match_style(self) -> Style:
        if self._match is None:
            self._match = self.get_component_rich_style("abstract--match", partial=True)
        return self._match

    def _name_style(self) -> Style:
        if self._badge_style is None:
            self._badge_style = self.get_component_rich_style("abstract--name", partial=True)
        return self._badge_style

    def _strips(self, paper: Paper, annotation: Annotation, lists: tuple[str, ...],
                highlights: Highlights, width: int, team: tuple[str, ...] = ()
                ) -> list[Strip]:
        """The paper's lines, cropped to ``width`` in the base style: header + abstract."""
        titles = tuple(highlights.get("title", ()))
        moved = self.moves.get(paper.id, "")
        head_key = ("head", paper, annotation, lists, titles, width, team, moved)
        head = self._parts.get(head_key)
        if head is None:
            text = render_header(paper, annotation, lists, highlights, self._match_style(),
                                 team, self._name_style(), moved)
            text.right_crop(1)  # its last newline only starts the abstract's first line
            head = self._parts[head_key] = self._lines_of(text, width)
        body_key = ("body", paper, tuple(highlights.get("abstract", ())), width)
        body = self._parts.get(body_key)
        if body is None:
            body = self._parts[body_key] = self._lines_of(
                render_abstract(paper, highlights, self._match_style()), width)
        return head + body

    def _lines_of(self, text: Text, width: int) -> list[Strip]:
        """``text`` wrapped to ``width`` less the margins, each line with its margins and
        the base style: ready to draw as it is."""
        if self._base is None:
            self._base = self.rich_style
        base = self._base
        console = self.app.console
        options = console.options.update_width(max(1, width - 2 * MARGIN))
        blank = Style(bgcolor=base.bgcolor)  # as CSS padding is: a background, no colour
        margin = Segment(" " * MARGIN, blank)
        return [Strip([margin, *Segment.apply_style(line, base)]).crop_extend(0, width, blank)
                for line in console.render_lines(text, options, pad=False)]

    def _wrap(self) -> bool:
        """Lay the shown paper out at the current width; False while there is no width."""
        region = self.scrollable_content_region
        width = region.width
        if width <= 0:
            return False
        self._wrapped_for = self.outer_size
        self._width = width
        paper, annotation, lists, highlights, team = self._shown
        if paper is None or annotation is None:
            self._lines = self._lines_of(Text(NO_PAPER, style="italic"), width)
        else:
            self._lines = self._strips(paper, annotation, lists, highlights, width, team)
        size = Size(width, len(self._lines))
        if size != self.virtual_size:
            # Set without Widget.virtual_size's layout pass over the whole screen: the
            # vertical scrollbar is always there (CSS), so nothing else moves.
            self.set_reactive(ScrollView.virtual_size, size)
            self.vertical_scrollbar.window_virtual_size = size.height
            self.vertical_scrollbar.window_size = region.height
        return True

    def _refresh_changed(self, old: list[Strip]) -> None:
        """Mark for repaint the visible lines that differ from ``old``, in runs (one
        refresh call: each costs a pass over the widget's dirty state)."""
        top = self.scroll_offset.y
        width = self.size.width
        new = self._lines
        runs: list[Region] = []
        run_start: int | None = None
        for row in range(self.scrollable_content_region.height + 1):
            i = top + row
            same = (i < len(old)) == (i < len(new)) and (i >= len(new) or old[i] == new[i])
            if not same and run_start is None:
                run_start = row
            elif same and run_start is not None:
                runs.append(Region(0, run_start, width, row - run_start))
                run_start = None
        if run_start is not None:
            runs.append(Region(0, run_start, width, self.size.height - run_start))
        if runs:
            self.refresh(*runs)

    def on_resize(self) -> None:
        self._wrap()
        self.refresh()

    def notify_style_update(self) -> None:
        super().notify_style_update()
        self._base = self._match = self._badge_style = None
        self._parts.clear()
        # Wrapped again when next drawn, not now: Textual updates the component styles
        # (abstract--match, abstract--name) only after telling the widget, so lines wrapped
        # here would keep the previous theme's colours.
        self._wrapped_for = None
        self.refresh()

    def render_line(self, y: int) -> Strip:
        if self._wrapped_for != self.outer_size:  # first paint, or resized
            self._wrap()
        index = self.scroll_offset.y + y
        if index < len(self._lines):
            return self._lines[index]
        if self._base is None:
            self._base = self.rich_style
        return Strip.blank(self._width, self._base)

    def action_back(self) -> None:
        self.screen.set_focus(self.screen.query_one("#results"))  # now: keys may be queued
