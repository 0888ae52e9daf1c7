"""What the team repo's history says of its members: when each last sent something (their
last commit, a sync's commits carry the member's name), and whether a member without a
file had one once (they left) or never had (not synced yet)."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from paper_tui.errors import PaperTuiError
from paper_tui.team import repo
from paper_tui.team.git import Git


def _git(team_dir: Path) -> Git | None:
    if not (team_dir / ".git").is_dir():
        return None
    try:
        return Git(team_dir, "paper-tui")
    except PaperTuiError:  # no git: the history is a nicety here
        return None


def last_commits(team_dir: Path, names: Iterable[str]) -> dict[str, float]:
    """Member -> the time of their last commit in the team repo (absent: none)."""
    git = _git(team_dir)
    out: dict[str, float] = {}
    if git is None:
        return out
    for name in names:
        if not repo.is_plain_name(name):
            continue
        result = git.run("log", "-1", "--format=%ct", "--fixed-strings",
                         f"--author=<{name}@paper-tui.invalid>")
        stamp = result.out.strip()
        if result.ok and stamp.isdigit():
            out[name] = float(stamp)
    return out


def had_file(team_dir: Path, name: str) -> bool:
    """Whether the repo's history holds a file of this member (so one missing now was
    taken out: they left)."""
    git = _git(team_dir)
    if git is None or not repo.is_plain_name(name):
        return False
    result = git.run("log", "-1", "--format=%H", "--", repo.person_file(name))
    return result.ok and bool(result.out.strip())
