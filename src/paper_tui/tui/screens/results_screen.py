"""The screens a reader works on, and the keys they share.

:class:`ReaderScreen` is a full screen with ``?`` for help; :class:`ResultsScreen` one
that shows a results list and an abstract view, with the keys that act on them (triage,
editing), run by its controllers. The main screen and an opened reading list are results
screens; the reading lists' list is a reader screen.

Each binding keeps its ``id`` (what ``keymap:`` in config.yaml remaps, and what help and
the palette list). Textual merges a screen's ``BINDINGS`` with its base classes' key by
key, a subclass's key replacing the base's, so the keys are declared here in groups and
each screen lists the groups it has, in the order its footer and the help show them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, cast

from textual.binding import Binding
from textual.screen import Screen

from paper_tui.tui import collector
from paper_tui.tui.controllers.citing import CitationCopied, CitingController, say_copied
from paper_tui.tui.controllers.editing import AllMarked, EditingController
from paper_tui.tui.controllers.pdfs import PdfController, PdfsHeld, PdfTextRead
from paper_tui.tui.controllers.triage import TriageController, selected_ids
from paper_tui.tui.keymap import screen_key_hint
from paper_tui.tui.screens.dialog_opener import DialogOpener
from paper_tui.tui.widgets.abstract import AbstractView
from paper_tui.tui.widgets.facets import FACETS_KEYS
from paper_tui.tui.widgets.full_text import FullTextView, Shown, query_words
from paper_tui.tui.widgets.results import ResultsList
from paper_tui.tui.widgets.search_box import SearchBox
from paper_tui.vocabulary import member_marks

if TYPE_CHECKING:
    from paper_tui.config import Settings
    from paper_tui.library import Annotation, Library, PaperDetail, Results
    from paper_tui.model import Paper
    from paper_tui.tui.host import AppHost

TRIAGE_KEYS = [
    Binding("i", "triage('to-read')", "To read", id="to-read", tooltip="Mark as to read"),
    Binding("r", "triage('read')", "Read", id="read", tooltip="Mark as read"),
    Binding("x", "triage('skipped')", "Skip", id="skip", tooltip="Mark as skipped"),
    Binding("s", "star", "Star", id="star", tooltip="Star / unstar"),
    Binding("space", "next_new", "Next new", id="next-new",
            tooltip="Jump to the next paper still new"),
    Binding("z", "undo", "Undo", id="undo", tooltip="Undo the last annotation change"),
    Binding("o", "open_url", "Open", show=False, id="open-url",
            tooltip="Open the paper's PDF when the library has it, else its page in the "
                    "browser"),
    Binding("P", "open_pdf", "Get PDF", show=False, id="open-pdf",
            tooltip="Download the paper's PDF (unless the library has it) and open it"),
    Binding("p", "toggle_full_text", "Full text", show=False, id="full-text",
            tooltip="The PDF's text in the abstract pane (n / N: the query's words); "
                    "again: the abstract"),
    Binding("O", "open_code", "Open code", show=False, id="open-code",
            tooltip="Open the paper's code (its GitHub…) in the browser"),
]
HELP_KEY = Binding("question_mark", "help", "Help", id="help", tooltip="Show every key")
EDIT_KEYS = [
    Binding("t", "edit_tags", "Tags", id="tags", tooltip="Add or remove tags"),
    Binding("n", "edit_note", "Note", id="note", tooltip="Write the paper's note"),
    Binding("a", "add_to_list", "Add to list", id="add-to-list",
            tooltip="Add to a reading list (or a new one)"),
]
CITE_AND_MARK_KEYS = [
    Binding("c", "copy_citation", "Cite", id="copy-citation",
            tooltip="Copy the citation in the default style"),
    Binding("C", "copy_citation_as", "Cite as", show=False, id="copy-citation-as",
            tooltip="Copy the citation in a style you pick"),
    Binding("v", "toggle_mark", "Mark", show=False, id="mark",
            tooltip="Mark / unmark the paper (actions then act on the marked papers)"),
    Binding("V", "mark_all", "Mark all", show=False, id="mark-all",
            tooltip="Mark every paper shown"),
    Binding("u", "clear_marks", "Clear marks", show=False, id="clear-marks",
            tooltip="Unmark all papers"),
]
RESULTS_KEYS = [*TRIAGE_KEYS, HELP_KEY, *EDIT_KEYS, *CITE_AND_MARK_KEYS]
"""The keys of every results screen, in their order on the footer."""

CLOSE_HELP_KEY = Binding("escape,q,question_mark", "close_help", "Close help", id="close-help")
LIST_DESCRIBE_KEY = Binding("e", "describe", "Describe", id="list-describe")
LIST_DELETE_KEY = Binding("D", "delete_list", "Delete", id="list-delete")
LISTS_SCREEN_KEYS = [
    Binding("escape,q", "app.pop_screen", "Back", id="lists-back"),
    Binding("n", "new_list", "New list", id="list-new"),
    Binding("r", "rename", "Rename", id="list-rename"),
    LIST_DESCRIBE_KEY,
    LIST_DELETE_KEY,
    Binding("x", "export", "Export", id="list-export"),
    Binding("c", "cite", "Cite all", id="list-cite"),
    Binding("C", "cite_as", "Cite as…", show=False, id="list-cite-as"),
    HELP_KEY,
]
OPENED_LIST_KEYS = [
    Binding("escape,q", "app.pop_screen", "Back", id="list-back"),
    Binding("J,shift+down", "move(1)", "Move down", id="list-move-down"),
    Binding("K,shift+up", "move(-1)", "Move up", id="list-move-up"),
    Binding("d,delete", "remove", "Remove", id="list-remove"),
    Binding("R", "rename", "Rename", id="list-rename"),
    LIST_DESCRIBE_KEY,
    LIST_DELETE_KEY,
    Binding("X", "export", "Export", id="list-export"),
    *RESULTS_KEYS,
]
"""In an opened list the paper keys are the main screen's (``r`` read, ``x`` skip, ``c``
cite): the list's rename and export are ``R`` and ``X`` there (the same ids, so one
``keymap:`` line remaps them on both screens), and ``V`` then ``c`` cites the whole list."""
TEAM_SCREEN_KEYS = [
    Binding("escape,q", "app.pop_screen", "Back", id="team-back"),
    Binding("enter", "open_row", "Open as query", id="team-open",
            tooltip="Search the row's papers (assigned:NAME, untouched, kept:2, disputed)"),
    HELP_KEY,
]
"""The team screen's keys (``T``)."""
LATER_SCREENS_KEYS = [CLOSE_HELP_KEY, *LISTS_SCREEN_KEYS, *OPENED_LIST_KEYS, *TEAM_SCREEN_KEYS,
                      *FACETS_KEYS]
"""The keys of the screens imported on first use (help, the reading lists, the team) and of
the facets panel (mounted on first use), declared here so that the config's keymap is
checked against them at start."""


def _actions(bindings: list[Binding]) -> frozenset[str]:
    return frozenset(b.action.partition("(")[0] for b in bindings)


class ReaderScreen(Screen[None]):
    """A full screen of the reader. Its shared keys (help, and on a results screen the
    keys acting on the results) rest while a dialog is over it, so the footer left visible
    below a dialog shows only what still works there."""

    SHARED_ACTIONS = _actions([HELP_KEY])

    @property
    def host(self) -> AppHost:
        """The app, as screens use it (:class:`~paper_tui.tui.app.PaperApp`)."""
        return cast("AppHost", self.app)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in self.SHARED_ACTIONS and not self.is_active:
            return False
        return super().check_action(action, parameters)

    def action_help(self) -> None:
        self.host.show_help(self)

    def on_citation_copied(self, message: CitationCopied) -> None:
        say_copied(self.app, message)

    def key_hint(self, binding_id: str) -> str:
        """The key ``binding_id`` has now (the keymap in force), as a hint names it: ``Esc``,
        ``J``."""
        return screen_key_hint(self, binding_id)


class ResultsScreen(ReaderScreen):
    """A screen with a results list (``#results``) and an abstract view; the triage and
    editing keys act on its list (see :class:`~paper_tui.tui.host.ResultsHost`)."""

    SHARED_ACTIONS = _actions(RESULTS_KEYS)

    def __init__(self, library: Library, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.library = library
        self.dialogs = DialogOpener(self)
        self.triage = TriageController(self)
        self.citing = CitingController(self, self.dialogs)
        self.editing = EditingController(self, self.dialogs, self.citing)
        self.pdfs = PdfController(self)
        self._shown: tuple[Results | None, int, Annotation | None] | None = None
        """(result set, cursor, annotation) the abstract view shows: skip redundant redraws."""
        self._results: ResultsList | None = None
        self._abstract: AbstractView | None = None
        self._full_text_view: FullTextView | None = None

    # -- what the controllers use ----------------------------------------------------------
    @property
    def settings(self) -> Settings:
        return self.host.settings

    @property
    def results_list(self) -> ResultsList:
        """The screen's list (found once: a key's path has no DOM query)."""
        if self._results is None:
            self._results = self.query_one("#results", ResultsList)
        return self._results

    @property
    def abstract(self) -> AbstractView:
        if self._abstract is None:
            self._abstract = self.query_one(AbstractView)
        return self._abstract

    def say(self, message: str, *, severity: str = "information", timeout: float = 2.0
            ) -> None:
        self.host.say(message, severity=severity, timeout=timeout)

    def current_paper(self) -> Paper | None:
        return self.results_list.current_paper()

    def selected_ids(self) -> list[str]:
        """The marked papers, or else the one under the cursor."""
        return selected_ids(self)

    def refresh_current(self) -> None:
        """Redraw the rows and the abstract view (after an annotation change), and the
        main status line."""
        self.results_list.refresh()
        self.show_current()
        self.host.status_changed()

    def triage_counted(self, change: int) -> None:
        """Only the main screen's status line counts triaged papers."""

    # -- the abstract view -----------------------------------------------------------------
    def show_current(self) -> None:
        """Show the paper under the cursor, as it is now, in the abstract view; once that
        frame is out, wrap the next paper ahead (the one a triage key moves to)."""
        results = self.results_list
        paper = results.current_paper()
        view = self.abstract
        annotation = None
        if self.text_shown():
            self.pdfs.show_text()
        if paper is None:
            view.show(None)
        else:
            detail = self.library.detail(paper.id, team=True)
            annotation = detail.annotation
            view.show(paper, annotation, detail.lists, results.highlights(results.cursor),
                      self.context_lines(detail))
            self.app.call_after_refresh(self.prepare_next, results, results.results, view,
                                        results.cursor)
        self._shown = (results.results, results.cursor, annotation)

    def context_lines(self, detail: PaperDetail) -> tuple[str, ...]:
        """Lines the abstract view shows under the reader's own marks: the paper's other
        versions, the team's marks."""
        also = (f"also in: {', '.join(detail.also_in)}",) if detail.also_in else ()
        return also + tuple(f"team: {member.name}: {marks}" for member in detail.team
                            if (marks := member_marks(member)))

    def prepare_next(self, results: ResultsList, shown: Results | None, view: AbstractView,
                     cursor: int) -> None:
        """Wrap the paper after ``cursor`` and draw its row as the cursor's, unless the
        reader has moved on already."""
        if (shown is None or results.results is not shown or results.cursor != cursor
                or cursor + 1 >= len(results) or not view.is_mounted):
            return
        if isinstance(self.app.focused, SearchBox):  # typing: the next key brings others
            collector.collect(0)
            return
        paper = shown.paper(cursor + 1)
        detail = self.library.detail(paper.id, team=True)
        view.prepare(paper, detail.annotation, detail.lists, results.highlights(cursor + 1),
                     self.context_lines(detail))
        results.prepare_row(cursor + 1)
        collector.collect(1)  # the key's garbage, now rather than inside the next key

    def show_if_changed(self) -> None:
        """:meth:`show_current` unless the abstract view shows that paper as it is."""
        results = self.results_list
        paper = results.current_paper()
        now = (results.results, results.cursor,
               self.library.annotation(paper.id) if paper else None)
        if now != self._shown:
            self.show_current()

    # -- the PDFs (controllers/pdfs.py) -----------------------------------------------
    def on_mount(self) -> None:
        self.pdfs.read_held()

    def on_pdfs_held(self, message: PdfsHeld) -> None:
        self.pdfs.held(message)

    def on_pdf_text_read(self, message: PdfTextRead) -> None:
        self.pdfs.text_read(message)

    def open_link(self) -> None:
        self.triage.open_url()

    def highlight_query(self) -> str:
        """The query whose words the full text highlights (an opened list has none)."""
        return ""

    def _full_text(self) -> FullTextView | None:
        """The full-text view, once mounted (found once: the cursor's path asks)."""
        return self._full_text_view

    def reading_pane(self) -> AbstractView | FullTextView:
        """The pane beside the results: the abstract, or the PDF's text."""
        view = self._full_text_view
        return view if view is not None and view.display else self.abstract

    def text_shown(self) -> bool:
        view = self._full_text()
        return view is not None and bool(view.display)

    def show_text(self, paper: Paper, text: str | None, note: str,
                  focus: bool = False) -> None:
        view = self._full_text()
        if view is None:
            view = self._full_text_view = FullTextView(id="full-text")
            self.abstract.parent.mount(view, after=self.abstract)  # type: ignore[union-attr]
        for other in self.query("#reviews"):  # one reading view at a time
            other.display = False
        words = tuple(query_words(self.highlight_query()))
        view.show(Shown(paper.id, paper.label, text, note, words))
        if view.display is False or self.abstract.display:
            focus = focus or self.focused is self.abstract
            self.abstract.display = False
            view.display = True
        if focus:
            self.set_focus(view)

    def show_abstract_again(self) -> None:
        view = self._full_text()
        focused = view is not None and self.focused is view
        if view is not None:
            view.display = False
        self.abstract.display = True
        self._shown = None
        self.show_current()
        if focused:
            self.set_focus(self.abstract)

    def on_all_marked(self, message: AllMarked) -> None:
        self.editing.all_marked(message)

    # -- the keys --------------------------------------------------------------------------
    def action_triage(self, status: str) -> None:
        self.triage.set_status(status)

    def action_star(self) -> None:
        self.triage.star()

    def action_next_new(self) -> None:
        self.triage.next_new()

    def action_undo(self) -> None:
        self.triage.undo()

    def action_open_url(self) -> None:
        self.pdfs.open(download=False)

    def action_open_pdf(self) -> None:
        self.pdfs.open(download=True)

    def action_toggle_full_text(self) -> None:
        self.pdfs.toggle_text()

    def action_download_pdfs(self) -> None:
        """The palette's "Download PDFs of these results"."""
        self.pdfs.download_results(self.dialogs)

    def action_open_code(self) -> None:
        self.triage.open_code()

    def action_edit_tags(self) -> None:
        self.editing.edit_tags()

    def action_edit_note(self) -> None:
        self.editing.edit_note()

    def action_add_to_list(self) -> None:
        self.editing.add_to_list()

    def action_copy_citation(self) -> None:
        self.editing.copy_citation()

    def action_copy_citation_as(self) -> None:
        self.editing.copy_citation_as()

    def action_toggle_mark(self) -> None:
        self.editing.toggle_mark()

    def action_mark_all(self) -> None:
        self.editing.mark_all()

    def action_clear_marks(self) -> None:
        self.editing.clear_marks()
