"""The index's own terms as a documents x terms matrix (term frequencies), for learning
what a reader likes (:mod:`paper_tui.recommend`) without tokenizing every abstract again.

Read straight from the posting lists of the source fields (title, name, abstract,
authors, venue; never the reader's annotations), a term at a time. Terms in fewer than
:data:`MIN_DF` papers are left out: a word only one paper has never ranks another. The
matrix is cached in ``<library>/cache/`` under a key of what the index was built from (its
sources' checksums, the schema, the paper count), so a new process loads it instead of
walking every posting list; deleting the file changes nothing but time. Rows are keyed by
paper id, not document number: an index rewrite of the same papers (annotations mirrored
into it, a compaction) keeps the cached matrix valid.

For a library too big to hold whole (the recommender's bound), :func:`sample_matrix`,
:func:`papers_matrix` and :func:`sharing` give the rows of some papers only, analysed from
their stored records as the index writer analyses them (:func:`paper_terms`), with the
library's document frequencies (:func:`library_df`).
"""

from __future__ import annotations

import hashlib
import json
import os
import threading
import weakref
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
from scipy import sparse

from paper_tui.index.blocks import blocks
from paper_tui.index.schema import SCHEMA_VERSION, folded_positions, folded_words, terms_of
from paper_tui.index.whoosh_internals import term_matcher
from paper_tui.model import Paper
from paper_tui.query.parse import fold

if TYPE_CHECKING:
    from paper_tui.index.paper_index import PaperIndex
    from paper_tui.index.snapshot import Snapshot

FIELDS = ("title", "name", "abstract", "authors", "venue")
"""The source fields whose terms describe a paper (``keywords`` is left out on purpose: a
list either has them or not, and the benchmark must not see them)."""
MIN_DF = 2
FORMAT = 1  # bump when the file's layout or the terms kept change
CACHE_DIR = "cache"
_PREFIX = "recommend-terms-"
_SAMPLE_PREFIX = "recommend-sample-"


@dataclass(frozen=True, eq=False)
class TermMatrix:
    """Term frequencies of every paper in the index: ``counts[row, column]``."""

    ids: tuple[str, ...]
    """The paper id of each row."""
    terms: tuple[str, ...]
    """Each column's term as ``field:term`` (stemmed as the field is: ``abstract:learn``)."""
    counts: sparse.csr_matrix  # float32
    row_of: dict[str, int] = field(repr=False, default_factory=dict)
    df: np.ndarray | None = field(repr=False, default=None)
    """For a matrix of some of the papers: how many of the library's ``papers`` hold each
    term (its IDF is the library's, not these rows')."""
    papers: int = 0

    def __post_init__(self) -> None:
        if not self.row_of:
            self.row_of.update((paper_id, row) for row, paper_id in enumerate(self.ids))

    def rows(self, ids: list[str]) -> np.ndarray:
        """The rows of the ids this matrix has (ids it lacks are left out), as int64."""
        row_of = self.row_of
        return np.fromiter((row_of[i] for i in ids if i in row_of), dtype=np.int64)


_memory: weakref.WeakKeyDictionary[PaperIndex, tuple[str, TermMatrix]] = \
    weakref.WeakKeyDictionary()
_lock = threading.Lock()


def term_matrix(index: PaperIndex) -> TermMatrix:
    """The index's term matrix: from memory, from the cache file, or read from the
    posting lists (and cached) when neither matches what the index now holds."""
    snap = index.view()
    return _cached(_memory, index, _key(index, snap.live_count), _PREFIX,
                   lambda: _read(snap))


def _cached(memory: weakref.WeakKeyDictionary[PaperIndex, tuple[str, TermMatrix]],
            index: PaperIndex, key: str, prefix: str,
            build: Callable[[], TermMatrix]) -> TermMatrix:
    """The matrix under ``key``: from ``memory``, from its cache file, or built (and
    cached in both)."""
    with _lock:
        kept = memory.get(index)
        if kept is not None and kept[0] == key:
            return kept[1]
        path = index.path.parent / CACHE_DIR / f"{prefix}{key}.npz"
        found = _load(path)
        if found is None:
            found = build()
            _save(path, found, prefix)
        memory[index] = (key, found)
        return found


def surface_words(paper: Paper) -> dict[str, str]:
    """``{"field:term": the word as the paper writes it}`` for the paper's title, name and
    abstract terms (a stem such as ``learn`` shows as "learning"), and each author word
    mapped to the author's whole name."""
    out: dict[str, str] = {}
    for fieldname, text in (("title", paper.display_title), ("name", paper.name),
                            ("abstract", paper.display_abstract)):
        for _, term, start, end in terms_of(text or ""):
            out.setdefault(f"{fieldname}:{term}", text[start:end])
    for author in paper.authors:
        for _, term, _, _ in terms_of(author, stemmed=False):
            out.setdefault(f"authors:{term}", author)
    if paper.venue:
        out.setdefault(f"venue:{paper.venue.casefold()}", paper.venue)
    return out


# -- a bounded set of papers, from their records ------------------------------------------
def paper_terms(paper: Paper) -> dict[str, int]:
    """``{"field:term": frequency}`` of the paper's :data:`FIELDS`, analysed as the index
    writer analyses them (the same terms its posting lists hold for the paper)."""
    out: dict[str, int] = {}
    for fieldname, text, stemmed in (("title", paper.display_title, True),
                                     ("name", paper.name, True),
                                     ("abstract", paper.display_abstract, True),
                                     ("authors", " ; ".join(paper.authors), False)):
        if text:
            for term, positions in folded_positions(folded_words(text), stemmed).items():
                out[f"{fieldname}:{term}"] = len(positions)
    if paper.venue:
        out[f"venue:{fold(paper.venue)}"] = 1
    return out


def papers_matrix(index: PaperIndex, ids: list[str],
                  terms: tuple[str, ...] | None = None, min_df: int = MIN_DF) -> TermMatrix:
    """The term matrix of just ``ids`` (those the index holds, in that order), analysed
    from their stored records: work in proportion to ``len(ids)``, whatever the library's
    size. Its columns are ``terms`` when given (others left out), else every term at least
    ``min_df`` of these papers hold."""
    snap = index.view()
    docs = (snap.docnum(paper_id) for paper_id in dict.fromkeys(ids))
    return _analysed(snap, [d for d in docs if d is not None], terms, min_df)


def sample_matrix(index: PaperIndex, size: int, seed: int = 0) -> TermMatrix:
    """The term matrix of ``size`` papers of the index drawn at random (the same ones for
    the same index: a fixed ``seed``), all of them when it holds no more, with every term
    they hold (one paper's word may be a labelled paper's: an author); kept in memory and
    in the cache directory (``recommend-sample-*.npz``) while the index holds the same
    papers."""
    snap = index.view()

    def build() -> TermMatrix:
        live = np.flatnonzero(np.asarray(snap.live))
        if len(live) > size:
            live = np.sort(np.random.default_rng(seed).choice(live, size, replace=False))
        found = _analysed(snap, [int(d) for d in live], None, 1)
        df = library_df(index, found.terms)
        keep = np.flatnonzero(df >= MIN_DF)  # as the whole library's matrix keeps
        return TermMatrix(found.ids, tuple(found.terms[i] for i in keep),
                          found.counts[:, keep].tocsr(), df=df[keep],
                          papers=int(snap.live_count))

    return _cached(_samples, index, _key(index, snap.live_count, f"{size}-{seed}"),
                   _SAMPLE_PREFIX, build)


def sharing(index: PaperIndex, weights: dict[str, float], count: int,
            terms: tuple[str, ...]) -> TermMatrix:
    """The term matrix (columns ``terms``) of the ``count`` papers whose terms weigh most
    under ``weights`` (``{"field:term": weight > 0}``), each term counting ``weight * (1 +
    log frequency)``: found from those terms' posting lists alone (work in proportion to
    them, not to the library), best first."""
    snap = index.view()
    total = np.zeros(snap.size, dtype=np.float32)
    for term, weight in weights.items():
        fieldname, _, text = term.partition(":")
        docs, frequency = snap.postings(fieldname, text.encode())
        total[docs] += weight * (1 + np.log(frequency))
    held = np.flatnonzero(total)
    if len(held) > count:
        held = held[np.argpartition(-total[held], count - 1)[:count]]
    held = held[np.lexsort((held, -total[held]))]
    return _analysed(snap, held.tolist(), terms)


def library_df(index: PaperIndex, terms: tuple[str, ...]) -> np.ndarray:
    """How many of the index's papers hold each ``field:term`` (deleted ones counted
    until a merge drops them), looked up term by term (int64)."""
    reader = index.view().reader
    out = np.zeros(len(terms), dtype=np.int64)
    for i, term in enumerate(terms):
        fieldname, _, text = term.partition(":")
        out[i] = reader.doc_frequency(fieldname, text.encode())
    return out


_samples: weakref.WeakKeyDictionary[PaperIndex, tuple[str, TermMatrix]] = \
    weakref.WeakKeyDictionary()


def _analysed(snap: Snapshot, docs: list[int], terms: tuple[str, ...] | None,
              min_df: int = MIN_DF) -> TermMatrix:
    rows: list[str] = []
    found: list[dict[str, int]] = []
    for doc in docs:
        paper = Paper.from_dict(snap.stored(doc)["paper"])
        rows.append(paper.id)
        found.append(paper_terms(paper))
    if terms is None:
        df: dict[str, int] = {}
        for held in found:
            for term in held:
                df[term] = df.get(term, 0) + 1
        terms = tuple(sorted(t for t, n in df.items() if n >= min_df))
    column_of = {term: i for i, term in enumerate(terms)}
    indptr = [0]
    columns: list[int] = []
    values: list[int] = []
    for held in found:
        for term, count in held.items():
            column = column_of.get(term)
            if column is not None:
                columns.append(column)
                values.append(count)
        indptr.append(len(columns))
    counts = sparse.csr_matrix((np.array(values, dtype=np.float32),
                                np.array(columns, dtype=np.int32),
                                np.array(indptr, dtype=np.int64)),
                               shape=(len(rows), len(terms)), dtype=np.float32)
    counts.sort_indices()
    return TermMatrix(tuple(rows), terms, counts)


# -- reading the posting lists ------------------------------------------------------------
def _read(snap: Snapshot) -> TermMatrix:
    live = np.asarray(snap.live)
    live_docs = np.flatnonzero(live)
    row_of_doc = np.full(len(live), -1, dtype=np.int64)
    row_of_doc[live_docs] = np.arange(len(live_docs))
    terms: list[str] = []
    columns: list[np.ndarray] = []
    rows: list[np.ndarray] = []
    values: list[np.ndarray] = []
    with snap.exclusive():
        for fieldname, btext, docs, weights in _postings(snap):
            mine = row_of_doc[docs]
            keep = mine >= 0
            if np.count_nonzero(keep) < MIN_DF:
                continue
            rows.append(mine[keep])
            values.append(weights[keep])
            columns.append(np.full(len(rows[-1]), len(terms), dtype=np.int32))
            terms.append(f"{fieldname}:{btext.decode('utf-8', 'replace')}")
        all_ids = snap.all_ids
    ids = tuple(all_ids[d] for d in live_docs)
    shape = (len(ids), len(terms))
    # (data, (rows, columns)) even when empty: scipy-stubs 1.17 types csr_matrix(shape) as
    # float64 only
    empty = [np.zeros(0, dtype=np.int32)]
    counts = sparse.csr_matrix((np.concatenate(values or [np.zeros(0)]).astype(np.float32),
                                (np.concatenate(rows or empty),
                                 np.concatenate(columns or empty))),
                               shape=shape, dtype=np.float32)
    return TermMatrix(ids, tuple(terms), counts)


def _postings(snap: Snapshot) -> Iterator[tuple[str, bytes, np.ndarray, np.ndarray]]:
    """(field, term, global doc numbers, frequencies) of every term in :data:`FIELDS` held
    by at least :data:`MIN_DF` documents (deleted ones counted), read from each segment's
    blocks without going through the search caches (this reads everything once)."""
    schema = snap.reader.schema
    for fieldname in FIELDS:
        if fieldname not in schema:
            continue
        for btext, info in snap.reader.iter_field(fieldname):
            if info.doc_frequency() < MIN_DF:
                continue
            docs: list[np.ndarray] = []
            weights: list[np.ndarray] = []
            for reader, offset in snap.leaves:
                m = term_matcher(reader, fieldname, btext)
                if m is None:
                    continue
                for ids, ws, _ in blocks(m):
                    docs.append(ids.astype(np.int64) + offset)
                    weights.append(ws)
            if docs:
                yield fieldname, btext, np.concatenate(docs), np.concatenate(weights)


# -- the cache file -----------------------------------------------------------------------
def _key(index: PaperIndex, live_count: int, extra: str = "") -> str:
    """What the matrix depends on: the sources indexed (their checksums), the analysis
    (schema version), the terms kept, and how many papers there are (and ``extra``: a
    sample's size and seed)."""
    what = json.dumps([FORMAT, SCHEMA_VERSION, FIELDS, MIN_DF, live_count,
                       sorted(index.indexed_sources().items())] + ([extra] if extra else []))
    return hashlib.blake2b(what.encode(), digest_size=10).hexdigest()


def _save(path: Path, found: TermMatrix, prefix: str = _PREFIX) -> None:
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(path.name + ".tmp")
        with open(tmp, "wb") as out:
            arrays = {"data": found.counts.data, "indices": found.counts.indices,
                      "indptr": found.counts.indptr, "shape": np.array(found.counts.shape),
                      "ids": _joined(found.ids), "terms": _joined(found.terms)}
            if found.df is not None:
                arrays.update(df=found.df, papers=np.array(found.papers))
            np.savez(out, allow_pickle=False, **arrays)
        os.replace(tmp, path)
        for old in path.parent.glob(f"{prefix}*.npz"):
            if old != path:
                old.unlink(missing_ok=True)
    except OSError:  # a read-only library still recommends, just without the cache
        pass


def _load(path: Path) -> TermMatrix | None:
    """The cached matrix; None when there is none or it cannot be read, for whatever
    reason (numpy and zipfile raise a dozen kinds for a damaged file): it is rebuilt."""
    try:
        with np.load(path) as data:
            n_ids, n_terms = (int(n) for n in data["shape"])  # not two: ValueError
            shape = (n_ids, n_terms)
            counts = sparse.csr_matrix((data["data"], data["indices"], data["indptr"]),
                                       shape=shape)
            counts.check_format(full_check=True)  # no index out of bounds
            ids, terms = _split(data["ids"]), _split(data["terms"])
            df = np.asarray(data["df"], dtype=np.int64) if "df" in data else None
            papers = int(data["papers"]) if "papers" in data else 0
    except Exception:
        return None
    if len(ids) != shape[0] or len(terms) != shape[1] or (df is not None
                                                           and len(df) != len(terms)):
        return None
    return TermMatrix(ids, terms, counts, df=df, papers=papers)


def _joined(items: tuple[str, ...]) -> np.ndarray:
    return np.frombuffer("\n".join(items).encode(), dtype=np.uint8)


def _split(data: np.ndarray) -> tuple[str, ...]:
    text = data.tobytes().decode()
    return tuple(text.split("\n")) if text else ()
