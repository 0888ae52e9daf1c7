"""The abstract view: everything about the highlighted paper, scrollable."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

from rich.style import Style
from rich.text import Text
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.widgets import Static

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
    if paper.name and paper.name != paper.display_title:
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


class AbstractView(VerticalScroll, can_focus=True):
    """Scrolls with the usual keys; ``Esc`` goes back to the results."""

    BINDINGS = [
        Binding("escape", "back", "Back to results", id="back"),
        Binding("j,down", "scroll_down", "Scroll down", show=False, id="abstract-down"),
        Binding("k,up", "scroll_up", "Scroll up", show=False, id="abstract-up"),
    ]

    DEFAULT_CSS = """
    AbstractView > .abstract--match { color: $accent; text-style: bold underline; }
    """
    COMPONENT_CLASSES = {"abstract--match"}

    def compose(self):
        yield Static(id="abstract-body")

    def show(self, paper: Paper | None, annotation: Annotation | None = None,
             lists: Sequence[str] = (),
             highlights: dict[str, list[tuple[int, int]]] | None = None) -> None:
        body = self.query_one("#abstract-body", Static)
        if paper is None:
            body.update(Text("No paper to show.", style="italic"))
            return
        match = self.get_component_rich_style("abstract--match", partial=True)
        assert annotation is not None
        body.update(render_paper(paper, annotation, lists, highlights or {}, match))

    def action_back(self) -> None:
        self.screen.query_one("#results").focus()
