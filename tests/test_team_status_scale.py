"""``team status`` with a team-mate's assignments file over many members (issue 34, item
9): the work grows with the papers, not papers × members. Counted, not timed: the git
processes a status runs are the same for 30 members and for 3,000 (it ran two per member:
25 s at 5,000 members), and the assignments file reads the same by the fast pattern as by
the store's reader, whatever a hand edit made of it."""

from __future__ import annotations

import json
import os
import shutil
import stat
from pathlib import Path

import pytest

from paper_tui.errors import StoreError
from paper_tui.team import assignments, repo
from team_helpers import Member, Teammate, bare_repo

STAMP = "2026-12-01T10:00:00Z"


def _file(ids: list[str], members: int) -> str:
    """``ids`` dealt round-robin among ``members`` made-up members, none synced yet."""
    return assignments.render({pid: {"member": f"m{n % members:04d}", "updated": STAMP}
                               for n, pid in enumerate(ids)}, {})


def _counting_git(folder: Path) -> tuple[dict[str, str], Path]:
    """An environment whose ``git`` logs each run to a file, then runs the real git."""
    real = shutil.which("git")
    assert real is not None
    log = folder / "git-runs"
    script = folder / "bin" / "git"
    script.parent.mkdir(parents=True)
    script.write_text(f'#!/bin/sh\necho "$1" >> "{log}"\nexec "{real}" "$@"\n')
    script.chmod(script.stat().st_mode | stat.S_IXUSR)
    return {**os.environ, "PATH": f"{script.parent}{os.pathsep}{os.environ['PATH']}"}, log


def test_team_status_runs_as_many_git_processes_for_3000_members_as_for_30(
        tmp_path: Path) -> None:
    remote = bare_repo(tmp_path / "team.git")
    alice = Member(tmp_path / "alice", "alice")
    alice.sync(remote)
    ids = [f"tm{n:06x}" for n in range(6_000)]
    mate = Teammate(remote, tmp_path / "mate")
    env, log = _counting_git(tmp_path)
    runs = {}
    for members in (30, 3_000):
        mate.push(f"tm: {members} members", files={repo.ASSIGNMENTS: _file(ids, members)})
        alice.sync()
        log.unlink(missing_ok=True)
        status = json.loads(alice.run("team", "status", "--json", env=env).stdout)
        runs[members] = log.read_text().splitlines()
        assert len(status["members"]) == members + 1
        assert status["members"]["m0001"]["state"] == "not synced yet"
        assert status["members"]["alice"]["last_sync"] is not None
    assert len(runs[3_000]) == len(runs[30]) <= 4, runs[30]


def _reference(text: str) -> dict[str, str]:
    """Paper id -> member, by the store's reader alone."""
    read = repo.read(text, Path("assignments.yaml"), repo.ASSIGNMENTS_SCHEMA)
    return {pid: r["member"] for pid, r in read.records.items() if r.get("member")}


SPLIT = assignments.render(
    {"p1": {"member": "bob", "updated": STAMP}, "p2": {"updated": STAMP},
     "p3": {"member": "carol", "updated": STAMP}}, {"p1": "A title # with a hash"})


@pytest.mark.parametrize("text", [
    SPLIT,
    SPLIT.replace("member: carol", "member: null"),  # null: taken back
    SPLIT.replace("member: carol", 'member: "carol"'),
    SPLIT.replace('    updated: "2026-12-01T10:00:00Z"\n  "p3"', '  "p3"'),  # no stamp
    SPLIT.replace("papers:\n", "papers:\n  p0:\n    member: dave\n"),
    SPLIT.replace("version: 1", "# a note\n\nversion: 1"),
    SPLIT + "  \n",
], ids=["split", "null", "quoted", "no-stamp", "plain-key", "comment", "trailing"])
def test_the_assignments_read_as_the_store_reads_them(text: str) -> None:
    read = assignments.parse(text, Path("assignments.yaml"))
    assert dict(read.member_of) == _reference(text)
    assert read.team_file.records == repo.read(text, Path("a"), repo.ASSIGNMENTS_SCHEMA).records


@pytest.mark.parametrize("text", [
    SPLIT + SPLIT.split("papers:\n")[1],  # every paper twice
    SPLIT.replace("member: carol", "member: Carol"),
    SPLIT.replace("version: 1", "version: 9"),
], ids=["twice", "not-a-name", "version"])
def test_a_broken_assignments_file_is_named_by_its_line(text: str) -> None:
    with pytest.raises(StoreError, match=r"^assignments\.yaml:\d+(:\d+)?: "):
        assignments.parse(text, Path("assignments.yaml"))
