"""What the team repo's history says of its members: when each last sent something (their
last commit, a sync's commits carry the member's name), and whether a member without a
file had one once (they left) or never had (not synced yet).

Each is one ``git log`` over the history, whatever the number of members: a team-mate's
``assignments.yaml`` may name 20,000 of them, and a process per member took minutes."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from paper_tui.errors import PaperTuiError
from paper_tui.team import repo
from paper_tui.team.git import Git

_OWN_EMAIL = "@paper-tui.invalid"
"""The end of the e-mail address of a member's commits (:class:`~.git.Git`'s author)."""


def _git(team_dir: Path) -> Git | None:
    if not (team_dir / ".git").is_dir():
        return None
    try:
        return Git(team_dir, "paper-tui")
    except PaperTuiError:  # no git: the history is a nicety here
        return None


def last_commits(team_dir: Path, names: Iterable[str]) -> dict[str, float]:
    """Member -> the time of their last commit in the team repo (absent: none)."""
    wanted = {name for name in names if repo.is_plain_name(name)}
    git = _git(team_dir)
    if git is None or not wanted:
        return {}
    result = git.run("log", "--format=%ct %ae")
    out: dict[str, float] = {}
    if not result.ok:
        return out
    for line in result.out.splitlines():  # newest first, as git log -1 would pick
        stamp, _, email = line.partition(" ")
        name = email[:-len(_OWN_EMAIL)] if email.endswith(_OWN_EMAIL) else ""
        if name in wanted and name not in out and stamp.isdigit():
            out[name] = float(stamp)
    return out


def had_files(team_dir: Path) -> frozenset[str]:
    """The members whose file the repo's history holds (so one missing now was taken
    out: they left)."""
    git = _git(team_dir)
    if git is None:
        return frozenset()
    result = git.run("log", "--format=", "--name-only", "--no-renames", "-z", "--",
                     f"{repo.PEOPLE}/")
    if not result.ok:
        return frozenset()
    names = set()
    for rel in result.out.replace("\n", "\0").split("\0"):
        folder, _, file_name = rel.partition("/")
        name = file_name.removesuffix(".yaml")
        if folder == repo.PEOPLE and name != file_name and repo.is_plain_name(name) \
                and rel == repo.person_file(name):
            names.add(name)
    return frozenset(names)
