"""The team layer: what the other members of the team did, read-only, for search and show.

Read from their files in the team work tree (``people/<name>.yaml``), each parsed once and
again only when it changes on disk (after a sync).
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Callable, Iterator
from pathlib import Path

from paper_tui import atomic
from paper_tui.errors import PaperTuiError
from paper_tui.team import people_file, repo
from paper_tui.team.people_file import TeamRecord


class Team:
    def __init__(self, library_root: Path) -> None:
        self.people = library_root / repo.TEAM_DIR / repo.PEOPLE
        try:
            self.me = repo.State.load(library_root).name
        except PaperTuiError:
            self.me = None
        self._files: dict[str, tuple[tuple[int, int, int], people_file.PeopleFile]] = {}
        self.problems: dict[str, str] = {}  # member -> why their file could not be read
        self._reloading: threading.Thread | None = None
        self._syncing = False

    def members(self) -> list[str]:
        """The other members with a file in the team repo, by name."""
        try:
            names = [p.stem for p in self.people.glob("*.yaml")]
        except OSError:
            return []
        return sorted(n for n in names if n != self.me)

    def annotations_of(self, name: str, fresh: bool = True) -> dict[str, TeamRecord]:
        """A member's triage: paper id -> record (empty when unknown or unreadable).
        ``fresh=False``: as last read, never reading the file now (the app's draw path:
        a sync's worker reads what changed, :meth:`reload`)."""
        cached = self._files.get(name)
        if not fresh:
            return cached[1].records if cached is not None else {}
        path = self.people / f"{name}.yaml"
        identity = atomic.identity(path)
        if identity is None:
            self._files.pop(name, None)
            return {}
        if cached is not None and cached[0] == identity:
            return cached[1].records
        try:
            read = people_file.read(path.read_text("utf-8"), path,
                                    cached[1] if cached is not None else None)
        except (PaperTuiError, OSError, UnicodeDecodeError) as exc:
            self.problems[name] = str(exc)
            read = people_file.PeopleFile({})
        else:
            self.problems.pop(name, None)
        self._files[name] = (identity, read)
        return read.records

    def reload(self) -> None:
        """Read every member's file that changed since it was last read."""
        for name in self.members():
            self.annotations_of(name)

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
            finally:  # only now may a draw start a reload of its own (not a second one)
                self._syncing = False

    def _reload_if_changed(self) -> None:
        """Start :meth:`reload` in a thread when a member's file changed on disk (a sync
        in another process, a ``git pull``) and none is running: what is drawn now stays
        as last read, the next draw has the news."""
        if self._syncing or (self._reloading is not None and self._reloading.is_alive()):
            return
        stale = any(atomic.identity(self.people / f"{name}.yaml") != seen[0]
                    for name, seen in list(self._files.items()))
        if stale or (not self._files and self.members()):
            self._reloading = threading.Thread(target=self.reload, daemon=True,
                                               name="paper-tui team files")
            self._reloading.start()

    def annotators(self, paper_id: str, fresh: bool = True) -> dict[str, TeamRecord]:
        """The other members who annotated a paper, with what they did (``fresh``: see
        :meth:`annotations_of`)."""
        if not fresh:
            self._reload_if_changed()
        out = {}
        for name in self.members() if fresh else list(self._files):
            record = self.annotations_of(name, fresh).get(paper_id)
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
