"""Dividing papers among members: balanced, deterministic, keeping a group together where
the balance allows. Pure: papers in, paper -> member out.

- **Balance**: each member ends with as many papers as the others, give or take one,
  counting the shares they hold already (:func:`quotas`: the new papers fill the smallest
  shares first). A second list split later never moves anyone's share; it evens them out.
- **Groups** (``--by area`` or ``venue``): the biggest group first, each to the member whose
  room fits it most tightly (best fit decreasing); a group bigger than any room is cut, the
  biggest room filled first. Within a group papers go in order of their sub-key (a paper's
  first keyword), then id, so a cut leaves each side a coherent part.
- **Random**: papers in the order of a hash of their id (SHA-1 with the members' names as
  salt: another team gets another order), dealt out in turn.

The same input gives the same split on every machine: nothing here depends on Python's
hash seed, the clock or the order a set iterates in.
"""

from __future__ import annotations

import hashlib
import heapq
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

BY = ("area", "venue", "random")
"""How ``team split`` groups papers; the first is the default."""


@dataclass(frozen=True)
class Candidate:
    """A paper to assign, with the group it belongs to and its place within the group."""

    id: str
    group: str = ""
    sub: str = ""


def quotas(members: Sequence[str], holding: Mapping[str, int], n: int) -> dict[str, int]:
    """How many of ``n`` new papers each member gets so the shares end as level as they can:
    each paper to the member holding fewest (ties: the first named)."""
    heap = [(holding.get(m, 0), i) for i, m in enumerate(members)]
    heapq.heapify(heap)
    got = [0] * len(members)
    for _ in range(n if members else 0):
        held, i = heapq.heappop(heap)
        got[i] += 1
        heapq.heappush(heap, (held + 1, i))
    return {m: got[i] for i, m in enumerate(members)}


def split(papers: Sequence[Candidate], members: Sequence[str], holding: Mapping[str, int],
          by: str) -> dict[str, str]:
    """Paper id -> member for each of ``papers`` (``by``: one of :data:`BY`; ``holding``:
    how many papers each member holds already)."""
    members = list(dict.fromkeys(members))
    if not members or not papers:
        return {}
    room = quotas(members, holding, len(papers))
    if by == "random":
        return _deal(papers, members, room)
    groups: dict[str, list[Candidate]] = {}
    for paper in papers:
        groups.setdefault(paper.group, []).append(paper)
    order = {m: i for i, m in enumerate(members)}
    out: dict[str, str] = {}
    for _, group in sorted(groups.items(), key=lambda kv: (-len(kv[1]), kv[0])):
        ids = [p.id for p in sorted(group, key=lambda p: (p.sub, p.id))]
        while ids:
            fits = [m for m in members if room[m] >= len(ids)]
            if fits:  # the tightest fit keeps the big rooms for the big groups
                member = min(fits, key=lambda m: (room[m], order[m]))
            else:
                member = max(members, key=lambda m: (room[m], -order[m]))
            taken, ids = ids[:room[member]], ids[room[member]:]
            room[member] -= len(taken)
            out.update(dict.fromkeys(taken, member))
    return out


def _deal(papers: Sequence[Candidate], members: list[str], room: dict[str, int]
          ) -> dict[str, str]:
    salt = ",".join(sorted(members)).encode()
    shuffled = sorted(papers, key=lambda p: hashlib.sha1(salt + p.id.encode()).digest())
    out: dict[str, str] = {}
    turn = 0
    for paper in shuffled:
        while not room[members[turn % len(members)]]:
            turn += 1
        member = members[turn % len(members)]
        out[paper.id] = member
        room[member] -= 1
        turn += 1
    return out
