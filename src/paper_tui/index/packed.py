"""The parts of a posting block as our writer pickles them: typed arrays as bytes.

Whoosh's codec pickles a block of up to 1,024 postings as a tuple ``(ids, weights,
values)`` of plain tuples: one pickled object per posting and part, which costs a Python
call each to write and to read. Here each part is one byte string (the ids' gaps in the
narrowest unsigned type that holds them, the weights as float32, variable-size values
joined with where each ends), which pickles and unpickles at once and which numpy reads
without a copy per posting. Whoosh's own matcher still reads these blocks: the parts are
the sequences it iterates and indexes.
"""

from __future__ import annotations

import sys
from array import array
from itertools import accumulate

from paper_tui.index.lazy import np

_BIG_ENDIAN = sys.byteorder == "big"
_DTYPES = {"B": "u1", "H": "<u2", "I": "<u4", "f": "<f4"}
"""The array typecodes used, as little-endian numpy dtypes (how the bytes are stored)."""
_ITEMSIZE = {"B": 1, "H": 2, "I": 4, "f": 4}


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


class PackedNumbers:
    """A block's ids (stored as gaps) or weights: one typed array, pickled as its bytes."""

    __slots__ = ("_items", "data", "typecode")

    def __init__(self, typecode: str, data: bytes) -> None:
        self.typecode = typecode
        self.data = data
        self._items: array | None = None

    @classmethod
    def of(cls, numbers: array) -> PackedNumbers:
        return cls(numbers.typecode, to_bytes(numbers))

    def array(self) -> np.ndarray:
        """The numbers as a read-only numpy array (no copy)."""
        return np.frombuffer(self.data, dtype=_DTYPES[self.typecode])

    def items(self) -> array:
        if self._items is None:
            self._items = from_bytes(self.typecode, self.data)
        return self._items

    def __len__(self) -> int:
        return len(self.data) // _ITEMSIZE[self.typecode]

    def __getitem__(self, i: int) -> int | float:
        return self.items()[i]

    def __iter__(self):
        return iter(self.items())

    def __reduce__(self):
        return PackedNumbers, (self.typecode, self.data)


class PackedValues:
    """A block's variable-size values (positions, for positional fields): the byte offsets
    where each value ends (uint32), and the values joined. Pickled as those two strings."""

    __slots__ = ("blob", "ends")

    def __init__(self, ends: bytes, blob: bytes) -> None:
        self.ends = PackedNumbers("I", ends)
        self.blob = blob

    @classmethod
    def pack(cls, values: list[bytes]) -> PackedValues:
        return cls(to_bytes(array("I", accumulate(map(len, values)))), b"".join(values))

    def end_offsets(self) -> np.ndarray:
        """Where each value ends in :attr:`blob`, in bytes (uint32, no copy)."""
        return self.ends.array()

    def __len__(self) -> int:
        return len(self.ends)

    def __getitem__(self, i: int) -> bytes:
        """The value of the ``i``-th posting (as Whoosh's matcher asks for it)."""
        ends = self.ends.items()
        if i < 0:
            i += len(ends)
        return self.blob[ends[i - 1] if i else 0:ends[i]]

    def __reduce__(self):
        return PackedValues, (self.ends.data, self.blob)
