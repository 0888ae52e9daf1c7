"""Annotation words of a query, answered from the in-memory overlay, as document masks.

The parsed query keeps ``tags:``/``status:``/``starred:``/``lists:``/``note:`` leaves like
any field's; :meth:`Snapshot.docs` hands each such leaf here instead of reading postings
(the index has none for them). A leaf's mask is cached per view until the overlay's set
for that value changes, so a query refined letter by letter maps each set once.
"""

from __future__ import annotations

import fnmatch
import threading
from collections.abc import Collection
from typing import Protocol

from whoosh import query as wq

from paper_tui.index.lazy import np
from paper_tui.index.vocabulary import distance
from paper_tui.query import ANNOTATION_FIELDS

_TRUE = {"t", "true", "yes", "1", "y", "on"}


class AnnotationSets(Protocol):
    """What the filter reads (:class:`paper_tui.store.overlay.Overlay`)."""

    def ids(self, field: str, value: str) -> tuple[frozenset[str], int]: ...
    def values(self, field: str) -> list[str]: ...
    def counts(self, field: str) -> dict[str, frozenset[str]]: ...
    def note_phrase(self, words: list[str]) -> frozenset[str]: ...


class Snapshot(Protocol):
    """What the filter needs of a view of the index (:class:`~.snapshot.Snapshot`)."""

    size: int
    live: np.ndarray

    def mask(self, ids: np.ndarray) -> np.ndarray: ...
    def doc_numbers(self, ids: Collection[str]) -> np.ndarray: ...


def is_annotation_leaf(q: wq.Query) -> bool:
    return getattr(q, "fieldname", None) in ANNOTATION_FIELDS


def _text(value: object) -> str:
    if isinstance(value, bytes):
        return value.decode("utf-8", "replace")
    return str(value)


class AnnotationFilter:
    def __init__(self, sets: AnnotationSets) -> None:
        self.sets = sets
        self._lock = threading.Lock()
        self._cache: dict[tuple[int, str, str], tuple[int, np.ndarray]] = {}
        self._snap_key: int | None = None

    # -- one value --------------------------------------------------------------------------
    def value_docs(self, snap: Snapshot, field: str, value: str) -> np.ndarray:
        """The mask of the live documents whose ``field`` holds ``value``."""
        with self._lock:
            if self._snap_key != id(snap):
                self._cache.clear()
                self._snap_key = id(snap)
            ids, version = self.sets.ids(field, value)
            key = (id(snap), field, value)
            found = self._cache.get(key)
            if found is not None and found[0] == version:
                return found[1]
            mask = snap.mask(snap.doc_numbers(ids))
            mask.flags.writeable = False
            self._cache[key] = (version, mask)
            return mask

    def _values_docs(self, snap: Snapshot, field: str, values: list[str]) -> np.ndarray:
        out = np.zeros(snap.size, dtype=bool)
        for value in values:
            out |= self.value_docs(snap, field, value)
        return out

    # -- a query leaf ------------------------------------------------------------------------
    def docs(self, snap: Snapshot, q: wq.Query) -> np.ndarray:
        """The mask of the live documents matching an annotation leaf of a query."""
        field = q.fieldname
        if isinstance(q, wq.Term):
            if field == "starred":
                wanted = _text(q.text).lower() in _TRUE or q.text is True
                starred = self.value_docs(snap, "starred", "true")
                return starred if wanted else snap.live & ~starred
            return self.value_docs(snap, field, _text(q.text))
        if isinstance(q, wq.Phrase):
            words = [_text(w) for w in q.words]
            if field == "note":
                return snap.mask(snap.doc_numbers(self.sets.note_phrase(words)))
            return self.value_docs(snap, field, " ".join(words))
        values = self.sets.values(field)
        if isinstance(q, wq.Prefix):
            prefix = _text(q.text)
            return self._values_docs(snap, field, [v for v in values if v.startswith(prefix)])
        if isinstance(q, wq.Wildcard):
            pattern = _text(q.text)
            return self._values_docs(snap, field, fnmatch.filter(values, pattern))
        if isinstance(q, wq.FuzzyTerm):
            text, keep = _text(q.text), q.prefixlength
            near = [v for v in values if v[:keep] == text[:keep]
                    and distance(v, text) <= q.maxdist]
            return self._values_docs(snap, field, near)
        if isinstance(q, wq.TermRange):
            start, end = _text(q.start or ""), _text(q.end or "\uffff")
            return self._values_docs(snap, field, [v for v in values if start <= v <= end])
        return np.zeros(snap.size, dtype=bool)

    # -- facets ----------------------------------------------------------------------------
    def counts(self, snap: Snapshot, field: str, hits: np.ndarray | None) -> dict[str, int]:
        """Documents per value of ``field`` among ``hits`` (None: every live document)."""
        out: dict[str, int] = {}
        for value in self.sets.counts(field):
            mask = self.value_docs(snap, field, value)
            n = int(np.count_nonzero(mask if hits is None else mask & hits))
            if n:
                out[value] = n
        return out
