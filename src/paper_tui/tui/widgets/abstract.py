"""The abstract view: everything about the highlighted paper, scrollable."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

from rich.style import Style
from rich.text import Text
from textual.binding import Binding
from textual.geometry import Size
from textual.scroll_view import ScrollView
from textual.strip import Strip

from paper_tui.model import Paper, Span

if TYPE_CHECKING:
    from paper_tui.annotations import Annotation

STATUS_LABELS = {"new": "new", "to-read": "to read", "read": "read", "skipped": "skipped"}


def _styled(text: str, emphasis: Iterable[Span], matches: Iterable[tuple[int, int]],
            match_style: Style, base: str = "") -> Text:
    out = Text(text, style=base)
    for start, end, kind in emphasis:
        out.stylize("italic" if kind == "italic" else "bold", start, end)
    for start, end in matches:
        out.stylize(match_style, start, end)
    return out


def render_paper(paper: Paper, annotation: Annotation, lists: Sequence[str],
                 highlights: dict[str, list[tuple[int, int]]], match_style: Style) -> Text:
    """The abstract view's text for one paper."""
    out = Text()
    title = _styled(paper.display_title or paper.title, paper.title_emphasis,
                    highlights.get("title", ()), match_style, "bold")
    out.append_text(title)
    out.append("\n")
    if paper.name and not (paper.display_title or "").startswith(paper.name):
        out.append(paper.name, "italic")
        out.append("\n")
    if paper.authors:
        out.append(", ".join(paper.authors))
        out.append("\n")
    where = " ".join(x for x in (paper.venue, str(paper.year or "")) if x)
    meta = [where] if where else []
    if paper.track:
        meta.append(paper.track)
    if paper.decision:
        meta.append(paper.decision)
    if meta:
        out.append(" · ".join(meta), "italic")
        out.append("\n")
    status = annotation.status
    out.append("\n")
    out.append(f"[{STATUS_LABELS.get(status, status)}]", "bold")
    if annotation.starred:
        out.append("  ★ starred", "bold")
    if annotation.tags:
        out.append("  " + " ".join(f"#{t}" for t in annotation.tags))
    if lists:
        out.append("  lists: " + ", ".join(lists))
    out.append("\n")
    for label, link in (("url", paper.url), ("pdf", paper.pdf)):
        if link:
            out.append(f"{label}: ", "dim")
            out.append(link, f"link {link}")
            out.append("\n")
    if annotation.note:
        out.append("\nNote\n", "bold")
        out.append(annotation.note.rstrip() + "\n")
    out.append("\n")
    if paper.truncated:
        out.append("(the abstract is cut at the start in the source list)\n", "italic")
    abstract = _styled(paper.display_abstract, paper.abstract_emphasis,
                       highlights.get("abstract", ()), match_style)
    out.append_text(abstract)
    return out


class AbstractView(ScrollView, can_focus=True):
    """The paper's text, wrapped once per paper and width and drawn line by line.

    A Line-API widget of fixed size: showing another paper repaints it without a layout
    pass over the whole screen (a Static would relayout on every cursor move).
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
    """
    COMPONENT_CLASSES = {"abstract--match"}

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.text = Text("")
        """What is shown, unwrapped (tests and screenshots read ``text.plain``)."""
        self._lines: list[Strip] = []
        self._wrapped_at = -1
        self._base: Style | None = None

    def show(self, paper: Paper | None, annotation: Annotation | None = None,
             lists: Sequence[str] = (),
             highlights: dict[str, list[tuple[int, int]]] | None = None) -> None:
        if paper is None:
            self.text = Text("No paper to show.", style="italic")
        else:
            assert annotation is not None
            match = self.get_component_rich_style("abstract--match", partial=True)
            self.text = render_paper(paper, annotation, lists, highlights or {}, match)
        self._wrapped_at = -1
        self.scroll_to(y=0, animate=False)
        self._wrap()
        self.refresh()

    def _wrap(self) -> None:
        width = self.scrollable_content_region.width
        if width <= 0 or width == self._wrapped_at:
            return
        console = self.app.console
        options = console.options.update_width(width)
        self._lines = [Strip(line) for line in
                       console.render_lines(self.text, options, pad=False)]
        self._wrapped_at = width
        size = Size(width, len(self._lines))
        if size != self.virtual_size:
            # Set without Widget.virtual_size's layout pass over the whole screen: the
            # vertical scrollbar is always there (CSS), so nothing else moves.
            self.set_reactive(ScrollView.virtual_size, size)
            self.vertical_scrollbar.window_virtual_size = size.height
            self.vertical_scrollbar.window_size = self.scrollable_content_region.height

    def on_resize(self) -> None:
        self._wrap()

    def notify_style_update(self) -> None:
        super().notify_style_update()
        self._wrapped_at = -1
        self._base = None
        if self.is_mounted:
            self._wrap()

    def render_line(self, y: int) -> Strip:
        self._wrap()
        index = self.scroll_offset.y + y
        width = self.scrollable_content_region.width
        if self._base is None:
            self._base = self.rich_style
        if index >= len(self._lines):
            return Strip.blank(width, self._base)
        return self._lines[index].crop_extend(0, width, self._base).apply_style(self._base)

    def action_back(self) -> None:
        self.screen.set_focus(self.screen.query_one("#results"))  # now: keys may be queued
