"""Versions of one paper from two sources (an arXiv preprint and the proceedings paper):
grouped from the ``versionkey`` column, one of each group shown.

Two documents are versions of one paper when their source titles and first authors'
family names agree (folded) and their years are at most one apart; a shared title with
another first author stays two papers. The group shows its fullest record (an abstract,
a proceedings venue, links…); the others are hidden from results unless asked for, and
what matches them (a word, a tag) is a match of the one shown.
"""

from __future__ import annotations

from array import array
from collections.abc import Container, Sequence
from dataclasses import dataclass, field
from functools import cached_property

from paper_tui.index.lazy import np

YEAR_GAP = 1


@dataclass(frozen=True)
class Versions:
    """The groups of one view of the index, by document number."""

    primary_of: dict[int, int] = field(default_factory=dict)
    """Each hidden document -> the document shown for its group."""
    members: dict[int, tuple[int, ...]] = field(default_factory=dict)
    """Each shown document that has versions -> every document of its group (it first)."""

    @property
    def hidden(self) -> frozenset[int]:
        return frozenset(self.primary_of)

    def shown_for(self, docs: np.ndarray) -> np.ndarray:
        """``docs`` with each hidden one replaced by its group's shown one (unique)."""
        if not self.primary_of or not len(docs):
            return docs
        return np.unique(self.mapped(docs))

    def mapped(self, docs: np.ndarray) -> np.ndarray:
        """``docs`` with each hidden one replaced by its group's shown one, in place of it
        (repeats kept: a mask of them needs no sort)."""
        if not self.primary_of or not len(docs):
            return docs
        if len(docs) < 1024:
            mapped = np.fromiter((self.primary_of.get(int(d), int(d)) for d in docs),
                                 dtype=np.int64, count=len(docs))
        else:  # a big set (added:today in a big library): the hidden ones found at once
            hidden, shown = self._hidden_arrays
            at = np.minimum(np.searchsorted(hidden, docs), len(hidden) - 1)
            mapped = np.where(hidden[at] == docs, shown[at], docs).astype(np.int64)
        return mapped

    @cached_property
    def _hidden_arrays(self) -> tuple[np.ndarray, np.ndarray]:
        """The hidden documents, sorted, and the shown one of each."""
        hidden = np.fromiter(self.primary_of, dtype=np.int64, count=len(self.primary_of))
        order = np.argsort(hidden)
        shown = np.fromiter(self.primary_of.values(), dtype=np.int64,
                            count=len(self.primary_of))
        return hidden[order], shown[order]

    def pairs(self) -> array:
        """Every group as ``count, shown, other members…`` (int32), for the cache file."""
        out = array("i")
        for _, docs in sorted(self.members.items()):
            out.append(len(docs))
            out.extend(docs)
        return out

    @classmethod
    def from_pairs(cls, data: array) -> Versions:
        primary_of: dict[int, int] = {}
        members: dict[int, tuple[int, ...]] = {}
        i = 0
        while i < len(data):
            n = data[i]
            docs = tuple(data[i + 1:i + 1 + n])
            if n < 2 or len(docs) != n:
                raise ValueError("a damaged versions file")
            members[docs[0]] = docs
            for doc in docs[1:]:
                primary_of[doc] = docs[0]
            i += 1 + n
        return cls(primary_of, members)

    def group(self, doc: int) -> tuple[int, ...]:
        """Every document of ``doc``'s group, the shown one first (``(doc,)`` alone)."""
        primary = self.primary_of.get(doc, doc)
        return self.members.get(primary, (doc,))


def group_versions(keys: Sequence[bytes], deleted: Container[int]) -> Versions:
    """The groups among the documents not ``deleted``, from their ``versionkey`` values."""
    # A key's first document is kept as a number: most papers have one version, and a
    # tuple and a list for each of a million was most of the time and memory.
    first: dict[bytes, tuple[int, bytes]] = {}
    by_key: dict[bytes, list[tuple[int, int, int]]] = {}
    for doc, raw in enumerate(keys):
        if not raw or doc in deleted:
            continue
        key = raw.rpartition(b"\x1f")[0].rpartition(b"\x1f")[0]  # key \x1f year \x1f fullness
        if key not in first:
            first[key] = (doc, raw)
            continue
        found = by_key.get(key)
        if found is None:
            found = by_key[key] = [_entry(*first[key])]
        found.append(_entry(doc, raw))
    primary_of: dict[int, int] = {}
    members: dict[int, tuple[int, ...]] = {}
    for found in by_key.values():
        if len(found) < 2:
            continue
        found.sort()
        cluster = [found[0]]
        for item in found[1:]:
            if item[0] - cluster[-1][0] <= YEAR_GAP:
                cluster.append(item)
            else:
                _keep(cluster, primary_of, members)
                cluster = [item]
        _keep(cluster, primary_of, members)
    return Versions(primary_of, members)


def _entry(doc: int, raw: bytes) -> tuple[int, int, int]:
    """(year, -fullness, doc) from a document's ``versionkey``."""
    key, _, rest = raw.rpartition(b"\x1f")
    year = key.rpartition(b"\x1f")[2]
    return int(year or 0), -int(rest or 0), doc


def _keep(cluster: list[tuple[int, int, int]], primary_of: dict[int, int],
          members: dict[int, tuple[int, ...]]) -> None:
    if len(cluster) < 2:
        return
    # the fullest record, then the newest, then the first indexed
    best = min(cluster, key=lambda item: (item[1], -item[0], item[2]))[2]
    docs = [best] + [doc for _, _, doc in cluster if doc != best]
    members[best] = tuple(docs)
    for doc in docs[1:]:
        primary_of[doc] = best
