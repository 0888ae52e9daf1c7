"""Everything Whoosh: schema, writing, query parsing, search. Nothing else imports whoosh.

The index is derived data: it can always be deleted and rebuilt from ``sources/``.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from whoosh import index as windex
from whoosh import qparser
from whoosh.analysis import StemmingAnalyzer
from whoosh.fields import BOOLEAN, ID, KEYWORD, NUMERIC, STORED, TEXT, Schema
from whoosh.lang import stemmer_for_language
from whoosh.query import Every, Prefix

from paper_tui.errors import QueryError
from paper_tui.model import Paper

SCHEMA_VERSION = 1
_VERSION_FILE = "paper-tui-index.json"
Progress = Callable[[int], None]
AnnotationFields = dict[str, Any]
"""``{"status": str, "starred": bool, "tags": list[str], "lists": list[str], "note": str}``"""
AnnotationLookup = Callable[[str], AnnotationFields | None]


def _schema() -> Schema:
    text = StemmingAnalyzer(stemfn=stemmer_for_language("en"))
    return Schema(
        id=ID(stored=True, unique=True),
        source=ID(stored=True),
        title=TEXT(analyzer=text, field_boost=2.0),
        name=TEXT(analyzer=text, field_boost=2.0),
        authors=TEXT(),
        abstract=TEXT(analyzer=text),
        venue=KEYWORD(lowercase=True),
        year=NUMERIC(int, sortable=True),
        keywords=KEYWORD(commas=True, lowercase=True),
        # The reader's annotations, mirrored from the YAML store so queries can combine
        # words with triage state. Derived: rebuilt from the store like everything here.
        tags=KEYWORD(commas=True, lowercase=True, stored=True),
        status=ID(stored=True),
        starred=BOOLEAN(stored=True),
        lists=KEYWORD(commas=True, lowercase=True, stored=True),
        note=TEXT(analyzer=text, stored=True),
        paper=STORED(),
    )


@dataclass(frozen=True)
class Hit:
    paper: Paper
    score: float | None = None


@dataclass
class SearchPage:
    hits: list[Hit]
    total: int
    exact: bool = True
    suggestion: str | None = None
    error: str | None = None
    facets: dict[str, dict[str, int]] = field(default_factory=dict)


class PaperIndex:
    """A Whoosh index in ``path``."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._ix: windex.Index | None = None

    # -- lifecycle -------------------------------------------------------------------------
    def open(self) -> bool:
        """Open the index, creating an empty one when missing, old or corrupt.

        Returns True when the index was (re)created and must be filled from the sources.
        """
        version_file = self.path / _VERSION_FILE
        try:
            version = json.loads(version_file.read_text())["schema"]
            if version == SCHEMA_VERSION and windex.exists_in(str(self.path)):
                self._ix = windex.open_dir(str(self.path))
                self._ix.doc_count()  # touch the TOC: a corrupt index fails here
                return False
        except Exception:  # missing, unreadable or corrupt: all mean "rebuild"
            pass
        self.create()
        return True

    def create(self) -> None:
        if self.path.exists():
            shutil.rmtree(self.path)
        self.path.mkdir(parents=True)
        self._ix = windex.create_in(str(self.path), _schema())
        (self.path / _VERSION_FILE).write_text(json.dumps({"schema": SCHEMA_VERSION}))

    @property
    def ix(self) -> windex.Index:
        if self._ix is None:
            self.open()
        assert self._ix is not None
        return self._ix

    def close(self) -> None:
        if self._ix is not None:
            self._ix.close()
            self._ix = None

    # -- writing ---------------------------------------------------------------------------
    @staticmethod
    def _annotation_doc(fields: AnnotationFields | None) -> dict:
        if not fields:
            return {}
        return {
            "tags": ",".join(fields.get("tags") or ()),
            "status": fields.get("status") or "",
            "starred": bool(fields.get("starred")),
            "lists": ",".join(fields.get("lists") or ()),
            "note": fields.get("note") or "",
        }

    @staticmethod
    def _document(paper: Paper) -> dict:
        return {
            "id": paper.id,
            "source": paper.source,
            "title": paper.display_title,
            "name": paper.name,
            "authors": " ; ".join(paper.authors),
            "abstract": paper.display_abstract,
            "venue": paper.venue,
            "year": paper.year,
            "keywords": ",".join(paper.keywords),
            "paper": paper.to_dict(),
        }

    def add(self, papers: Iterable[Paper], progress: Progress | None = None,
            annotations: AnnotationLookup | None = None) -> int:
        """Add or replace papers (by id), with their annotation fields when given."""
        count = 0
        with self.ix.writer() as writer:
            for paper in papers:
                doc = self._document(paper)
                if annotations is not None:
                    doc.update(self._annotation_doc(annotations(paper.id)))
                doc = {k: v for k, v in doc.items() if v not in (None, "")}
                writer.update_document(**doc)
                count += 1
                if progress and count % 500 == 0:
                    progress(count)
        if progress:
            progress(count)
        return count

    def set_annotations(self, paper_id: str, fields: AnnotationFields | None) -> None:
        """Mirror one paper's annotations into the index (the next search sees them)."""
        with self.ix.searcher() as searcher:
            stored = searcher.document(id=paper_id)
        if stored is None:
            return
        doc = self._document(Paper.from_dict(stored["paper"]))
        doc.update(self._annotation_doc(fields))
        with self.ix.writer() as writer:
            writer.update_document(**{k: v for k, v in doc.items() if v not in (None, "")})

    def delete(self, ids: Iterable[str]) -> None:
        with self.ix.writer() as writer:
            for paper_id in ids:
                writer.delete_by_term("id", paper_id)

    def ids_of_source(self, source: str) -> set[str]:
        with self.ix.searcher() as searcher:
            return {searcher.stored_fields(doc)["id"]
                    for doc in searcher.document_numbers(source=source)}

    # -- reading ---------------------------------------------------------------------------
    def count(self) -> int:
        return self.ix.doc_count()

    def get(self, paper_id: str) -> Paper | None:
        with self.ix.searcher() as searcher:
            fields = searcher.document(id=paper_id)
        return Paper.from_dict(fields["paper"]) if fields else None

    def ids_with_prefix(self, prefix: str, limit: int = 3) -> list[str]:
        with self.ix.searcher() as searcher:
            results = searcher.search(Prefix("id", prefix), limit=limit)
            return [hit["id"] for hit in results]

    def parse(self, query: str):
        """Our query language -> a Whoosh query; :class:`QueryError` when it cannot parse."""
        parser = qparser.MultifieldParser(["title", "name", "abstract", "authors"],
                                          self.ix.schema, group=qparser.OrGroup.factory(0.9))
        try:
            return parser.parse(query) if query.strip() else Every()
        except Exception as exc:
            raise QueryError(f"invalid query {query!r}: {exc}") from None

    def search(self, query: str, *, sort: str = "relevance", limit: int | None = 50,
               offset: int = 0) -> SearchPage:
        parsed = self.parse(query)
        sortedby = {"year": "year", "title": None}.get(sort)
        with self.ix.searcher() as searcher:
            want = None if limit is None else offset + limit
            if not query.strip() or sort == "title":
                docs = [(searcher.stored_fields(d)["paper"], None)
                        for d in searcher.search(parsed, limit=None, scored=False)
                        .docs()]
                papers = sorted((Paper.from_dict(p) for p, _ in docs),
                                key=lambda p: (p.venue, -(p.year or 0), p.display_title.lower()))
                page = papers[offset:want]
                return SearchPage([Hit(p) for p in page], len(papers))
            results = searcher.search(parsed, limit=want, sortedby=sortedby,
                                      reverse=sort == "year")
            hits = [Hit(Paper.from_dict(h["paper"]), h.score) for h in results[offset:want]]
            total = results.estimated_length() if not results.has_exact_length() else len(results)
            return SearchPage(hits, total, results.has_exact_length())


class ResultSet:
    """Every hit of one query, in order, without loading any paper until asked.

    Holds the doc numbers (and scores) only, so 87,549 hits cost a list of ints; a virtual
    list asks for ``paper(i)`` as rows scroll into view. Valid until ``close()``.
    """

    def __init__(self, index: PaperIndex, query: str, sort: str = "relevance") -> None:
        self.query = query
        self.sort = sort
        self.error: str | None = None
        self.suggestion: str | None = None
        self._searcher = index.ix.searcher()
        self._cache: dict[int, Paper] = {}
        self._docs: list[int] = []
        self._scores: list[float] = []
        try:
            self._run(index)
        except QueryError as exc:
            self.error = str(exc)

    def _run(self, index: PaperIndex) -> None:
        searcher = self._searcher
        if not self.query.strip() or self.sort == "title":
            parsed = Every() if not self.query.strip() else index.parse(self.query)
            docs = list(searcher.search(parsed, limit=None, scored=False).docs())

            def key(doc: int) -> tuple:
                p = searcher.stored_fields(doc)["paper"]
                if self.sort == "title":
                    return (p["display_title"].lower(),)
                return (p["venue"], -(p["year"] or 0), p["display_title"].lower())

            self._docs = sorted(docs, key=key)
            return
        results = searcher.search(index.parse(self.query), limit=None,
                                  sortedby="year" if self.sort == "year" else None,
                                  reverse=self.sort == "year")
        self._docs = [hit.docnum for hit in results]
        self._scores = [hit.score or 0.0 for hit in results]

    def __len__(self) -> int:
        return len(self._docs)

    @property
    def total(self) -> int:
        return len(self._docs)

    def paper(self, i: int) -> Paper:
        doc = self._docs[i]
        paper = self._cache.get(doc)
        if paper is None:
            paper = Paper.from_dict(self._searcher.stored_fields(doc)["paper"])
            self._cache[doc] = paper
        return paper

    def score(self, i: int) -> float | None:
        return self._scores[i] if self._scores else None

    def index_of(self, paper_id: str) -> int | None:
        for i in range(len(self._docs)):
            if self.paper(i).id == paper_id:
                return i
        return None

    def close(self) -> None:
        self._searcher.close()
