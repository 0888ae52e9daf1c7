"""The team's work as the library sees it: who is in the team, what the other members
marked, the split of the papers among them (``team split``, ``team unassign``), how far
each got (``team status``, your share's progress in the app's status line) and the
reading group's agenda (``team digest``).

Who reads which paper lives in the team repo (``assignments.yaml``); a split is committed
there and shared by a sync around it. What each member kept and skipped comes from their
files (yours from your store): see :mod:`paper_tui.team.coverage`.
:class:`~paper_tui.library.Library` builds one :class:`TeamWork` when it opens and hands
it the parts it needs.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from paper_tui.errors import PaperTuiError, QueryError
from paper_tui.index import PaperIndex, Results
from paper_tui.library.records import MemberCoverage, MemberMarks, TeamCoverage
from paper_tui.model import Paper
from paper_tui.store import Annotations
from paper_tui.team.coverage import Coverage, Lab, verdict
from paper_tui.team.layer import Team

if TYPE_CHECKING:
    from paper_tui.team.assign import SplitOutcome
    from paper_tui.team.split import Candidate
    from paper_tui.team.sync import SyncReport
    from paper_tui.venue.reviews import RatingPoint

SyncProgress = Callable[[str], None]
Sync = Callable[[SyncProgress | None], "SyncReport"]
"""``sync(progress)``: a sync with the team (the library's ``sync_team``)."""


class TeamWork:
    """The team's split, coverage and agenda over one library's index and store."""

    def __init__(self, root: Path, team: Team, annotations: Annotations, index: PaperIndex,
                 coverage: Coverage, *, sync: Sync,
                 citation_keys: Callable[[Sequence[Paper]], Mapping[str, str]],
                 histories: Callable[[], Mapping[str, Sequence[RatingPoint]]] | None = None
                 ) -> None:
        """``coverage``: what the team made of each paper; ``sync(progress)``: a sync with
        the team, around a change of the split; ``citation_keys``: the digest's keys;
        ``histories()``: every paper's rating history (the digest's rating moves)."""
        self.root = root
        self.team = team
        self.annotations = annotations
        self.index = index
        self.coverage = coverage
        self.sync = sync
        self.citation_keys = citation_keys
        self.histories = histories

    def lab(self) -> Lab:
        """The team's work as last read."""
        return self.coverage.lab()

    def in_team(self) -> bool:
        """Whether this library has synced with a team (``sync --remote URL --as NAME``)."""
        from paper_tui.team.repo import State

        try:
            return State.load(self.root).name is not None
        except PaperTuiError:
            return False

    def problems(self) -> list[str]:
        """Why a member's triage (or the split) is not shown (their file broken, too big, a
        link), one line each."""
        problems = list(self.team.problems.values())
        if self.team.assignments_problem:
            problems.append(self.team.assignments_problem)
        return problems

    def marks(self, paper_id: str, fresh: bool) -> tuple[MemberMarks, ...]:
        """The other members' marks on a paper (``fresh``: read now)."""
        return tuple(MemberMarks(name, seen.status, seen.starred, tuple(seen.tags), seen.note)
                     for name, seen in self.team.annotators(paper_id, fresh=fresh).items())

    # -- the split ---------------------------------------------------------------------------
    def split(self, query: str = "", *, among: Sequence[str] = (), by: str = "area",
              reassign: str | None = None, share: bool = True,
              progress: SyncProgress | None = None) -> SplitOutcome:
        """Assign the papers of ``query`` no member has triaged and nobody holds yet among
        ``among`` (default: the members holding a share), balanced, grouped ``by`` area,
        venue or at random; ``reassign``: hand that member's untriaged share (within
        ``query``) to the others instead. ``share``: sync before (take in the team's latest
        split) and after (send this one); a sync that fails is said in the outcome's notes,
        the split stays committed here. :class:`PaperTuiError` (one line) when this library
        is not in a team, a name or the query is wrong, or the assignments file is
        broken (never written over)."""
        from paper_tui.team import assign, split

        if by not in split.BY:
            raise PaperTuiError(f"--by {by!r}: use one of {', '.join(split.BY)}")
        me = self._team_name()
        outcome = assign.SplitOutcome()
        lab = self._latest_split(share, outcome.notes, progress)
        if reassign is not None:
            reassign = "" if reassign == "me" and not me else \
                me if reassign == "me" else reassign.strip().lower()
        names = assign.members(lab, among, reassign)
        demo = frozenset() if query.strip() or reassign is not None else self._demo_ids()
        results = self._query_results(query)
        try:
            ids = results.ids()
            position = {pid: i for i, pid in enumerate(ids)}
            chosen = assign.candidates(lab, [pid for pid in ids if pid not in demo], reassign,
                                       outcome)
            papers, titles, areas = [], {}, False
            for pid in chosen:
                paper = results.paper(position[pid])
                papers.append(_candidate(paper, by))
                titles[pid] = paper.title or paper.display_title
                areas = areas or bool(paper.area.strip())
        finally:
            results.close()
        left_out = sum(1 for pid in ids if pid in demo)
        if left_out:
            outcome.notes.append(assign.demo_note(left_out))
        if by == "area" and papers and not areas:
            outcome.notes.append(assign.AREA_NOTE)
        holding = {name: len(lab.assignments.share(name)) for name in names}
        changes = split.split(papers, names, holding, by)
        given = {name: 0 for name in names}
        for member in changes.values():
            given[member] += 1
        what = (f"handed {reassign}'s untriaged share to" if reassign is not None else
                "split")
        message = (f"{what} {', '.join(n for n in names if given[n])}: "
                   f"{', '.join(f'{n} {given[n]:,}' for n in names if given[n])}"
                   f"{f' (by {by})' if reassign is None else ''}")
        written, outcome.shares = assign.write(self.root, me, changes, titles, message) \
            if changes else (0, _shares(lab.assignments.shares))
        outcome.assigned = given
        outcome.not_synced = tuple(n for n in names if n != me and n not in lab.members)
        if share and written:
            self._sync_around("sending the split", outcome.notes, progress)
        return outcome

    def _demo_ids(self) -> frozenset[str]:
        """The papers of the bundled demo list (left out of a split with no query)."""
        from paper_tui.team import assign

        query = assign.demo_query()
        if not query:
            return frozenset()
        results = self._query_results(query)
        try:
            return frozenset(results.ids())
        finally:
            results.close()

    def unassign(self, query: str, *, share: bool = True,
                 progress: SyncProgress | None = None) -> SplitOutcome:
        """Take back the assignments of the papers of ``query`` (their blocks keep a time
        stamp, so an older copy never brings them back); synced as :meth:`split`."""
        from paper_tui.team import assign
        from paper_tui.team.assignments import NOBODY

        if not query.strip():
            raise PaperTuiError("name the papers to take back: paper-tui team unassign "
                                "QUERY (assigned:bob, a venue, …)")
        me = self._team_name()
        outcome = assign.SplitOutcome()
        lab = self._latest_split(share, outcome.notes, progress)
        results = self._query_results(query)
        try:
            ids = results.ids()
        finally:
            results.close()
        held = lab.assignments.member_of
        changes = {pid: NOBODY for pid in ids if pid in held}
        outcome.considered = len(ids)
        outcome.unassigned, outcome.shares = assign.write(
            self.root, me, changes, {}, f"took back {len(changes):,} papers") if changes \
            else (0, _shares(lab.assignments.shares))
        if share and outcome.unassigned:
            self._sync_around("sending the change", outcome.notes, progress)
        return outcome

    def _team_name(self) -> str:
        from paper_tui.team.repo import State

        name = State.load(self.root).name
        if name is None or not (self.team.root / ".git").is_dir():
            raise PaperTuiError("this library is not in a team yet: run `paper-tui sync "
                                "--remote URL --as NAME` once (URL: any git remote)")
        return name

    def _latest_split(self, share: bool, notes: list[str],
                      progress: SyncProgress | None) -> Lab:
        """The team's work as it stands, after taking in the team's latest split when
        ``share``; :class:`PaperTuiError` when the assignments file is broken (it is never
        written over)."""
        if share:
            self._sync_around("taking in the team's latest split", notes, progress)
        lab = self.coverage.lab()
        if self.team.assignments_problem:
            raise PaperTuiError(self.team.assignments_problem)
        return lab

    def _sync_around(self, what: str, notes: list[str],
                     progress: SyncProgress | None) -> None:
        """A sync around a change of the split; a fault is a note (the change stays)."""
        try:
            report = self.sync(progress)
        except PaperTuiError as exc:
            notes.append(f"{what}: {exc}")
            return
        notes.extend(report.notes)

    def _query_results(self, query: str) -> Results:
        results = self.index.results(query)
        if results.error:
            results.close()
            raise QueryError(results.error)
        return results

    def _query_ids(self, query: str) -> list[str]:
        results = self._query_results(query)
        try:
            return results.ids()
        finally:
            results.close()

    # -- how far the team got ----------------------------------------------------------------
    def status(self, query: str = "") -> TeamCoverage:
        """``team status``: per member their share, what they triaged of it, kept and
        skipped, when they last changed anything and last synced; then the papers no one
        triaged, the picks and the disputed (counts within ``query``)."""
        from paper_tui.team import history

        ids = self._query_ids(query)
        lab = self.coverage.lab()
        shown = self._shown_of()
        papers = frozenset(ids)

        def within(found: frozenset[str]) -> frozenset[str]:
            return frozenset(shown(pid) for pid in found) & papers

        share = {name: within(lab.assignments.share(name)) for name in lab.assignments.shares}
        names = sorted({*(n for n in lab.members if n), *share}, key=lambda n: (n != lab.me, n))
        synced = history.last_commits(self.team.root, names)
        had_files = history.had_files(self.team.root) if any(
            name not in lab.members for name in names) else frozenset()
        rows = []
        for name in names:
            work = lab.members.get(name)
            mine = share.get(name, frozenset())
            state = "member"
            if work is None:
                state = "left" if name in had_files else "not synced yet"
            touched = within(work.touched) if work is not None else frozenset()
            rows.append(MemberCoverage(
                name, len(mine), len(mine & touched),
                len(within(work.kept)) if work else 0, len(within(work.skipped)) if work else 0,
                work.last_change if work else None, synced.get(name), name == lab.me, state))
        assigned_any = frozenset().union(*share.values())
        return TeamCoverage(query, len(papers), tuple(rows),
                            len(papers - within(lab.touched)),
                            len(within(lab.kept_by_at_least(2))), len(within(lab.disputed)),
                            len(papers - assigned_any), tuple(self.problems()))

    def _shown_of(self) -> Callable[[str], str]:
        """A paper id -> the id of the version of it the results show."""
        def shown(pid: str) -> str:
            return self.index.versions_of(pid)[0]

        return shown

    def digest(self, query: str = "", *, since: float | None = None,
               fmt: str = "markdown", every_kept: bool = False) -> str:
        """The reading group's agenda (:mod:`paper_tui.team.digest`): the picks of
        ``query`` (``every_kept``: every kept paper) kept since ``since`` (seconds since
        the epoch), the disputed papers and the biggest rating moves since then, in
        ``fmt`` (markdown, org, html, json)."""
        from paper_tui.team import digest

        ids = self._query_ids(query)
        histories = self.histories() if self.histories is not None else None
        gathered = digest.gather(self.coverage.lab(), ids, self.index.get, self.citation_keys,
                                 since, every_kept, histories)
        return digest.render(gathered, fmt)

    def share_progress(self) -> tuple[int, int] | None:
        """``(triaged, assigned)`` of your share (``your share: 120 / 400`` in the app's
        status line); None when you hold none. From the split as last read (the app's
        worker reads it) and your store as it is: cheap enough for a key's frame."""
        me = self.team.me
        if me is None:
            return None
        share = self.team.assignments(fresh=False).share(me)
        if not share:
            return None
        records = self.annotations.records()
        done = 0
        for pid in share:
            record = records.get(pid)
            if record is not None and verdict(record.get("status", "new"),
                                              bool(record.get("starred")),
                                              bool(record.get("tags"))):
                done += 1
        return done, len(share)


def _shares(shares: Mapping[str, frozenset[str]]) -> dict[str, int]:
    return {name: len(ids) for name, ids in sorted(shares.items())}


def _candidate(paper: Paper, by: str) -> Candidate:
    """A paper to split, with its group: its area (else its first keyword, else its venue)
    or its venue and year."""
    from paper_tui.team.split import Candidate

    keyword = paper.keywords[0].strip().casefold() if paper.keywords else ""
    area = paper.area.strip().casefold() or keyword or paper.venue.casefold()
    if by == "venue":
        return Candidate(paper.id, f"{paper.venue.casefold()} {paper.year or ''}", area)
    if by == "area":
        return Candidate(paper.id, area, keyword)
    return Candidate(paper.id)
