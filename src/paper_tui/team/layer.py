"""The team layer: what the other members of the team did, read-only, for search and show,
and who is assigned which paper (``assignments.yaml``, :mod:`.assignments`).

Read from their files in the team work tree (``people/<name>.yaml``), each parsed once and
again only when it changes on disk (after a sync). The work tree is a team-mate's to
write: a member is a plain name (``people/Eve.yaml``, ``people/../x.yaml`` are no one), a
file is read only when it is a regular file inside the tree (:mod:`.files`), and one over
:data:`~.repo.MAX_BYTES` or :data:`~.repo.MAX_RECORDS` is not read: that member is not
shown (:attr:`Team.problems` says why), the others are.

Nothing here starts a thread. The app reads the files in its workers (at its start, at the
end of its own sync), and the annotation service's watcher thread, which looks at the
library's files every half second for changes made elsewhere, calls
:meth:`Team.reload_if_stale` so that another process's sync shows in the app too.
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Callable, Iterator
from pathlib import Path

from paper_tui.errors import PaperTuiError
from paper_tui.team import assignments as assignments_file
from paper_tui.team import files, people_file, repo
from paper_tui.team.assignments import Assignments
from paper_tui.team.people_file import TeamRecord
from paper_tui.trust import atomic


class Team:
    def __init__(self, library_root: Path) -> None:
        self.root = library_root / repo.TEAM_DIR
        self.people = self.root / repo.PEOPLE
        self._state_file = library_root / repo.STATE_FILE
        self._me: tuple[atomic.FileIdentity | None, str | None] | None = None
        self._files: dict[str, tuple[atomic.FileIdentity, people_file.PeopleFile]] = {}
        self.problems: dict[str, str] = {}  # member -> why their file could not be read
        self._assignments: tuple[atomic.FileIdentity | None, Assignments] = (
            None, assignments_file.EMPTY)
        self.assignments_problem: str | None = None
        """Why ``assignments.yaml`` could not be read (then nobody is assigned anything)."""
        self._reloading = threading.Lock()  # one reload at a time
        self._syncing = False
        self._drawn = False  # a draw asked for the files as last read: keep them fresh

    @property
    def me(self) -> str | None:
        """This library's name in the team (None: not in one), read again when
        ``team.json`` changes (the first sync names it)."""
        identity = atomic.identity(self._state_file)
        if self._me is None or self._me[0] != identity:
            try:
                name = repo.State.load(self._state_file.parent).name
            except PaperTuiError:
                name = None
            self._me = (identity, name)
        return self._me[1]

    def members(self) -> list[str]:
        """The other members with a file in the team repo, by name."""
        names = [n.removesuffix(".yaml") for n in files.names(self.root, repo.PEOPLE)
                 if n.endswith(".yaml")]
        return sorted(n for n in names if repo.is_plain_name(n) and n != self.me)

    def members_read(self) -> list[str]:
        """The other members whose files were read last (none read now)."""
        return sorted(self._files)

    def assignments(self, fresh: bool = True) -> Assignments:
        """Who is assigned which paper: read when the file changed (``fresh=False``: as last
        read). A file that cannot be read is no assignment, and
        :attr:`assignments_problem` says why."""
        identity, read = self._assignments
        if not fresh:
            return read
        now = atomic.identity(self.root / repo.ASSIGNMENTS)
        if now is not None and now == identity:
            return read
        try:
            read = assignments_file.read(self.root)
        except PaperTuiError as exc:
            self.assignments_problem = f"{exc}; the split is not shown until fixed"
            read = assignments_file.EMPTY
        else:
            self.assignments_problem = None
        self._assignments = (now, read)
        return read

    def annotations_of(self, name: str, fresh: bool = True) -> dict[str, TeamRecord]:
        """A member's triage: paper id -> record (empty when unknown or unreadable).
        ``fresh=False``: as last read, never reading the file now (the app's draw path:
        a sync's worker reads what changed, :meth:`reload`)."""
        cached = self._files.get(name)
        if not fresh:
            return cached[1].records if cached is not None else {}
        if not repo.is_plain_name(name):
            return {}
        rel = repo.person_file(name)
        identity = atomic.identity(self.root / rel)
        if identity is None:
            self._files.pop(name, None)
            self.problems.pop(name, None)
            return {}
        if cached is not None and cached[0] == identity:
            return cached[1].records
        try:
            data = files.read_bytes(self.root, rel, repo.MAX_BYTES)
            read = people_file.read((data or b"").decode("utf-8"), self.root / rel,
                                    cached[1] if cached is not None else None)
        except (PaperTuiError, OSError, UnicodeDecodeError) as exc:
            self._unreadable(name, exc)
            read = people_file.PeopleFile({})
        else:
            self.problems.pop(name, None)
        self._files[name] = (identity, read)
        return read.records

    def _unreadable(self, name: str, exc: Exception) -> None:
        self.problems[name] = f"{exc}; {name}'s triage is not shown until fixed"

    def record_of(self, name: str, paper_id: str) -> TeamRecord | None:
        """What a member did with one paper, read now: from their file as last read when
        it has not changed, else parsing only that paper's block where it can
        (:func:`.people_file.record_of`; what ``show`` needs)."""
        cached = self._files.get(name)
        rel = repo.person_file(name)
        if cached is not None and cached[0] == atomic.identity(self.root / rel):
            return cached[1].records.get(paper_id)
        try:
            data = files.read_bytes(self.root, rel, repo.MAX_BYTES)
            if data is None:
                return None
            record = people_file.record_of(data.decode("utf-8"), self.root / rel, paper_id)
        except (PaperTuiError, OSError, UnicodeDecodeError) as exc:
            self._unreadable(name, exc)
            return None
        self.problems.pop(name, None)
        return record

    def reload(self) -> None:
        """Read every member's file that changed since it was last read."""
        with self._reloading:
            self._reload()

    def _reload(self) -> None:
        members = self.members()
        for name in members:
            self.annotations_of(name)
        for gone in self._files.keys() - set(members):
            self._files.pop(gone, None)
        self.assignments()

    @contextlib.contextmanager
    def syncing(self) -> Iterator[None]:
        """While this library's sync rewrites the members' files: draws keep what was last
        read (no reload half-way through, competing with the reader's keys for the
        interpreter), and what changed is read once at the end, in the caller's thread."""
        self._syncing = True  # one sync at a time: the app's sync controller sees to it
        try:
            yield
        finally:
            try:
                self.reload()
            finally:  # only now may the watcher reload on its own (not a second one)
                self._syncing = False

    def reload_if_stale(self) -> None:
        """For a thread that watches the library's files: once a draw has shown the team,
        read the files that changed on disk (another process's sync, a ``git pull``), so
        the next draw has the news. Not while this library's own sync runs, nor while
        another reload does."""
        if not self._drawn or self._syncing or not self._reloading.acquire(blocking=False):
            return
        try:
            seen = {name: identity for name, (identity, _) in list(self._files.items())}
            members = self.members()
            if set(members) != seen.keys() or any(
                    atomic.identity(self.root / repo.person_file(name)) != identity
                    for name, identity in seen.items()) or \
                    atomic.identity(self.root / repo.ASSIGNMENTS) != self._assignments[0]:
                self._reload()
        finally:
            self._reloading.release()

    def annotators(self, paper_id: str, fresh: bool = True) -> dict[str, TeamRecord]:
        """The other members who annotated a paper, with what they did (``fresh``: see
        :meth:`annotations_of`)."""
        out = {}
        if fresh:
            for name in self.members():
                record = self.record_of(name, paper_id)
                if record is not None:
                    out[name] = record
            return out
        self._drawn = True
        for name, (_, read) in list(self._files.items()):
            record = read.records.get(paper_id)
            if record is not None:
                out[name] = record
        return out


class People:
    """``by:NAME`` for search: the papers each member annotated (status, star, tag or
    note), the others' from their files in the team repo, yours from your own store.
    Values are names in lower case, as the query parser folds them."""

    def __init__(self, team: Team, own_ids: Callable[[], frozenset[str]],
                 own_version: Callable[[], int]) -> None:
        """``own_ids()``: your annotated papers; ``own_version()``: bumped when they may
        have changed (both from your annotation store)."""
        self.team = team
        self._own_ids = own_ids
        self._own_version = own_version

    def _names(self) -> dict[str, str]:
        names = {name.lower(): name for name in self.team.members()}
        if self.team.me:
            names[self.team.me.lower()] = self.team.me
        return names

    def ids(self, field: str, value: str) -> tuple[frozenset[str], int]:
        name = self._names().get(value)
        if name is None:
            return frozenset(), 0
        if name == self.team.me:
            return self._own_ids(), self._own_version()
        records = self.team.annotations_of(name)
        return frozenset(records), self._file_version(name)

    def version_of(self, field: str, value: str) -> int:
        name = self._names().get(value)
        if name is None:
            return 0
        return self._own_version() if name == self.team.me else self._file_version(name)

    def versions(self, field: str) -> dict[str, int]:
        return {value: self.version_of(field, value) for value in self._names()}

    def values(self, field: str) -> list[str]:
        return sorted(self._names())

    def note_phrase(self, words: list[str]) -> frozenset[str]:
        return frozenset()

    def _file_version(self, name: str) -> int:
        identity = atomic.identity(self.team.people / f"{name}.yaml")
        return hash(identity) if identity is not None else 0
