"""Changing who reads which paper: what ``team split`` (and ``--reassign``) gives out, and
writing it to ``assignments.yaml`` in the team repo with a commit of its own (under the
team lock, as a sync), so the next sync sends it and ``git log`` says what happened
(``alice: split 300 papers among alice, bob, carol by area``).

What is split: the papers of a query that no member has triaged and nobody holds yet, so
splitting again (a list imported later) never moves a share. ``--reassign bob``: the
papers Bob holds and has not triaged, to the others. A broken ``assignments.yaml`` is never
written over: the change stops with the file's one line.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from paper_tui import paths
from paper_tui.errors import PaperTuiError, StoreError
from paper_tui.holdings.sources import source_id
from paper_tui.query.team import ME
from paper_tui.store.merge import stamp
from paper_tui.team import assignments, files, repo
from paper_tui.team.coverage import Lab
from paper_tui.team.git import Git
from paper_tui.team.sync import team_lock
from paper_tui.vocabulary import count


@dataclass
class SplitOutcome:
    """What a split, a reassignment or an unassignment did."""

    assigned: dict[str, int] = field(default_factory=dict)
    """Member -> papers given to them now."""
    shares: dict[str, int] = field(default_factory=dict)
    """Member -> papers they hold now, in all."""
    considered: int = 0
    """Papers of the query (of the member's share, for a reassignment)."""
    triaged: int = 0
    """Of those, papers a member has triaged already: not given out."""
    held: int = 0
    """Of those, papers someone holds already: not moved."""
    unassigned: int = 0
    """Papers taken back (``team unassign``; ``--reassign`` to nobody)."""
    not_synced: tuple[str, ...] = ()
    """Members named who have no file in the team repo yet: told at their first sync."""
    notes: list[str] = field(default_factory=list)
    """What the syncs around the change said (a fault: the change stays committed here)."""

    def summary(self) -> str:
        """``assigned 300 papers: alice 100, bob 100, carol 100``."""
        given = sum(self.assigned.values())
        if self.unassigned:
            return f"took back {count(self.unassigned, 'paper')}"
        if not given:
            return "nothing to assign: " + ", ".join(filter(None, (
                f"{count(self.considered, 'paper')} in the query",
                f"{self.triaged:,} triaged already" if self.triaged else "",
                f"{self.held:,} held already" if self.held else "")))
        shares = ", ".join(f"{name} {n:,}" for name, n in self.assigned.items() if n)
        return f"assigned {count(given, 'paper')}: {shares}"


def demo_query() -> str:
    """The query finding the papers of the bundled NeurIPS 2026 demo list (its sources),
    "" when there is none: a split with no query leaves them out."""
    folder = paths.bundled_data_dir()
    names = sorted(source_id(p) for p in folder.iterdir() if p.is_file()) \
        if folder.is_dir() else []
    return " OR ".join(f"source:{name}" for name in names)


def demo_note(left_out: int) -> str:
    return (f"the bundled NeurIPS 2026 demo list ({count(left_out, 'paper')}) is not split "
            "without a query: name it in one to split it too (paper-tui team split "
            "year:2026)")


AREA_NOTE = ("no paper of the query has an area: papers were kept together by their first "
             "keyword, else their venue (--by venue or --by random to choose)")


def members(lab: Lab, among: Sequence[str], reassign: str | None) -> list[str]:
    """The members to give papers to: ``among`` (checked names; ``me``: you), else those
    holding a share now; never the one whose share is handed on."""
    if among:
        names = [(lab.me or "") if name == ME else repo.check_name(name) for name in among]
        if "" in names:
            raise PaperTuiError("'me' names you by your team name: sync once with --as NAME")
    else:
        names = sorted(lab.assignments.shares)
        if reassign is not None and not [n for n in names if n != reassign]:
            names = sorted(n for n in lab.members if n)
    names = [n for n in dict.fromkeys(names) if n != reassign]
    if not names:
        raise PaperTuiError("name the members to split among: --among alice,bob,carol")
    return names


def candidates(lab: Lab, ids: Iterable[str], reassign: str | None, outcome: SplitOutcome
               ) -> list[str]:
    """The papers to give out (see the module's doc), counted in ``outcome``."""
    member_of = lab.assignments.member_of
    out = []
    if reassign is not None:
        done = lab.members[reassign].touched if reassign in lab.members else frozenset()
        for pid in ids:
            if member_of.get(pid) == reassign:
                outcome.considered += 1
                if pid in done:
                    outcome.triaged += 1
                else:
                    out.append(pid)
        return out
    touched = lab.touched
    for pid in ids:
        outcome.considered += 1
        if pid in touched:
            outcome.triaged += 1
        elif pid in member_of:
            outcome.held += 1
        else:
            out.append(pid)
    return out


def write(root: Path, me: str, changes: Mapping[str, str], titles: Mapping[str, str],
          message: str) -> tuple[int, dict[str, int]]:
    """Give each paper of ``changes`` to its member (:data:`~.assignments.NOBODY`: take it
    back) in the team repo of the library at ``root``, and commit that as ``me``; how many
    papers changed, and how many each member holds now (as written: the file is not read
    again). :class:`PaperTuiError` (one line) when the repo is not there or its
    assignments cannot be read (never written over then)."""
    team_dir = root / repo.TEAM_DIR
    with team_lock(root):
        state = repo.State.load(root)
        if state.name is None or not (team_dir / ".git").is_dir():
            raise PaperTuiError("this library is not in a team yet: run `paper-tui sync "
                                "--remote URL --as NAME` once (URL: any git remote)")
        try:
            current = assignments.read(team_dir)
        except StoreError as exc:
            raise StoreError(f"{exc}; fix it (or take it from git) before changing the "
                             "split") from None
        records = dict(current.records)
        now = stamp(time.time())
        changed = []
        for pid, member in changes.items():
            if records.get(pid, {}).get("member", assignments.NOBODY) == member:
                continue
            records[pid] = {"member": member, "updated": now} if member else {"updated": now}
            changed.append(pid)
        shares = Counter(r.get("member", assignments.NOBODY) for r in records.values())
        shares.pop(assignments.NOBODY, None)
        held = dict(sorted(shares.items()))
        if not changed:
            return 0, held
        shown = {**current.team_file.titles, **{pid: titles[pid] for pid in changed
                                                if pid in titles}}
        files.write_text(team_dir, repo.ASSIGNMENTS,
                         assignments.render(records, shown, reuse=current))
        _commit(Git(team_dir, me), state, root, len(changed), f"{me}: {message}")
        return len(changed), held


def _commit(git: Git, state: repo.State, root: Path, changes: int, message: str) -> None:
    agreed = state.agreed is not None and git.rev("HEAD") == state.agreed
    staged = git.out("ls-files", "--stage", "-z", "--", repo.ASSIGNMENTS)
    if staged.startswith(("120000 ", "160000 ")):  # a team-mate's link: sent as a file
        git.out("rm", "--cached", "-q", "--", repo.ASSIGNMENTS)
    git.out("add", "--", repo.ASSIGNMENTS)
    if git.run("diff", "--cached", "--quiet").ok:
        return
    git.out("commit", "-q", "--no-verify", "-m", message)
    state.unsent += changes
    if agreed:  # nothing of the repo's left to take in: our own commit is agreed on too
        state.agreed = git.rev("HEAD")
    state.save(root)
