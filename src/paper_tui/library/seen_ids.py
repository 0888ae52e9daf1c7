"""The ids an import has read, in a few bytes each instead of a Python string each.

An import must know whether it met an id before (a list names a paper twice: it is one
paper) and, at its end, every id it read (their first-seen times are written) and which
were new to the library. A ``set`` of the ids and lists of them cost ~140 bytes a paper,
the biggest thing left that grew with the list once the index writer's postings went to
disk (:mod:`paper_tui.index.posting_runs`): 140 MB for a million papers. Here:

* :class:`SeenIds` answers "met before?" from 128-bit digests of the ids (16 bytes each:
  two sorted ``uint64`` arrays, plus a small set of the latest, folded in by the
  thousands); two ids share a digest with odds of about 10^-26 at a million ids;
* :class:`IdLog` keeps the ids themselves, in read order, as UTF-8 in one
  ``bytearray`` (and where each ends), with a byte saying whether each was new;
  they become strings only when asked for, after the index is written.
"""

from __future__ import annotations

from array import array
from collections.abc import Iterator
from hashlib import blake2b

from paper_tui.index.lazy import np

_LONG = 255
"""An id of this many UTF-8 bytes or more has its size in 4 bytes after this one."""
_FOLD = 50_000
"""Digests kept in a set before they are folded into the sorted arrays."""


def _digest(paper_id: str) -> bytes:
    return blake2b(paper_id.encode("utf-8", "surrogateescape"), digest_size=16).digest()


class SeenIds:
    """Ids met so far, by digest: :meth:`add` says whether an id is new to the set."""

    def __init__(self) -> None:
        self._recent: set[bytes] = set()
        self._high = np.empty(0, dtype=np.uint64)  # sorted by (high, low)
        self._low = np.empty(0, dtype=np.uint64)

    def __len__(self) -> int:
        return len(self._recent) + len(self._high)

    def __contains__(self, paper_id: object) -> bool:
        return isinstance(paper_id, str) and self._holds(_digest(paper_id))

    def add(self, paper_id: str) -> bool:
        """Add ``paper_id``; False when it was there already."""
        digest = _digest(paper_id)
        if self._holds(digest):
            return False
        self._recent.add(digest)
        if len(self._recent) >= _FOLD:
            self._fold()
        return True

    def _holds(self, digest: bytes) -> bool:
        if digest in self._recent:
            return True
        if not len(self._high):
            return False
        high = int.from_bytes(digest[:8], "big")
        start = int(np.searchsorted(self._high, high, "left"))
        stop = start
        while stop < len(self._high) and int(self._high[stop]) == high:
            stop += 1
        low = int.from_bytes(digest[8:], "big")
        return any(int(x) == low for x in self._low[start:stop])

    def _fold(self) -> None:
        pairs = np.frombuffer(b"".join(self._recent), dtype=">u8").reshape(-1, 2)
        high = np.concatenate([self._high, pairs[:, 0].astype(np.uint64)])
        low = np.concatenate([self._low, pairs[:, 1].astype(np.uint64)])
        order = np.lexsort((low, high))
        self._high, self._low = high[order], low[order]
        self._recent = set()


class IdLog:
    """The ids an import kept, in the order read, with whether each was new to the
    library: the UTF-8 id and 2 bytes each (its size before it, 5 bytes for an id of 255
    bytes or more; a byte saying whether it was new)."""

    def __init__(self) -> None:
        self._joined = bytearray()
        self._new = bytearray()

    def __len__(self) -> int:
        return len(self._new)

    def append(self, paper_id: str, new: bool) -> None:
        data = paper_id.encode("utf-8", "surrogateescape")
        if len(data) < _LONG:
            self._joined.append(len(data))
        else:
            self._joined.append(_LONG)
            self._joined += len(data).to_bytes(4, "little")
        self._joined += data
        self._new.append(new)

    @property
    def new_count(self) -> int:
        return self._new.count(1)

    def ids(self) -> Iterator[str]:
        """Every id, in the order appended."""
        joined, at = self._joined, 0
        for _ in range(len(self._new)):
            size = joined[at]
            at += 1
            if size == _LONG:
                size = int.from_bytes(joined[at:at + 4], "little")
                at += 4
            yield joined[at:at + size].decode("utf-8", "surrogateescape")
            at += size

    def new_ids(self) -> Iterator[str]:
        """The ids that were new to the library, in the order appended."""
        return (pid for pid, new in zip(self.ids(), self._new, strict=True) if new)


class DigestMap:
    """A fixed map from ids to 64-bit digests of values, 16 bytes an entry (two sorted
    ``uint64`` arrays): what a source said of each of its papers before a re-import, for
    a million papers, without a million strings and tuples. Two ids share the 64-bit key
    with odds of about 10^-8 at a million: then one of the two papers is compared with
    the other's value (at worst indexed again, or not, once)."""

    def __init__(self) -> None:
        self._keys_in = array("Q")
        self._values_in = array("Q")
        self._keys = np.empty(0, dtype=np.uint64)
        self._values = np.empty(0, dtype=np.uint64)

    def __len__(self) -> int:
        return len(self._keys) + len(self._keys_in)

    def put(self, key: str, value: bytes) -> None:
        """Before any :meth:`get`: ``key``'s value is ``value`` (the last put wins)."""
        self._keys_in.append(_key64(key))
        self._values_in.append(_value64(value))

    def _sorted(self) -> None:
        if self._keys_in:
            keys = np.concatenate([self._keys, np.frombuffer(self._keys_in, np.uint64)])
            values = np.concatenate([self._values,
                                     np.frombuffer(self._values_in, np.uint64)])
            order = np.argsort(keys, kind="stable")  # equal keys: the last put last
            self._keys, self._values = keys[order], values[order]
            self._keys_in, self._values_in = array("Q"), array("Q")

    def same(self, key: str, value: bytes) -> bool | None:
        """Whether ``key``'s value is ``value``; None when ``key`` was never put."""
        self._sorted()
        k = np.uint64(_key64(key))
        at = int(np.searchsorted(self._keys, k, "right")) - 1
        if at < 0 or self._keys[at] != k:
            return None
        return int(self._values[at]) == _value64(value)


def _key64(text: str) -> int:
    return int.from_bytes(_digest(text)[:8], "big")


def _value64(value: bytes) -> int:
    return int.from_bytes(blake2b(value, digest_size=8).digest(), "big")
