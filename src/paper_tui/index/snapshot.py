"""A point-in-time view of the index and fast readers of its posting lists."""

from __future__ import annotations

import math
import threading
from array import array
from collections import Counter
from collections.abc import Iterable, Iterator
from functools import wraps
from itertools import accumulate
from pathlib import Path

from whoosh import index as windex
from whoosh import query as wq
from whoosh.codec.whoosh3 import LENGTHS_COLUMN, W3LeafMatcher, _lenfield
from whoosh.matching.wrappers import FilterMatcher
from whoosh.util.numeric import byte_to_length

from paper_tui import atomic
from paper_tui.index.lazy import cached
from paper_tui.index.schema import K1, TEXT_FIELDS, B
from paper_tui.model import Paper


# -- a point-in-time view of the index -----------------------------------------------------
def locked(method):
    """Whoosh readers seek and read shared file objects: one thread at a time per view (the
    TUI draws rows from one thread while a search runs in another)."""

    @wraps(method)
    def wrapper(self, *args, **kwargs):
        with self._lock:
            return method(self, *args, **kwargs)

    return wrapper


class Snapshot:
    """A searcher plus everything derived from its document numbers (sort orders, sets of
    documents per term). Replaced, never mutated, when the index changes."""

    def __init__(self, ix: windex.Index, directory: Path | None = None) -> None:
        self.directory = directory
        self.searcher = ix.searcher()
        self.reader = self.searcher.reader()
        self.leaves = self.reader.leaf_readers()
        self._lock = threading.RLock()
        self._term_docs: dict[tuple[str, str], frozenset[int]] = {}
        self._score_cache: dict[tuple[str, str], dict[int, float]] = {}
        self._norm_cache: dict[str, tuple[bytes, list[float]]] = {}

    def up_to_date(self) -> bool:
        try:
            return self.searcher.up_to_date()
        except Exception:  # the index directory is being replaced: treat as stale
            return False

    # sets of documents
    @cached
    def live(self) -> frozenset[int]:
        with self._lock:
            return self._live()

    def _live(self) -> frozenset[int]:
        deleted: set[int] = set()
        for reader, offset in self.leaves:
            if reader.has_deletions():
                deleted.update(offset + d for d in reader.deleted_docs_set)
        return frozenset(set(range(self.reader.doc_count_all())) - deleted)

    @locked
    def term_docs(self, fieldname: str, text: str | bytes) -> frozenset[int]:
        if isinstance(text, str):
            text = self.reader.schema[fieldname].to_bytes(text)
        key = (fieldname, text)
        cached = self._term_docs.get(key)
        if cached is not None:
            return cached
        if fieldname in TEXT_FIELDS:  # read the postings once, for scores and the set
            docs = frozenset(self.term_scores(fieldname, text.decode()))
            self._term_docs[key] = docs
            return docs
        out: list[int] = []
        for reader, offset in self.leaves:
            if (fieldname, text) not in reader:
                continue
            matcher = reader.postings(fieldname, text)
            deleted = ()
            if isinstance(matcher, FilterMatcher):
                deleted, matcher = reader.deleted_docs_set, matcher.child
            ids = _all_ids(matcher)
            out.extend(offset + d for d in ids if d not in deleted)
        docs = frozenset(out)
        with self._lock:
            if len(self._term_docs) > 4096:
                self._term_docs.clear()
            self._term_docs[key] = docs
        return docs

    @locked
    def _postings(self, fieldname: str, btext: bytes) -> tuple[list[int], list[float]]:
        """Global doc numbers and weights (term frequencies) of one term's live postings."""
        ids: list[int] = []
        weights: list[float] = []
        for reader, offset in self.leaves:
            if (fieldname, btext) not in reader:
                continue
            matcher = reader.postings(fieldname, btext)
            deleted = ()
            if isinstance(matcher, FilterMatcher):
                deleted, matcher = reader.deleted_docs_set, matcher.child
            for block_ids, block_weights in _blocks(matcher):
                if deleted:
                    kept = [(d, w) for d, w in zip(block_ids, block_weights, strict=True)
                            if d not in deleted]
                    block_ids, block_weights = [d for d, _ in kept], [w for _, w in kept]
                ids.extend(map(offset.__add__, block_ids) if offset else block_ids)
                weights.extend(block_weights)
        return ids, weights

    @locked
    def _phrase_docs(self, fieldname: str, words: list[str]) -> set[int]:
        """Documents where ``words`` follow each other: candidates from the posting sets,
        then positions read only for those."""
        sets = sorted((self.term_docs(fieldname, w) for w in words), key=len)
        candidates = set(sets[0]).intersection(*sets[1:]) if sets else set()
        if len(words) < 2 or not candidates:
            return candidates
        fmt = self.reader.schema[fieldname].format
        positions: list[dict[int, list[int]]] = []
        for word in words:
            found: dict[int, list[int]] = {}
            btext = word.encode()
            for reader, offset in self.leaves:
                if (fieldname, btext) not in reader:
                    continue
                matcher = reader.postings(fieldname, btext)
                if isinstance(matcher, FilterMatcher):
                    matcher = matcher.child
                for d, value in _all_values(matcher):
                    if offset + d in candidates:
                        found[offset + d] = fmt.decode_positions(value)
            positions.append(found)
        out = set()
        for d in candidates:
            starts = set(positions[0].get(d, ()))
            for k in range(1, len(words)):
                starts.intersection_update(p - k for p in positions[k].get(d, ()))
                if not starts:
                    break
            if starts:
                out.add(d)
        return out

    def _norms(self, fieldname: str) -> tuple[bytes, list[float]]:
        """BM25's length normalisation ``K1 * (1 - B + B * len / avglen)`` per document, as
        (one length byte per document, the normalisation for each byte value)."""
        with self._lock:
            norms = self._norm_cache.get(fieldname)
            if norms is None:
                raw = b"".join(length_bytes(reader, fieldname) for reader, _ in self.leaves)
                counts = Counter(raw)
                total = sum(LENGTHS[b] * n for b, n in counts.items())
                avg = (total / len(raw) if raw else 0.0) or 1.0
                norms = (raw, [K1 * ((1 - B) + B * n / avg) for n in LENGTHS])
                self._norm_cache[fieldname] = norms
            return norms

    def term_scores(self, fieldname: str, text: str) -> dict[int, float]:
        """BM25 score of one term in one field, per document holding it (cached)."""
        key = (fieldname, text)
        cached = self._score_cache.get(key)
        if cached is not None:
            return cached
        ids, weights = self._postings(fieldname, text.encode())
        out: dict[int, float] = {}
        if ids:
            lengths, norm = self._norms(fieldname)
            idf = math.log(self.reader.doc_count_all() / (len(ids) + 1)) + 1
            c = idf * (K1 + 1)
            out = {d: c * w / (w + norm[lengths[d]]) for d, w in zip(ids, weights, strict=True)}
        with self._lock:
            if len(self._score_cache) > 256:
                self._score_cache.clear()
            self._score_cache[key] = out
        return out

    def scores(self, terms: list[tuple[str, str, float]], docs: Iterable[int]
               ) -> dict[int, float]:
        """Summed BM25F scores of ``docs`` for weighted terms."""
        docs = docs if isinstance(docs, set | frozenset) else set(docs)
        total: dict[int, float] = {}
        get = total.get
        for fieldname, text, boost in terms:
            per_doc = self.term_scores(fieldname, text)
            if len(per_doc) > len(docs):
                for d in docs:
                    v = per_doc.get(d)
                    if v:
                        total[d] = get(d, 0.0) + boost * v
            else:
                for d, v in per_doc.items():
                    if d in docs:
                        total[d] = get(d, 0.0) + boost * v
        return total

    @locked
    def docs(self, q: wq.Query) -> frozenset[int] | set[int]:
        """Every live document matching ``q``, by set algebra over posting lists."""
        if isinstance(q, wq.Term):
            return self.term_docs(q.fieldname, q.text)
        if isinstance(q, wq.And):
            parts = sorted((self.docs(c) for c in q.subqueries), key=len)
            return set.intersection(set(parts[0]), *parts[1:]) if parts else set()
        if isinstance(q, wq.Or | wq.DisjunctionMax):
            return set().union(*(self.docs(c) for c in q.subqueries))
        if isinstance(q, wq.AndNot):
            return self.docs(q.a) - self.docs(q.b)
        if isinstance(q, wq.AndMaybe):
            return self.docs(q.a)
        if isinstance(q, wq.Not):
            return self.live - self.docs(q.query)
        if isinstance(q, wq.Every):
            return self.live
        if q is wq.NullQuery or isinstance(q, type(wq.NullQuery)):
            return frozenset()
        if isinstance(q, wq.MultiTerm):
            return self.docs(q.simplify(self.reader))
        if isinstance(q, wq.Phrase) and q.slop == 1:
            return self._phrase_docs(q.fieldname, q.words)
        return set(self.searcher.docs_for_query(q)) & self.live

    # sort orders
    @cached
    def _keys(self) -> list[bytes]:
        with self._lock:
            return self._read_keys()

    def _read_keys(self) -> list[bytes]:
        keys: list[bytes] = []
        for reader, _ in self.leaves:
            column = reader.column_reader("sortkey") if reader.has_column("sortkey") else None
            count = reader.doc_count_all()
            keys.extend(list(column) if column is not None else [b""] * count)
        return keys

    @cached
    def all_ids(self) -> list[str]:
        """Every document's paper id by document number, from the id column (no stored
        papers are read: 87,549 ids cost a few MB, not the papers' hundreds)."""
        with self._lock:
            ids: list[str] = []
            for reader, _ in self.leaves:
                ids.extend(reader.column_reader("id"))
            return ids

    @property
    def default_order(self) -> list[int]:
        """Every paper by venue, newest year, title: the empty query's list."""
        return self.order("list")

    def order(self, sort: str) -> list[int]:
        """Live documents sorted for ``sort``: "list" (venue, newest year, title), "year"
        (newest first, then title) or "title". Computed once per index version and kept
        in a small file beside the index, so a fresh process lists 87,549 papers at once."""
        with self._lock:
            cache = self.__dict__.setdefault("_orders", {})
            if sort not in cache:
                cache[sort] = self._load_order(sort) or self._compute_order(sort)
            return cache[sort]

    def _order_file(self, sort: str) -> Path | None:
        generation = self.reader.generation()
        if self.directory is None or generation is None or generation < 0:
            return None
        return self.directory / f"order-{generation}-{sort}.bin"

    def _load_order(self, sort: str) -> list[int] | None:
        path = self._order_file(sort)
        if path is None:
            return None
        try:
            data = array("i")
            data.frombytes(path.read_bytes())
        except (OSError, ValueError):
            return None
        return data.tolist() if len(data) == len(self.live) else None

    def _compute_order(self, sort: str) -> list[int]:
        keys = self._keys
        if sort == "title":
            keys = [k.split(b"\x1f", 2)[-1] for k in keys]
        elif sort == "year":
            keys = [k.split(b"\x1f", 1)[-1] for k in keys]
        live = self.live
        order = sorted((d for d in range(len(keys)) if d in live), key=keys.__getitem__)
        path = self._order_file(sort)
        if path is not None:
            try:
                atomic.write_bytes(path, array("i", order).tobytes())
                for old in path.parent.glob(f"order-*-{sort}.bin"):
                    if old != path:
                        old.unlink(missing_ok=True)
            except OSError:  # a read-only library still searches, just without the cache
                pass
        return order

    def rank(self, sort: str) -> list[int]:
        """A sort key per document number for ``sort`` (see :meth:`order`)."""
        with self._lock:
            cache = self.__dict__.setdefault("_ranks", {})
            if sort not in cache:
                rank = [0] * self.reader.doc_count_all()
                for r, d in enumerate(self.order(sort)):
                    rank[d] = r
                cache[sort] = rank
            return cache[sort]

    @locked
    def stored(self, doc: int) -> dict:
        return self.searcher.stored_fields(doc)

    def paper(self, doc: int) -> Paper:
        return Paper.from_dict(self.stored(doc)["paper"])

    def docnum(self, paper_id: str) -> int | None:
        docs = self.term_docs("id", paper_id)
        return next(iter(docs)) if docs else None

    def close(self) -> None:
        self.searcher.close()


LENGTHS = [byte_to_length(b) for b in range(256)]


def length_bytes(reader, fieldname: str) -> bytes:
    """The per-document field lengths Whoosh keeps, one byte per document (see
    ``byte_to_length``), read in one go instead of one column lookup per document."""
    count = reader.doc_count_all()
    perdoc = getattr(reader, "_perdoc", None)
    name = _lenfield(fieldname)
    if perdoc is None or not perdoc.has_column(name):
        return bytes(count)
    column = perdoc.column_reader(name, LENGTHS_COLUMN)
    try:  # the column is a plain run of bytes; documents after the last are 0
        raw = column._dbfile.get(column._basepos, column._count)
        return bytes(raw) + bytes(count - len(raw))
    except AttributeError:  # another codec: the slow, public way
        return bytes(column)


def _blocks(matcher) -> Iterator[tuple[list[int], list[float]]]:
    """(ids, weights) of the postings, a block at a time for on-disk postings."""
    if type(matcher) is not W3LeafMatcher:
        ids, weights = [], []
        while matcher.is_active():
            ids.append(matcher.id())
            weights.append(matcher.weight())
            matcher.next()
        yield ids, weights
        return
    m = matcher
    while not m._atend:
        if m._data is None:
            m._read_data()
        if m._weights is None:
            m._read_weights()
        # The block's ids are stored as deltas: a running sum in C, not Whoosh's generator
        ids = m._data[0] if m._byteids else accumulate(m._data[0])
        yield list(ids), list(m._weights)
        if m._lastblock:
            break
        m._goto(m._nextoffset)


def _all_values(matcher) -> Iterator[tuple[int, bytes]]:
    """(id, encoded value) of every posting, a block at a time for on-disk postings."""
    if type(matcher) is not W3LeafMatcher:
        while matcher.is_active():
            yield matcher.id(), matcher.value()
            matcher.next()
        return
    m = matcher
    while not m._atend:
        if m._data is None:
            m._read_data()
        if m._values is None:
            m._read_values()
        ids = m._data[0] if m._byteids else accumulate(m._data[0])
        yield from zip(ids, m._values, strict=False)
        if m._lastblock:
            break
        m._goto(m._nextoffset)


def _all_ids(matcher) -> Iterable[int]:
    """Every id of a leaf matcher: whole posting blocks at a time for on-disk postings."""
    if type(matcher) is not W3LeafMatcher:
        return list(matcher.all_ids())
    out: list[int] = []
    m = matcher
    while not m._atend:
        if m._data is None:
            m._read_data()
        out.extend(m._data[0] if m._byteids else accumulate(m._data[0]))
        if m._lastblock:
            break
        m._goto(m._nextoffset)
    return out

