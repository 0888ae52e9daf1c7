"""Annotation words of a query, answered from the in-memory overlay, as document masks.

The parsed query keeps ``tags:``/``status:``/``starred:``/``lists:``/``note:`` leaves like
any field's; :meth:`Snapshot.docs` hands each such leaf here instead of reading postings
(the index has none for them). A leaf's mask is cached per view until the overlay's set
for that value changes, so a query refined letter by letter maps each set once.
"""

from __future__ import annotations

import fnmatch
import threading
import weakref
from collections.abc import Collection
from typing import NamedTuple, Protocol

from whoosh import query as wq

from paper_tui.index.lazy import np
from paper_tui.index.versions import Versions
from paper_tui.index.word_list import distance
from paper_tui.query.added import FIELDS as ARRIVAL_FIELDS
from paper_tui.query.added import WatchQuery
from paper_tui.query.parse import ANNOTATION_FIELDS
from paper_tui.query.team import COMPLEMENTS
from paper_tui.query.team import FIELDS as TEAM_FIELDS

_TRUE = {"t", "true", "yes", "1", "y", "on"}


class AnnotationSets(Protocol):
    """What the filter reads (:class:`paper_tui.store.overlay.Overlay`)."""

    def ids(self, field: str, value: str) -> tuple[frozenset[str], int]: ...
    def version_of(self, field: str, value: str) -> int: ...
    def versions(self, field: str) -> dict[str, int]: ...
    def values(self, field: str) -> list[str]: ...
    def note_phrase(self, words: list[str]) -> frozenset[str]: ...


class ArrivalSets(AnnotationSets, Protocol):
    """What answers ``added:`` (values: first-seen times, :func:`~paper_tui.query.added.
    time_value`) and ``watch:`` (values: watch names), and finds a watch's query."""

    def watch_query(self, name: str) -> tuple[str, str] | None: ...
    def digests(self, field: str, value: str) -> tuple[np.ndarray, int]:
        """:meth:`ids` as the ids' digests (:func:`~paper_tui.query.added.digests`,
        ascending): joined to the documents as arrays, a million at once."""


class Snapshot(Protocol):
    """What the filter needs of a view of the index (:class:`~.snapshot.Snapshot`)."""

    @property
    def size(self) -> int: ...
    @property
    def live(self) -> np.ndarray: ...
    @property
    def versions(self) -> Versions: ...

    def mask(self, ids: np.ndarray) -> np.ndarray: ...
    def doc_numbers(self, ids: Collection[str]) -> np.ndarray: ...
    def digest_docs(self, digests: np.ndarray) -> np.ndarray: ...


def is_annotation_leaf(q: wq.Query) -> bool:
    return getattr(q, "fieldname", None) in ANNOTATION_FIELDS


def _text(value: object) -> str:
    if isinstance(value, bytes):
        return value.decode("utf-8", "replace")
    return str(value)


class _Mapped(NamedTuple):
    """One value's papers in one view: their document numbers and mask."""

    version: int
    docs: np.ndarray  # int64, ascending
    mask: np.ndarray  # read-only


class AnnotationFilter:
    """``sets`` answers the reader's own fields; ``people`` (when there is a team) the
    ``by:`` field, whose values are members' names; ``lab`` the team's words
    (``assigned:``, ``kept:``, ``kept-by:``, ``disputed``, ``untouched``). A value of
    :data:`~paper_tui.query.team.COMPLEMENTS` finds every paper but another value's."""

    def __init__(self, sets: AnnotationSets, people: AnnotationSets | None = None,
                 lab: AnnotationSets | None = None,
                 arrivals: ArrivalSets | None = None) -> None:
        """``arrivals`` answers ``added:`` and ``watch:``."""
        self.sets = sets
        self.people = people
        self.lab = lab
        self.arrivals = arrivals
        self._lock = threading.Lock()
        self._cache: dict[tuple[str, str], _Mapped] = {}
        self._view: weakref.ref | None = None  # the view the cache maps into

    # -- one value --------------------------------------------------------------------------
    def _mapped(self, snap: Snapshot, field: str, value: str, version: int | None = None
                ) -> _Mapped:
        """One value's documents in ``snap``, mapped once per change of its set."""
        with self._lock:
            if self._view is None or self._view() is not snap:
                self._cache.clear()
                self._view = weakref.ref(snap)
            sets = self._sets_of(field)
            if sets is None:
                return _Mapped(0, np.zeros(0, dtype=np.int64), np.zeros(snap.size, dtype=bool))
            if version is None:
                version = sets.version_of(field, value)
            found = self._cache.get((field, value))
            if found is not None and found.version == version:
                return found
            if field in ARRIVAL_FIELDS and self.arrivals is not None:
                digests, version = self.arrivals.digests(field, value)
                docs = snap.digest_docs(digests)
            else:
                ids, version = sets.ids(field, value)
                docs = snap.doc_numbers(ids)
            # a mark on one version of a paper from two sources holds for the one shown
            mask = snap.mask(docs)
            mask[snap.versions.mapped(docs)] = True
            docs = np.flatnonzero(mask)
            mask.flags.writeable = docs.flags.writeable = False
            found = self._cache[(field, value)] = _Mapped(version, docs, mask)
            return found

    @property
    def watch_query(self) -> WatchQuery | None:
        """How ``watch:NAME`` finds the watch's query (None: no watches known here)."""
        return self.arrivals.watch_query if self.arrivals is not None else None

    def _sets_of(self, field: str) -> AnnotationSets | None:
        if field in TEAM_FIELDS:
            return self.lab
        if field in ARRIVAL_FIELDS:
            return self.arrivals
        return self.people if field == "by" else self.sets

    def value_docs(self, snap: Snapshot, field: str, value: str) -> np.ndarray:
        """The mask of the live documents whose ``field`` holds ``value``."""
        return self._mapped(snap, field, value).mask

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
            value = _text(q.text)
            rest_of = COMPLEMENTS.get((field, value))
            if rest_of is not None:
                return snap.live & ~self.value_docs(snap, field, rest_of)
            return self.value_docs(snap, field, value)
        if isinstance(q, wq.Phrase):
            words = [_text(w) for w in q.words]
            if field == "note":
                return snap.mask(snap.doc_numbers(self.sets.note_phrase(words)))
            return self.value_docs(snap, field, " ".join(words))
        sets = self._sets_of(field)
        values = sets.values(field) if sets is not None else []
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
        sets = self._sets_of(field)
        versions = sets.versions(field) if sets is not None else {}
        for value, version in versions.items():
            docs = self._mapped(snap, field, value, version).docs
            n = len(docs) if hits is None else int(np.count_nonzero(hits[docs]))
            if n:
                out[value] = n
        for (of_field, value), rest_of in COMPLEMENTS.items():
            if of_field == field and versions:  # (the team's words, in a team)
                among = snap.live if hits is None else hits & snap.live
                n = int(np.count_nonzero(among & ~self.value_docs(snap, field, rest_of)))
                out.pop(rest_of, None)
                if n:
                    out[value] = n
        return out
