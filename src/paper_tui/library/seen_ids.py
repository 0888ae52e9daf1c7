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

import os
import tempfile
import weakref
from array import array
from collections.abc import Callable, Iterator
from hashlib import blake2b
from typing import IO

from paper_tui.index.lazy import np

_LONG = 255
"""An id of this many UTF-8 bytes or more has its size in 4 bytes after this one."""
_BUCKETS = 256
_FOLD = 50_000
"""Digests kept in a set before they are folded into the sorted arrays."""


def _digest(paper_id: str) -> bytes:
    return blake2b(paper_id.encode("utf-8", "surrogateescape"), digest_size=16).digest()


class SeenIds:
    """Ids met so far, by digest: :meth:`add` says whether an id is new to the set. The
    digests are kept in 256 buckets by their first byte, so a fold copies a 256th of
    them, not all (a copy of all was 30 MB at a million ids, each 50,000)."""

    def __init__(self) -> None:
        self._recent: set[bytes] = set()
        empty = np.empty(0, dtype=np.uint64)
        self._high = [empty] * _BUCKETS  # each sorted by (high, low)
        self._low = [empty] * _BUCKETS
        self._folded = 0

    def __len__(self) -> int:
        return len(self._recent) + self._folded

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
        highs = self._high[digest[0]]
        if not len(highs):
            return False
        # (a numpy integer: a Python int above 2**63 would make numpy compare as floats,
        # a converted copy of the whole array at every look-up)
        high = np.uint64(int.from_bytes(digest[:8], "big"))
        start = int(np.searchsorted(highs, high, "left"))
        stop = start
        while stop < len(highs) and highs[stop] == high:
            stop += 1
        low = np.uint64(int.from_bytes(digest[8:], "big"))
        return any(x == low for x in self._low[digest[0]][start:stop])

    def _fold(self) -> None:
        pairs = np.frombuffer(b"".join(self._recent), dtype=">u8").reshape(-1, 2)
        high, low = pairs[:, 0].astype(np.uint64), pairs[:, 1].astype(np.uint64)
        bucket = (high >> np.uint64(56)).astype(np.intp)
        order = np.argsort(bucket, kind="stable")
        high, low = high[order], low[order]
        bounds = np.searchsorted(bucket[order], np.arange(_BUCKETS + 1))
        for b in range(_BUCKETS):
            start, stop = int(bounds[b]), int(bounds[b + 1])
            if start == stop:
                continue
            highs = np.concatenate([self._high[b], high[start:stop]])
            lows = np.concatenate([self._low[b], low[start:stop]])
            ordered = np.lexsort((lows, highs))
            self._high[b], self._low[b] = highs[ordered], lows[ordered]
        self._folded += len(pairs)
        self._recent = set()


class IdLog:
    """The ids an import kept, in the order read, with whether each was new to the
    library: the UTF-8 ids in an anonymous temporary file (each with its size in a byte
    before it, 5 bytes for an id of 255 bytes or more), a byte each in memory saying
    whether it was new. :meth:`close` when done (the new ids stay readable)."""

    def __init__(self) -> None:
        self._file: IO[bytes] = tempfile.TemporaryFile(prefix="paper-tui-ids-")  # noqa: SIM115
        weakref.finalize(self, self._file.close)  # (the report reads the new ids after close)
        self._new = bytearray()
        self._closed = False

    def __len__(self) -> int:
        return len(self._new)

    def append(self, paper_id: str, new: bool) -> None:
        if self._closed:
            raise ValueError("the id log is closed")
        self._file.write(_sized(paper_id))
        self._new.append(new)

    @property
    def new_count(self) -> int:
        return self._new.count(1)

    def ids(self) -> Iterator[str]:
        """Every id, in the order appended."""
        if self._closed:
            raise ValueError("the id log is closed")
        return _each(self._file, len(self._new))

    def new_ids(self) -> Iterator[str]:
        """The ids that were new to the library, in the order appended."""
        every = _each(self._file, len(self._new))
        return (pid for pid, new in zip(every, self._new, strict=True) if new)

    def close(self) -> None:
        """No more ids: the new ones stay readable (from the file, which goes with the log;
        joined in memory, a million of them took ~90 MB at an import's end)."""
        self._closed = True


def _each(file: IO[bytes], count: int) -> Iterator[str]:
    """The ``count`` ids written to ``file``, read through a duplicate of it (which shares
    its position: read them through before writing more)."""
    file.flush()
    with open(os.dup(file.fileno()), "rb", buffering=1 << 16) as fh:
        fh.seek(0)
        yield from _unsized(fh.read, count)


def _sized(paper_id: str) -> bytes:
    data = paper_id.encode("utf-8", "surrogateescape")
    if len(data) < _LONG:
        return bytes((len(data),)) + data
    return bytes((_LONG,)) + len(data).to_bytes(4, "little") + data


def _unsized(read: Callable[[int], bytes], count: int) -> Iterator[str]:
    for _ in range(count):
        size = read(1)[0]
        if size == _LONG:
            size = int.from_bytes(read(4), "little")
        yield read(size).decode("utf-8", "surrogateescape")


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
