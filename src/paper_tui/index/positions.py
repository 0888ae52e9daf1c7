"""Word positions: how the positional fields store them, and reading them for phrases.

Whoosh's ``Positions`` format stores a posting's positions as a pickled list of deltas, one
pickled object per posting. Reading the positions of a common word ("learning": 40,000
postings in the abstracts) for a phrase meant unpickling thousands of them: about a third
of a phrase query's time. Here a posting's value is its positions as little-endian uint32,
and a block keeps its values joined (:func:`~paper_tui.index.packed.pack_block`), which
numpy reads at once. :class:`PackedPositions` decodes a value as Whoosh's format API says,
so Whoosh's own readers still work on these files.
"""

from __future__ import annotations

import pickle
from array import array
from collections.abc import Callable
from typing import Any, TypeAlias

from whoosh.formats import Positions

from paper_tui.index.lazy import np
from paper_tui.index.packed import from_bytes, read_block, to_bytes

_WIDTH = 4  # bytes per position (uint32)


def pickled_as(cls: type, obj: Any, *drop: str) -> tuple:
    """``__reduce__`` of ``obj`` as an instance of Whoosh's ``cls`` with the same
    attributes (but ``drop``): Whoosh pickles the schema into the index's TOC, which must
    not name a paper-tui class (moving one would make every index unreadable). We open
    an index with our own schema (``open_dir(..., schema=build_schema())``), so the
    pickled one is never read back by us; it is the nearest thing Whoosh has. (``cls()``
    must work without arguments; the attributes are then set over its defaults.)"""
    state = {k: v for k, v in obj.__dict__.items() if k not in drop}
    return cls, (), state


class PackedPositions(Positions):
    """Whoosh's ``Positions`` format with a plain value: the positions, uint32 each
    (pickled as a ``Positions``: see :func:`pickled_as`)."""

    def __reduce__(self):
        return pickled_as(Positions, self)

    def encode(self, poslist) -> bytes:
        return to_bytes(array("I", poslist))

    def decode_positions(self, valuestring: bytes) -> list[int]:
        return from_bytes("I", valuestring).tolist()

    def decode_frequency(self, valuestring: bytes) -> int:
        return len(valuestring) // _WIDTH

    def decode_weight(self, valuestring: bytes) -> float:
        return self.decode_frequency(valuestring) * self.field_boost


# -- reading positions for phrases ---------------------------------------------------------
# A string: numpy is imported on first use, not when this module is
Found: TypeAlias = "tuple[np.ndarray, np.ndarray, np.ndarray]"
"""(ids, counts, positions) of some postings of one term: per posting its document (local
to the segment) and how many positions it has, then all their positions (int64 arrays)."""


def read_values(postfile, start: int, end: int) -> tuple[np.ndarray, np.ndarray]:
    """(where each value ends, all positions), counted in positions (int64), of the posting
    block pickled at ``start:end`` of ``postfile`` (an uncompressed block)."""
    data = postfile.get(start, end - start)
    block = read_block(data)
    if block is None:  # not our writer's: Whoosh's own tuple of values
        return values_positions(pickle.loads(data)[2])
    return (block.value_ends() // _WIDTH,
            np.frombuffer(block.values(), dtype="<u4").astype(np.int64))


def values_positions(values) -> tuple[np.ndarray, np.ndarray]:
    """(where each value ends, all positions), counted in positions (int64), of any
    sequence of :class:`PackedPositions` values."""
    ends = np.cumsum(np.fromiter(map(len, values), dtype=np.int64, count=len(values)))
    return ends // _WIDTH, np.frombuffer(b"".join(values), dtype="<u4").astype(np.int64)


def ranges(starts: np.ndarray, counts: np.ndarray) -> np.ndarray:
    """``start, start + 1, …, start + count - 1`` for each (start, count), concatenated."""
    firsts = np.cumsum(counts) - counts
    return (starts - firsts).repeat(counts) + np.arange(int(counts.sum()))


def _found(ids: np.ndarray, wanted: np.ndarray) -> np.ndarray:
    """Where in ``ids`` the ones in ``wanted`` are (both ascending)."""
    at = np.searchsorted(ids, wanted)
    inside = at < len(ids)
    at = at[inside]
    return at[ids[at] == wanted[inside]]


def _empty() -> Found:
    return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)


def block_positions(ids: np.ndarray, firsts: np.ndarray, wanted: np.ndarray,
                    read: Callable[[int], tuple[np.ndarray, np.ndarray]]) -> Found:
    """The positions of the postings whose ids are in ``wanted``, among a term's postings
    ``ids`` in one segment (both ascending), stored in blocks whose first postings are at
    ``firsts``; ``read(k)`` gives block ``k``'s :func:`read_values`. Blocks without a wanted
    posting are not read."""
    at = _found(ids, wanted)
    if not len(at):
        return _empty()
    block = np.searchsorted(firsts, at, side="right") - 1
    bounds = np.flatnonzero(np.diff(block)) + 1
    count_parts: list[np.ndarray] = []
    starts: list[np.ndarray] = []
    chunks: list[np.ndarray] = []
    base = 0
    for lo, hi in zip([0, *bounds.tolist()], [*bounds.tolist(), len(at)], strict=True):
        k = int(block[lo])
        ends, positions = read(k)
        rows = at[lo:hi] - firsts[k]
        value_ends = ends[rows]
        value_starts = np.where(rows > 0, ends[rows - 1], 0)
        count_parts.append(value_ends - value_starts)
        starts.append(value_starts + base)
        chunks.append(positions)
        base += len(positions)
    counts = np.concatenate(count_parts)
    positions = np.concatenate(chunks)[ranges(np.concatenate(starts), counts)]
    return ids[at].astype(np.int64), counts, positions


def matcher_positions(matcher, wanted: np.ndarray) -> Found:
    """:func:`block_positions` the slow, general way: through Whoosh's matcher (postings
    inlined in the term info, or compressed blocks; our writer makes neither)."""
    found_ids: list[int] = []
    values: list[bytes] = []
    while matcher.is_active():
        found_ids.append(matcher.id())
        values.append(matcher.value())
        matcher.next()
    ids = np.array(found_ids, dtype=np.int64)
    at = _found(ids, wanted)
    if not len(at):
        return _empty()
    ends, positions = values_positions([values[i] for i in at.tolist()])
    counts = np.diff(ends, prepend=0)
    return ids[at], counts, positions
