"""A point-in-time view of the index and fast readers of its posting lists."""

from __future__ import annotations

import math
import threading
from array import array
from bisect import bisect_right
from collections import OrderedDict
from collections.abc import Callable, Collection, Hashable, Iterator
from contextlib import contextmanager
from functools import cache, wraps
from pathlib import Path
from typing import Any, Concatenate, NamedTuple, ParamSpec, TypeVar

from whoosh import index as windex
from whoosh import query as wq
from whoosh.util.numeric import byte_to_length

from paper_tui.index.annotation_filter import AnnotationFilter, is_annotation_leaf
from paper_tui.index.blocks import blocks, segment_id
from paper_tui.index.id_digests import DigestTable
from paper_tui.index.lazy import cached, np
from paper_tui.index.positions import (
    PackedPositions,
    block_positions,
    matcher_positions,
    read_values,
)
from paper_tui.index.schema import BODY, K1, SIGNALS, B
from paper_tui.index.signals import FACET_NAMES, SIGNAL_SORTS, FacetTable, Signals, read_signals
from paper_tui.index.versions import Versions, group_versions
from paper_tui.index.whoosh_internals import (
    bytes_column_values,
    length_bytes,
    postings_file,
    term_matcher,
    text_column_values,
)
from paper_tui.model import Paper
from paper_tui.query.parse import NUMBER_FIELDS
from paper_tui.trust import atomic

# What is kept decoded, counted in postings (a common word has 20,000-60,000 in the
# abstracts; a query reads up to ~100,000): ~130 MB at most in all (a view's postings and
# scores, and per segment, shared by the views: postings, position blocks, papers).
POSTINGS_BUDGET = 3_000_000
"""Postings (an int32 doc number and a float32 weight, 8 bytes): ~24 MB (per view, and
again per segment)."""
BLOCKS_BUDGET = 600_000
"""Postings of the blocks whose positions a phrase read (where each posting's positions end,
and ~1.5 positions a posting, int64): ~20 MB."""
IMPACTS_BUDGET = 3_000_000
"""Per-posting term scores (float64, 8 bytes): ~24 MB."""
PAPERS_KEPT = 4096
"""Papers loaded from the stored fields (~2 KB each: ~8 MB): a query typed letter by letter
shows many of the same papers again (0.1 ms each to load), the list after a triage key all
of them."""

FIELD_B = {"title": 0.0}
"""BM25's length normalisation per field where it differs from :data:`B`. Titles: none, so a
long title holding the words ranks with a short one (the length preference comes from the
unstemmed title_exact field); known-item rank 1 on 3 title words went from 83% to 85.5%."""


class Postings(NamedTuple):
    ids: np.ndarray  # int32: live global document numbers, ascending (read-only)
    weights: np.ndarray  # float32: the term's frequency in each document (read-only)


class SegmentPostings(NamedTuple):
    """One segment's postings of a term, deleted documents included."""

    ids: np.ndarray  # int32: local document numbers, ascending (read-only)
    weights: np.ndarray  # float32 (read-only)
    firsts: np.ndarray | None  # int64: the index of each posting block's first posting
    spans: list[tuple[int, int]] | None  # where each block's pickle is in the postings file
    # (firsts and spans are None where the postings are not plain blocks on disk)


class SizedLRU:
    """A least-recently-used cache bounded by the summed size of its values, not their
    number (one common word's postings outweigh thousands of rare ones)."""

    def __init__(self, budget: int) -> None:
        self.budget = budget
        self.size = 0
        self._items: OrderedDict[Hashable, tuple[Any, int]] = OrderedDict()
        self._lock = threading.Lock()  # views of one index share some caches

    def get(self, key: Hashable) -> Any:
        with self._lock:
            item = self._items.get(key)
            if item is None:
                return None
            self._items.move_to_end(key)
            return item[0]

    def put(self, key: Hashable, value: Any, size: int) -> None:
        with self._lock:
            old = self._items.pop(key, None)
            if old is not None:
                self.size -= old[1]
            self._items[key] = (value, size)
            self.size += size
            while self.size > self.budget and len(self._items) > 1:
                _, (_, dropped) = self._items.popitem(last=False)
                self.size -= dropped

    def __len__(self) -> int:
        return len(self._items)


# -- a point-in-time view of the index -----------------------------------------------------
_P = ParamSpec("_P")
_R = TypeVar("_R")


def locked(method: Callable[Concatenate[Snapshot, _P], _R]
           ) -> Callable[Concatenate[Snapshot, _P], _R]:
    """Whoosh readers seek and read shared file objects: one thread at a time per view (the
    TUI draws rows from one thread while a search runs in another)."""

    @wraps(method)
    def wrapper(self: Snapshot, *args: _P.args, **kwargs: _P.kwargs) -> _R:
        with self._lock:
            return method(self, *args, **kwargs)

    return wrapper


class Segments:
    """What is read from a segment's files, kept across views of one index: a segment never
    changes once written (deletions are kept apart), and an annotation change makes a new
    view whose segments are the old ones plus a small new one. Keyed by segment id."""

    def __init__(self) -> None:
        self.postings = SizedLRU(POSTINGS_BUDGET)
        """(segment, field, term) -> its :class:`SegmentPostings` (or ``()``: not there)."""
        self.blocks = SizedLRU(BLOCKS_BUDGET)
        """(segment, field, term, block number) -> (where each value ends, positions)."""
        self.papers = SizedLRU(PAPERS_KEPT)
        """(segment, doc number in it) -> the stored paper."""


class Snapshot:
    """A searcher plus everything derived from its document numbers (sort orders, sets of
    documents per term). Replaced, never mutated, when the index changes."""

    def __init__(self, ix: windex.Index, directory: Path | None = None,
                 segments: Segments | None = None,
                 annotations: AnnotationFilter | None = None) -> None:
        self.directory = directory
        self.annotations = annotations
        """Answers the query's annotation words (the index holds none); None: no matches."""
        self.searcher = ix.searcher()
        self.reader = self.searcher.reader()
        self.leaves = self.reader.leaf_readers()
        self._lock = threading.RLock()
        self._segments = segments or Segments()
        self._postings: SizedLRU = SizedLRU(POSTINGS_BUDGET)
        self._impacts: SizedLRU = SizedLRU(IMPACTS_BUDGET)
        self._blocks = self._segments.blocks
        self._starts = [offset for _, offset in self.leaves]
        self._norm_cache: dict[str, tuple[np.ndarray, np.ndarray]] = {}

    @contextmanager
    def exclusive(self) -> Iterator[None]:
        """Hold this view for a run of reads: its Whoosh reader's files are read by one
        thread at a time (every method here takes the same reentrant lock itself; this is
        for reading ``reader``/``searcher`` directly, or for many calls in one go)."""
        with self._lock:
            yield

    def up_to_date(self) -> bool:
        try:
            return self.searcher.up_to_date()
        except Exception:  # the index directory is being replaced: treat as stale
            return False

    # sets of documents: boolean masks over document numbers (numpy), so And/Or/Not are
    # one C loop over 87,549 bytes instead of Python set algebra over tens of thousands
    # of ints
    @cached
    def size(self) -> int:
        """Document numbers run from 0 to size - 1 (deleted ones included)."""
        return self.reader.doc_count_all()

    @cached
    def live(self) -> np.ndarray:
        """A read-only mask of the documents not deleted."""
        with self._lock:
            mask = np.ones(self.size, dtype=bool)
            for reader, offset in self.leaves:
                if reader.has_deletions():
                    deleted = np.fromiter(reader.deleted_docs_set, dtype=np.int64)
                    mask[offset + deleted] = False
            mask.flags.writeable = False
            return mask

    @cached
    def has_bodies(self) -> bool:
        """Whether any document has the text of its PDF (the ``body`` field)."""
        with self._lock:
            return any(reader.field_length(BODY) for reader, _ in self.leaves)

    @cached
    def live_count(self) -> int:
        """The documents not deleted (Whoosh keeps the count: no mask, no numpy)."""
        return self.reader.doc_count()

    def mask(self, ids: np.ndarray) -> np.ndarray:
        """The mask of the documents ``ids``."""
        out = np.zeros(self.size, dtype=bool)
        out[ids] = True
        return out

    @locked
    def term_docs(self, fieldname: str, text: Any) -> np.ndarray:
        """Every live document holding one term, ascending (int32, read-only; cached)."""
        if not isinstance(text, bytes):  # a word, or a value of a non-text field (True)
            text = self.reader.schema[fieldname].to_bytes(text)
        return self.postings(fieldname, text).ids

    @locked
    def postings(self, fieldname: str, btext: bytes) -> Postings:
        """Global doc numbers (ascending) and weights (term frequencies) of one term's live
        postings, kept in a bounded LRU: a query refined letter by letter, or the next page
        of results, reads each posting list once."""
        key = (fieldname, btext)
        found = self._postings.get(key)
        if found is None:
            found = self._read_postings(fieldname, btext)
            self._postings.put(key, found, len(found.ids))
        return found

    def _read_postings(self, fieldname: str, btext: bytes) -> Postings:
        ids: list[np.ndarray] = []
        weights: list[np.ndarray] = []
        deletions = False
        for reader, offset in self.leaves:
            found = self._segment_postings(reader, fieldname, btext)
            if found is None:
                continue
            deletions = deletions or reader.has_deletions()
            ids.append(found[0] + offset if offset else found[0])
            weights.append(found[1])
        if not ids:
            return _no_postings()
        all_ids = np.concatenate(ids) if len(ids) > 1 else ids[0]
        all_weights = np.concatenate(weights) if len(weights) > 1 else weights[0]
        if deletions:  # a few dozen deleted documents among 87,549
            keep = self.live[all_ids]
            if not keep.all():
                all_ids, all_weights = all_ids[keep], all_weights[keep]
        all_ids.flags.writeable = all_weights.flags.writeable = False
        return Postings(all_ids, all_weights)

    def _segment_postings(self, reader, fieldname: str, btext: bytes
                          ) -> SegmentPostings | None:
        """One segment's postings of a term (None: the segment lacks it), from the cache
        shared by the index's views when read before."""
        segment = segment_id(reader)
        if segment is None:
            return None
        key = (segment, fieldname, btext)
        found = self._segments.postings.get(key)
        if found is None:
            m = term_matcher(reader, fieldname, btext)
            read = list(blocks(m)) if m is not None else []
            if read:
                ids = np.concatenate([ids for ids, _, _ in read])
                weights = np.concatenate([weights for _, weights, _ in read])
                ids.flags.writeable = weights.flags.writeable = False
                spans = [span for _, _, span in read]
                firsts = np.cumsum([0] + [len(ids) for ids, _, _ in read[:-1]])
                found = SegmentPostings(ids, weights, *((firsts, spans) if None not in spans
                                                        else (None, None)))
            else:
                found = ()
            self._segments.postings.put(key, found, len(found[0]) if found else 1)
        return found or None

    @locked
    def _phrase_docs(self, fieldname: str, words: list[str]) -> np.ndarray:
        """Documents where ``words`` follow each other: candidates from the posting masks,
        then positions read only in the posting blocks that hold a candidate, matched as
        (document, position - k) keys of the k-th word."""
        found = self.live
        for word in words:
            found = found & self.mask(self.term_docs(fieldname, word))
        if len(words) < 2 or not found.any():
            return found
        candidates = np.flatnonzero(found)
        keys: np.ndarray | None = None
        for k, word in enumerate(words):
            docs, positions = self._candidate_positions(fieldname, word.encode(), candidates)
            mine = (docs << 32) | (positions - k)
            mine = mine[positions >= k]
            keys = mine if keys is None else np.intersect1d(keys, mine, assume_unique=True)
            if not len(keys):
                break
        assert keys is not None  # there were two words or more
        out = np.zeros(self.size, dtype=bool)
        out[keys >> 32] = True
        return out

    def _candidate_positions(self, fieldname: str, btext: bytes, candidates: np.ndarray
                             ) -> tuple[np.ndarray, np.ndarray]:
        """(document, position) of every occurrence of one term in the candidate documents
        (``candidates`` ascending), as two int64 arrays."""
        docs: list[np.ndarray] = []
        positions: list[np.ndarray] = []
        for reader, offset in self.leaves:
            end = offset + reader.doc_count_all()
            lo, hi = np.searchsorted(candidates, (offset, end))
            if lo == hi:
                continue
            found = self._segment_postings(reader, fieldname, btext)
            if found is None:
                continue
            wanted = candidates[lo:hi] - offset
            if found.firsts is None:
                ids, counts, at = matcher_positions(term_matcher(reader, fieldname, btext),
                                                  wanted)
            else:
                key = (segment_id(reader), fieldname, btext)
                postfile = postings_file(reader)
                spans = found.spans

                def read(k: int, key=key, postfile=postfile, spans=spans):
                    values = self._blocks.get((*key, k))
                    if values is None:
                        values = read_values(postfile, *spans[k])
                        self._blocks.put((*key, k), values, len(values[0]))
                    return values

                ids, counts, at = block_positions(found.ids, found.firsts, wanted, read)
            docs.append((ids + offset).repeat(counts))
            positions.append(at)
        if not docs:
            return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)
        return np.concatenate(docs), np.concatenate(positions)

    def _norms(self, fieldname: str, ids: np.ndarray) -> np.ndarray:
        """BM25's length normalisation ``K1 * (1 - B + B * len / avglen)`` of the documents
        ``ids`` (float64), from the byte-quantised lengths Whoosh keeps: per field, one
        length byte per document and the normalisation of each of the 256 byte values."""
        with self._lock:
            norms = self._norm_cache.get(fieldname)
            if norms is None:
                raw = np.frombuffer(b"".join(length_bytes(reader, fieldname)
                                             for reader, _ in self.leaves), dtype=np.uint8)
                counts = np.bincount(raw, minlength=256)
                total = float(counts @ _lengths())
                # the body's length is averaged over the papers that have one (most do not)
                n = len(raw) - int(counts[0]) if fieldname == BODY else len(raw)
                avg = (total / n if n else 0.0) or 1.0
                b = FIELD_B.get(fieldname, B)
                norms = self._norm_cache[fieldname] = (raw, K1 * ((1 - b) + b * _lengths() / avg))
            raw, table = norms
            return table[raw[ids]]

    def _weight(self, count: int, boost: float) -> float:
        """A term's boosted idf times BM25's (K1 + 1), for a term in ``count`` documents."""
        return boost * (math.log(self.size / (count + 1)) + 1) * (K1 + 1)

    @locked
    def impacts(self, fieldname: str, text: str, boost: float) -> np.ndarray:
        """One term's boosted BM25 score in each document of its postings (float64, aligned
        with ``postings(...).ids``), cached beside the postings (a refined query re-scores
        nothing it scored before)."""
        btext = text.encode()
        key = (fieldname, btext, boost)
        found = self._impacts.get(key)
        if found is None:
            ids, weights = self.postings(fieldname, btext)
            w = weights.astype(np.float64)
            found = self._weight(len(ids), boost) * w / (w + self._norms(fieldname, ids))
            found.flags.writeable = False
            self._impacts.put(key, found, len(found))
        return found

    @locked
    def scores(self, terms: list[tuple[str, str, float]], docs: np.ndarray) -> np.ndarray:
        """Summed BM25F scores of ``docs`` (document numbers, ascending) for weighted
        ``(field, term, boost)``, aligned with ``docs``; 0 where none of the terms is."""
        total = np.zeros(self.size)
        for fieldname, text, boost in terms:
            ids, weights = self.postings(fieldname, text.encode())
            if not len(ids):
                continue
            if len(docs) * 16 < len(ids):  # a few documents of a long list: score just those
                at = np.searchsorted(ids, docs)
                at[at == len(ids)] = 0
                at = at[ids[at] == docs]
                w = weights[at].astype(np.float64)
                total[ids[at]] += self._weight(len(ids), boost) * w / (
                    w + self._norms(fieldname, ids[at]))
            else:
                total[ids] += self.impacts(fieldname, text, boost)
        return total[docs]

    @locked
    def docs(self, q: wq.Query) -> np.ndarray:
        """The mask of every live document matching ``q``, by algebra over posting masks
        (and the overlay's sets for annotation words)."""
        if is_annotation_leaf(q):
            if self.annotations is None:
                return np.zeros(self.size, dtype=bool)
            return self.annotations.docs(self, q) & self.live
        if isinstance(q, wq.Term | wq.TermRange) and q.fieldname in NUMBER_FIELDS:
            return self._number_docs(q)
        if isinstance(q, wq.Term):
            return self.mask(self.term_docs(q.fieldname, q.text))
        if isinstance(q, wq.And):
            found = self.live
            for child in q.subqueries:
                found = found & self.docs(child)
            return found
        if isinstance(q, wq.Or | wq.DisjunctionMax):
            found = np.zeros(self.size, dtype=bool)
            for child in q.subqueries:
                found |= self.docs(child)
            return found
        if isinstance(q, wq.AndNot):
            return self.docs(q.a) & ~self.docs(q.b)
        if isinstance(q, wq.AndMaybe):
            return self.docs(q.a)
        if isinstance(q, wq.Not):
            return self.live & ~self.docs(q.query)
        if isinstance(q, wq.Every):
            return self.live
        if q is wq.NullQuery or isinstance(q, type(wq.NullQuery)):
            return np.zeros(self.size, dtype=bool)
        if isinstance(q, wq.MultiTerm):
            return self.docs(q.simplify(self.reader))
        if isinstance(q, wq.Phrase) and q.slop == 1 and \
                isinstance(self.reader.schema[q.fieldname].format, PackedPositions):
            return self._phrase_docs(q.fieldname, q.words)
        found = self.mask(np.fromiter(self.searcher.docs_for_query(q), dtype=np.int64))
        return found & self.live

    def _number_docs(self, q: wq.Term | wq.TermRange) -> np.ndarray:
        """A numeric word's documents: ``rating:[6 TO]`` (a range), ``reviews:[3 TO 3]``
        (which Whoosh makes the term ``reviews:3``)."""
        if isinstance(q, wq.Term):
            value = _text(q.text)
            return self.signals.range(q.fieldname, value, value, False, False) & self.live
        start = _text(q.start) if q.start else None
        end = _text(q.end) if q.end else None
        return self.signals.range(q.fieldname, start, end, q.startexcl, q.endexcl) \
            & self.live

    # what the venue says: numbers and many-valued facets
    @cached
    def signals(self) -> Signals:
        """The venue's numbers of every document (read once per view: one column)."""
        with self._lock:
            return read_signals(self.leaves, self.reader.schema[SIGNALS].column_type)

    def facet_table(self, facet: str) -> FacetTable:
        """The values of a many-valued facet (``area``, ``aff``, ``country``) of every live
        document: read from its field's terms once per index version and kept in a small
        file beside the index (thousands of affiliations: ~0.5 s to read, the file a few
        milliseconds)."""
        with self._lock:
            tables = self.__dict__.setdefault("_facet_tables", {})
            table = tables.get(facet)
            if table is None:
                path = self._cache_file(f"facets-{facet}")
                table = FacetTable.load(_read_bytes(path), self.size) if path else None
                if table is None:
                    table = FacetTable.build((btext.decode(), docs) for btext, docs
                                             in self.field_postings(FACET_NAMES[facet]))
                    _write_bytes(path, table.dump(), f"facets-{facet}-*.bin")
                tables[facet] = table
            return table

    def field_postings(self, fieldname: str) -> list[tuple[bytes, np.ndarray]]:
        """Every term of a field with its live documents (ascending), in term order, read
        once per view segment by segment, each segment's own terms in one pass (the whole
        index's lexicon, merged over its segments, and a look-up of each term in each
        segment cost ~1 ms per term: seconds for the affiliations)."""
        with self._lock:
            cache: dict[str, list[tuple[bytes, np.ndarray]]] = self.__dict__.setdefault(
                "_field_postings", {})
            found = cache.get(fieldname)
            if found is None:
                parts: dict[bytes, list[np.ndarray]] = {}
                for reader, offset in self.leaves:
                    for btext in reader.lexicon(fieldname):
                        postings = self._segment_postings(reader, fieldname, btext)
                        if postings is not None:
                            parts.setdefault(btext, []).append(postings.ids + offset)
                live = self.live
                found = []
                for btext in sorted(parts):
                    ids = np.concatenate(parts[btext]) if len(parts[btext]) > 1 \
                        else parts[btext][0]
                    ids = ids[live[ids]]
                    ids.flags.writeable = False
                    if len(ids):
                        found.append((btext, ids))
                cache[fieldname] = found
            return found

    # sort orders
    @cached
    def _keys(self) -> list[bytes]:
        with self._lock:
            return self._read_keys()

    def _read_keys(self) -> list[bytes]:
        keys: list[bytes] = []
        for reader, _ in self.leaves:
            keys.extend(_column_bytes(reader, "sortkey"))
        return keys

    @cached
    def versions(self) -> Versions:
        """The versions of one paper from two sources among the live documents; worked
        out once per index version and kept in a small file beside the index (reading the
        column costs ~0.6 s on 87,549 papers, the file a millisecond)."""
        with self._lock:
            path = self._cache_file("versions")
            kept = _read_ints(path)
            if kept is not None:
                try:
                    return Versions.from_pairs(kept)
                except ValueError:
                    pass
            found = self._group_versions()
            _write_ints(path, found.pairs(), "versions-*.bin")
            return found

    def _group_versions(self) -> Versions:
        with self._lock:
            keys: list[bytes] = []
            for reader, _ in self.leaves:
                keys.extend(_column_bytes(reader, "versionkey"))
            return group_versions(keys, self._deleted())

    def _deleted(self) -> set[int]:
        """The deleted documents' numbers (no numpy: the first screen goes without it)."""
        deleted: set[int] = set()
        for reader, offset in self.leaves:
            if reader.has_deletions():
                deleted.update(offset + d for d in reader.deleted_docs_set)
        return deleted

    @cached
    def version_ids(self) -> dict[str, tuple[str, ...]]:
        """Paper id -> the ids of its group's versions (shown one first), for grouped
        papers only."""
        all_ids = self.all_ids
        out: dict[str, tuple[str, ...]] = {}
        for docs in self.versions.members.values():
            ids = tuple(all_ids[d] for d in docs)
            for pid in ids:
                out[pid] = ids
        return out

    @cached
    def all_ids(self) -> list[str]:
        """Every document's paper id by document number, from the id column (no stored
        papers are read: 87,549 ids cost a few MB, not the papers' hundreds)."""
        with self._lock:
            ids: list[str] = []
            for reader, _ in self.leaves:
                ids.extend(text_column_values(reader, "id"))
            return ids

    def order(self, sort: str) -> list[int]:
        """Live documents sorted for ``sort``: "list" (venue, newest year, title), "year"
        (newest first, then title) or "title". Computed once per index version and kept
        in a small file beside the index, so a fresh process lists 87,549 papers at once.
        By a number (:data:`~paper_tui.index.signals.SIGNAL_SORTS`): best first, unknown
        last, ties in the list order (worked out from the column: milliseconds)."""
        with self._lock:
            cache = self.__dict__.setdefault("_orders", {})
            if sort not in cache:
                if sort in SIGNAL_SORTS:
                    cache[sort] = self.by_signal(sort, np.flatnonzero(self.live)).tolist()
                else:
                    cache[sort] = self._load_order(sort) or self._compute_order(sort)
            return cache[sort]

    def by_signal(self, sort: str, docs: np.ndarray, scores: np.ndarray | None = None
                  ) -> np.ndarray:
        """``docs`` ordered by one of the numbers' sorts, best first and unknown last;
        ties by ``scores`` (aligned with ``docs``, highest first) when given, then in the
        list order."""
        key = self.signals.sort_key(sort)[docs]
        tie = self.rank("list")[docs]
        keys = (tie, key) if scores is None else (tie, -scores, key)
        return docs[np.lexsort(keys)]

    def _order_file(self, sort: str) -> Path | None:
        return self._cache_file(f"order-{{generation}}-{sort}")

    def _cache_file(self, pattern: str) -> Path | None:
        """A file of what this view derived, named for its generation (``pattern`` with
        ``{generation}``, or the generation appended)."""
        generation = self.reader.generation()
        if self.directory is None or generation is None or generation < 0:
            return None
        name = pattern.format(generation=generation) if "{generation}" in pattern \
            else f"{pattern}-{generation}"
        return self.directory / f"{name}.bin"

    def _load_order(self, sort: str) -> list[int] | None:
        data = _read_ints(self._order_file(sort))
        return data.tolist() if data is not None and len(data) == self.live_count else None

    def _compute_order(self, sort: str) -> list[int]:
        keys = self._keys
        if sort == "title":
            keys = [k.split(b"\x1f", 2)[-1] for k in keys]
        elif sort == "year":
            keys = [k.split(b"\x1f", 1)[-1] for k in keys]
        # (the live documents from the deleted sets, without numpy: the first screen goes
        # without it; Whoosh's all_doc_ids asks each document)
        deleted = self._deleted()
        docs = [d for d in range(len(keys)) if d not in deleted] if deleted \
            else list(range(len(keys)))
        order = sorted(docs, key=keys.__getitem__)
        _write_ints(self._order_file(sort), array("i", order), f"order-*-{sort}.bin")
        return order

    def rank(self, sort: str) -> np.ndarray:
        """A sort key per document number for ``sort`` (see :meth:`order`)."""
        with self._lock:
            cache = self.__dict__.setdefault("_ranks", {})
            if sort not in cache:
                order = self.order(sort)
                rank = np.zeros(self.size, dtype=np.int64)
                rank[order] = np.arange(len(order))
                cache[sort] = rank
            return cache[sort]

    @locked
    def stored(self, doc: int) -> dict:
        return self.searcher.stored_fields(doc)

    @locked
    def paper(self, doc: int) -> Paper:
        reader, offset = self.leaves[bisect_right(self._starts, doc) - 1]
        key = (segment_id(reader), doc - offset)
        paper = self._segments.papers.get(key)
        if paper is None:
            paper = Paper.from_dict(self.stored(doc)["paper"])
            self._segments.papers.put(key, paper, 1)
        return paper

    @cached
    def _doc_of(self) -> dict[str, int]:
        """Paper id -> live document number, for mapping big sets of ids at once."""
        live = self.live
        return {pid: doc for doc, pid in enumerate(self.all_ids) if live[doc]}

    def doc_numbers(self, ids: Collection[str]) -> np.ndarray:
        """The live document numbers of those of ``ids`` in the index (int64, unordered)."""
        if len(ids) < 256:  # a few posting lookups beat mapping every id of the index
            docs = (self.docnum(pid) for pid in ids)
            return np.fromiter((d for d in docs if d is not None), dtype=np.int64)
        doc_of = self._doc_of
        return np.fromiter((d for d in map(doc_of.get, ids) if d is not None),
                           dtype=np.int64)

    @cached
    def digest_table(self) -> DigestTable:
        """The live documents by their ids' digests (:mod:`~.id_digests`): worked out once
        per index version and kept in a small file beside the index."""
        with self._lock:
            path = self._cache_file("iddigests")
            table = DigestTable.load(_read_bytes(path), self.size) if path else None
            if table is None:
                table = DigestTable.build(self.all_ids, self.live)
                _write_bytes(path, table.dump(), "iddigests-*.bin")
            return table

    def digest_docs(self, digests: np.ndarray) -> np.ndarray:
        """The live document numbers of the papers whose ids have these digests (int64,
        unordered)."""
        if not len(digests) or not self.size:
            return np.zeros(0, dtype=np.int64)
        return self.digest_table.find(digests)

    def docnum(self, paper_id: str) -> int | None:
        docs = self.term_docs("id", paper_id)
        return int(docs[0]) if len(docs) else None


def _text(value: str | bytes) -> str:
    return value.decode() if isinstance(value, bytes) else str(value)


LENGTHS = [byte_to_length(b) for b in range(256)]


@cache
def _lengths() -> np.ndarray:
    return np.array(LENGTHS, dtype=np.float64)


@cache
def _no_postings() -> Postings:
    found = Postings(np.zeros(0, dtype=np.int32), np.zeros(0, dtype=np.float32))
    found.ids.flags.writeable = found.weights.flags.writeable = False
    return found


def _read_ints(path: Path | None) -> array | None:
    """The int32s a view kept in a cache file beside the index (None: none, unreadable)."""
    if path is None:
        return None
    try:
        data = array("i")
        data.frombytes(path.read_bytes())
    except (OSError, ValueError):
        return None
    return data


def _read_bytes(path: Path) -> bytes:
    """A cache file's bytes (none when it cannot be read: it is made again)."""
    try:
        return path.read_bytes()
    except OSError:
        return b""


def _write_ints(path: Path | None, data: array, older: str) -> None:
    """Keep ``data`` in a cache file, removing the files of older views (``older``: their
    glob); a read-only library still searches, just without the cache."""
    _write_bytes(path, data.tobytes(), older)


def _write_bytes(path: Path | None, data: bytes, older: str) -> None:
    """:func:`_write_ints` for bytes."""
    if path is None:
        return
    try:
        atomic.write_bytes(path, data)
        for old in path.parent.glob(older):
            if old != path:
                old.unlink(missing_ok=True)
    except OSError:
        pass


def _column_bytes(reader, fieldname: str) -> list[bytes]:
    """A segment's values of a bytes column, every document's (``b""`` without one)."""
    if not reader.has_column(fieldname):
        return [b""] * reader.doc_count_all()
    values = bytes_column_values(reader, fieldname)
    return values if values is not None else list(reader.column_reader(fieldname))
