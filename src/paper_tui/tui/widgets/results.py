"""The results list: a Line-API ScrollView over results (no widget per paper).

Only the visible rows are rendered, each asked of the result set as it scrolls into view,
so 87,549 hits cost what 30 do. The cursor is an index into the result set.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from rich.cells import cell_len
from rich.style import Style
from rich.text import Text
from textual.binding import Binding
from textual.cache import LRUCache
from textual.geometry import Region, Size
from textual.message import Message
from textual.reactive import reactive
from textual.scroll_view import ScrollView
from textual.strip import Strip

from paper_tui.model import Paper
from paper_tui.trust.inert import inert_line, inert_line_offsets
from paper_tui.tui.widgets.lines import DirectLines
from paper_tui.tui.widgets.scrollbar import LineScrolled
from paper_tui.vocabulary import DECISION_MARKS, RATING_CHANGE, STAR, STATUS_MARKS, sort_value

if TYPE_CHECKING:
    from paper_tui.library import Annotation, Results

AnnotationOf = Callable[[str], "Annotation"]


PDF_MARK = "¶"
"""In the rows' PDF column: the library holds the paper's PDF. The column is there only
while the library holds a PDF at all."""

NAME_SHARE = 3
"""A name badge takes at most a third of the room for the title."""


class ResultsList(DirectLines, LineScrolled, ScrollView, can_focus=True):
    """Rows of papers with a cursor; posts :class:`ResultsList.Highlighted` as it moves."""

    BINDINGS = [
        Binding("j,down", "cursor_down", "Down", show=False, id="down"),
        Binding("k,up", "cursor_up", "Up", show=False, id="up"),
        Binding("g,home", "cursor_top", "First", show=False, id="top"),
        Binding("G,end", "cursor_bottom", "Last", show=False, id="bottom"),
        Binding("pagedown", "page_down", "Page down", show=False, id="page-down"),
        Binding("pageup", "page_up", "Page up", show=False, id="page-up"),
        Binding("enter", "open_abstract", "Abstract", id="focus-abstract",
                tooltip="Move into the abstract view to scroll it"),
    ]

    COMPONENT_CLASSES = {
        "results--cursor", "results--cursor-blurred", "results--match", "results--star",
        "results--meta", "results--tag", "results--mark", "results--to-read",
        "results--read", "results--skipped", "results--new", "results--name",
        "results--decision", "results--value", "results--pdf",
    }

    DEFAULT_CSS = """
    ResultsList { background: $surface; overflow-x: hidden; overflow-y: scroll; }
    ResultsList > .results--cursor {
        background: $block-cursor-background; color: $block-cursor-foreground;
        text-style: $block-cursor-text-style;
    }
    ResultsList > .results--cursor-blurred {
        background: $block-cursor-blurred-background;
        color: $block-cursor-blurred-foreground;
    }
    ResultsList > .results--match { color: $accent; text-style: bold underline; }
    ResultsList > .results--star { color: $warning; }
    ResultsList > .results--meta { color: $text-muted; }
    ResultsList > .results--tag { color: $secondary; }
    ResultsList > .results--mark { color: $accent; text-style: bold; }
    ResultsList > .results--to-read { color: $primary; text-style: bold; }
    ResultsList > .results--read { color: $success; }
    ResultsList > .results--skipped { color: $text-disabled; }
    ResultsList > .results--new { color: $text-muted; }
    ResultsList > .results--decision { color: $accent; text-style: bold; }
    ResultsList > .results--value { color: $text; }
    ResultsList > .results--pdf { color: $text-muted; }
    /* A derived name is a badge beside the source's title, never read as part of it. */
    ResultsList > .results--name {
        color: $text-secondary; background: $secondary-muted; text-style: bold;
    }
    """

    cursor: reactive[int] = reactive(0, always_update=True, init=False, repaint=False)
    """The highlighted row; :meth:`watch_cursor` repaints the two rows it changes."""

    class Highlighted(Message):
        """The cursor moved to ``index`` (-1: no results)."""

        def __init__(self, index: int) -> None:
            self.index = index
            super().__init__()

    class OpenAbstract(Message):
        """Enter on a row: the reader wants to read that abstract."""

    def __init__(self, annotation_of: AnnotationOf, *, announce: bool = True,
                 moved_of: Callable[[str], str] | None = None, **kwargs: Any) -> None:
        """``moved_of(paper id)``: how its rating moved (``7.0 → 8.0 (+1.0 since 20
        Nov)``), the row's value in the ``rating-change`` sort."""
        super().__init__(**kwargs)
        self.annotation_of = annotation_of
        self.moved_of = moved_of
        self.announce = announce
        """Post :class:`Highlighted` as the cursor moves. The app's main list does not:
        the app watches its cursor instead (a message bubbling up through the screen on
        every key costs a pass through four message queues)."""
        self.results: Results | None = None
        self.marked: set[str] = set()
        """Ids of marked papers (multi-select); bulk actions act on these."""
        self.pdf_held: frozenset[str] = frozenset()
        """Ids of the papers whose PDF the library holds (:meth:`set_pdf_held`)."""
        self._styles: dict[str, Style] = {}
        self._lines: LRUCache[tuple, Strip] = LRUCache(1000)
        self._spans: dict[int, tuple[tuple[int, int], ...]] = {}
        """Title match spans of the hits drawn, by index in the result set shown."""
        self._width_for: Size | None = None
        self._width = 0

    # -- data ------------------------------------------------------------------------------
    def set_results(self, results: Results, keep_id: str | None = None) -> None:
        """Show ``results``; keep the cursor on ``keep_id`` when it is among them.

        Rows are cached by what they show, so a paper still on screen after the next letter
        typed is not drawn again."""
        self.results = results
        self._spans.clear()
        index = results.index_of(keep_id) if keep_id and len(results) else None
        # Without Widget.virtual_size's layout pass over the whole screen (~20 ms on each
        # search-as-you-type key): the scrollbar is always there (CSS), so a new hit count
        # moves nothing else; only the bar itself is told.
        self.set_reactive(ScrollView.virtual_size, Size(self.size.width, len(results)))
        bar = self.vertical_scrollbar
        bar.window_virtual_size = len(results)
        bar.window_size = self.scrollable_content_region.height
        self.scroll_to(y=0, animate=False)
        self.cursor = index or 0
        self.refresh()

    def set_pdf_held(self, ids: frozenset[str]) -> None:
        """Mark the rows of the papers in ``ids`` (their PDF is held); no column at all
        while ``ids`` is empty."""
        if ids != self.pdf_held:
            self.pdf_held = ids
            self.refresh()

    def __len__(self) -> int:
        return len(self.results) if self.results is not None else 0

    def current_paper(self) -> Paper | None:
        if self.results is None or not len(self.results):
            return None
        return self.results.paper(self.cursor)

    def highlights(self, index: int) -> dict[str, list[tuple[int, int]]]:
        """The matched-word spans of hit ``index`` (``{"title": [...], "abstract": [...]}``)."""
        return self.results.highlights(index) if self.results is not None \
            and index < len(self.results) else {}

    # -- cursor ----------------------------------------------------------------------------
    def validate_cursor(self, value: int) -> int:
        return max(0, min(value, len(self) - 1)) if len(self) else 0

    def watch_cursor(self, old: int, new: int) -> None:
        top = self.scroll_offset.y
        self.scroll_to_region(Region(0, new, 1, 1), animate=False, force=True, immediate=True)
        if self.scroll_offset.y == top:  # a scroll repaints every row itself
            self.refresh_line(old)
            self.refresh_line(new)
        if self.announce:
            self.post_message(self.Highlighted(new if len(self) else -1))

    def action_cursor_down(self) -> None:
        self.cursor += 1

    def action_cursor_up(self) -> None:
        self.cursor -= 1

    def action_cursor_top(self) -> None:
        self.cursor = 0

    def action_cursor_bottom(self) -> None:
        self.cursor = len(self) - 1

    def action_page_down(self) -> None:
        self.cursor += max(1, self.scrollable_content_region.height - 1)

    def action_page_up(self) -> None:
        self.cursor -= max(1, self.scrollable_content_region.height - 1)

    def action_open_abstract(self) -> None:
        if len(self):
            self.post_message(self.OpenAbstract())

    # -- rendering -------------------------------------------------------------------------
    def on_resize(self) -> None:
        self.virtual_size = Size(self.size.width, len(self))

    def notify_style_update(self) -> None:
        super().notify_style_update()
        self._styles.clear()
        self._lines.clear()

    def _style(self, name: str) -> Style:
        style = self._styles.get(name)
        if style is None:
            style = self._styles[name] = self.get_component_rich_style(f"results--{name}",
                                                                       partial=True)
        return style

    def _content_width(self) -> int:
        """The rows' width, worked out again only when the size changed (the region lookup
        costs more than drawing a cached row)."""
        if self.outer_size != self._width_for:
            self._width_for = self.outer_size
            self._width = self.scrollable_content_region.width
        return self._width

    def render_line(self, y: int) -> Strip:
        _scroll_x, scroll_y = self.scroll_offset
        index = scroll_y + y
        if index >= len(self):
            return Strip.blank(self._content_width(), self._base())
        cursor = ("cursor" if self.has_focus else "cursor-blurred") if index == self.cursor \
            else ""
        return self._strip(index, cursor)

    def prepare_row(self, index: int) -> None:
        """Draw row ``index`` as the cursor's now, so that moving there costs no drawing."""
        if 0 <= index < len(self):
            self._strip(index, "cursor" if self.has_focus else "cursor-blurred")

    def _base(self) -> Style:
        return self._styles.get("") or self._styles.setdefault("", self.rich_style)

    def _strip(self, index: int, cursor: str) -> Strip:
        width = self._content_width()
        results = self.results
        assert results is not None  # a row is drawn only for a hit
        paper = results.paper(index)
        annotation = self.annotation_of(paper.id)
        spans = self._spans.get(index)
        if spans is None:
            spans = self._spans[index] = tuple(
                results.highlights(index, ("title",)).get("title", ()))
        # A whole-screen repaint (any layout change) asks for every visible row again, and
        # the next letter typed brings mostly the same papers back: rows are cached by
        # everything they show, whatever the result set (the paper's shown fields, not the
        # paper: hashing all of it, abstract and authors, on every line drawn costs more).
        value = self.moved_of(paper.id) if results.sort == RATING_CHANGE and self.moved_of \
            else sort_value(paper, results.sort)
        key = (paper.id, paper.title, paper.display_title, paper.name, paper.title_emphasis,
               paper.venue, paper.year, paper.decision, value, spans, width, cursor,
               annotation, paper.id in self.marked,
               paper.id in self.pdf_held if self.pdf_held else None)
        strip = self._lines.get(key)
        if strip is None:
            text, badge = self._row(paper, annotation, spans, width, value)
            if cursor:
                text.stylize(self._style(cursor))
                if badge:  # the badge keeps its own look on the cursor's row too
                    text.stylize(self._style("name"), *badge)
            strip = Strip(text.render(self.app.console), cell_len(text.plain))
            strip = self._lines[key] = strip.crop_extend(0, width, self._base())
        return strip

    def _row(self, paper: Paper, annotation: Annotation, spans: tuple[tuple[int, int], ...],
             width: int, value: str = "") -> tuple[Text, tuple[int, int] | None]:
        """The row's text, and where its name badge is in it (None: no badge); ``value``:
        the paper's value for the sort, when the sort is by a number."""
        status = annotation.status if annotation.status in STATUS_MARKS else "new"
        text = Text(no_wrap=True, overflow="ellipsis", end="")
        text.append("▌" if paper.id in self.marked else " ", self._style("mark"))
        text.append(STATUS_MARKS[status], self._style(status))
        text.append(STAR if annotation.starred else " ", self._style("star"))
        if self.pdf_held:
            text.append(PDF_MARK if paper.id in self.pdf_held else " ", self._style("pdf"))
        text.append(" ")
        right = Text(no_wrap=True, end="")
        # Text from data is made inert before it is laid out (the app's last line filter
        # would keep it inert anyway, but the room a sequence took would show as blanks)
        if annotation.tags and width >= 70:
            right.append(inert_line(" " + " ".join(f"#{t}" for t in annotation.tags)),
                         self._style("tag"))
        if value and width >= 50:
            right.append(f"  {value}", self._style("value"))
        mark = DECISION_MARKS.get(paper.decision)
        if mark and width >= 50:
            right.append(f"  {mark}", self._style("decision"))
        where = " ".join(x for x in (paper.venue, str(paper.year or "")) if x)
        if where and width >= 50:
            right.append(f"  {inert_line(where)}", self._style("meta"))
        room = max(8, width - (5 if self.pdf_held else 4) - right.cell_len - 1)
        badge = None
        if paper.badge:
            chip = Text(f" {inert_line(paper.badge)} ", no_wrap=True, end="")
            chip.truncate(max(4, room // NAME_SHARE), overflow="ellipsis")
            badge = (len(text), len(text) + len(chip))
            text.append_text(chip)
            text.stylize(self._style("name"), *badge)
            text.append(" ")
            room = max(8, room - chip.cell_len - 1)
        shown, at = inert_line_offsets(paper.display_title or paper.title)
        title = Text(shown, no_wrap=True, end="")
        for start, end, kind in paper.title_emphasis:
            title.stylize("italic" if kind == "italic" else "bold", at(start), at(end))
        match = self._style("match")
        for start, end in spans:
            title.stylize(match, at(start), at(end))
        title.truncate(room, overflow="ellipsis", pad=True)
        text.append_text(title)
        text.append(" ")
        text.append_text(right)
        return text, badge
