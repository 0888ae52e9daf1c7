"""The index's documents by their ids' digests (:func:`paper_tui.query.added.digests`):
what ``added:`` and ``watch:`` join their first-seen times to, as arrays.

The table holds the live documents' digests, ascending, and their document numbers; it
is worked out once per index version (every id read from the column and hashed: ~1 s on
a million papers) and kept in a small file beside the index (16 bytes a document, read in
milliseconds). A set of digests then finds its documents by one binary search over the
table (a million in ~0.05 s when the digests come ascending, as the first-seen times keep
them), where a dictionary from a million ids would first be built and then looked up id
by id.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from paper_tui.index.lazy import np
from paper_tui.query.added import digests as id_digests


class DigestTable(NamedTuple):
    digests: np.ndarray  # uint64, ascending, each once
    docs: np.ndarray  # int64, aligned

    @classmethod
    def build(cls, ids: Sequence[str], live: np.ndarray) -> DigestTable:
        docs = np.flatnonzero(live[:len(ids)])
        found = id_digests([ids[d] for d in docs.tolist()])
        order = np.argsort(found, kind="stable")
        found, docs = found[order], docs[order]
        first = np.ones(len(found), dtype=bool)  # an id twice (or two ids, one digest):
        first[1:] = found[1:] != found[:-1]  # the lower document, as the id look-up
        return cls(found[first], docs[first].astype(np.int64))

    def dump(self) -> bytes:
        return self.digests.astype("<u8").tobytes() + self.docs.astype("<i8").tobytes()

    @classmethod
    def load(cls, data: bytes, size: int) -> DigestTable | None:
        """The table a file holds; None when it is not one for an index of ``size``
        documents (made again)."""
        if not data or len(data) % 16:
            return None
        count = len(data) // 16
        digests = np.frombuffer(data, dtype="<u8", count=count)
        docs = np.frombuffer(data, dtype="<i8", count=count, offset=8 * count)
        if count and (docs.min() < 0 or docs.max() >= size
                      or np.any(digests[1:] <= digests[:-1])):
            return None
        return cls(digests, docs)

    def find(self, wanted: np.ndarray) -> np.ndarray:
        """The document numbers of those of ``wanted`` (digests) in the table."""
        if not len(wanted) or not len(self.digests):
            return np.zeros(0, dtype=np.int64)
        at = np.searchsorted(self.digests, wanted)
        at[at == len(self.digests)] = 0
        return self.docs[at[self.digests[at] == wanted]]
