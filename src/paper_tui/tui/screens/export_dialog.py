"""Export papers (a reading list, the marked papers) to a file: pick a format, name the file."""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.message import Message
from textual.widgets import Input, Label, OptionList, Static
from textual.widgets.option_list import Option

from paper_tui.errors import PaperTuiError
from paper_tui.exports import formats as export
from paper_tui.library import Library
from paper_tui.model import Paper
from paper_tui.trust import atomic
from paper_tui.tui.screens.confirm import Confirm
from paper_tui.tui.screens.dialog import DIALOG_CSS, Dialog
from paper_tui.vocabulary import count

EXTENSIONS = export.EXTENSIONS
DESCRIPTIONS = export.DESCRIPTIONS


def file_stem(name: str) -> str:
    """A file name from a list name: ``Read: RL/2024`` -> ``read-rl-2024``."""
    return re.sub(r"[^\w.-]+", "-", name.strip().lower()).strip("-.") or "papers"


class ExportDialog(Dialog[Path | None]):
    """Write ``papers`` in a chosen format to a file; dismisses with the path written."""

    DEFAULT_CSS = DIALOG_CSS + """
    ExportDialog { align: center middle; }
    ExportDialog .dialog { width: 100; }
    ExportDialog OptionList { height: auto; border: none; padding: 0; }
    ExportDialog #export-path { margin-top: 1; }
    """
    BINDINGS = [Binding("escape", "cancel", "Cancel")]

    class Written(Message):
        """From the export's worker: the file is written (``error`` None), or why not."""

        def __init__(self, path: Path, error: str | None) -> None:
            super().__init__()
            self.path = path
            self.error = error

    def __init__(self, lib: Library, papers: Sequence[Paper], name: str, *,
                 description: str = "", directory: Path | None = None) -> None:
        super().__init__()
        self.lib = lib
        self.papers = list(papers)
        self.name_text = name
        self.description = description
        self.directory = directory or Path.cwd()
        self.format = "bibtex"
        # Built here, not found on mount: keys typed ahead may close the dialog (or the
        # app) before it has mounted, and its widgets are gone by then.
        self._formats = OptionList(*[Option(f"{fmt:<9} {DESCRIPTIONS[fmt]}", id=fmt)
                                     for fmt in export.FORMATS], id="export-format")
        self._formats.highlighted = 0
        self._path_box = Input(file_stem(name) + EXTENSIONS[self.format], id="export-path")
        self._error_line = Static("", classes="dialog-error", id="export-error")

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Label(f"Export {self.name_text} ({count(len(self.papers), 'paper')})",
                        classes="dialog-title")
            yield self._formats
            yield self._path_box
            yield self._error_line
            yield Label(f"Enter on a format picks it · Enter in the file name writes "
                        f"(relative to {self.directory}) · Esc cancels", classes="dialog-hint")

    @on(OptionList.OptionHighlighted, "#export-format")
    def _format_changed(self, event: OptionList.OptionHighlighted) -> None:
        self.format = str(event.option.id)
        path_box = self._path_box
        stem, dot, ext = path_box.value.rpartition(".")
        if dot and "." + ext in EXTENSIONS.values():
            path_box.value = stem + EXTENSIONS[self.format]

    @on(OptionList.OptionSelected, "#export-format")
    def _format_chosen(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        path_box = self._path_box
        path_box.focus()
        path_box.cursor_position = len(path_box.value.rpartition(".")[0] or path_box.value)

    @on(Input.Submitted, "#export-path")
    def _write_asked(self, event: Input.Submitted) -> None:
        event.stop()
        value = event.value.strip()
        if not value:
            self._error("Name the file to write.")
            return
        path = Path(value).expanduser()
        if not path.is_absolute():
            path = self.directory / path
        if path.is_dir():
            self._error(f"{path} is a directory.")
        elif path.exists():
            def answered(replace: bool | None) -> None:
                if replace:
                    self._write(path)

            self.app.push_screen(Confirm(f"{path} exists. Replace it?", yes="Replace"),
                                 answered)
        else:
            self._write(path)

    @work(thread=True, exclusive=True, group="export")
    def _write(self, path: Path) -> None:
        """The export's text (a BibTeX or CSL-JSON export gives out citation keys, which
        writes ``citekeys.yaml``) and its file, in a worker: the outcome is posted back."""
        format_ = self.format
        try:
            text = self.lib.export(self.papers, format_, title=self.name_text,
                                   description=self.description)
            atomic.write_text(path, text, regular_only=True)
        except PaperTuiError as exc:
            self.post_message(self.Written(path, str(exc)))
            return
        except OSError as exc:
            self.post_message(self.Written(path, f"{path}: cannot write "
                                                 f"({exc.strerror or exc})"))
            return
        self.post_message(self.Written(path, None))

    def on_export_dialog_written(self, message: Written) -> None:
        if message.error is not None:
            self._error(message.error)
        else:
            self.finish(message.path)

    def _error(self, message: str) -> None:
        self._error_line.update(message)

    def action_cancel(self) -> None:
        self.finish(None)
