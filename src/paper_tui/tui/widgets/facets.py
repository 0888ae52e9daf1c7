"""The facets side panel: counts per status, tag, venue, year and team member, and what the
venue says (decision, area, country, affiliation, has code…), for the current query.

Choosing a value posts :class:`FacetsPanel.Chosen`; the app narrows its query with
:func:`narrow`. Counting is a query like the search: it runs on the app's query thread
(:mod:`..query_thread`), so typing never waits on it, nor quitting. The status and tag
counts come from the annotations: after they change (:meth:`FacetsPanel.annotations_changed`)
the counts shown are stale, and are counted again when the panel is next asked, if shown.
"""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.message import Message
from textual.widgets import Label, OptionList
from textual.widgets.option_list import Option

from paper_tui.errors import PaperTuiError
from paper_tui.trust.inert import inert_line
from paper_tui.tui.widgets.team_facets import TEAM_FACETS, TEAM_HEADINGS, label
from paper_tui.vocabulary import STATUSES

if TYPE_CHECKING:
    from paper_tui.library import Library
    from paper_tui.tui.query_thread import QueryThread

FIELDS = ("status", "tag", "venue", "year", "by", *TEAM_FACETS, "decision", "has", "area",
          "country", "aff")
"""The facets shown, in order; each is the query word its values narrow with."""
HEADINGS = {"status": "Status", "tag": "Tags", "venue": "Venues", "year": "Years",
            "by": "Team", **TEAM_HEADINGS, "decision": "Decisions", "has": "Has",
            "area": "Areas", "country": "Countries", "aff": "Affiliations"}
PER_FIELD = 12

FACET_CHOOSE_KEY = Binding("enter", "select", "Narrow", id="facets-narrow",
                           tooltip="Add the value to the query (tag:\"to cite\", year:2024…)")
FACETS_BACK_KEY = Binding("escape", "back", "Back to results", id="facets-back",
                          tooltip="Back to the results (the panel stays)")
FACETS_KEYS = [FACET_CHOOSE_KEY, FACETS_BACK_KEY]
"""The panel's own keys (``f``, the screen's, shows the panel and goes into it, or hides
it): with the panel focused, the footer shows these, not the paper keys."""


def term(field: str, value: str) -> str:
    """The query term for one facet value: ``tag:"to cite"``, ``year:2024``;
    ``disputed`` and ``untouched`` are words of their own."""
    value = str(value)
    if field == "team":
        return value
    if not value or any(c.isspace() or c in '():"' for c in value):
        value = '"' + value.replace('"', "") + '"'
    return f"{field}:{value}"


def narrow(query: str, field: str, value: str) -> str:
    """``query`` with the facet's term added (once)."""
    extra = term(field, value)
    if extra in query.split():
        return query
    return f"{query.strip()} {extra}".strip()


def ordered(field: str, counts: dict) -> list[tuple[str, int]]:
    items = [(str(k), int(v)) for k, v in counts.items() if v]
    if field == "status":
        rank = {s: i for i, s in enumerate(STATUSES)}
        return sorted(items, key=lambda kv: rank.get(kv[0], len(rank)))
    if field == "year":
        return sorted(items, key=lambda kv: kv[0], reverse=True)[:PER_FIELD]
    if field == "kept":  # at least 1, 2, … members
        return sorted(items, key=lambda kv: int(kv[0]) if kv[0].isdigit() else 0)
    return sorted(items, key=lambda kv: (-kv[1], kv[0].casefold()))[:PER_FIELD]


class FacetOptions(OptionList):
    """The values: Textual's option list, its Enter shown in the footer as "Narrow", Esc
    back to the results, ``j`` / ``k`` moving as in the results."""

    BINDINGS = [*FACETS_KEYS, Binding("j", "cursor_down", show=False),
                Binding("k", "cursor_up", show=False)]

    def action_back(self) -> None:
        self.post_message(FacetsPanel.Left())


class FacetsPanel(Vertical):
    """A toggleable side panel; call :meth:`update_for` whenever the query changes, and
    :meth:`annotations_changed` (then :meth:`update_for`) whenever the annotations do."""

    DEFAULT_CSS = """
    FacetsPanel { width: 30; border-left: solid $primary-darken-2; }
    FacetsPanel > Label { padding: 0 1; text-style: bold; }
    FacetsPanel OptionList, FacetsPanel OptionList:focus {
        height: 1fr; border: none; padding: 0;
    }
    """

    class Chosen(Message):
        """The reader chose a facet value to narrow the query with."""

        def __init__(self, field: str, value: str) -> None:
            super().__init__()
            self.field = field
            self.value = value

        @property
        def term(self) -> str:
            return term(self.field, self.value)

    class Left(Message):
        """The reader left the panel (Esc): the focus goes back to the results."""

    class Counted(Message):
        """Counts for a query arrived from the worker."""

        def __init__(self, facets: dict[str, dict], asked: int) -> None:
            super().__init__()
            self.facets = facets
            self.asked = asked
            """Which count this is: only the newest asked for is shown."""

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.query_text: str | None = None
        self.facets: dict[str, dict] = {}
        self._asked = 0
        """Counts asked for so far; the newest is the one shown."""
        self._stale = True
        """The annotations changed since the counts asked for last (or none were)."""

    def compose(self) -> ComposeResult:
        yield Label("Facets", id="facets-title")
        yield FacetOptions(id="facets-options")

    def update_for(self, queries: QueryThread, lib: Library, query: str) -> None:
        """Count facets for ``query`` on ``queries`` unless the counts asked for last are
        for it and the annotations have not changed since (only the newest is shown)."""
        if query == self.query_text and not self._stale:
            return
        self.query_text = query
        self._stale = False
        self._asked += 1
        queries.submit("facets", partial(self._count, lib, query, self._asked))

    def annotations_changed(self) -> None:
        """Statuses, stars or tags changed: the next :meth:`update_for` counts again
        (counting nothing now: a hidden panel counts when it is shown)."""
        self._stale = True

    def _count(self, lib: Library, query: str, asked: int) -> None:
        """On the query thread: count, and post the counts."""
        try:
            facets = lib.facets(query)
        except PaperTuiError:  # a bad query: the search box already says why
            facets = {}
        self.post_message(self.Counted(facets, asked))

    def on_facets_panel_counted(self, message: Counted) -> None:
        if message.asked == self._asked:
            self.show(message.facets)

    def show(self, facets: dict[str, dict]) -> None:
        """Show these counts (``{"status": {"new": 3, ...}, "tag": {...}, ...}``)."""
        self.facets = facets
        options: list[Option] = []
        for field in FIELDS:
            items = ordered(field, facets.get(field) or {})
            if not items:
                continue
            options.append(Option(Text(HEADINGS[field], style="bold"), disabled=True))
            for value, count in items:
                value = inert_line(value)  # from data: inert before layout, and in the query
                row = Text(f" {label(field, value)}")
                row.append(f"  {count:,}", style="dim")
                options.append(Option(row, id=f"{field}\x1f{value}"))
        if not options:
            options.append(Option(Text("no hits", style="dim"), disabled=True))
        box = self.query_one("#facets-options", OptionList)
        box.set_options(options)
        first = next((i for i, o in enumerate(box.options) if not o.disabled), None)
        box.highlighted = first

    @on(OptionList.OptionSelected, "#facets-options")
    def _chosen(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        field, _, value = str(event.option.id).partition("\x1f")
        self.post_message(self.Chosen(field, value))
