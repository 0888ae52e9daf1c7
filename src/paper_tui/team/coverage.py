"""What the team made of each paper: per member what they kept and skipped, who holds which
share, and what follows (the picks, the disputed, the untouched). The sets behind the
team's query words (``assigned:``, ``kept:N``, ``kept-by:``, ``disputed``, ``untouched``),
``team status``, the ``team`` sort and the digest.

A member's verdict on a paper, from their marks (:func:`verdict`):

- **kept**: to read or read, or starred, or tagged (a tag on a paper they skipped is a
  note on why, not a keep; a star is a keep whatever the status);
- **skipped**: skipped and not starred;
- none: nothing, or only a note.

A paper is *triaged* by a member who gave it a verdict, *untouched* when no member did,
*disputed* when one member kept it and another skipped it, a *pick* when at least two kept
it. You are a member like the others, from your own store (under your team name).

Everything is worked out again only when something changed: your store's version, a
member's file (as :class:`~.layer.Team` last read it), the assignments file.
"""

from __future__ import annotations

import threading
from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from paper_tui.query.team import ANY, ASSIGNED, KEPT, KEPT_BY, ME, TEAM, TOUCHED
from paper_tui.store.merge import stamp_time
from paper_tui.team.assignments import Assignments
from paper_tui.team.layer import Team
from paper_tui.team.people_file import TeamRecord
from paper_tui.vocabulary import Marks

KEEPING_STATUSES = frozenset({"to-read", "read"})


def verdict(status: str, starred: bool, tagged: bool) -> str | None:
    """``kept``, ``skipped`` or None (see the module's doc)."""
    if starred or status in KEEPING_STATUSES:
        return "kept"
    if status == "skipped":
        return "skipped"
    return "kept" if tagged else None


@dataclass(frozen=True)
class MemberWork:
    """One member's verdicts and marks."""

    name: str
    kept: frozenset[str] = frozenset()
    skipped: frozenset[str] = frozenset()
    starred: frozenset[str] = frozenset()
    marks: Mapping[str, Marks] = field(default_factory=dict)
    """Paper id -> the member's marks on it (status, star, tags, note), annotated ones."""
    updated: Mapping[str, float] = field(default_factory=dict)
    """Paper id -> when the member last changed it (seconds; 0: unknown)."""
    last_change: float | None = None

    @property
    def touched(self) -> frozenset[str]:
        return self.kept | self.skipped


def member_work(name: str, marks: Mapping[str, Marks], updated: Mapping[str, str | None]
                ) -> MemberWork:
    kept, skipped, starred = set(), set(), set()
    for paper_id, m in marks.items():
        said = verdict(m.status, m.starred, bool(m.tags))
        if said == "kept":
            kept.add(paper_id)
        elif said == "skipped":
            skipped.add(paper_id)
        if m.starred:
            starred.add(paper_id)
    times = {pid: stamp_time(at) for pid, at in updated.items()}
    return MemberWork(name, frozenset(kept), frozenset(skipped), frozenset(starred), marks,
                      times, max(times.values(), default=0.0) or None)


class Lab:
    """The team's work at one moment (see the module's doc); made by :class:`Coverage`."""

    def __init__(self, me: str | None, members: Mapping[str, MemberWork],
                 assignments: Assignments, version: int) -> None:
        self.me = me
        self.members = members
        """Every member with a file (and you, under your team name, "" outside a team)."""
        self.assignments = assignments
        self.version = version

    @cached_property
    def kept_count(self) -> Counter[str]:
        """Paper id -> how many members kept it."""
        return Counter(pid for work in self.members.values() for pid in work.kept)

    @cached_property
    def starred_count(self) -> Counter[str]:
        return Counter(pid for work in self.members.values() for pid in work.starred)

    @cached_property
    def touched(self) -> frozenset[str]:
        return frozenset().union(*(work.touched for work in self.members.values()))

    @cached_property
    def disputed(self) -> frozenset[str]:
        """Kept by one member and skipped by another."""
        kept = frozenset().union(*(w.kept for w in self.members.values()))
        skipped = frozenset().union(*(w.skipped for w in self.members.values()))
        return kept & skipped

    def kept_by_at_least(self, n: int) -> frozenset[str]:
        return frozenset(pid for pid, k in self.kept_count.items() if k >= n)

    def member(self, name: str) -> str | None:
        """A name as typed after ``assigned:`` or ``kept-by:`` (``me``: you)."""
        return self.me if name == ME else name

    def ids(self, field_name: str, value: str) -> frozenset[str]:
        """The papers of one query word's value (folded as the parser folds it)."""
        if field_name == ASSIGNED:
            if value == ANY:
                return frozenset(self.assignments.member_of)
            member = self.member(value)
            return self.assignments.share(member) if member else frozenset()
        if field_name == KEPT:
            return self.kept_by_at_least(int(value)) if value.isdigit() and int(value) else \
                frozenset()
        if field_name == KEPT_BY:
            member = self.member(value)
            work = self.members.get(member) if member else None
            return work.kept if work is not None else frozenset()
        if field_name == TEAM:
            return self.disputed if value == "disputed" else \
                self.touched if value == TOUCHED else frozenset()
        return frozenset()

    def values(self, field_name: str) -> list[str]:
        """Every value of a word that finds something (for facets and ``assigned:b*``);
        none outside a team."""
        if self.me is None:
            return []
        if field_name == ASSIGNED:
            return sorted(self.assignments.shares)
        if field_name == KEPT:
            most = max(self.kept_count.values(), default=0)
            return [str(n) for n in range(1, most + 1)]
        if field_name == KEPT_BY:
            return sorted(name for name, work in self.members.items() if name and work.kept)
        if field_name == TEAM:
            return ["disputed", TOUCHED]
        return []


class Coverage:
    """The :class:`Lab` now, worked out again when its inputs changed; also what the
    index's filter reads for the team's query words (an
    :class:`~paper_tui.index.annotation_filter.AnnotationSets`)."""

    def __init__(self, team: Team, own_records: Callable[[], Mapping[str, Mapping[str, Any]]],
                 own_version: Callable[[], int]) -> None:
        """``own_records()``: your annotation store's records (paper id -> fields);
        ``own_version()``: bumped when they may have changed."""
        self.team = team
        self._own_records = own_records
        self._own_version = own_version
        self._lock = threading.Lock()
        self._key: tuple | None = None
        self._lab: Lab | None = None
        self._own: tuple[int, MemberWork] | None = None
        self._others: dict[str, tuple[object, MemberWork]] = {}
        self._version = 0

    def lab(self, fresh: bool = True) -> Lab:
        """The team's work. ``fresh=False``: from the files as last read (never reading
        one now: the app's draw path), your own store as it is."""
        with self._lock:
            me = self.team.me
            names = self.team.members() if fresh else self.team.members_read()
            records = {name: self.team.annotations_of(name, fresh) for name in names}
            assignments = self.team.assignments(fresh)
            own = self._own_version()
            key = (me, own, tuple((n, id(r)) for n, r in records.items()), id(assignments))
            if self._lab is None or key != self._key:
                members = {name: self._other(name, marks) for name, marks in records.items()}
                members[me or ""] = self._mine(me or "", own)
                self._version += 1
                self._lab = Lab(me, members, assignments, self._version)
                self._key = key
            return self._lab

    def _other(self, name: str, marks: Mapping[str, TeamRecord]) -> MemberWork:
        cached = self._others.get(name)
        if cached is not None and cached[0] is marks:
            return cached[1]
        work = member_work(name, marks, {pid: m.updated for pid, m in marks.items()})
        self._others[name] = (marks, work)
        return work

    def _mine(self, me: str, version: int) -> MemberWork:
        if self._own is not None and self._own[0] == version and self._own[1].name == me:
            return self._own[1]
        records = self._own_records()
        marks = {pid: _Marks.of(r) for pid, r in records.items()}
        work = member_work(me, marks, {pid: r.get("updated") for pid, r in records.items()})
        self._own = (version, work)
        return work

    # -- what the index's filter reads (AnnotationSets) ------------------------------------
    def ids(self, field_name: str, value: str) -> tuple[frozenset[str], int]:
        lab = self.lab()
        return lab.ids(field_name, value), lab.version

    def version_of(self, field_name: str, value: str) -> int:
        return self.lab().version

    def versions(self, field_name: str) -> dict[str, int]:
        lab = self.lab()
        return dict.fromkeys(lab.values(field_name), lab.version)

    def values(self, field_name: str) -> list[str]:
        return self.lab().values(field_name)

    def note_phrase(self, words: list[str]) -> frozenset[str]:
        return frozenset()


@dataclass(frozen=True, slots=True)
class _Marks:
    """Your own marks on a paper, from a record of your store."""

    status: str = "new"
    starred: bool = False
    tags: tuple[str, ...] = ()
    note: str = ""

    @classmethod
    def of(cls, record: Mapping[str, Any]) -> _Marks:
        return cls(record.get("status", "new"), bool(record.get("starred")),
                   tuple(record.get("tags", ())), record.get("note", ""))
