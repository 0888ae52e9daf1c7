"""Word positions: how the positional fields store them, and reading them for phrases.

Whoosh's ``Positions`` format stores a posting's positions as a pickled list of deltas, and a
posting block as a pickled tuple of those values, one object each. Reading the positions of
a common word ("learning": 40,000 postings in the abstracts) for a phrase meant unpickling
thousands of them: about a third of a phrase query's time. Here a posting's value is its
positions as little-endian uint32, and a block's values are two byte strings (where each
value ends, and all values joined), which numpy reads at once.

Whoosh's own readers still work on these files: :class:`PackedValues` is the sequence of
values they index, and :class:`PackedPositions` decodes a value as the format API says.
"""

from __future__ import annotations

import pickle
import sys
from array import array
from collections.abc import Callable
from itertools import accumulate

from whoosh.formats import Positions

from paper_tui.index.lazy import np

_BIG_ENDIAN = sys.byteorder == "big"
_WIDTH = 4  # bytes per position (uint32)


def _to_bytes(numbers: array) -> bytes:
    if _BIG_ENDIAN:
        numbers.byteswap()
    return numbers.tobytes()


def _from_bytes(data: bytes) -> array:
    numbers = array("I")
    numbers.frombytes(data)
    if _BIG_ENDIAN:
        numbers.byteswap()
    return numbers


class PackedPositions(Positions):
    """Whoosh's ``Positions`` format with a plain value: the positions, uint32 each."""

    def encode(self, poslist) -> bytes:
        return _to_bytes(array("I", poslist))

    def decode_positions(self, valuestring: bytes) -> list[int]:
        return _from_bytes(valuestring).tolist()

    def decode_frequency(self, valuestring: bytes) -> int:
        return len(valuestring) // _WIDTH

    def decode_weight(self, valuestring: bytes) -> float:
        return self.decode_frequency(valuestring) * self.field_boost


class PackedValues:
    """The values of one posting block of a :class:`PackedPositions` field: the byte
    offsets where each value ends (uint32) and the values joined. Pickled as those two
    strings, it unpickles at once, where a tuple of values costs a call per value."""

    __slots__ = ("_ends", "blob", "ends")

    def __init__(self, ends: bytes, blob: bytes) -> None:
        self.ends = ends
        self.blob = blob
        self._ends: array | None = None

    @classmethod
    def pack(cls, values: list[bytes]) -> PackedValues:
        return cls(_to_bytes(array("I", accumulate(map(len, values)))), b"".join(values))

    def __len__(self) -> int:
        return len(self.ends) // 4

    def __getitem__(self, i: int) -> bytes:
        """The value of the ``i``-th posting (as Whoosh's matcher asks for it)."""
        if self._ends is None:
            self._ends = _from_bytes(self.ends)
        ends = self._ends
        if i < 0:
            i += len(ends)
        return self.blob[ends[i - 1] if i else 0:ends[i]]

    def __reduce__(self):
        return PackedValues, (self.ends, self.blob)


PACKED_START = b"c" + __name__.encode() + b"\nPackedValues\n"
"""How a block's pickled :class:`PackedValues` begin (protocol 2: the class's GLOBAL)."""


# -- reading positions for phrases ---------------------------------------------------------
Found = tuple  # of three numpy arrays (numpy is imported on first use)
"""(ids, counts, positions) of some postings of one term: per posting its document (local
to the segment) and how many positions it has, then all their positions (int64 arrays)."""


def read_values(postfile, start: int, end: int) -> tuple[np.ndarray, np.ndarray]:
    """(where each value ends, all positions), counted in positions (int64), of the posting
    block pickled at ``start:end`` of ``postfile``. Only the values are unpickled: the block
    ends ``... PackedValues(...), TUPLE3, BINPUT n, STOP``, and the values' part refers to
    nothing before it, so it unpickles alone."""
    raw = postfile.get(start, end - start)
    cut = raw.find(PACKED_START)
    values = None
    if cut > 0 and raw[-4] == 0x87 and raw[-3] == ord("q") and raw[-1] == ord("."):
        try:
            values = pickle.loads(b"\x80\x02" + raw[cut:-4] + b".")
        except Exception:
            values = None
    if not isinstance(values, PackedValues):
        values = pickle.loads(raw)[2]
    return values_positions(values)


def values_positions(values) -> tuple[np.ndarray, np.ndarray]:
    """(where each value ends, all positions), counted in positions (int64), of a block's
    :class:`PackedValues` or of any sequence of :class:`PackedPositions` values."""
    if isinstance(values, PackedValues):
        ends, blob = values.ends, values.blob
    else:
        ends = _to_bytes(array("I", accumulate(map(len, values))))
        blob = b"".join(values)
    ends = np.frombuffer(ends, dtype="<u4").astype(np.int64) // _WIDTH
    return ends, np.frombuffer(blob, dtype="<u4").astype(np.int64)


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
    return tuple(np.zeros(0, dtype=np.int64) for _ in range(3))


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
    counts, starts, chunks = [], [], []
    base = 0
    for lo, hi in zip([0, *bounds.tolist()], [*bounds.tolist(), len(at)], strict=True):
        k = int(block[lo])
        ends, positions = read(k)
        rows = at[lo:hi] - firsts[k]
        value_ends = ends[rows]
        value_starts = np.where(rows > 0, ends[rows - 1], 0)
        counts.append(value_ends - value_starts)
        starts.append(value_starts + base)
        chunks.append(positions)
        base += len(positions)
    counts = np.concatenate(counts)
    positions = np.concatenate(chunks)[ranges(np.concatenate(starts), counts)]
    return ids[at].astype(np.int64), counts, positions


def matcher_positions(matcher, wanted: np.ndarray) -> Found:
    """:func:`block_positions` the slow, general way: through Whoosh's matcher (postings
    inlined in the term info, or compressed blocks; our writer makes neither)."""
    ids, values = [], []
    while matcher.is_active():
        ids.append(matcher.id())
        values.append(matcher.value())
        matcher.next()
    ids = np.array(ids, dtype=np.int64)
    at = _found(ids, wanted)
    if not len(at):
        return _empty()
    ends, positions = values_positions([values[i] for i in at.tolist()])
    counts = np.diff(ends, prepend=0)
    return ids[at], counts, positions
