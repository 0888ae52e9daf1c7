"""The papers' PDFs in the app: ``o`` opens the PDF the library holds (else the link, as
before), ``P`` downloads it first, ``p`` shows its text in the abstract pane, the palette's
"Download PDFs of these results" / "of this list", and the rows' mark of a held PDF.

Everything that reads or writes ``pdfs/`` or asks a server runs in a Textual thread worker
on the app (a download outlives the screen it was asked on) that only hands results back:
a message to the screen, or ``call_from_thread`` for the status line. The rows' mark reads
one set of held ids (``Library.pdf_ids``) per change, never a file per row.
"""

from __future__ import annotations

import contextlib
import os
import sys
import weakref
from collections.abc import Callable, Sequence
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from textual.app import App
from textual.message import Message

from paper_tui.errors import PaperTuiError
from paper_tui.trust.inert import inert_line
from paper_tui.vocabulary import count

if TYPE_CHECKING:
    from paper_tui.config import Settings
    from paper_tui.library import Library
    from paper_tui.library.pdfs import PdfReport
    from paper_tui.model import Paper
    from paper_tui.tui.host import Dialogs
    from paper_tui.tui.widgets.results import ResultsList


class PdfHost(Protocol):
    """A screen with a results list whose papers' PDFs the keys act on."""

    @property
    def app(self) -> App[Any]: ...

    @property
    def library(self) -> Library: ...

    @property
    def settings(self) -> Settings: ...

    @property
    def results_list(self) -> ResultsList: ...

    def say(self, message: str, *, severity: str = "information", timeout: float = 2.0
            ) -> None: ...

    def post_message(self, message: Message) -> bool: ...

    def key_hint(self, binding_id: str) -> str: ...

    def open_link(self) -> None:
        """What ``o`` did before PDFs: the paper's page in the browser."""

    def highlight_query(self) -> str:
        """The query whose words the full text highlights ("" for none)."""

    def show_text(self, paper: Paper, text: str | None, note: str, focus: bool = False
                  ) -> None:
        """Show the paper's PDF text in the abstract pane (None: ``note`` instead);
        ``focus``: and go into it (its keys: scroll, ``n`` / ``N``)."""

    def text_shown(self) -> bool:
        """Whether the abstract pane shows the full text now."""

    def show_abstract_again(self) -> None:
        """Back to the abstract in the pane."""


ASK_ABOVE = 50
""""Download PDFs of these results" asks first for more papers than this."""
_DOWNLOADING: weakref.WeakSet[App[Any]] = weakref.WeakSet()
"""The apps a download runs in (one at a time in an app: several would share the hosts)."""


class PdfTextRead(Message):
    """From the worker: the text of a paper's PDF (None: not held; ``note`` says why)."""

    def __init__(self, paper_id: str, text: str | None, note: str) -> None:
        super().__init__()
        self.paper_id = paper_id
        self.text = text
        self.note = note


class PdfsHeld(Message):
    """From the worker: the ids of the papers whose PDF the library holds."""

    def __init__(self, ids: frozenset[str]) -> None:
        super().__init__()
        self.ids = ids


def _graphical() -> bool:
    """Whether a desktop opener has a display to open on (not over a bare SSH)."""
    if sys.platform in ("darwin", "win32"):
        return True
    return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))


def outcome_line(report: PdfReport, what: str) -> tuple[str, bool]:
    """What a download did in one line, and whether any failed: ``PDFs of these
    results: 3 downloaded, 1 failed — ID: a 404 (URL)``."""
    parts = [f"{len(report.fetched):,} downloaded"]
    if report.kept:
        parts.append(f"{len(report.kept):,} already here")
    failed = report.failed
    if failed:
        parts.append(f"{len(failed):,} failed — {failed[0].line()}")
    return f"{what}: {', '.join(parts)}", bool(failed)


class PdfController:
    """The PDF keys and commands of one results screen."""

    def __init__(self, host: PdfHost) -> None:
        self.host = host
        self.wanted: str | None = None
        """The paper whose text was asked for last (an older answer is dropped)."""

    # -- the held PDFs (the rows' mark) ------------------------------------------------
    def read_held(self) -> None:
        """Read which papers have a PDF, in a worker (posted back as :class:`PdfsHeld`)."""
        host = self.host
        host.app.run_worker(partial(self._read_held, host.library), thread=True,
                            group="pdf-held", exit_on_error=False)

    def _read_held(self, library: Library) -> None:
        with contextlib.suppress(PaperTuiError, OSError):
            self.host.post_message(PdfsHeld(library.pdf_ids()))

    def held(self, message: PdfsHeld) -> None:
        self.host.results_list.set_pdf_held(message.ids)

    # -- o and P -----------------------------------------------------------------------
    def open(self, download: bool) -> None:
        """Open the paper's PDF in the viewer: ``o`` when the library holds it (else its
        link), ``P`` downloading it first."""
        paper = self.host.results_list.current_paper()
        if paper is None:
            return
        if paper.id in self.host.results_list.pdf_held:
            self._run(partial(self._open, paper.id))
        elif download:
            self.download([paper], f"the PDF of {_quoted(paper.label)}", then_open=True)
        else:
            self.host.open_link()

    def _open(self, paper_id: str) -> Callable[[], None]:
        """The worker's part of opening: the command, the viewer started detached; what
        to say, done on the UI thread."""
        settings = self.host.settings
        try:
            target, command = self.host.library.pdf_open(paper_id)
        except (PaperTuiError, OSError) as exc:
            return partial(self.host.say, str(exc), severity="error", timeout=8)
        desktop = not (settings.pdf.viewer.strip() or os.environ.get("PDF_VIEWER", "").strip())
        if command is None or (desktop and not _graphical()):
            return partial(self.host.say, f"no PDF viewer here; the PDF is at {target}",
                           timeout=15)
        from paper_tui.pdfs import viewer

        try:
            viewer.launch(command)
        except OSError as exc:
            return partial(self.host.say, f"cannot start the viewer {command[0]!r} "
                           f"({exc.strerror or exc}); the PDF is at {target}",
                           severity="error", timeout=15)
        return partial(self.host.say, f"opening the PDF in {Path(command[0]).name}",
                       timeout=4)

    def _run(self, work: Callable[[], Callable[[], None]]) -> None:
        """``work`` in a worker on the app; what it returns run on the UI thread."""
        app = self.host.app

        def run() -> None:
            after = work()
            with contextlib.suppress(RuntimeError):  # the app is gone meanwhile
                app.call_from_thread(after)

        app.run_worker(run, thread=True, group="pdf-open")

    # -- downloads -----------------------------------------------------------------------
    def download(self, papers: Sequence[Paper] | None, what: str, *,
                 list_name: str | None = None, then_open: bool = False) -> None:
        """Download the PDFs of ``papers`` (or of the reading list ``list_name``) in a
        worker: progress, then the outcome in one line, in the status line."""
        app = self.host.app
        if app in _DOWNLOADING:
            self.host.say("PDFs are being downloaded already", timeout=4)
            return
        ids = [p.id for p in papers or ()]
        if not ids and list_name is None:
            self.host.say("no papers to download the PDFs of", timeout=4)
            return
        _DOWNLOADING.add(app)
        self.host.say(f"{what}: starting", timeout=30)
        app.run_worker(partial(self._download, app, ids, list_name, what, then_open),
                       thread=True, group="pdf-get")

    def _download(self, app: App[Any], ids: list[str], list_name: str | None, what: str,
                  then_open: bool) -> None:
        def back(call: Callable[..., None], *args: Any) -> None:
            with contextlib.suppress(RuntimeError):  # the app is gone meanwhile
                app.call_from_thread(call, *args)

        def progress(_stage: str, done: int, total: int | None) -> None:
            back(self._progress, what, done, total)

        try:
            report = self.host.library.pdf_get(ids, list_name=list_name, progress=progress)
        except PaperTuiError as exc:
            back(self._failed, what, str(exc))
            return
        except OSError as exc:  # the library's disk: full, read-only; its lock held
            back(self._failed, what, f"cannot write the PDFs ({exc.strerror or exc})")
            return
        held: frozenset[str] = frozenset()
        with contextlib.suppress(PaperTuiError, OSError):
            held = self.host.library.pdf_ids()
        back(self._done, report, what, held, ids[0] if then_open and ids else None)

    def _progress(self, what: str, done: int, total: int | None) -> None:
        if not getattr(self.host, "is_current", True):
            return  # said as a toast: one per PDF would bury the screen
        of = f" of {total:,}" if total else ""
        self.host.say(f"{what}: {done:,}{of}…", timeout=30)

    def _failed(self, what: str, why: str) -> None:
        _DOWNLOADING.discard(self.host.app)
        self.host.say(f"{what}: {why}", severity="error", timeout=10)

    def _done(self, report: PdfReport, what: str, held: frozenset[str],
              open_id: str | None) -> None:
        _DOWNLOADING.discard(self.host.app)
        for screen in self.host.app.screen_stack:  # every results list marks them
            if screen.is_mounted and hasattr(type(screen), "results_list"):
                screen.results_list.set_pdf_held(held)  # type: ignore[attr-defined]
        if open_id is not None and open_id in held:
            self._run(partial(self._open, open_id))
        elif open_id is None or report.failed:
            line, failed = outcome_line(report, what)
            self.host.say(line, severity="error" if failed else "information",
                          timeout=15 if failed else 6)
        if self.host.text_shown():
            self.show_text()

    # -- the full text ---------------------------------------------------------------------
    def toggle_text(self) -> None:
        """``p``: the PDF's text in the abstract pane, or the abstract again."""
        if self.host.text_shown():
            self.wanted = None
            self.host.show_abstract_again()
        else:
            self.show_text(focus=True)

    def show_text(self, focus: bool = False) -> None:
        """Show the text of the paper under the cursor (read in a worker); ``focus``: go
        into the pane at once."""
        paper = self.host.results_list.current_paper()
        if paper is None:
            return
        self.wanted = paper.id
        held = paper.id in self.host.results_list.pdf_held
        how = (f"No PDF of this paper in the library yet: {self.host.key_hint('open-pdf')} "
               f"downloads it and opens it, then {self.host.key_hint('full-text')} shows "
               f"its text here (or `paper-tui pdf get {paper.id}`).")
        if not held:
            self.host.show_text(paper, None, how, focus)
            return
        if focus:
            self.host.show_text(paper, None, "Reading the PDF's text…", focus)
        self.host.app.run_worker(partial(self._read_text, paper.id, how), thread=True,
                                 group="pdf-text", exclusive=True)

    def _read_text(self, paper_id: str, how: str) -> None:
        try:
            text: str | None = self.host.library.pdf_text(paper_id)
            note = ""
        except PaperTuiError as exc:
            text, note = None, f"{exc}" if "pdf get" not in str(exc) else how
        except OSError as exc:
            text, note = None, f"cannot read the PDF's text ({exc.strerror or exc})"
        self.host.post_message(PdfTextRead(paper_id, text, note))

    def text_read(self, message: PdfTextRead) -> None:
        paper = self.host.results_list.current_paper()
        if paper is None or message.paper_id != self.wanted or paper.id != self.wanted:
            return
        self.host.show_text(paper, message.text, message.note)

    # -- the palette -------------------------------------------------------------------
    def download_results(self, dialogs: Dialogs) -> None:
        """"Download PDFs of these results": every paper the list shows (asked first when
        they are many)."""
        results = self.host.results_list.results
        papers = [results.paper(i) for i in range(len(results))] if results is not None \
            else []
        what = f"PDFs of {count(len(papers), 'result')}"
        if len(papers) <= ASK_ABOVE:
            self.download(papers, what)
            return

        def answered(yes: bool | None) -> None:
            if yes:
                self.download(papers, what)

        self.host.app.push_screen(dialogs.confirm(
            f"Download the PDFs of {count(len(papers), 'paper')} into the library? Those it "
            "has already are not asked for again.", yes="Download"), answered)


def _quoted(label: str) -> str:
    label = inert_line(label)
    return f"“{label[:40]}…”" if len(label) > 41 else f"“{label}”"
