"""Everything Whoosh: schema, writing, query parsing, search. Nothing else imports whoosh.

The index is derived data: it can always be deleted and rebuilt from ``sources/`` (and the
annotations, which live in YAML). Three ideas keep it fast in pure Python:

* Indexing skips Whoosh's per-token objects (:class:`FoldedText`), and a big import runs
  the writer in two processes.
* Counting, filtering and facets work on sets of document numbers read straight from the
  posting blocks (:class:`_Snapshot`), not on Whoosh's per-document matcher loop; only the
  top of a ranked list is scored until someone scrolls past it.
* Sort orders (venue/year/title, year, title) come from one sort-key column, computed once
  per index version and shared by every query.
"""

from __future__ import annotations

import bisect
import json
import math
import re
import shutil
import threading
import time
from array import array
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from dataclasses import fields as dataclass_fields
from functools import wraps
from itertools import accumulate
from pathlib import Path
from typing import Any

from whoosh import index as windex
from whoosh import qparser
from whoosh import query as wq
from whoosh.analysis import Filter, IDTokenizer, RegexTokenizer, StemFilter, StopFilter
from whoosh.analysis.filters import STOP_WORDS
from whoosh.codec.whoosh3 import LENGTHS_COLUMN, W3Codec, W3LeafMatcher, _lenfield
from whoosh.columns import VarBytesColumn
from whoosh.fields import BOOLEAN, COLUMN, ID, KEYWORD, STORED, TEXT, Schema
from whoosh.index import LockError
from whoosh.lang import stemmer_for_language
from whoosh.matching.wrappers import FilterMatcher
from whoosh.query.qcore import QueryError as WhooshQueryError
from whoosh.system import pack_uint
from whoosh.util.numeric import byte_to_length

from paper_tui import atomic
from paper_tui.errors import QueryError, StoreError
from paper_tui.model import Paper
from paper_tui.query import WORD, clean, fold, mentions_annotations, plain_words


class _cached:
    """``functools.cached_property`` without Python 3.11's lock.

    On 3.11 that lock is one per property for *all* instances, so the annotation writer
    thread computing one cached value while the UI thread waits, under our own lock, for
    another deadlocks (3.12 dropped the lock for this reason). Here the value may be
    computed twice in a race; every computation below is pure, so either result is right.
    """

    def __init__(self, func: Callable[[Any], Any]) -> None:
        self.func = func
        self.__doc__ = func.__doc__

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    def __get__(self, obj: Any, objtype: type | None = None) -> Any:
        if obj is None:
            return self
        value = self.func(obj)
        obj.__dict__[self.name] = value
        return value


SCHEMA_VERSION = 6
_OPEN_ATTEMPTS = 5
_META_FILE = "paper-tui-index.json"
Progress = Callable[[int], None]
AnnotationFields = dict[str, Any]
"""``{"status": str, "starred": bool, "tags": list[str], "lists": list[str], "note": str}``"""
AnnotationLookup = Callable[[str], AnnotationFields | None]
Spans = dict[str, list[tuple[int, int]]]
"""Character spans of matched words: ``{"title": [(start, end)], "abstract": [...]}``."""

SORTS = ("relevance", "year", "title")
_DEFAULT_FIELDS = ("title", "name", "abstract", "authors", "keywords")
_TEXT_FIELDS = frozenset({*_DEFAULT_FIELDS, "note", "title_exact"})
_K1, _B = 1.2, 0.75  # BM25F, as Whoosh's default weighting
_EXACT_BOOST = 1.5  # a title word as typed (unstemmed) ranks above another form of it


class _Codec(W3Codec):
    """Whoosh's codec, minus per-block length statistics: they only serve Whoosh's own
    scorer (we rank with :meth:`_Snapshot.scores`) and cost a column lookup per posting
    when a segment is written."""

    length_stats = False


_CODEC = _Codec(blocklimit=1024, compression=0)
"""Posting blocks of 1,024 (Whoosh: 128), uncompressed: fewer per-block steps in pure
Python when whole posting lists are read for counting and scoring, and when written."""
_BOOSTS = {"title": 3.0, "name": 3.0, "abstract": 1.0, "authors": 1.5, "keywords": 1.5}
_MP_THRESHOLD = 5000  # papers in one add() before the writer uses two processes
_VOCAB_FILE = "vocabulary.txt"
_MAX_EXPANSION = 64  # words a prefix* query may expand to (each is a posting list to read)
_MAX_FUZZY = 12  # words a fuzzy~ query may expand to, closest first


# -- analysis ------------------------------------------------------------------------------
class FoldFilter(Filter):
    """Lower case without accents or compatibility forms: ``Rodolà`` = ``rodola``,
    ``MemR³`` = ``memr3``, ``ﬁ`` = ``fi``."""

    def __call__(self, tokens):
        for t in tokens:
            t.text = fold(t.text)
            yield t


_STEMFN = stemmer_for_language("en")
_STEM_CACHE: dict[str, str] = {}


def stem(word: str) -> str:
    """The Snowball English stem of a folded word (Porter would turn running into runn)."""
    out = _STEM_CACHE.get(word)
    if out is None:
        out = _STEM_CACHE[word] = _STEMFN(word)
    return out


def _analyzer(stemmed: bool):
    """``StemmingAnalyzer(stemfn=stemmer_for_language("en"))`` with folding instead of
    plain lower-casing; ``stemmed=False`` for names and the spelling vocabulary."""
    chain = RegexTokenizer(WORD.pattern) | FoldFilter() | StopFilter(minsize=2)
    return chain | StemFilter(stemfn=_STEMFN, cachesize=-1) if stemmed else chain


def terms_of(text: str, stemmed: bool = True) -> Iterator[tuple[int, str, int, int]]:
    """``(position, term, start, end)`` for each indexed word of ``text``: what the field's
    Whoosh analyzer yields, without its per-token objects (indexing and highlights)."""
    pos = None
    for i, m in enumerate(WORD.finditer(text)):
        word = m.group()
        word = word.lower() if word.isascii() else fold(word)
        if len(word) < 2 or word in STOP_WORDS:
            continue
        pos = i if pos is None else pos + 1
        yield pos, (stem(word) if stemmed else word), m.start(), m.end()


class FoldedText(TEXT):
    """A TEXT field whose ``index()`` is a fast path giving the same terms as its analyzer."""

    def __init__(self, stemmed: bool = True, phrase: bool = True, field_boost: float = 1.0):
        super().__init__(analyzer=_analyzer(stemmed), phrase=phrase, field_boost=field_boost)
        self.stemmed = stemmed

    def index(self, value, **kwargs):
        positions = term_positions(value, self.stemmed)
        if self.format.supports("positions"):
            encode, single = self.format.encode, _single_position(self.format)
            return [(term.encode(), len(ps), float(len(ps)),
                     single[ps[0]] if len(ps) == 1 and ps[0] < len(single) else encode(ps))
                    for term, ps in positions.items()]
        return [(term.encode(), len(ps), float(len(ps)), pack_uint(len(ps)))
                for term, ps in positions.items()]


_SINGLE: dict[type, list[bytes]] = {}


def _single_position(fmt) -> list[bytes]:
    """Encoded one-position postings, by position: most words occur once in a text."""
    single = _SINGLE.get(type(fmt))
    if single is None:
        single = _SINGLE[type(fmt)] = [fmt.encode([p]) for p in range(1024)]
    return single


def term_positions(text: str, stemmed: bool = True) -> dict[str, list[int]]:
    """``{term: positions}`` as the field's analyzer would index ``text`` (the hot path of
    indexing: whole-list operations instead of a generator of tokens)."""
    folded = [w.lower() if w.isascii() else fold(w) for w in WORD.findall(text)]
    kept = [w for w in folded if len(w) > 1 and w not in STOP_WORDS]
    if not kept:
        return {}
    # Stop words are dropped and the rest renumbered from the first kept word's position.
    base = next(i for i, w in enumerate(folded) if len(w) > 1 and w not in STOP_WORDS)
    if stemmed:
        cached = _STEM_CACHE.get
        kept = [cached(w) or stem(w) for w in kept]
    out: dict[str, list[int]] = {}
    for pos, term in enumerate(kept, base):
        if term in out:
            out[term].append(pos)
        else:
            out[term] = [pos]
    return out


def _schema() -> Schema:
    lower_id = IDTokenizer() | FoldFilter()
    return Schema(
        id=ID(stored=True, unique=True, sortable=True),
        source=ID(),
        title=FoldedText(field_boost=1.0),
        title_exact=FoldedText(stemmed=False, phrase=False),
        name=FoldedText(),
        authors=FoldedText(stemmed=False, phrase=False),
        abstract=FoldedText(),
        venue=ID(analyzer=lower_id),
        year=ID(),
        keywords=KEYWORD(commas=True, lowercase=True, scorable=True),
        # The reader's annotations, mirrored from the YAML store so queries can combine
        # words with triage state. Derived: rebuilt from the store like everything here.
        tags=KEYWORD(commas=True, lowercase=True),
        status=ID(analyzer=lower_id),
        starred=BOOLEAN(),
        lists=KEYWORD(commas=True, lowercase=True),
        note=FoldedText(),
        sortkey=COLUMN(VarBytesColumn()),
        paper=STORED(),
    )


_PAPER_FIELDS = tuple(f.name for f in dataclass_fields(Paper))


def _stored(paper: Paper) -> dict[str, Any]:
    """The paper as stored in the index (what :meth:`Paper.from_dict` reads back); plain
    attribute reads, as ``dataclasses.asdict`` costs more than indexing the title."""
    return {name: getattr(paper, name) for name in _PAPER_FIELDS}


def _sortkey(paper: Paper) -> bytes:
    year = paper.year or 0
    return "\x1f".join((fold(paper.venue), f"{9999 - year:04d}",
                        fold(paper.display_title))).encode()


# -- results -------------------------------------------------------------------------------
@dataclass(frozen=True)
class Hit:
    """One search result. ``highlights`` (spans of matched words in the paper's display
    title and abstract) is worked out on first access."""

    paper: Paper
    score: float | None = None
    _terms: dict[str, set[str]] = field(default_factory=dict, repr=False, compare=False)

    @_cached
    def highlights(self) -> Spans:
        return highlight_spans(self.paper, self._terms)

    def fragments(self) -> dict[str, str]:
        """The matched words marked ``«like this»``: the whole title, bits of the abstract."""
        texts = {"title": self.paper.display_title, "abstract": self.paper.display_abstract}
        return {name: fragments(texts[name], spans, width=len(texts[name]) if name == "title"
                                else 80) for name, spans in self.highlights.items()}


@dataclass
class SearchPage:
    hits: list[Hit]
    total: int
    exact: bool = True
    suggestion: str | None = None
    error: str | None = None
    facets: dict[str, dict[str, int]] = field(default_factory=dict)


def highlight_spans(paper: Paper, terms: dict[str, set[str]]) -> Spans:
    spans: Spans = {}
    for name, text in (("title", paper.display_title), ("abstract", paper.display_abstract)):
        wanted = terms.get(name)
        if wanted and text:
            found = [(s, e) for _, t, s, e in terms_of(text) if t in wanted]
            if found:
                spans[name] = found
    return spans


def fragments(text: str, spans: list[tuple[int, int]], width: int = 80,
              most: int = 3) -> str:
    """Text around the first matches with each match marked ``«like this»``."""
    if not spans:
        return ""
    pieces: list[str] = []
    windows: list[tuple[int, int]] = []
    for s, e in spans:
        if windows and s <= windows[-1][1]:
            windows[-1] = (windows[-1][0], max(windows[-1][1], e + width))
        elif len(windows) < most:
            windows.append((max(0, s - width), min(len(text), e + width)))
    for ws, we in windows:
        out, cursor = [], ws
        for s, e in spans:
            if s >= ws and e <= we:
                out += [text[cursor:s], "«", text[s:e], "»"]
                cursor = e
        out.append(text[cursor:we])
        piece = "".join(out).strip()
        pieces.append(("…" if ws > 0 else "") + piece + ("…" if we < len(text) else ""))
    return " ".join(pieces)


# -- a point-in-time view of the index -----------------------------------------------------
def _locked(method):
    """Whoosh readers seek and read shared file objects: one thread at a time per view (the
    TUI draws rows from one thread while a search runs in another)."""

    @wraps(method)
    def wrapper(self, *args, **kwargs):
        with self._lock:
            return method(self, *args, **kwargs)

    return wrapper


class _Snapshot:
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
    @_cached
    def live(self) -> frozenset[int]:
        with self._lock:
            return self._live()

    def _live(self) -> frozenset[int]:
        deleted: set[int] = set()
        for reader, offset in self.leaves:
            if reader.has_deletions():
                deleted.update(offset + d for d in reader.deleted_docs_set)
        return frozenset(set(range(self.reader.doc_count_all())) - deleted)

    @_locked
    def term_docs(self, fieldname: str, text: str | bytes) -> frozenset[int]:
        if isinstance(text, str):
            text = self.reader.schema[fieldname].to_bytes(text)
        key = (fieldname, text)
        cached = self._term_docs.get(key)
        if cached is not None:
            return cached
        if fieldname in _TEXT_FIELDS:  # read the postings once, for scores and the set
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

    @_locked
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

    @_locked
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
                raw = b"".join(_length_bytes(reader, fieldname) for reader, _ in self.leaves)
                counts = Counter(raw)
                total = sum(_LENGTHS[b] * n for b, n in counts.items())
                avg = (total / len(raw) if raw else 0.0) or 1.0
                norms = (raw, [_K1 * ((1 - _B) + _B * n / avg) for n in _LENGTHS])
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
            c = idf * (_K1 + 1)
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

    @_locked
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
    @_cached
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

    @_cached
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

    @_locked
    def stored(self, doc: int) -> dict:
        return self.searcher.stored_fields(doc)

    def paper(self, doc: int) -> Paper:
        return Paper.from_dict(self.stored(doc)["paper"])

    def docnum(self, paper_id: str) -> int | None:
        docs = self.term_docs("id", paper_id)
        return next(iter(docs)) if docs else None

    def close(self) -> None:
        self.searcher.close()


_LENGTHS = [byte_to_length(b) for b in range(256)]


def _length_bytes(reader, fieldname: str) -> bytes:
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


# -- parsing -------------------------------------------------------------------------------
class _FuzzyPlugin(qparser.FuzzyTermPlugin):
    """``word~``: keeps the word as typed (not stemmed) for the vocabulary to expand."""

    class FuzzyTermNode(qparser.FuzzyTermPlugin.FuzzyTermNode):
        def query(self, parser):
            q = super().query(parser)
            if isinstance(q, wq.FuzzyTerm):
                q.text = fold(self.text)
            return q


def _parser(schema: Schema) -> qparser.QueryParser:
    parser = qparser.MultifieldParser(list(_DEFAULT_FIELDS), schema, fieldboosts=_BOOSTS,
                                      group=qparser.AndGroup)
    parser.add_plugin(_FuzzyPlugin())
    # + and - only at the start of a word: "KV-PRM" and "tag:to-cite" are words.
    parser.add_plugin(qparser.PlusMinusPlugin(plusexpr=r"(?<![^\s(])\+",
                                              minusexpr=r"(?<![^\s(])-"))
    return parser


@dataclass
class _Plan:
    """A parsed query: the all-words query, the any-word query (when different), and the
    positive terms per field for highlighting."""

    strict: wq.Query
    loose: wq.Query | None
    terms: dict[str, set[str]]
    exact: list[str] = field(default_factory=list)  # the plain words as typed, folded

    @_cached
    def scoring(self) -> list[tuple[str, str, float]]:
        """``(field, term, boost)`` of every positive word in a text field: what ranks."""
        best: dict[tuple[str, str], float] = {}

        def walk(q: wq.Query) -> None:
            if isinstance(q, wq.Not):
                return
            if isinstance(q, wq.AndNot):
                return walk(q.a)
            if isinstance(q, wq.Term) and q.fieldname in _TEXT_FIELDS:
                text = q.text.decode() if isinstance(q.text, bytes) else str(q.text)
                key = (q.fieldname, text)
                best[key] = max(best.get(key, 0.0), q.boost)
            elif isinstance(q, wq.Phrase) and q.fieldname in _TEXT_FIELDS:
                for word in q.words:
                    best[(q.fieldname, word)] = max(best.get((q.fieldname, word), 0.0), q.boost)
            for child in q.children():
                walk(child)

        walk(self.strict)
        for word in self.exact:
            best[("title_exact", word)] = _EXACT_BOOST
        return [(f, t, b) for (f, t), b in best.items()]


def _loosen(strict: wq.Query) -> wq.Query | None:
    """The "some of the words" query ranked below the "all words" one: the plain words
    become optional, field filters (year:, tag: …) and exclusions stay."""
    q, excluded = strict, []
    if isinstance(q, wq.AndNot):
        q, excluded = q.a, [q.b]
    words: list[wq.Query] = []
    required: list[wq.Query] = []
    for child in q.subqueries if isinstance(q, wq.And) else [q]:
        if isinstance(child, wq.Not):
            excluded.append(child.query)
        elif _fieldnames(child) <= set(_DEFAULT_FIELDS):
            words.append(child)
        else:
            required.append(child)
    if len(words) < 2:
        return None
    loose: wq.Query = wq.Or(words) if not required else wq.And([*required, wq.Or(words)])
    if excluded:
        loose = wq.AndNot(loose, excluded[0] if len(excluded) == 1 else wq.Or(excluded))
    return loose


def _fieldnames(q: wq.Query) -> set[str]:
    return {getattr(leaf, "fieldname", None) for leaf in ([q] if q.is_leaf() else q.leaves())}


def _positive_terms(q: wq.Query, out: dict[str, set[str]]) -> dict[str, set[str]]:
    if isinstance(q, wq.Not):
        return out
    if isinstance(q, wq.AndNot):
        return _positive_terms(q.a, out)
    if isinstance(q, wq.Term):
        text = q.text.decode() if isinstance(q.text, bytes) else str(q.text)
        out.setdefault(q.fieldname, set()).add(text)
    elif isinstance(q, wq.Phrase):
        out.setdefault(q.fieldname, set()).update(q.words)
    for child in q.children():
        _positive_terms(child, out)
    return out


def _common_prefix(a: str, b: str) -> int:
    n = 0
    for x, y in zip(a, b, strict=False):
        if x != y:
            break
        n += 1
    return n


class _Vocabulary:
    """Every unstemmed, folded word of the titles, abstracts and authors, one a line in
    ``vocabulary.txt`` beside the index: the word list for ``word~``, ``word*`` and "did
    you mean" (a Whoosh field would cost a second posting per word per paper)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._stamp: tuple[int, int] | None = None
        self._words: list[str] = []
        self._set: set[str] = set()
        self._by_first: dict[str, list[str]] = {}

    def _load(self) -> None:
        try:
            stat = self.path.stat()
        except OSError:
            stat = None
        stamp = (stat.st_mtime_ns, stat.st_size) if stat else (0, 0)
        if stamp == self._stamp:
            return
        text = self.path.read_text("utf-8") if stat else ""
        self._words = text.split()
        self._set = set(self._words)
        self._by_first = {}
        self._stamp = stamp

    def __contains__(self, word: str) -> bool:
        self._load()
        return word in self._set

    def extend(self, words: Iterable[str]) -> None:
        self._load()
        new = {fold(w) for w in words} - self._set
        if new:
            atomic.write_text(self.path, "\n".join(sorted(self._set | new)) + "\n")
            self._stamp = None

    def starting(self, prefix: str) -> list[str]:
        self._load()
        words = self._words
        out = []
        for i in range(bisect.bisect_left(words, prefix), len(words)):
            if not words[i].startswith(prefix) or len(out) >= _MAX_EXPANSION:
                break
            out.append(words[i])
        return out

    def near(self, word: str, maxdist: int, prefix: int = 1) -> list[str]:
        """Words within ``maxdist`` edits of ``word`` sharing its first ``prefix`` letters."""
        self._load()
        first = word[:1]
        group = self._by_first.get(first)
        if group is None:
            lo = bisect.bisect_left(self._words, first)
            hi = bisect.bisect_left(self._words, first + "\U0010ffff")
            group = self._by_first[first] = self._words[lo:hi] if first else []
        letters = set(word)
        found = []
        for cand in group:
            if abs(len(cand) - len(word)) > maxdist or cand[:prefix] != word[:prefix]:
                continue
            if len(letters.symmetric_difference(cand)) > 2 * maxdist:
                continue
            dist = _within(cand, word, maxdist)
            if dist <= maxdist:
                found.append((dist, cand))
        return [cand for _, cand in sorted(found)[:_MAX_FUZZY]]


def _within(a: str, b: str, limit: int) -> int:
    """Levenshtein distance of a and b, or limit + 1 when it is larger."""
    if abs(len(a) - len(b)) > limit:
        return limit + 1
    previous = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        current = [i]
        for j, cb in enumerate(b, 1):
            current.append(min(previous[j] + 1, current[j - 1] + 1,
                               previous[j - 1] + (ca != cb)))
        if min(current) > limit:
            return limit + 1
        previous = current
    return previous[-1]


# -- the index -----------------------------------------------------------------------------
class _Adder:
    """Feeds papers to an open writer; see :meth:`PaperIndex.adding`."""

    def __init__(self, writer, reader, progress: Progress | None,
                 annotations: AnnotationLookup | None) -> None:
        self._writer = writer
        self._reader = reader  # set when sub-processes write: they only add, never replace
        self._progress = progress
        self._annotations = annotations
        self.count = 0
        self.words: set[str] = set()

    def add(self, paper: Paper) -> None:
        annotations = self._annotations(paper.id) if self._annotations else None
        doc = PaperIndex._document(paper, annotations)
        PaperIndex._collect_words(paper, self.words)
        if self._reader is not None:
            if ("id", paper.id.encode()) in self._reader:
                self._writer.delete_by_term("id", paper.id)
            self._writer.add_document(**doc)
        else:
            self._writer.update_document(**doc)
        self.count += 1
        if self._progress and self.count % 500 == 0:
            self._progress(self.count)

    def delete(self, ids: Iterable[str]) -> None:
        for paper_id in ids:
            self._writer.delete_by_term("id", paper_id)


class PaperIndex:
    """A Whoosh index in ``path``: open/rebuild, write (import and annotations), search."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._ix: windex.Index | None = None
        self._snap: _Snapshot | None = None
        self._snap_lock = threading.Lock()
        self._pending: dict[str, AnnotationFields | None] = {}
        self._writing: dict[str, AnnotationFields | None] = {}
        self._cv = threading.Condition()
        self._writer_thread: threading.Thread | None = None
        self._write_error: str | None = None
        self._parser: qparser.QueryParser | None = None
        self._vocab = _Vocabulary(path / _VOCAB_FILE)

    # -- lifecycle -------------------------------------------------------------------------
    def open(self) -> bool:
        """Open the index, creating an empty one when missing, old or corrupt.

        Returns True when the index was (re)created and must be filled from the sources.
        """
        try:
            meta = json.loads((self.path / _META_FILE).read_text())
            current = meta["schema"] == SCHEMA_VERSION and windex.exists_in(str(self.path))
        except Exception:  # missing or unreadable metadata: rebuild
            current = False
        # Another process committing can delete the files of the generation we were about to
        # read: that looks like corruption for a moment. Only an index that fails every
        # attempt is rebuilt, so one process never wipes an index another is using.
        for attempt in range(_OPEN_ATTEMPTS if current else 0):
            try:
                self._ix = windex.open_dir(str(self.path))
                self._snapshot()  # reads the TOC and segments: a corrupt index fails here
                return False
            except Exception:
                self._drop_snapshot()
                self._ix = None
                time.sleep(0.05 * (attempt + 1))
        self.create()
        return True

    def _vocabulary(self) -> _Vocabulary:
        return self._vocab

    def create(self) -> None:
        self._drop_snapshot()
        if self.path.exists():
            shutil.rmtree(self.path, ignore_errors=True)
        self.path.mkdir(parents=True, exist_ok=True)
        self._ix = windex.create_in(str(self.path), _schema())
        self._parser = None
        self._write_meta({"schema": SCHEMA_VERSION, "sources": {}})

    @property
    def ix(self) -> windex.Index:
        if self._ix is None:
            self.open()
        assert self._ix is not None
        return self._ix

    def close(self) -> None:
        self.flush()
        with self._cv:
            thread, self._writer_thread = self._writer_thread, None
            self._cv.notify_all()
        if thread is not None:
            thread.join(timeout=5)
        self._drop_snapshot()
        if self._ix is not None:
            self._ix.close()
            self._ix = None

    # -- what the index holds, by source -----------------------------------------------------
    def _read_meta(self) -> dict:
        try:
            return json.loads((self.path / _META_FILE).read_text())
        except (OSError, ValueError):
            return {"schema": SCHEMA_VERSION, "sources": {}}

    def _write_meta(self, meta: dict) -> None:
        atomic.write_text(self.path / _META_FILE, json.dumps(meta, indent=1))

    def indexed_sources(self) -> dict[str, str]:
        """``{source id: checksum}`` of the sources whose papers are in the index."""
        return dict(self._read_meta().get("sources", {}))

    def mark_sources(self, digests: dict[str, str | None]) -> None:
        """Record that each source is indexed at its checksum (None: no longer indexed)."""
        meta = self._read_meta()
        sources = meta.setdefault("sources", {})
        for source_id, digest in digests.items():
            if digest is None:
                sources.pop(source_id, None)
            else:
                sources[source_id] = digest
        self._write_meta(meta)

    # -- writing ---------------------------------------------------------------------------
    @staticmethod
    def _annotation_doc(fields: AnnotationFields | None) -> dict:
        fields = fields or {}
        return {
            "tags": ",".join(t.replace(",", " ") for t in fields.get("tags") or ()),
            "status": fields.get("status") or "",
            "starred": bool(fields.get("starred")),
            "lists": ",".join(x.replace(",", " ") for x in fields.get("lists") or ()),
            "note": fields.get("note") or "",
        }

    @staticmethod
    def _document(paper: Paper, annotations: AnnotationFields | None = None) -> dict:
        doc = {
            "id": paper.id,
            "source": paper.source,
            "title": paper.display_title,
            "title_exact": paper.display_title,
            "name": paper.name,
            "authors": " ; ".join(paper.authors),
            "abstract": paper.display_abstract,
            "venue": paper.venue,
            "year": str(paper.year) if paper.year else "",
            "keywords": ",".join(paper.keywords),
            "sortkey": _sortkey(paper),
            "paper": _stored(paper),
        }
        doc.update(PaperIndex._annotation_doc(annotations))
        return {k: v for k, v in doc.items() if v not in (None, "")}

    @staticmethod
    def _collect_words(paper: Paper, into: set[str]) -> None:
        for text in (paper.display_title, paper.display_abstract, paper.name, *paper.authors):
            into.update(WORD.findall(text))

    @contextmanager
    def _writer(self, procs: int = 1, timeout: float = 60.0):
        """A Whoosh writer, waiting up to ``timeout`` for another process's lock."""
        # Not compound: Whoosh reads a compound segment by copying each of its files into
        # memory (hundreds of MB and a second per process on the big index).
        kwargs: dict[str, Any] = {"limitmb": 256, "codec": _CODEC, "compound": False}
        if procs > 1:  # each sub-process has its own posting buffer: half the memory each
            kwargs.update(procs=procs, multisegment=True, limitmb=128)
        deadline = time.monotonic() + timeout
        while True:
            try:
                writer = self.ix.writer(**kwargs)
                break
            except LockError:
                if time.monotonic() > deadline:
                    raise StoreError(f"{self.path}: the index is locked by another "
                                     "paper-tui process; try again when it is done") from None
                time.sleep(0.1)
        try:
            yield writer
        except BaseException:
            writer.cancel()
            raise
        writer.commit()
        self._stale()

    def add(self, papers: Iterable[Paper], progress: Progress | None = None,
            annotations: AnnotationLookup | None = None, expected: int | None = None) -> int:
        """Add or replace papers (by id), with their annotation fields when given.

        ``expected`` (how many papers are coming) picks a two-process writer for big imports.
        """
        with self.adding(progress, annotations, expected) as adder:
            for paper in papers:
                adder.add(paper)
        return adder.count

    @contextmanager
    def adding(self, progress: Progress | None = None,
               annotations: AnnotationLookup | None = None, expected: int | None = None
               ) -> Iterator[_Adder]:
        """An open writer to stream papers into (one commit at the end); for an import
        that reads, stores and indexes a file in one pass."""
        procs = 2 if expected is not None and expected >= _MP_THRESHOLD else 1
        with self._writer(procs) as writer:
            tasks = getattr(writer, "tasks", None)
            while tasks is not None and len(tasks) < procs:  # fork the writer processes
                writer._new_task()  # now, while this process is small
            adder = _Adder(writer, self._snapshot().reader if procs > 1 else None,
                           progress, annotations)
            yield adder
            self._vocabulary().extend(adder.words)  # under the writer's lock
        if progress:
            progress(adder.count)

    def delete(self, ids: Iterable[str]) -> None:
        ids = list(ids)
        if not ids:
            return
        with self._writer() as writer:
            for paper_id in ids:
                writer.delete_by_term("id", paper_id)

    def delete_source(self, source: str) -> None:
        """Remove every paper of one source."""
        with self._writer() as writer:
            writer.delete_by_query(wq.Term("source", source))

    def ids_of_source(self, source: str) -> set[str]:
        snap = self._snapshot()
        docs = snap.term_docs("source", source)
        ids: set[str] = set()
        for reader, offset in snap.leaves:
            end = offset + reader.doc_count_all()
            mine = [d - offset for d in docs if offset <= d < end]
            if mine:
                column = reader.column_reader("id")
                ids.update(column[d] for d in mine)
        return ids

    # -- annotations: written in the background ---------------------------------------------
    def set_annotations(self, paper_id: str, fields: AnnotationFields | None) -> None:
        """Mirror one paper's annotations into the index without blocking the caller.

        A background thread writes; a search that filters on annotations waits for it
        (:meth:`flush`), so it always sees the change."""
        with self._cv:
            self._pending[paper_id] = fields
            if self._writer_thread is None:
                self._writer_thread = threading.Thread(target=self._write_annotations,
                                                       name="paper-tui-index", daemon=True)
                self._writer_thread.start()
            self._cv.notify_all()

    def _write_annotations(self) -> None:
        while True:
            with self._cv:
                while not self._pending and self._writer_thread is not None:
                    self._cv.wait()
                if self._writer_thread is None and not self._pending:
                    return
                batch, self._pending = self._pending, {}
                self._writing = batch
            try:
                self._apply_annotations(batch)
                self._write_error = None
            except Exception as exc:  # reported by flush(); the YAML store keeps the truth
                self._write_error = f"could not update the index: {exc}"
            with self._cv:
                self._writing = {}
                self._cv.notify_all()

    def _apply_annotations(self, batch: dict[str, AnnotationFields | None]) -> None:
        snap = self._snapshot()
        docs = []
        for paper_id, fields in batch.items():
            doc = snap.docnum(paper_id)
            if doc is not None:
                docs.append(self._document(snap.paper(doc), fields))
        if not docs:
            return
        with self._writer(timeout=600) as writer:
            for doc in docs:
                writer.update_document(**doc)
        self._snapshot().default_order  # noqa: B018  (warm the new view off the caller's path)

    def flush(self, timeout: float | None = None) -> bool:
        """Wait until every annotation change is in the index; False on timeout."""
        with self._cv:
            done = self._cv.wait_for(lambda: not self._pending and not self._writing, timeout)
        return done

    # -- reading ---------------------------------------------------------------------------
    def _stale(self) -> None:
        with self._snap_lock:
            self._snap = None

    def _drop_snapshot(self) -> None:
        with self._snap_lock:
            self._snap = None

    def _snapshot(self) -> _Snapshot:
        with self._snap_lock:
            snap = self._snap
            if snap is None or not snap.up_to_date():
                snap = self._snap = _Snapshot(self.ix, self.path)
            return snap

    def count(self) -> int:
        return len(self._snapshot().live)

    def get(self, paper_id: str) -> Paper | None:
        snap = self._snapshot()
        doc = snap.docnum(paper_id)
        return snap.paper(doc) if doc is not None else None

    def ids_with_prefix(self, prefix: str, limit: int = 3) -> list[str]:
        snap = self._snapshot()
        with snap._lock:
            found = snap.reader.expand_prefix("id", prefix)
            return [btext.decode() for _, btext in zip(range(limit), found, strict=False)]

    def plan(self, query: str, snap: _Snapshot | None = None) -> _Plan | None:
        """Our query language -> Whoosh queries; None for the empty query;
        :class:`QueryError` when it cannot be parsed."""
        cleaned = clean(query)
        if not cleaned:
            return None
        snap = snap or self._snapshot()
        if self._parser is None:
            self._parser = _parser(self.ix.schema)
        try:
            strict = self._parser.parse(cleaned)
        except Exception as exc:
            raise QueryError(f"cannot read the query {query!r}: {exc}") from None
        strict = self._expand(strict, snap).normalize()
        # Words are all required, then partly; an explicit AND means all, and only all.
        loose = None if re.search(r"(?<!\S)AND(?!\S)", cleaned) else _loosen(strict)
        terms = _positive_terms(strict, {})
        exact = [w for w in plain_words(query) if len(w) > 1 and w not in STOP_WORDS]
        return _Plan(strict, loose, terms, exact)

    def _expand(self, q: wq.Query, snap: _Snapshot) -> wq.Query:
        """``word~`` and ``word*`` through the unstemmed vocabulary, then stemmed per field:
        ``learning*`` finds "learn", ``transformr~`` finds "transformers"."""

        vocabulary = self._vocabulary()

        def visit(node: wq.Query) -> wq.Query:
            if isinstance(node, wq.Phrase) and not snap.reader.schema[node.fieldname] \
                    .format.supports("positions"):
                return wq.And([wq.Term(node.fieldname, w, boost=node.boost)
                               for w in node.words])
            if isinstance(node, wq.FuzzyTerm):
                words = vocabulary.near(fold(node.text), node.maxdist, node.prefixlength)
            elif isinstance(node, wq.Prefix) and node.fieldname in ("title", "name",
                                                                     "abstract", "note",
                                                                     "authors"):
                words = vocabulary.starting(fold(node.text))
            else:
                return node
            fieldobj = snap.reader.schema[node.fieldname]
            stemmed = getattr(fieldobj, "stemmed", False)
            terms = {stem(w) if stemmed else w for w in words}
            if isinstance(node, wq.Prefix):
                stems = snap.reader.expand_prefix(node.fieldname, fold(node.text))
                terms.update(t.decode() for _, t in zip(range(_MAX_EXPANSION), stems,
                                                        strict=False))
            if not terms:
                return wq.NullQuery
            return wq.Or([wq.Term(node.fieldname, t, boost=node.boost) for t in sorted(terms)])

        return q.accept(visit)

    def suggest(self, query: str, snap: _Snapshot | None = None) -> str | None:
        """"Did you mean": the query with unknown words replaced by close known ones."""
        snap = snap or self._snapshot()
        reader = snap.reader
        vocabulary = self._vocabulary()
        changed = query
        any_change = False

        def frequency(word: str) -> int:
            return sum(reader.doc_frequency(f, stem(word)) for f in ("title", "abstract"))

        for word in dict.fromkeys(plain_words(query)):
            if len(word) < 3 or word in STOP_WORDS or (word in vocabulary and frequency(word)):
                continue
            best = None
            for dist in (1, 2):
                cands = [c for c in vocabulary.near(word, dist, 1) if frequency(c)]
                if cands:
                    best = max(cands, key=lambda w: (_common_prefix(w, word), frequency(w), w))
                    break
            if best and best != word:
                pattern = re.compile(rf"(?<!\w){re.escape(word)}(?!\w)", re.IGNORECASE)
                replaced = pattern.sub(best, changed)
                if replaced == changed:  # the typed form differs from the folded one
                    replaced = re.sub(rf"(?<!\w)\w*{re.escape(word[1:])}(?!\w)", best, changed,
                                      flags=re.IGNORECASE)
                any_change = any_change or replaced != changed
                changed = replaced
        return changed if any_change else None

    def search(self, query: str, *, sort: str = "relevance", limit: int | None = 50,
               offset: int = 0) -> SearchPage:
        results = ResultSet(self, query, sort)
        try:
            end = len(results) if limit is None else min(len(results), offset + limit)
            hits = [results.hit(i) for i in range(offset, end)]
            return SearchPage(hits, results.total, True, results.suggestion, results.error)
        finally:
            results.close()

    def results(self, query: str, *, sort: str = "relevance") -> ResultSet:
        return ResultSet(self, query, sort)

    def similar(self, paper_id: str, numterms: int = 12) -> ResultSet:
        """Papers like ``paper_id``: its key terms (Bo1 model) as a weighted query."""
        snap = self._snapshot()
        doc = snap.docnum(paper_id)
        if doc is None:
            return ResultSet(self, "", "relevance", error=f"no paper with id {paper_id!r}")
        paper = snap.paper(doc)
        text = f"{paper.display_title} {paper.display_title} {paper.display_abstract}"
        with snap._lock:
            key = snap.searcher.key_terms_from_text("abstract", text, numterms=numterms,
                                                     normalize=True)
        subqueries: list[wq.Query] = []
        for term, weight in key:
            subqueries.append(wq.Term("abstract", term, boost=weight))
            subqueries.append(wq.Term("title", term, boost=weight * _BOOSTS["title"]))
        q = wq.Or(subqueries)
        plan = _Plan(q, None, _positive_terms(q, {}))
        return ResultSet(self, "", "relevance", plan=plan, exclude={doc})

    def facets(self, query: str) -> dict[str, dict[str, int]]:
        """Hit counts per tag, status, venue and year for ``query`` (empty if it is invalid)."""
        results = ResultSet(self, query, "relevance")
        try:
            return {} if results.error else results.facets()
        finally:
            results.close()


class ResultSet:
    """Every hit of one query, in order, without loading any paper until asked.

    The set of hits is exact and cheap (posting-list set algebra), so ``len()`` is true.
    In relevance order (BM25F over the query's words, title boosted), papers matching all
    words come first, then those matching some. Valid until ``close()``; a query error is
    in ``error`` (never raised), with no hits.
    """

    def __init__(self, index: PaperIndex, query: str, sort: str = "relevance", *,
                 plan: _Plan | None = None, exclude: set[int] | None = None,
                 error: str | None = None) -> None:
        if sort not in SORTS:
            raise ValueError(f"unknown sort {sort!r}")
        self.query = query
        self.sort = sort
        self.error = error
        self._suggestion: str | None = None
        self._index = index
        self._exclude = frozenset(exclude or ())
        self._cache: dict[int, Paper] = {}
        self._docs: list[int] = []
        self._scores: dict[int, float] = {}
        self._partial: frozenset[int] | set[int] = frozenset()
        self._all: frozenset[int] | set[int] = frozenset()
        self._plan: _Plan | None = plan
        self._snap = index._snapshot()
        if error is not None:
            return
        try:
            if plan is None and query.strip():
                if mentions_annotations(clean(query)):
                    index.flush(timeout=5)  # let the background writer land first
                    self._snap = index._snapshot()
                with self._snap._lock:
                    self._plan = index.plan(query, self._snap)
            with self._snap._lock:
                self._run()
        except (QueryError, WhooshQueryError) as exc:
            self.error = str(exc)
            self._plan, self._docs, self._all = None, [], frozenset()

    def _run(self) -> None:
        snap, plan = self._snap, self._plan
        if plan is None:
            self._all = snap.live
            self._docs = snap.default_order if self.sort == "relevance" else \
                sorted(snap.live, key=snap.rank(self.sort).__getitem__)
            return
        strict = snap.docs(plan.strict) - self._exclude
        every = (snap.docs(plan.loose) - self._exclude) if plan.loose is not None else strict
        self._all = every
        if self.sort != "relevance":
            self._docs = sorted(every, key=snap.rank(self.sort).__getitem__)
            return
        if not plan.scoring:  # filters only (year:, tag: …): list order
            self._docs = sorted(every, key=snap.rank("list").__getitem__)
            return
        # Papers with all the words first; those with only some are ranked when someone
        # reads past the first group (a page of results rarely does).
        self._docs = self._ranked(strict)
        self._partial = every - strict if every is not strict else frozenset()

    def _ranked(self, docs: set[int] | frozenset[int]) -> list[int]:
        assert self._plan is not None
        scores = self._snap.scores(self._plan.scoring, docs)
        for d in docs:  # words in a filtered field only (tag:x): no score, still a hit
            scores.setdefault(d, 0.0)
        self._scores.update(scores)
        return sorted(sorted(docs), key=scores.__getitem__, reverse=True)

    def _rank_partial(self) -> None:
        if self._partial:
            with self._snap._lock:
                self._docs = self._docs + self._ranked(self._partial)
            self._partial = frozenset()

    def _doc(self, i: int) -> int:
        if i >= len(self._docs) and self._partial:
            self._rank_partial()
        return self._docs[i]

    def __len__(self) -> int:
        return len(self._all)

    @property
    def total(self) -> int:
        return len(self._all)

    @property
    def suggestion(self) -> str | None:
        """"Did you mean …" when nothing matched."""
        if self._suggestion is None and not self._all and not self.error and self.query:
            with self._snap._lock:
                self._suggestion = self._index.suggest(self.query, self._snap) or ""
        return self._suggestion or None

    def paper(self, i: int) -> Paper:
        doc = self._doc(i)
        paper = self._cache.get(doc)
        if paper is None:
            paper = self._cache[doc] = self._snap.paper(doc)
        return paper

    def ids(self) -> list[str]:
        """Every hit's paper id, in order, without loading any paper."""
        self._rank_partial()
        all_ids = self._snap.all_ids
        return [all_ids[doc] for doc in self._docs]

    def score(self, i: int) -> float | None:
        return self._scores.get(self._doc(i)) if self._plan is not None and \
            self.sort == "relevance" else None

    def highlights(self, i: int) -> Spans:
        """Spans of matched words in paper(i)'s display title and abstract."""
        if self._plan is None:
            return {}
        return highlight_spans(self.paper(i), self._plan.terms)

    def hit(self, i: int) -> Hit:
        return Hit(self.paper(i), self.score(i), self._plan.terms if self._plan else {})

    def index_of(self, paper_id: str) -> int | None:
        doc = self._snap.docnum(paper_id)
        if doc is None or doc not in self._all:
            return None
        if doc in self._partial:
            self._rank_partial()
        return self._docs.index(doc)

    def facets(self) -> dict[str, dict[str, int]]:
        """Counts per tag, status, venue and year among the hits, most frequent first."""
        with self._snap._lock:
            return self._facets()

    def _facets(self) -> dict[str, dict[str, int]]:
        snap, hits = self._snap, self._all
        everything = hits is snap.live
        out: dict[str, dict[str, int]] = {}
        for name, fieldname in (("tag", "tags"), ("status", "status"), ("venue", "venue"),
                                ("year", "year")):
            counts: dict[str, int] = {}
            for btext in snap.reader.lexicon(fieldname):
                docs = snap.term_docs(fieldname, btext)
                n = len(docs) if everything else len(docs & hits)
                if n:
                    counts[_facet_label(snap, fieldname, btext, docs)] = n
            if name == "status":  # "new" is stored as no status at all
                untriaged = len(hits) - sum(counts.values())
                if untriaged:
                    counts["new"] = untriaged
            order = (lambda kv: (-int(kv[0]), 0)) if name == "year" else \
                (lambda kv: (-kv[1], kv[0]))
            out[name] = dict(sorted(counts.items(), key=order))
        return out

    def close(self) -> None:
        """Forget the loaded papers; the shared searcher stays with the index."""
        self._cache.clear()


def _facet_label(snap: _Snapshot, fieldname: str, btext: bytes, docs: frozenset[int]) -> str:
    """Venues as written (``NeurIPS``); other values as indexed."""
    if fieldname == "venue" and docs:
        return snap.paper(next(iter(docs))).venue
    return btext.decode()

