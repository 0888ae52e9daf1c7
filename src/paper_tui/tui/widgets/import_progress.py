"""Importing in the background: a progress bar docked at the bottom while a worker imports.

The worker calls the core's ``Library.import_paths`` with a progress callback that posts
messages (workers never touch widgets); the app keeps answering on what is indexed.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from textual import work
from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.message import Message
from textual.widgets import Label, ProgressBar

if TYPE_CHECKING:  # the importers (bibtexparser, naming) load only when an import runs
    from paper_tui.importers import ImportReport
    from paper_tui.library import Library


class ImportProgress(Horizontal):
    """Shows one import's stage and progress; posts :class:`ImportProgress.Done` at the end."""

    DEFAULT_CSS = """
    ImportProgress { dock: bottom; height: 1; background: $boost; padding: 0 1; }
    ImportProgress Label { width: 1fr; }
    ImportProgress ProgressBar { width: 50; }
    """

    class Step(Message):
        def __init__(self, stage: str, done: int, total: int | None) -> None:
            super().__init__()
            self.stage = stage
            self.done = done
            self.total = total

    class Done(Message):
        """The import finished: ``report`` says what it did (``error``: it broke)."""

        def __init__(self, report: ImportReport | None, error: str | None = None) -> None:
            super().__init__()
            self.report = report
            self.error = error

    def compose(self) -> ComposeResult:
        yield Label("importing…", id="import-stage")
        yield ProgressBar(show_eta=False, id="import-bar")

    def start(self, lib: Library, paths: Sequence[Path]) -> None:
        self._run(lib, list(paths))

    @work(thread=True, exclusive=True, group="import")
    def _run(self, lib: Library, paths: list[Path]) -> None:
        def progress(stage: str, done: int, total: int | None) -> None:
            self.post_message(self.Step(stage, done, total))

        try:
            report = lib.import_paths(paths, progress=progress)
        except Exception as exc:  # shown to the reader, never swallowed
            self.post_message(self.Done(None, f"{type(exc).__name__}: {exc}"))
            return
        self.post_message(self.Done(report))

    def on_import_progress_step(self, message: Step) -> None:
        message.stop()
        self.query_one("#import-stage", Label).update(
            f"{message.stage}: {message.done:,}" + (f" / {message.total:,}" if message.total
                                                   else "") + " papers")
        self.query_one("#import-bar", ProgressBar).update(total=message.total,
                                                          progress=message.done)


def summary(report: ImportReport) -> str:
    """One line for the notification: what was imported, and what was not."""
    line = f"imported {report.papers:,} papers ({report.added:,} new)"
    if report.skipped:
        line += f"; {len(report.skipped):,} records skipped"
    if report.errors:
        line += f"; {len(report.errors)} error(s): " + "; ".join(
            str(e) for e in report.errors[:3])
    return line
