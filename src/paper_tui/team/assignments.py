"""Who reads which paper: ``assignments.yaml`` in the team repo, as read and as written.

Any member may write the file (``paper-tui team split`` does, and a person may by hand), so
it is read as every team file is: through :mod:`.files` (never through a link, a regular
file only, at most :data:`~.repo.MAX_BYTES`), at most :data:`~.repo.MAX_RECORDS` papers,
and checked: a member is a plain name (``people/NAME.yaml``). A file that fails any of that
is one line naming file:line (:class:`~paper_tui.errors.StoreError`) and counts as no
assignment at all; the rest of the team view works without it.

A paper unassigned keeps its block, with its time stamp alone: merged with a copy that
still assigns it (a team-mate's, not synced yet), the newer change wins, so the
assignment does not come back.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from types import MappingProxyType

from paper_tui.errors import StoreError
from paper_tui.store.schema import AWKWARD, NULLS, VERSION, Record
from paper_tui.team import files, repo

NOBODY = ""
"""The member of a paper taken back (its block holds its time stamp alone)."""


@dataclass(frozen=True, eq=False)
class Assignments:
    """The file as read: who holds which papers; each paper's record (unassigned ones too)
    and the titles beside the ids when asked for (:attr:`team_file`, for a change)."""

    member_of: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))
    """Paper id -> the member it is assigned to (assigned papers only)."""
    shares: Mapping[str, frozenset[str]] = field(default_factory=lambda: MappingProxyType({}))
    """Member -> the papers assigned to them."""
    text: str | None = None
    """The file's text (None: no file)."""
    path: Path = Path(repo.ASSIGNMENTS)

    @cached_property
    def team_file(self) -> repo.TeamFile:
        """Every record, the titles and the records' text: read again from :attr:`text`
        only when the split changes (``team status`` and the query words need only
        :attr:`member_of`)."""
        return repo.read(self.text, self.path, repo.ASSIGNMENTS_SCHEMA)

    @property
    def records(self) -> dict[str, Record]:
        return self.team_file.records

    def share(self, member: str) -> frozenset[str]:
        return self.shares.get(member, frozenset())


EMPTY = Assignments()

_HEAD = re.compile(rf"(?:(?:#[^\n]*)?\n)*version: {VERSION}\n"
                   rf"{repo.ASSIGNMENTS_SCHEMA.section}:\n")
_BLOCK = re.compile(r'  "([^"\\\n]+)":(?:  # [^\n]*)?\n'
                    r"(?:    member: ([a-z0-9][a-z0-9._-]{0,39})\n)?"
                    r'    updated: "[^"\\\n]*"\n')
"""A paper's block as ``team split`` writes it (a stricter form of what the store's own
layout reader takes: a file in it reads the same either way)."""


def parse(text: str | None, path: Path) -> Assignments:
    """The assignments in ``text`` (None: no file); :class:`StoreError` naming file:line
    when it is not YAML of this layout, or names someone who cannot be a member."""
    member_of = _scan(text) if text is not None else None
    team_file = None
    if member_of is None:  # another layout (a hand edit), or a file to name the fault of
        team_file = repo.read(text, path, repo.ASSIGNMENTS_SCHEMA)
        member_of = {}
        for paper_id, record in team_file.records.items():
            member = record.get("member", NOBODY)
            if member == NOBODY:
                continue
            if not repo.is_plain_name(member):
                raise StoreError(f"{path}:{_line_of(text or '', paper_id)}: paper "
                                 f"{paper_id!r} is assigned to {member!r}, which is not a "
                                 "team name (lower-case letters, digits, '.', '-', '_')")
            member_of[paper_id] = member
    shares: dict[str, set[str]] = {}
    for paper_id, member in member_of.items():
        shares.setdefault(member, set()).add(paper_id)
    read = Assignments(MappingProxyType(member_of),
                       MappingProxyType({m: frozenset(ids) for m, ids in shares.items()}),
                       text, path)
    if team_file is not None:
        read.__dict__["team_file"] = team_file  # read already: the cached property's value
    return read


def _scan(text: str) -> dict[str, str] | None:
    """Paper id -> member of a file wholly in the layout ``team split`` writes, in one pass
    of a pattern (a quarter of the store's reader's time: 200,000 papers in 0.25 s of CPU,
    not 1 s, ``bench/team_status.py``); None for any other file, which the store's reader
    reads (and names the line of any fault of)."""
    head = _HEAD.match(text)
    if head is None or AWKWARD.search(text):
        return None
    at, ids, blocks, member_of = head.end(), set(), 0, {}
    for block in _BLOCK.finditer(text, at):
        if block.start() != at:
            return None
        at = block.end()
        blocks += 1
        paper_id, member = block.group(1, 2)
        ids.add(paper_id)
        if not paper_id.strip():
            return None
        if member is not None:
            if member in NULLS:
                return None
            member_of[paper_id] = member
    if at != len(text) or len(ids) != blocks or not 0 < blocks <= repo.MAX_RECORDS:
        return None
    return member_of


def _line_of(text: str, paper_id: str) -> int:
    """The line of a paper's block (1 when it cannot be found)."""
    at = text.find(f'"{paper_id}":')
    if at < 0:
        at = text.find(f"{paper_id}:")
    return text.count("\n", 0, at) + 1 if at >= 0 else 1


def read(team_root: Path) -> Assignments:
    """The team repo's assignments (none when there is no file); :class:`StoreError` (one
    line naming the file) when it cannot be read or is not what it must be."""
    path = team_root / repo.ASSIGNMENTS
    try:
        data = files.read_bytes(team_root, repo.ASSIGNMENTS, repo.MAX_BYTES)
    except files.TeamFileError as exc:
        raise StoreError(str(exc)) from None
    except OSError as exc:
        raise StoreError(f"{path}: cannot be read ({exc.strerror or exc})") from None
    if data is None:
        return EMPTY
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        raise StoreError(f"{path}:{line}: not UTF-8 text") from None
    return parse(text, path)


def render(records: Mapping[str, Record], titles: Mapping[str, str],
           reuse: Assignments | None = None) -> str:
    """The file's text: one block per paper, by id, its title beside the id."""
    return repo.write(repo.ASSIGNMENTS_SCHEMA, dict(records), dict(titles),
                      reuse=reuse.team_file if reuse is not None else None)
