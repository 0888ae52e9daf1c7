"""The reviews and rating history of the team's shared lists, through sync.

A paper list shared in ``sources/`` of the team repo has its reviews and rating history
(:mod:`paper_tui.holdings.reviews`) beside it, under ``reviews/`` and the library's own
names: ``reviews/<source id>.reviews.jsonl.gz``, ``reviews/<source id>.ratings.json`` (a
source's id is its list file's name, the same in every library). Of two copies of a source's
reviews the newer fetch wins (the gzip header's time); two rating histories merge into the
union of their points by date (:func:`~paper_tui.holdings.reviews.union_histories`). The
same merge serves git's merge driver (``reviews/** merge=paper-tui``) and a sync bringing a
library and the repo together, so both sides end with the same bytes whichever merges first.

What a team-mate sent is data: a reviews file that is no gzip never wins, a ratings file
that does not read adds no point, and nothing is read past :data:`~.repo.MAX_BYTES`.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Mapping
from pathlib import Path

from paper_tui.holdings.reviews import (
    RATINGS_SUFFIX,
    REVIEWS_SUFFIX,
    fetched_at,
    history_text,
    newer_reviews,
    parse_history,
)
from paper_tui.holdings.sources import SourceStore
from paper_tui.trust import atomic

FOLDER = "reviews"
"""The team repo's folder of them (:data:`paper_tui.team.repo.REVIEWS`)."""
SUFFIXES = (REVIEWS_SUFFIX, RATINGS_SUFFIX)


def team_path(source_id: str, suffix: str) -> str:
    """The file's path in the team repo: ``reviews/<id>.reviews.jsonl.gz``."""
    return f"{FOLDER}/{source_id}{suffix}"


def is_team_path(rel: str) -> bool:
    name = rel.removeprefix(f"{FOLDER}/")
    return rel.startswith(f"{FOLDER}/") and "/" not in name and not name.startswith(".") \
        and name.endswith(SUFFIXES)


def merged(rel: str, ours: bytes | None, theirs: bytes | None) -> bytes | None:
    """The file ``rel`` (``reviews/…``) of two sides merged; None when neither has one
    worth keeping. Either order gives the same bytes (but for two points of one paper
    dated the same second: in the first side's order)."""
    if rel.endswith(REVIEWS_SUFFIX):
        sides = [side for side in (ours, theirs) if side is not None and fetched_at(side) >= 0]
        if not sides:
            return None
        return sides[0] if len(sides) == 1 else newer_reviews(sides[0], sides[1])
    if ours is None or theirs is None or ours == theirs:
        return ours if theirs is None else theirs
    from paper_tui.holdings.reviews import union_histories

    return history_text(union_histories(parse_history(ours), parse_history(theirs))).encode()


def digest(data: bytes | None) -> str:
    return "" if data is None else hashlib.sha256(data).hexdigest()


def shared_sources(sources: SourceStore, exchanged: Mapping[str, str]) -> list[str]:
    """The ids of the library's sources whose list the team shares (sent or taken in by
    a sync: its file name among ``exchanged``)."""
    return sorted(sid for sid, info in sources.manifest.items()
                  if Path(info.path).name in exchanged)


def local_file(sources: SourceStore, source_id: str, suffix: str) -> Path:
    return sources.root / f"{source_id}{suffix}"


def read_local(path: Path) -> bytes | None:
    try:
        return atomic.read_regular(path)[0]
    except FileNotFoundError:
        return None


def write_local(path: Path, data: bytes) -> None:
    atomic.write_bytes(path, data)


def wanted(names: Iterable[str]) -> list[str]:
    """Of the repo's paths under ``reviews/``, those that are a source's file."""
    return [rel for rel in names if is_team_path(rel)]
