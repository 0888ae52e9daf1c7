"""A posting block as our writer pickles it: plain arrays and bytes, read without unpickling.

Whoosh's codec stores a block of up to 1,024 postings as a pickled ``(ids, weights,
values)`` tuple of plain tuples: one pickled object per posting and part, a Python call
each to write and to read. Ours pickles the same tuple from stdlib types only, so an index
never names a paper-tui class (code can move without invalidating it):

* ids (their gaps) and weights: ``array.array`` in the narrowest unsigned type that holds
  them, and float32 (weights all alike: ``None`` for 1.0, else the float, as Whoosh does),
  pickled as ``array(typecode, bytes)`` in this machine's byte order (the header says
  which, for numpy);
* variable-size values (positions): ``struct.unpack(fmt, blob)``, the values joined in
  ``blob`` and their lengths in ``fmt`` (``b"4s12s4s…"``), which gives Whoosh's matcher
  its tuple of values; fixed-size ones are joined bytes.

Whoosh's own matcher unpickles that. Our readers do not unpickle at all: the pickle starts
with a byte string that is pushed and popped (Whoosh's unpickler drops it), a small header
saying where each part's bytes are and where each value ends (uint32), and numpy reads the
parts in place (:func:`read_block`). Parsing the lengths back out of ``fmt`` instead would
cost ~20 us a block against ~1 us for the ends.
"""

from __future__ import annotations

import struct
import sys
from array import array
from collections.abc import Sequence
from itertools import accumulate
from typing import NamedTuple

from paper_tui.index.lazy import np

_HEADER = struct.Struct("<4scHfIIII")
"""magic (ending in the arrays' byte order), the ids' typecode, the number of postings,
the weight of every posting (NaN: weights stored), where the ids and the weights are in the
block, where the values are and their size. For values of varying size, where each ends
follows (uint32 little-endian, one per posting)."""
_DTYPES = {"B": "u1", "H": "u2", "I": "u4"}
_START = b"\x80\x04B"  # PROTO 4, BINBYTES <header and ends>
_POP, _TUPLE2, _TUPLE3, _REDUCE, _STOP, _NONE_OP = b"0", b"\x86", b"\x87", b"R", b".", b"N"
_ARRAY = b"carray\narray\n\x94"  # the class, kept in the memo for the second array
_ARRAY_AGAIN = b"h\x00"
_UNPACK = b"cstruct\nunpack\n"
_BIG_ENDIAN = sys.byteorder == "big"
_ORDER = b">" if _BIG_ENDIAN else b"<"
MAGIC = b"pt1" + _ORDER


def to_bytes(numbers: array) -> bytes:
    """An array's items as little-endian bytes."""
    if _BIG_ENDIAN and numbers.itemsize > 1:
        numbers = array(numbers.typecode, numbers)
        numbers.byteswap()
    return numbers.tobytes()


def from_bytes(typecode: str, data: bytes) -> array:
    """The array of little-endian bytes ``data``."""
    numbers = array(typecode)
    numbers.frombytes(data)
    if _BIG_ENDIAN and numbers.itemsize > 1:
        numbers.byteswap()
    return numbers


def narrowest(numbers: array) -> array:
    """Unsigned ints in the narrowest typecode that holds them ("B", "H" or "I")."""
    top = max(numbers, default=0)
    typecode = "B" if top < 1 << 8 else "H" if top < 1 << 16 else "I"
    return numbers if numbers.typecode == typecode else array(typecode, numbers)


def _bytes_op(data: bytes) -> bytes:
    """The opcode and length that push ``data`` (SHORT_BINBYTES or BINBYTES)."""
    n = len(data)
    return b"C" + bytes([n]) if n < 256 else b"B" + n.to_bytes(4, "little")


class _Formats(dict):
    """``struct`` formats of one value by its size in bytes: ``b"4s"``."""

    def __missing__(self, size: int) -> bytes:
        found = self[size] = b"%ds" % size
        return found


_FORMATS = _Formats()
_PER_POSTING = float("nan")  # the header's weight when each posting has its own
_HEAD = len(_START) + 4 + _HEADER.size  # where the header's byte string ends


def _array_op(numbers: array, first: bool) -> tuple[bytes, bytes]:
    """The opcodes before an array's bytes, and its bytes (see :data:`_ARRAY`)."""
    data = numbers.tobytes()
    typecode = b"\x8c\x01" + numbers.typecode.encode()  # SHORT_BINUNICODE
    return (_ARRAY if first else _ARRAY_AGAIN) + typecode + _bytes_op(data), data


def pack_block(gaps: array, weights: array | float | None, values: Sequence[bytes] | None,
               fixed: bool) -> bytes:
    """The pickled ``(ids, weights, values)`` of one block: ``gaps`` between ids (an
    unsigned array, :func:`narrowest`), float32 ``weights`` (or the one weight all share,
    None for 1.0), the postings' encoded ``values`` (None: the format has none; ``fixed``:
    all of one size)."""
    if values is None:
        return pack_joined(gaps, weights, None, None, fixed)
    return pack_joined(gaps, weights, array("I", map(len, values)), b"".join(values), fixed)


def pack_joined(gaps: array, weights: array | float | None, sizes: Sequence[int] | None,
                blob: bytes | None, fixed: bool) -> bytes:
    """:func:`pack_block` of values given joined: ``blob``, each value's size in ``sizes``
    (both None: the format has none)."""
    if blob is None or fixed:  # the values' sizes only when they vary
        sizes = None
    ends = b"" if sizes is None else to_bytes(array("I", accumulate(sizes)))
    at = _HEAD + len(ends) + 1  # the header's string, pushed and popped
    op, ids = _array_op(gaps, True)
    ids_at = at + len(op)
    parts = [b"", ends, _POP, op, ids, _TUPLE2 + _REDUCE]
    at = ids_at + len(ids) + 2
    weights_at = 0
    if weights is None:
        weight = 1.0
        parts.append(_NONE_OP)
        at += 1
    elif isinstance(weights, float):
        weight = weights
        parts.append(b"G" + struct.pack(">d", weights))
        at += 9
    else:
        weight = _PER_POSTING
        op, data = _array_op(weights, False)
        weights_at = at + len(op)
        parts += (op, data, _TUPLE2 + _REDUCE)
        at = weights_at + len(data) + 2
    values_at = values_size = 0
    if blob is None:
        parts.append(_NONE_OP)
    else:
        values_size = len(blob)
        if sizes is not None:
            fmt = b"".join(map(_FORMATS.__getitem__, sizes))
            head = _UNPACK + _bytes_op(fmt)
            parts += (head, fmt)
            at += len(head) + len(fmt)
        op = _bytes_op(blob)
        values_at = at + len(op)
        parts += (op, blob) if sizes is None else (op, blob, _TUPLE2 + _REDUCE)
    parts.append(_TUPLE3 + _STOP)
    header = _HEADER.pack(MAGIC, gaps.typecode.encode(), len(gaps), weight, ids_at,
                          weights_at, values_at, values_size)
    parts[0] = _START + (len(header) + len(ends)).to_bytes(4, "little") + header
    return b"".join(parts)


class Block(NamedTuple):
    """Where the parts of one of our blocks are in its bytes (see :func:`read_block`)."""

    data: bytes
    order: str  # of the arrays' bytes: "<" or ">"
    typecode: str  # of the ids' gaps
    postings: int  # how many
    weight: float  # every posting's (NaN: per posting, at ``weights_at``)
    ids_at: int
    weights_at: int
    values_at: int
    values_size: int

    def gaps(self) -> np.ndarray:
        """The ids' gaps (read-only, no copy)."""
        dtype = self.order + _DTYPES[self.typecode]
        return np.frombuffer(self.data, dtype, self.postings, self.ids_at)

    def weights(self) -> np.ndarray:
        """The postings' weights, float32 (read-only)."""
        if self.weights_at:
            return np.frombuffer(self.data, self.order + "f4", self.postings, self.weights_at)
        return np.full(self.postings, self.weight, dtype=np.float32)

    def value_ends(self) -> np.ndarray:
        """Where each posting's value ends in :meth:`values`, in bytes (int64; values of
        varying size only)."""
        return np.frombuffer(self.data, "<u4", self.postings, _ENDS_AT).astype(np.int64)

    def values(self) -> memoryview:
        """Every posting's value, joined (no copy)."""
        return memoryview(self.data)[self.values_at:self.values_at + self.values_size]


def read_block(data: bytes) -> Block | None:
    """The parts of a block :func:`pack_block` wrote (None: another writer's block, e.g.
    Whoosh's own, which only unpickling reads)."""
    if not data.startswith(_START) or data[_MAGIC_AT:_MAGIC_AT + 3] != MAGIC[:3]:
        return None
    magic, typecode, *rest = _HEADER.unpack_from(data, _MAGIC_AT)
    return Block(data, chr(magic[3]), typecode.decode(), *rest)


_MAGIC_AT = len(_START) + 4
_ENDS_AT = _MAGIC_AT + _HEADER.size
