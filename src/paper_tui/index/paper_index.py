"""The index in a library directory: open, rebuild, write, search."""

from __future__ import annotations

import json
import re
import shutil
import threading
import time
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path

from whoosh import index as windex
from whoosh import qparser
from whoosh import query as wq
from whoosh.analysis.filters import STOP_WORDS

from paper_tui import atomic
from paper_tui.errors import QueryError
from paper_tui.index.plan import Plan, build_parser, loosen, positive_terms
from paper_tui.index.results import ResultSet, SearchPage
from paper_tui.index.schema import (
    BOOSTS,
    MAX_EXPANSION,
    SCHEMA_VERSION,
    VOCAB_FILE,
    AnnotationFields,
    AnnotationLookup,
    Progress,
    build_schema,
    stem,
)
from paper_tui.index.snapshot import Segments, Snapshot
from paper_tui.index.vocabulary import Vocabulary, common_prefix
from paper_tui.index.writer import Adder, document, open_writer
from paper_tui.model import Paper
from paper_tui.query import clean, fold, plain_words

_OPEN_ATTEMPTS = 5
_META_FILE = "paper-tui-index.json"
# Annotation changes reach the index once the changes stop for QUIET seconds (at most
# LATEST after the first): a burst of triage keys is one index write, made while the reader
# reads, not one write per key competing with the next key for the interpreter. A search
# that needs them (flush) has them written at once.
_MIRROR_QUIET = 0.3
_MIRROR_LATEST = 2.0


# -- the index -----------------------------------------------------------------------------
class PaperIndex:
    """A Whoosh index in ``path``: open/rebuild, write (import and annotations), search."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._ix: windex.Index | None = None
        self._snap: Snapshot | None = None
        self._snap_lock = threading.Lock()
        self._segments = Segments()  # what the views read from segment files, shared
        self._pending: dict[str, AnnotationFields | None] = {}
        self._writing: dict[str, AnnotationFields | None] = {}
        self._cv = threading.Condition()
        self._writer_thread: threading.Thread | None = None
        self._write_error: str | None = None
        self._urgent = 0  # callers waiting in flush(): write without waiting for quiet
        self._last_change = self._first_change = 0.0
        self._parser: qparser.QueryParser | None = None
        self._vocab = Vocabulary(path / VOCAB_FILE)

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

    def _vocabulary(self) -> Vocabulary:
        return self._vocab

    def create(self) -> None:
        self._drop_snapshot()
        if self.path.exists():
            shutil.rmtree(self.path, ignore_errors=True)
        self.path.mkdir(parents=True, exist_ok=True)
        self._ix = windex.create_in(str(self.path), build_schema())
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
    @contextmanager
    def _writer(self, timeout: float = 60.0):
        """A writer (see :mod:`paper_tui.index.writer`), waiting up to ``timeout`` for
        another process's lock; the view is renewed after the commit."""
        with open_writer(self.ix, self.path, timeout) as writer:
            yield writer
        self._stale()

    def add(self, papers: Iterable[Paper], progress: Progress | None = None,
            annotations: AnnotationLookup | None = None) -> int:
        """Add or replace papers (by id), with their annotation fields when given."""
        with self.adding(progress, annotations) as adder:
            for paper in papers:
                adder.add(paper)
        return adder.count

    @contextmanager
    def adding(self, progress: Progress | None = None,
               annotations: AnnotationLookup | None = None) -> Iterator[Adder]:
        """An open writer to stream papers into (one commit at the end); for an import
        that reads, stores and indexes a file in one pass."""
        with self._writer() as writer:
            adder = Adder(writer, progress, annotations)
            yield adder
            adder.finish()
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
        docs = snap.term_docs("source", source).tolist()
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
            now = time.monotonic()
            if not self._pending:
                self._first_change = now
            self._last_change = now
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
                self._wait_for_quiet()
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
                docs.append(document(snap.paper(doc), fields))
        if not docs:
            return
        with self._writer(timeout=600) as writer:
            for doc in docs:
                writer.update_document(**doc)
        self._snapshot().default_order  # noqa: B018  (warm the new view off the caller's path)

    def _wait_for_quiet(self) -> None:
        """With the condition held: until the changes pause, someone flushes, or we close."""
        while self._writer_thread is not None and not self._urgent:
            now = time.monotonic()
            left = min(self._last_change + _MIRROR_QUIET, self._first_change + _MIRROR_LATEST)
            if left <= now:
                return
            self._cv.wait(left - now)

    def flush(self, timeout: float | None = None) -> bool:
        """Wait until every annotation change is in the index; False on timeout."""
        with self._cv:
            self._urgent += 1
            self._cv.notify_all()
            try:
                return self._cv.wait_for(lambda: not self._pending and not self._writing,
                                         timeout)
            finally:
                self._urgent -= 1

    # -- reading ---------------------------------------------------------------------------
    def _stale(self) -> None:
        with self._snap_lock:
            self._snap = None

    def _drop_snapshot(self) -> None:
        with self._snap_lock:
            self._snap = None

    def _snapshot(self) -> Snapshot:
        with self._snap_lock:
            snap = self._snap
            if snap is None or not snap.up_to_date():
                snap = self._snap = Snapshot(self.ix, self.path, self._segments)
            return snap

    def count(self) -> int:
        return self._snapshot().live_count

    def get(self, paper_id: str) -> Paper | None:
        snap = self._snapshot()
        doc = snap.docnum(paper_id)
        return snap.paper(doc) if doc is not None else None

    def ids_with_prefix(self, prefix: str, limit: int = 3) -> list[str]:
        snap = self._snapshot()
        with snap._lock:
            found = snap.reader.expand_prefix("id", prefix)
            return [btext.decode() for _, btext in zip(range(limit), found, strict=False)]

    def plan(self, query: str, snap: Snapshot | None = None) -> Plan | None:
        """Our query language -> Whoosh queries; None for the empty query;
        :class:`QueryError` when it cannot be parsed."""
        cleaned = clean(query)
        if not cleaned:
            return None
        snap = snap or self._snapshot()
        if self._parser is None:
            self._parser = build_parser(self.ix.schema)
        try:
            strict = self._parser.parse(cleaned)
        except Exception as exc:
            raise QueryError(f"cannot read the query {query!r}: {exc}") from None
        strict = self._expand(strict, snap).normalize()
        # Words are all required, then partly; an explicit AND means all, and only all.
        loose = None if re.search(r"(?<!\S)AND(?!\S)", cleaned) else loosen(strict)
        terms = positive_terms(strict, {})
        exact = [w for w in plain_words(query) if len(w) > 1 and w not in STOP_WORDS]
        return Plan(strict, loose, terms, exact)

    def _expand(self, q: wq.Query, snap: Snapshot) -> wq.Query:
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
                terms.update(t.decode() for _, t in zip(range(MAX_EXPANSION), stems,
                                                        strict=False))
            if not terms:
                return wq.NullQuery
            return wq.Or([wq.Term(node.fieldname, t, boost=node.boost) for t in sorted(terms)])

        return q.accept(visit)

    def suggest(self, query: str, snap: Snapshot | None = None) -> str | None:
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
                    best = max(cands, key=lambda w: (common_prefix(w, word), frequency(w), w))
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
            subqueries.append(wq.Term("title", term, boost=weight * BOOSTS["title"]))
        q = wq.Or(subqueries)
        plan = Plan(q, None, positive_terms(q, {}))
        return ResultSet(self, "", "relevance", plan=plan, exclude={doc})

    def facets(self, query: str) -> dict[str, dict[str, int]]:
        """Hit counts per tag, status, venue and year for ``query`` (empty if it is invalid)."""
        results = ResultSet(self, query, "relevance")
        try:
            return {} if results.error else results.facets()
        finally:
            results.close()

