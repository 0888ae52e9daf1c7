"""The citation style picker (``C``), and copying citations of papers to the clipboard."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from textual import on
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.widgets import Label, OptionList, Static
from textual.widgets.option_list import Option

from paper_tui import clipboard
from paper_tui.errors import PaperTuiError
from paper_tui.library import Library
from paper_tui.model import Paper
from paper_tui.tui.screens.dialog import DIALOG_CSS, Dialog
from paper_tui.vocabulary import CITATION_STYLES, count

PREVIEW_PAPERS = 2


class StylePicker(Dialog[str | None]):
    """Choose a citation style (the configured one highlighted first), with a preview of
    the first papers in it."""

    DEFAULT_CSS = DIALOG_CSS + """
    StylePicker { align: center middle; }
    StylePicker .dialog { width: 100; }
    StylePicker OptionList { height: auto; max-height: 8; border: none; padding: 0; }
    StylePicker #style-preview {
        height: auto; max-height: 16; margin-top: 1; padding: 0 1; background: $boost;
    }
    """
    BINDINGS = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, library: Library, papers: Sequence[Paper]) -> None:
        super().__init__()
        self.library = library
        self.papers = list(papers)
        self.default = library.settings.citation_style
        shown = CITATION_STYLES.index(self.default)
        self._style_options = OptionList(*[Option(style, id=style) for style in CITATION_STYLES],
                                         id="style-options")
        self._style_options.highlighted = shown
        self._preview_box = Static(self._preview_of(CITATION_STYLES[shown]), id="style-preview")
        """Built here, not found on mount: keys typed ahead may close the picker (or the
        app) before it has mounted, and its widgets are gone by then."""

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Label(f"Copy the citation of {count(len(self.papers), 'paper')} as…",
                        classes="dialog-title")
            yield self._style_options
            yield self._preview_box
            yield Label("Enter copies · Esc cancels", classes="dialog-hint")

    def _preview_of(self, style: str) -> str:
        try:
            text = self.library.cite(self.papers[:PREVIEW_PAPERS], style).text
        except PaperTuiError as exc:
            text = str(exc)
        if len(self.papers) > PREVIEW_PAPERS:
            text += f"\n… and {len(self.papers) - PREVIEW_PAPERS:,} more"
        return text

    @on(OptionList.OptionHighlighted, "#style-options")
    def _preview_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        self._preview_box.update(self._preview_of(str(event.option.id)))

    @on(OptionList.OptionSelected, "#style-options")
    def _chosen(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.finish(str(event.option.id))

    def action_cancel(self) -> None:
        self.finish(None)


def copy_citations(app: App[Any], library: Library, papers: Sequence[Paper],
                   style: str | None = None) -> str:
    """Copy the citations of ``papers`` in ``style`` (default: the configured one); a
    notification says which way.

    OSC 52 goes out at once (it reaches the local terminal's clipboard over SSH); the
    system clipboard (through the core) is tried in a worker, since its tool may take a
    moment. Returns the copied text.
    """
    citation = library.cite(list(papers), style)
    text = citation.text
    app.copy_to_clipboard(text)
    what = f"{citation.style} citation" + ("" if len(papers) == 1
                                           else f"s of {count(len(papers), 'paper')}")

    def to_clipboard() -> None:
        result = clipboard.copy(text, what)
        if result.ok:
            app.call_from_thread(app.notify, result.message[:1].upper() + result.message[1:])
        else:
            app.call_from_thread(app.notify, f"Sent the {what} to the terminal's clipboard "
                                 f"(OSC 52); {result.message}", severity="warning", timeout=6)

    app.run_worker(to_clipboard, thread=True, group="clipboard")
    return text
