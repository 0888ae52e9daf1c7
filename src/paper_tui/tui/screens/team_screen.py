"""The team screen (``T``): who covered what of the query on the main screen, as
``paper-tui team status`` says it — a row per member with a progress bar of their share,
then the papers no one triaged, the picks and the disputed. ``Enter`` on a row closes the
screen with that row as the query (``assigned:bob``, ``untouched``, ``kept:2``,
``disputed``).

The counting reads every member's file: it runs on the app's query thread (quitting
never waits for it), and the screen shows "counting…" until it is done.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.message import Message
from textual.widgets import Label, OptionList
from textual.widgets.option_list import Option

from paper_tui.errors import PaperTuiError
from paper_tui.library import Library, MemberCoverage, TeamCoverage
from paper_tui.trust.inert import inert_line
from paper_tui.tui.query_thread import QueryThread
from paper_tui.tui.screens.results_screen import TEAM_SCREEN_KEYS, ReaderScreen
from paper_tui.tui.widgets.footer import KeyFooter
from paper_tui.vocabulary import count

BAR = 20
"""Cells of a member's progress bar."""


def bar(done: int, whole: int, width: int = BAR) -> str:
    """``████████░░░░`` for ``done`` of ``whole``."""
    filled = round(width * done / whole) if whole else 0
    return "█" * filled + "░" * (width - filled)


def _when(at: float | None) -> str:
    """``Nov 20 10:00`` (short: a row fits 120 columns; ``team status`` has the year)."""
    return time.strftime("%b %d %H:%M", time.localtime(at)) if at else "never"


def member_row(member: MemberCoverage, name_width: int) -> Text:
    """A member's row: name, the bar of their share, counts, last change and sync (one
    line: cut with an ellipsis where the screen is narrow)."""
    name = member.name + (" (you)" if member.you else "")
    out = Text(inert_line(name).ljust(name_width), style="bold" if member.you else "",
               no_wrap=True, overflow="ellipsis")
    if member.assigned:
        share = f"{member.triaged:,} / {member.assigned:,}"
        out.append(f"  {bar(member.triaged, member.assigned)}", style="green")
        out.append(f"  {share:>11} {100 * member.triaged // member.assigned:3d}%")
    else:
        out.append(f"  {'no share':<{BAR}}", style="dim")
        out.append(" " * 17)
    out.append(f"  kept {member.kept:,} · skipped {member.skipped:,}", style="dim")
    if member.state != "member":
        out.append(f" · {member.state}", style="italic yellow")
    else:
        out.append(f" · changed {_when(member.last_change)} · synced {_when(member.last_sync)}",
                   style="dim")
    return out


def rows(coverage: TeamCoverage) -> list[Option]:
    """The screen's rows: members (id ``assigned:NAME``), then the rest, each id the query
    it opens."""
    width = max((len(m.name) + 6 * m.you for m in coverage.members), default=6)
    options = [Option(member_row(m, width), id=f"assigned:{m.name}")
               for m in coverage.members]
    if not options:
        options.append(Option(Text("no members yet: sync with --as NAME, then split a list "
                                   "with paper-tui team split", style="dim"), disabled=True))
    options.append(Option(Text(""), disabled=True))
    for label, n, query in (("untouched (no member triaged it)", coverage.untouched,
                             "untouched"),
                            ("picks (kept by at least two)", coverage.picks, "kept:2"),
                            ("disputed (kept by one, skipped by another)", coverage.disputed,
                             "disputed"),
                            ("unassigned", coverage.unassigned, "assigned:none")):
        row = Text(f"{n:>7,}  ", style="bold")
        row.append(label)
        options.append(Option(row, id=query))
    for problem in coverage.problems:
        options.append(Option(Text(inert_line(problem), style="red"), disabled=True))
    return options


class TeamScreen(ReaderScreen):
    """The team's coverage of a query; dismissed with the query of the row opened."""

    DEFAULT_CSS = """
    TeamScreen > Label { padding: 0 1; text-style: bold; }
    TeamScreen > OptionList { height: 1fr; }
    """
    BINDINGS = [*TEAM_SCREEN_KEYS]

    class Counted(Message):
        """The worker's counts (or why there are none)."""

        def __init__(self, coverage: TeamCoverage | None, error: str | None) -> None:
            super().__init__()
            self.coverage = coverage
            self.error = error

    def __init__(self, library: Library, queries: QueryThread, query: str = "",
                 opened: Callable[[str], None] | None = None) -> None:
        """``queries``: the thread the counting runs on; ``query``: the papers counted;
        ``opened(query)``: a row was opened (the screen has closed)."""
        super().__init__()
        self.library = library
        self.queries = queries
        self.opened = opened
        self.query_text = query
        # Built here, not found on mount: keys typed ahead may close the screen first.
        self._title = Label("", id="team-title")
        self._rows = OptionList(id="team-rows")
        self.coverage: TeamCoverage | None = None

    def compose(self) -> ComposeResult:
        yield self._title
        yield self._rows
        yield KeyFooter()

    def on_mount(self) -> None:
        self._title.update(self._heading("counting…"))
        self._rows.focus()
        self.queries.submit("team", self._count)

    def _heading(self, what: str) -> Text:
        scope = f" of {self.query_text}" if self.query_text.strip() else ""
        out = Text(inert_line(f"Team · {what}{scope}"), style="bold")
        out.append(f"  · {self.key_hint('team-open')} opens a row as a query · "
                   f"{self.key_hint('team-back')} back", style="dim")
        return out

    def _count(self) -> None:
        """On the query thread: count, and post the counts."""
        try:
            coverage = self.library.team_coverage(self.query_text)
        except PaperTuiError as exc:
            self.post_message(self.Counted(None, str(exc)))
            return
        self.post_message(self.Counted(coverage, None))

    def on_team_screen_counted(self, message: Counted) -> None:
        coverage = message.coverage
        if coverage is None:
            self._title.update(self._heading("cannot count"))
            self._rows.set_options([Option(Text(inert_line(message.error or ""),
                                                style="red"), disabled=True)])
            return
        self.coverage = coverage
        self._title.update(self._heading(count(coverage.papers, "paper")))
        self._rows.set_options(rows(coverage))
        self._rows.highlighted = next(
            (i for i, o in enumerate(self._rows.options) if not o.disabled), None)

    @on(OptionList.OptionSelected, "#team-rows")
    def _chosen(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self._open(event.option)

    def action_open_row(self) -> None:
        self._open(self._rows.highlighted_option)

    def _open(self, option: Option | None) -> None:
        """Close, and search the row's query (not when the screen is no longer in front:
        another would be closed in its place)."""
        if option is None or not option.id or not self.is_active:
            return
        self.app.pop_screen()
        if self.opened is not None:
            self.opened(str(option.id))
