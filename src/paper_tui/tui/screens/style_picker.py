"""The citation style picker (``C``; the copy itself: :mod:`..controllers.citing`).

The picker offers the reader's favourite styles first (config ``citation_styles``), the
configured default and the four built-in styles; typing searches every style of the CSL
collection by id and title. The highlighted style's preview is rendered in a worker (the
first CSL style loads the processor, ~0.2 s; after that a preview takes milliseconds), and
the collection's titles are read in a worker when the picker opens.
"""

from __future__ import annotations

import html
import re
from collections.abc import Sequence

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.content import Content
from textual.widgets import Input, Label, OptionList, Static
from textual.widgets.option_list import Option

from paper_tui.errors import PaperTuiError
from paper_tui.library import Library
from paper_tui.model import Paper
from paper_tui.tui.screens.dialog import DIALOG_CSS, Dialog
from paper_tui.vocabulary import CITATION_STYLES, count

PREVIEW_PAPERS = 2
MAX_SHOWN = 200
"""Styles listed at once while searching (the list is narrowed by typing more)."""
_MARKUP = re.compile(r"(<i>|</i>|<b>|</b>|<[^>]*>)")


def styled(fragment: str) -> Text:
    """An HTML citation (``<i>``, ``<b>``) as styled terminal text."""
    out = Text()
    italic = bold = False
    for piece in _MARKUP.split(fragment):
        if piece in ("<i>", "</i>"):
            italic = piece == "<i>"
        elif piece in ("<b>", "</b>"):
            bold = piece == "<b>"
        elif piece.startswith("</div") and out.plain and not out.plain.endswith("\n"):
            out.append("\n")
        elif piece and not piece.startswith("<"):
            style = " ".join(s for s, on_ in (("italic", italic), ("bold", bold)) if on_)
            out.append(html.unescape(piece), style=style or None)
    out.rstrip()
    return out


class StylePicker(Dialog[str | None]):
    """Choose a citation style (favourites and the configured one first, type to search
    every style), with a preview of the first papers in it."""

    DEFAULT_CSS = DIALOG_CSS + """
    StylePicker { align: center middle; }
    StylePicker .dialog { width: 100; }
    StylePicker #style-filter { margin-bottom: 1; }
    StylePicker OptionList { height: auto; max-height: 10; border: none; padding: 0; }
    StylePicker #style-preview {
        height: auto; max-height: 16; margin-top: 1; padding: 0 1; background: $boost;
    }
    """
    BINDINGS = [Binding("escape", "cancel", "Cancel"),
                Binding("down", "move(1)", show=False), Binding("up", "move(-1)", show=False),
                Binding("pagedown", "move(8)", show=False),
                Binding("pageup", "move(-8)", show=False)]

    def __init__(self, library: Library, papers: Sequence[Paper]) -> None:
        super().__init__()
        self.library = library
        self.papers = list(papers)
        self.default = library.settings.citation_style
        self.titles: dict[str, str] = {}
        first = [*library.settings.citation_styles, self.default, *CITATION_STYLES]
        self.first = list(dict.fromkeys(first))
        """The styles offered before any typing: favourites, the default, built-in."""
        self._filter_box = Input(
            placeholder="type to search every CSL style (apa, ieee, nature, …)",
            id="style-filter")
        self._style_options = OptionList(*self._options(self.first), id="style-options")
        self._style_options.highlighted = self.first.index(self.default)
        self._preview_box = Static("", id="style-preview")
        """Built here, not found on mount: keys typed ahead may close the picker (or the
        app) before it has mounted, and its widgets are gone by then."""

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Label(f"Copy the citation of {count(len(self.papers), 'paper')} as…",
                        classes="dialog-title")
            yield self._filter_box
            yield self._style_options
            yield self._preview_box
            yield Label("Enter copies · ↑↓ choose · Esc cancels", classes="dialog-hint")

    def on_mount(self) -> None:
        self._filter_box.focus()
        self._preview(self.default)
        self._load_titles()

    def _options(self, ids: Sequence[str]) -> list[Option]:
        options = []
        for sid in ids:
            title = self.titles.get(sid, "")
            label = Content.assemble((sid, "bold"), *(("  ", (title, "$text-muted"))
                                                       if title else ()))
            options.append(Option(label, id=sid))
        return options

    @work(thread=True, exclusive=True, group="style-titles")
    def _load_titles(self) -> None:
        titles = dict(Library.citation_styles())
        self.app.call_from_thread(self._titles_loaded, titles)

    def _titles_loaded(self, titles: dict[str, str]) -> None:
        self.titles = titles
        if self.is_attached:
            self._filter(self._filter_box.value)

    @on(Input.Changed, "#style-filter")
    def _typed(self, event: Input.Changed) -> None:
        self._filter(event.value)

    def _filter(self, words: str) -> None:
        box = self._style_options
        current = box.highlighted_option.id if box.highlighted_option is not None else None
        if words.strip():
            folded = words.lower().split()
            found = [sid for sid in self.first
                     if all(w in sid or w in self.titles.get(sid, "").lower() for w in folded)]
            found += [sid for sid, _ in Library.citation_styles(words)
                      if sid not in found] if self.titles else []
            ids = found[:MAX_SHOWN]
        else:
            ids = self.first
        box.clear_options()
        box.add_options(self._options(ids))
        if ids:
            box.highlighted = ids.index(current) if current in ids else 0
            self._preview(ids[box.highlighted or 0])
        else:
            self._preview_box.update(f"no style's id or title holds {words!r}")

    def action_move(self, by: int) -> None:
        box = self._style_options
        if box.option_count:
            now = box.highlighted if box.highlighted is not None else 0
            box.highlighted = max(0, min(box.option_count - 1, now + by))

    @on(OptionList.OptionHighlighted, "#style-options")
    def _highlighted(self, event: OptionList.OptionHighlighted) -> None:
        self._preview(str(event.option.id))

    @work(thread=True, exclusive=True, group="style-preview")
    def _preview(self, style: str) -> None:
        """The first papers in ``style`` (their keys not given out: nothing is copied)."""
        try:
            citation = self.library.cite(self.papers[:PREVIEW_PAPERS], style, preview=True)
            shown = styled(citation.html) if citation.html else Text(citation.text)
        except PaperTuiError as exc:
            shown = Text(str(exc))
        if len(self.papers) > PREVIEW_PAPERS:
            shown.append(f"\n… and {len(self.papers) - PREVIEW_PAPERS:,} more")
        self.app.call_from_thread(self._show_preview, style, shown)

    def _show_preview(self, style: str, shown: Text) -> None:
        box = self._style_options
        if box.highlighted_option is not None and box.highlighted_option.id == style:
            self._preview_box.update(shown)

    @on(OptionList.OptionSelected, "#style-options")
    def _chosen(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.finish(str(event.option.id))

    @on(Input.Submitted, "#style-filter")
    def _submitted(self, event: Input.Submitted) -> None:
        event.stop()
        box = self._style_options
        if box.highlighted_option is not None:
            self.finish(str(box.highlighted_option.id))

    def action_cancel(self) -> None:
        self.finish(None)
