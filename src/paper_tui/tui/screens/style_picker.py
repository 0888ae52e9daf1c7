"""The citation style picker (``C``), and copying citations of papers to the clipboard."""

from __future__ import annotations

from collections.abc import Sequence

from textual import on
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.widgets import Label, OptionList, Static
from textual.widgets.option_list import Option

from paper_tui import citations, clipboard
from paper_tui.errors import PaperTuiError
from paper_tui.model import Paper
from paper_tui.tui.screens.dialog import DIALOG_CSS, Dialog

PREVIEW_PAPERS = 2


class StylePicker(Dialog[str | None]):
    """Choose a citation style, with a preview of the first papers in it."""

    DEFAULT_CSS = DIALOG_CSS + """
    StylePicker { align: center middle; }
    StylePicker .dialog { width: 100; }
    StylePicker OptionList { height: auto; max-height: 8; border: none; padding: 0; }
    StylePicker #style-preview {
        height: auto; max-height: 16; margin-top: 1; padding: 0 1; background: $boost;
    }
    """
    BINDINGS = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, papers: Sequence[Paper], default: str | None = None) -> None:
        super().__init__()
        self.papers = list(papers)
        self.default = default
        styles = list(citations.STYLES)
        self._style_options = OptionList(*[Option(style, id=style) for style in styles],
                                         id="style-options")
        shown = styles.index(default) if default in styles else 0
        self._style_options.highlighted = shown
        self._preview_box = Static(self._preview_of(styles[shown]), id="style-preview")
        """Built here, not found on mount: keys typed ahead may close the picker (or the
        app) before it has mounted, and its widgets are gone by then."""

    def compose(self) -> ComposeResult:
        n = len(self.papers)
        what = "1 paper" if n == 1 else f"{n:,} papers"
        with Vertical(classes="dialog"):
            yield Label(f"Copy the citation of {what} as…", classes="dialog-title")
            yield self._style_options
            yield self._preview_box
            yield Label("Enter copies · Esc cancels", classes="dialog-hint")

    def _preview_of(self, style: str) -> str:
        try:
            text = citations.cite(self.papers[:PREVIEW_PAPERS], style)
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


def default_style(app: App) -> str:
    """The configured default style (``citation_style``), bibtex when unset or wrong."""
    return citations.configured_style(getattr(app, "config", None))[0]


def copy_citations(app: App, papers: Sequence[Paper], style: str) -> str:
    """Copy the citations of ``papers`` in ``style``; a notification says which way.

    OSC 52 goes out at once (it reaches the local terminal's clipboard over SSH); the
    system clipboard (through the core) is tried in a worker, since its tool may take a
    moment. Returns the copied text.
    """
    text = citations.cite(list(papers), style)
    app.copy_to_clipboard(text)
    what = f"{style} citation" + ("" if len(papers) == 1 else f"s of {len(papers):,} papers")

    def to_clipboard() -> None:
        result = clipboard.copy(text, what)
        if result.ok:
            app.call_from_thread(app.notify, result.message[:1].upper() + result.message[1:])
        else:
            app.call_from_thread(app.notify, f"Sent the {what} to the terminal's clipboard "
                                 f"(OSC 52); {result.message}", severity="warning", timeout=6)

    app.run_worker(to_clipboard, thread=True, group="clipboard")
    return text
