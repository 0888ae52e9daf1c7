"""The index in a library directory: open, rebuild, write, search."""

from __future__ import annotations

import json
import re
import shutil
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TypeVar

from whoosh import index as windex
from whoosh import qparser
from whoosh import query as wq
from whoosh.analysis.filters import STOP_WORDS
from whoosh.query.qcore import QueryError as WhooshQueryError

from paper_tui.errors import QueryError
from paper_tui.index.annotation_filter import AnnotationFilter, AnnotationSets, ArrivalSets
from paper_tui.index.fulltext import BodyTexts, body_extender
from paper_tui.index.plan import Plan, build_parser, loosen, positive_terms
from paper_tui.index.results import ResultSet, SearchPage, page_of
from paper_tui.index.reviewed import KeptReviews, extender
from paper_tui.index.schema import (
    BODY,
    BOOSTS,
    MAX_EXPANSION,
    META,
    REVIEW,
    SCHEMA_VERSION,
    VOCAB_FILE,
    Progress,
    build_schema,
    query_schema,
    stem,
)
from paper_tui.index.snapshot import Segments, Snapshot
from paper_tui.index.word_list import Vocabulary
from paper_tui.index.writer import Adder, open_writer
from paper_tui.model import Paper
from paper_tui.query.parse import ANNOTATION_FIELDS, clean, fold, plain_words
from paper_tui.trust import atomic

_OPEN_ATTEMPTS = 5
_READ_ATTEMPTS = 4
_META_FILE = "paper-tui-index.json"
T = TypeVar("T")


# -- the index -----------------------------------------------------------------------------
class PaperIndex:
    """A Whoosh index in ``path``: open/rebuild, write (import only), search.

    It holds only what comes from sources. The reader's annotations are answered at query
    time from ``annotations`` (the overlay's sets, see :meth:`use_annotations`)."""

    def __init__(self, path: Path, on_rebuild: Callable[[str], None] | None = None) -> None:
        """``on_rebuild(reason)``: told when an unreadable index is about to be rebuilt."""
        self.path = path
        self._ix: windex.Index | None = None
        self._snap: Snapshot | None = None
        self._snap_lock = threading.Lock()
        self._segments = Segments()  # what the views read from segment files, shared
        self._parser: qparser.QueryParser | None = None
        self._vocab = Vocabulary(path / VOCAB_FILE)
        self.annotations: AnnotationFilter | None = None
        self.on_rebuild = on_rebuild
        self.bodies: BodyTexts | None = None
        """The texts of the papers' PDFs (:mod:`paper_tui.index.fulltext`): read when a
        paper is written (its ``body``, ``has:pdf``) and for a snippet; None: none."""
        self.reviews: KeptReviews | None = None
        """The reviews and rating histories kept beside the sources
        (:mod:`paper_tui.index.reviewed`): read when a paper is written (``review``,
        ``meta``, ``rating_change``); None: none."""

    def use_annotations(self, sets: AnnotationSets, people: AnnotationSets | None = None,
                        lab: AnnotationSets | None = None,
                        arrivals: ArrivalSets | None = None) -> None:
        """Answer ``tag:``/``status:``/``starred:``/``list:``/``note:`` from ``sets``,
        ``by:NAME`` from ``people``, the team's words (``assigned:``, ``kept:``, …) from
        ``lab``, ``added:`` and ``watch:`` from ``arrivals``."""
        self.annotations = AnnotationFilter(sets, people, lab, arrivals)
        self._drop_snapshot()

    # -- lifecycle -------------------------------------------------------------------------
    def open(self) -> bool:
        """Open the index, creating an empty one when missing, old or corrupt.

        Returns True when the index was (re)created and must be filled from the sources.
        """
        try:
            meta = json.loads((self.path / _META_FILE).read_text())
        except (OSError, ValueError):  # missing or unreadable metadata: rebuild
            meta = None
        schema = meta.get("schema") if isinstance(meta, dict) else None
        if schema is not None and schema != SCHEMA_VERSION:
            self._announce(f"the search index in {self.path} was written by another version "
                           "of paper-tui; rebuilding it from the sources (annotations are "
                           "kept)")
        elif schema is not None:
            # Another process committing can delete the files of the generation we were
            # about to read: that looks like corruption for a moment. Only an index that
            # fails every attempt is rebuilt, so one process never wipes an index another
            # is using.
            error: Exception | None = None
            for attempt in range(_OPEN_ATTEMPTS):
                try:
                    self._ix = windex.open_dir(str(self.path), schema=build_schema())
                    self.view()  # reads the TOC and segments: a corrupt index fails
                    return False
                except Exception as exc:
                    error = exc
                    self._drop_snapshot()
                    self._ix = None
                    time.sleep(0.05 * (attempt + 1))
            self._announce(f"the search index in {self.path} cannot be read ({error}); "
                           "rebuilding it from the sources")
        self.create()
        return True

    def _announce(self, message: str) -> None:
        if self.on_rebuild is not None:
            self.on_rebuild(message)

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
        self._drop_snapshot()
        if self._ix is not None:
            self._ix.close()
            self._ix = None

    # -- what the index holds, by source -----------------------------------------------------
    def _read_meta(self) -> dict:
        try:
            meta = json.loads((self.path / _META_FILE).read_text())
        except (OSError, ValueError):
            meta = None
        if not isinstance(meta, dict) or not isinstance(meta.get("sources", {}), dict):
            return {"schema": SCHEMA_VERSION, "sources": {}}  # (open() rebuilds such an index)
        return meta

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
        self._drop_snapshot()

    def add(self, papers: Iterable[Paper], progress: Progress | None = None) -> int:
        """Add or replace papers (by id)."""
        with self.adding(progress) as adder:
            for paper in papers:
                adder.add(paper)
        return adder.count

    @contextmanager
    def adding(self, progress: Progress | None = None) -> Iterator[Adder]:
        """An open writer to stream papers into (one commit at the end); for an import
        that reads, stores and indexes a file in one pass."""
        with self._writer() as writer:
            extenders = (body_extender(self.bodies), extender(self.reviews))
            adder = Adder(writer, progress, [e for e in extenders if e is not None])
            yield adder
            adder.finish()
            self._vocabulary().extend(adder.words)  # under the writer's lock
        if progress:
            progress(adder.count)

    def rewrite(self, ids: Iterable[str]) -> int:
        """Write these papers again from their records in the index (what their PDF's text
        gives them came or went: :attr:`bodies`; their reviews changed: :attr:`reviews`);
        how many the index holds."""
        papers = [paper for paper in map(self.get, dict.fromkeys(ids)) if paper is not None]
        return self.add(papers) if papers else 0

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
        return self.reading(lambda: self._ids_of_source(source))

    def _ids_of_source(self, source: str) -> set[str]:
        ids: set[str] = set()
        self._each_id_of_source(source, ids.add)
        return ids

    def each_id_of_source(self, source: str, take: Callable[[str], object]) -> None:
        """``take(id)`` for each paper of ``source`` the index holds (a source of a million
        papers without a set of them; ``take`` may see an id twice if the view is read
        again)."""
        self.reading(lambda: self._each_id_of_source(source, take))

    def _each_id_of_source(self, source: str, take: Callable[[str], object]) -> None:
        snap = self.view()
        docs = snap.term_docs("source", source)
        for reader, offset in snap.leaves:
            end = offset + reader.doc_count_all()
            mine = docs[(docs >= offset) & (docs < end)] - offset
            if len(mine):
                column = reader.column_reader("id")
                for d in mine.tolist():
                    take(column[d])

    # -- reading ---------------------------------------------------------------------------
    def reading(self, read: Callable[[], T]) -> T:
        """``read()``, again on the newest generation if another process's commit removed
        files the view was reading (a writer merging segments deletes the old ones)."""
        for attempt in range(_READ_ATTEMPTS):
            try:
                return read()
            except (QueryError, KeyboardInterrupt):
                raise
            except Exception:
                if attempt == _READ_ATTEMPTS - 1:
                    raise
                self.reopen()
                time.sleep(0.02 * attempt)
        raise AssertionError("unreachable")

    def reopen(self) -> None:
        """Forget the view and the open index: the next read opens the newest generation."""
        self._drop_snapshot()
        ix, self._ix = self._ix, None
        if ix is not None:
            ix.close()
        self._ix = windex.open_dir(str(self.path), schema=build_schema())

    def _drop_snapshot(self) -> None:
        with self._snap_lock:
            self._snap = None

    def view(self) -> Snapshot:
        """The index as it is now: a point-in-time view (renewed when another commit made
        it stale), which :class:`ResultSet` and the other readers read from."""
        with self._snap_lock:
            snap = self._snap
            if snap is None or not snap.up_to_date():
                snap = self._snap = Snapshot(self.ix, self.path, self._segments,
                                             self.annotations)
            return snap

    def count(self) -> int:
        return self.reading(lambda: self.view().live_count)

    def has_rating_changes(self) -> bool:
        """Whether a paper of the index has a rating change (its history two points)."""
        def read() -> bool:
            view = self.view()
            changes = view.signals.columns["rating_change"][view.live]
            return bool((changes == changes).any())  # NaN, unknown, is not itself

        return self.reading(read)

    def get(self, paper_id: str) -> Paper | None:
        def read() -> Paper | None:
            snap = self.view()
            doc = snap.docnum(paper_id)
            return snap.paper(doc) if doc is not None else None

        return self.reading(read)

    def ids_with_prefix(self, prefix: str, limit: int = 3) -> list[str]:
        """Up to ``limit`` ids of papers in the library starting with ``prefix``: the term
        list still holds the ids of papers a re-import dropped until segments merge."""
        def read() -> list[str]:
            snap = self.view()
            with snap.exclusive():
                live = (btext for btext in snap.reader.expand_prefix("id", prefix)
                        if len(snap.postings("id", btext).ids))
                return [btext.decode() for _, btext in zip(range(limit), live,
                                                           strict=False)]

        return self.reading(read)

    def plan(self, query: str, snap: Snapshot | None = None) -> Plan | None:
        """Our query language -> Whoosh queries; None for the empty query;
        :class:`QueryError` when it cannot be parsed."""
        cleaned = clean(query, self.annotations.watch_query
                        if self.annotations is not None else None)
        if not cleaned:
            return None
        snap = snap or self.view()
        if self._parser is None:
            self._parser = build_parser(query_schema())
        try:
            strict = self._parser.parse(cleaned)
            if strict is wq.NullQuery and (negated := _exclusions_alone(cleaned)):
                strict = self._parser.parse(negated)
        except Exception as exc:
            shown = query if len(query) <= 100 else query[:99] + "…"
            raise QueryError(f"cannot read the query {shown!r}: {exc}") from None
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
            if isinstance(node, wq.Term | wq.Phrase | wq.PatternQuery) and \
                    node.fieldname is None:  # a lone boost Whoosh gave no field: "a (^2)"
                return wq.NullQuery
            if getattr(node, "fieldname", None) in ANNOTATION_FIELDS:
                return node  # the overlay expands these against its own values
            if isinstance(node, wq.Phrase) and not snap.reader.schema[node.fieldname] \
                    .format.supports("positions"):
                return wq.And([wq.Term(node.fieldname, w, boost=node.boost)
                               for w in node.words])
            if isinstance(node, wq.FuzzyTerm):
                words = vocabulary.near(fold(node.text), node.maxdist, node.prefixlength)
            elif isinstance(node, wq.Prefix) and node.fieldname in ("title", "name",
                                                                     "abstract", "authors"):
                words = vocabulary.starting(fold(node.text))
            elif isinstance(node, wq.Prefix) and node.fieldname in (BODY, REVIEW, META):
                words = []  # the field's own stems, at most MAX_EXPANSION of them (below)
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

    def search(self, query: str, *, sort: str = "relevance", limit: int | None = 50,
               offset: int = 0, all_versions: bool = False) -> SearchPage:
        return self.reading(lambda: page_of(self._result_set(query, sort, all_versions),
                                            limit, offset))

    def results(self, query: str, *, sort: str = "relevance", all_versions: bool = False
                ) -> ResultSet:
        return self.reading(lambda: self._result_set(query, sort, all_versions))

    def versions_of(self, paper_id: str) -> tuple[str, ...]:
        """The ids of every version of a paper from two sources, the one shown first;
        ``(paper_id,)`` when it has none (a lookup in a table made once per view; the
        view last read, not a fresh look at the disk: this runs for every row drawn)."""
        view = self._snap
        if view is None:
            view = self.reading(self.view)
        return view.version_ids.get(paper_id, (paper_id,))

    def _result_set(self, query: str, sort: str, all_versions: bool = False) -> ResultSet:
        """The hits of ``query`` in the current view (a query error in their ``error``)."""
        view = self.view()
        try:
            with view.exclusive():
                plan = self.plan(query, view) if query.strip() else None
        except (QueryError, WhooshQueryError) as exc:
            return ResultSet(view, query, sort, error=str(exc))
        return ResultSet(view, query, sort, plan=plan, vocabulary=self._vocabulary(),
                         all_versions=all_versions, bodies=self.bodies)

    def similar(self, paper_id: str, numterms: int = 12) -> ResultSet:
        """Papers like ``paper_id``: its key terms (Bo1 model) as a weighted query."""
        snap = self.view()
        doc = snap.docnum(paper_id)
        if doc is None:
            return ResultSet(snap, "", "relevance", error=f"no paper with id {paper_id!r}")
        paper = snap.paper(doc)
        text = f"{paper.display_title} {paper.display_title} {paper.display_abstract}"
        with snap.exclusive():
            key = snap.searcher.key_terms_from_text("abstract", text, numterms=numterms,
                                                     normalize=True)
        subqueries: list[wq.Query] = []
        for term, weight in key:
            subqueries.append(wq.Term("abstract", term, boost=weight))
            subqueries.append(wq.Term("title", term, boost=weight * BOOSTS["title"]))
        q = wq.Or(subqueries)
        plan = Plan(q, None, positive_terms(q, {}))
        return ResultSet(snap, "", "relevance", plan=plan, exclude={doc})

    def facets(self, query: str) -> dict[str, dict[str, int]]:
        """Hit counts per tag, status, venue and year for ``query`` (empty if it is invalid)."""
        def read() -> dict[str, dict[str, int]]:
            results = self._result_set(query, "relevance")
            try:
                return {} if results.error else results.facets()
            finally:
                results.close()

        return self.reading(read)


_MINUS = re.compile(r"(?<![^\s(])-(?=[^\s\-])")


def _exclusions_alone(cleaned: str) -> str | None:
    """``-diffusion -tag:x`` as ``NOT diffusion NOT tag:x``: a query of exclusions alone
    means every paper but those (Whoosh's ``-`` excludes from the other words, and with
    none it matched nothing); None when the query has no ``-`` word."""
    negated = _MINUS.sub("NOT ", cleaned)
    return negated if negated != cleaned else None
