"""Search results: hits, highlights, fragments, and the lazy result set."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Protocol, runtime_checkable

from whoosh.query.qcore import QueryError as WhooshQueryError

from paper_tui.errors import QueryError
from paper_tui.index.fulltext import BodyTexts, fragments, snippet, without_body
from paper_tui.index.lazy import cached, np
from paper_tui.index.plan import Plan
from paper_tui.index.schema import BODY, META, REVIEW, SORTS, Spans, terms_of
from paper_tui.index.signals import FACET_NAMES, SIGNAL_SORTS
from paper_tui.index.snapshot import Snapshot
from paper_tui.index.word_list import Vocabulary, did_you_mean
from paper_tui.model import Paper
from paper_tui.query import team as team_words
from paper_tui.query.parse import ANNOTATION_FIELDS

TOP = 100
MATCH_FIELDS = ("title", "name", "abstract", "authors", "keywords", BODY, REVIEW, META)
"""Where a hit may have matched (:attr:`Hit.matched_in`); ``title_exact`` is the title."""
_MATCHED_AS = {"title_exact": "title"}
"""Hits ranked when a query runs; the rest are ranked as someone scrolls to them."""
TEAM_FACETS = (("assigned", team_words.ASSIGNED), ("kept", team_words.KEPT),
               ("kept-by", team_words.KEPT_BY), ("team", team_words.TEAM))
"""The team's words among the facets: (facet, the engine's field); ``team`` counts the
disputed and the untouched."""


# -- results -------------------------------------------------------------------------------
@dataclass(frozen=True)
class Hit:
    """One search result. ``highlights`` (spans of matched words in the paper's display
    title and abstract) is worked out on first access."""

    paper: Paper
    score: float | None = None
    _terms: dict[str, set[str]] = field(default_factory=dict, repr=False, compare=False)
    _where: Callable[[], tuple[str, ...]] | None = field(default=None, repr=False,
                                                         compare=False)
    _body: Callable[[], str | None] | None = field(default=None, repr=False, compare=False)

    @cached
    def highlights(self) -> Spans:
        return highlight_spans(self.paper, self._terms)

    @cached
    def matched_in(self) -> tuple[str, ...]:
        """Where the query's words are in the paper: of :data:`MATCH_FIELDS`, in that order
        (``body``: the text of its PDF); worked out on first access. Empty where the set
        does not say (no query)."""
        return self._where() if self._where is not None else ()

    def snippet(self) -> str | None:
        """The text of the paper's PDF around the first matches of the query's words in
        it (``«like this»``, one inert line); None when the query did not match there."""
        if BODY not in self.matched_in or self._body is None:
            return None
        text = self._body()
        return snippet(text, self._terms.get(BODY, ())) or None if text else None

    def fragments(self) -> dict[str, str]:
        """The matched words marked ``«like this»``: the whole title, bits of the abstract."""
        texts = {"title": self.paper.display_title, "abstract": self.paper.display_abstract}
        return {name: fragments(texts[name], spans, width=len(texts[name]) if name == "title"
                                else 80) for name, spans in self.highlights.items()}


@dataclass
class SearchPage:
    hits: list[Hit]
    total: int
    suggestion: str | None = None
    error: str | None = None


@runtime_checkable
class Results(Protocol):
    """Hits in order, each paper loaded only when asked for: what the fronts read of any
    result set. :class:`ResultSet` (a query's hits in the index), the recommender's "for
    you" order and an opened reading list's papers all are one."""

    @property
    def query(self) -> str:
        """The query these are the hits of ("" for none)."""

    @property
    def sort(self) -> str:
        """Their order: one of :data:`~paper_tui.vocabulary.SORTS`, or a result set's own
        (a reading list's)."""

    @property
    def sort_label(self) -> str | None:
        """What the status line says of the order when it has more to say than the sort
        asked for ("for you: 12 kept, 31 skipped"); None when it has not."""

    @property
    def error(self) -> str | None:
        """Why the query could not be read (then there are no hits)."""

    @property
    def total(self) -> int:
        """How many hits (``len``)."""

    @property
    def suggestion(self) -> str | None:
        """"Did you mean …" when nothing matched."""

    def __len__(self) -> int: ...

    def paper(self, i: int) -> Paper:
        """The ``i``-th hit's paper."""

    def hit(self, i: int) -> Hit:
        """The ``i``-th hit: its paper, score and matched words."""

    def score(self, i: int) -> float | None:
        """The ``i``-th hit's relevance score; None when the order is not by relevance."""

    def highlights(self, i: int, fields: tuple[str, ...] = ("title", "abstract")) -> Spans:
        """Spans of the matched words in the ``i``-th paper's display title / abstract."""

    def ids(self) -> list[str]:
        """Every hit's paper id, in order."""

    def index_of(self, paper_id: str) -> int | None:
        """Where a paper is among the hits (None: it is not)."""

    def close(self) -> None:
        """Let go of the loaded papers (the set is not read again)."""


def page_of(results: Results, limit: int | None, offset: int) -> SearchPage:
    """One page of a result set's hits; the set is closed after."""
    try:
        end = len(results) if limit is None else min(len(results), offset + limit)
        return SearchPage([results.hit(i) for i in range(offset, end)], results.total,
                          results.suggestion, results.error)
    finally:
        results.close()


def highlight_spans(paper: Paper, terms: dict[str, set[str]],
                    fields: tuple[str, ...] = ("title", "abstract")) -> Spans:
    """Spans of the matched words in the paper's display text, for the fields asked (a
    result row draws the title only: tokenising every row's abstract is wasted work)."""
    spans: Spans = {}
    for name, text, words_of in (("title", paper.display_title, _title_words),
                                 ("abstract", paper.display_abstract, _abstract_words)):
        if name not in fields:
            continue
        wanted = terms.get(name)
        if wanted and text:
            found = [(s, e) for t, s, e in words_of(text) if t in wanted]
            if found:
                spans[name] = found
    return spans


def _words(text: str) -> tuple[tuple[str, int, int], ...]:
    """(term, start, end) of each indexed word of ``text``."""
    return tuple((t, s, e) for _, t, s, e in terms_of(text))


# The words of recently shown texts: a query typed letter by letter highlights the same
# titles again (~0.09 ms each to tokenise and stem), the abstract view the same abstract.
_title_words = lru_cache(maxsize=4096)(_words)
_abstract_words = lru_cache(maxsize=16)(_words)


class ResultSet:
    """Every hit of one query, in order, without loading any paper until asked.

    The set of hits is exact and cheap (posting-list set algebra), so ``len()`` is true.
    In relevance order (BM25F over the query's words, title boosted), papers matching all
    words come first, then those matching some. Valid until ``close()``; a query error is
    in ``error`` (never raised), with no hits.

    Built on one view of the index (``PaperIndex.view()``) from the query's ``plan`` (None:
    every paper, in the list order); ``vocabulary`` gives the "did you mean" suggestion.
    """

    def __init__(self, view: Snapshot, query: str, sort: str = "relevance", *,
                 plan: Plan | None = None, exclude: set[int] | None = None,
                 error: str | None = None, vocabulary: Vocabulary | None = None,
                 all_versions: bool = False, bodies: BodyTexts | None = None) -> None:
        """``all_versions``: list every version of a paper from two sources (else the one
        each group shows, which the others' matches count for); ``bodies``: the texts of
        the papers' PDFs, for a hit's snippet."""
        if sort not in SORTS:
            raise ValueError(f"unknown sort {sort!r}")
        self.query = query
        self.sort = sort
        self.error = error
        self._suggestion: str | None = None
        self._vocabulary = vocabulary
        self._exclude = sorted(exclude or ())
        self._all_versions = all_versions
        self._bodies = bodies
        self._cache: dict[int, Paper] = {}
        self._docs: list[int] = []  # ranked so far
        self._scores: list[float] = []  # their scores
        # Groups of hits (ascending doc numbers, and their scores once scored) still to
        # rank, in order
        self._pending: list[tuple[np.ndarray, np.ndarray | None]] = []
        # The hits as a mask over document numbers; None: every live document when there
        # is no query (the first screen lists them without a mask: no numpy import), else
        # none
        self._all: np.ndarray | None = None
        self._count = 0
        self._plan: Plan | None = plan
        self._snap = view
        if error is not None:
            return
        try:
            with view.exclusive():
                self._run()
        except (QueryError, WhooshQueryError) as exc:
            self.error = str(exc)
            self._plan, self._docs, self._all, self._count = None, [], None, 0

    def _run(self) -> None:
        snap, plan = self._snap, self._plan
        hidden = {} if self._all_versions else snap.versions.primary_of
        if plan is None:
            docs = snap.order("list" if self.sort == "relevance" else self.sort)
            self._docs = [d for d in docs if d not in hidden] if hidden else docs
            self._count = len(self._docs) if hidden else snap.live_count
            return
        strict = self._shown(self._without_excluded(snap.docs(plan.strict)), hidden)
        every = self._shown(self._without_excluded(snap.docs(plan.loose)), hidden) \
            if plan.loose is not None else strict
        self._all, self._count = every, int(np.count_nonzero(every))
        if not self._count:
            return
        if self.sort in SIGNAL_SORTS:  # by a number; ties by relevance, then the list order
            ids = np.flatnonzero(every)
            scores = snap.scores(plan.scoring, ids) if plan.scoring else None
            self._docs = snap.by_signal(self.sort, ids, scores).tolist()
            return
        if self.sort != "relevance" or not plan.scoring:  # filters only (year:, tag: …)
            ids = np.flatnonzero(every)
            rank = snap.rank("list" if self.sort == "relevance" else self.sort)
            self._docs = ids[np.argsort(rank[ids])].tolist()
            return
        # Papers with all the words first, then those with only some. Only the top of the
        # first group is ranked now; the rest when someone reads past it (a page of
        # results rarely does).
        # Within each, those the words find in their record (title, abstract, …) before
        # those found only through the text of their PDF.
        groups = [(strict, plan.strict)]
        if every is not strict:
            assert plan.loose is not None
            groups.append((every & ~strict, plan.loose))
        for mask, q in groups:
            if BODY in plan.terms and snap.has_bodies:
                record = self._shown(snap.docs(without_body(q)), hidden)
                parts = [mask & record, mask & ~record]
            else:
                parts = [mask]
            self._pending += [(found, None) for found in map(np.flatnonzero, parts)
                              if len(found)]
        self._rank_more(TOP)

    @staticmethod
    def _shown(mask: np.ndarray, hidden: dict[int, int]) -> np.ndarray:
        """The mask with each hidden version's match moved to its group's shown one."""
        if not hidden:
            return mask
        docs = np.fromiter(hidden, dtype=np.int64, count=len(hidden))
        matched = docs[mask[docs]]
        mask = mask.copy()
        mask[docs] = False
        if len(matched):
            mask[[hidden[int(d)] for d in matched]] = True
        return mask

    def _without_excluded(self, mask: np.ndarray) -> np.ndarray:
        if not self._exclude:
            return mask
        mask = mask.copy()
        mask[self._exclude] = False
        return mask

    def _rank_more(self, wanted: int | None) -> None:
        """Rank the next ``wanted`` documents (None: all) onto the end of ``_docs``.

        A group is scored whole, once; its best ``wanted`` are picked by partition, the rest
        stay pending (scored) and are sorted when needed. The order is exactly that of a
        full sort: score, highest first, then document number."""
        if not self._pending:
            return
        assert self._plan is not None
        with self._snap.exclusive():
            while self._pending and (wanted is None or wanted > 0):
                group, scores = self._pending.pop(0)
                if scores is None:
                    scores = self._snap.scores(self._plan.scoring, group)
                if wanted is not None and len(group) > 2 * wanted:
                    cut = np.partition(scores, len(scores) - wanted)[len(scores) - wanted]
                    top = scores >= cut  # the best wanted, and any tied with the last
                    self._pending.insert(0, (group[~top], scores[~top]))
                    group, scores = group[top], scores[top]
                order = np.lexsort((group, -scores))
                self._docs = self._docs + group[order].tolist()
                self._scores = self._scores + scores[order].tolist()
                if wanted is not None:
                    wanted -= len(order)

    def _doc(self, i: int) -> int:
        if i >= len(self._docs) and self._pending:
            self._rank_more(max(TOP, i + 1 - len(self._docs)))
        return self._docs[i]

    def __len__(self) -> int:
        return self._count

    @property
    def total(self) -> int:
        return self._count

    @property
    def sort_label(self) -> str | None:
        """Nothing to say beyond the sort's name."""
        return None

    @property
    def suggestion(self) -> str | None:
        """"Did you mean …" when nothing matched."""
        if self._suggestion is None and not self._count and not self.error and self.query \
                and self._vocabulary is not None:
            with self._snap.exclusive():
                self._suggestion = did_you_mean(self.query, self._vocabulary,
                                                self._snap.reader) or ""
        return self._suggestion or None

    def paper(self, i: int) -> Paper:
        doc = self._doc(i)
        paper = self._cache.get(doc)
        if paper is None:
            paper = self._cache[doc] = self._snap.paper(doc)
        return paper

    def ids(self) -> list[str]:
        """Every hit's paper id, in order, without loading any paper."""
        self._rank_more(None)
        all_ids = self._snap.all_ids
        return [all_ids[doc] for doc in self._docs]

    def score(self, i: int) -> float | None:
        if self._plan is None or self.sort != "relevance" or not self._plan.scoring:
            return None
        self._doc(i)
        return self._scores[i]

    def highlights(self, i: int, fields: tuple[str, ...] = ("title", "abstract")) -> Spans:
        """Spans of matched words in paper(i)'s display title and/or abstract."""
        if self._plan is None:
            return {}
        return highlight_spans(self.paper(i), self._plan.terms, fields)

    def hit(self, i: int) -> Hit:
        if self._plan is None:
            return Hit(self.paper(i), self.score(i))
        paper, doc, bodies = self.paper(i), self._doc(i), self._bodies
        return Hit(paper, self.score(i), self._plan.terms, lambda: self._matched_in(doc),
                   (lambda: bodies.text(paper.id)) if bodies is not None else None)

    def _matched_in(self, doc: int) -> tuple[str, ...]:
        """Which of :data:`MATCH_FIELDS` hold a positive word of the query in ``doc`` (or
        in another version of its paper, whose matches count for it)."""
        assert self._plan is not None
        snap = self._snap
        docs = (doc,) if self._all_versions else snap.versions.group(doc)
        found = set()
        with snap.exclusive():
            for fieldname, words in self._plan.terms.items():
                name = _MATCHED_AS.get(fieldname, fieldname)
                if name not in MATCH_FIELDS or name in found:
                    continue
                for word in words:
                    ids = snap.term_docs(fieldname, word)
                    at = np.searchsorted(ids, docs)
                    if any(a < len(ids) and ids[a] == d for a, d in zip(at, docs,
                                                                        strict=True)):
                        found.add(name)
                        break
        return tuple(name for name in MATCH_FIELDS if name in found)

    def index_of(self, paper_id: str) -> int | None:
        doc = self._snap.docnum(paper_id)
        if doc is None or not self._count or not self._hits()[doc]:
            return None
        if any(doc in group for group, _ in self._pending):
            self._rank_more(None)
        return self._docs.index(doc)

    def facets(self) -> dict[str, dict[str, int]]:
        """Counts per tag, status, venue, year and team member (``by``) among the hits,
        per decision, area, country, affiliation (``aff``) and what papers have (``has``:
        code, reviews, award), most frequent first; in a team also per ``assigned``,
        ``kept`` (at least N members), ``kept-by`` and ``team`` (``disputed``,
        ``untouched``)."""
        with self._snap.exclusive():
            return self._facets()

    def _facets(self) -> dict[str, dict[str, int]]:
        snap, hits = self._snap, self._hits()
        everything = hits is snap.live
        out: dict[str, dict[str, int]] = {}
        for name, fieldname in (("tag", "tags"), ("status", "status"), ("venue", "venue"),
                                ("year", "year"), ("by", "by"), *TEAM_FACETS):
            counts: dict[str, int] = {}
            lexicon: Iterable[tuple[bytes, np.ndarray]]
            if fieldname in ANNOTATION_FIELDS:  # the reader's, the team's: overlay
                if snap.annotations is not None:
                    counts = snap.annotations.counts(snap, fieldname,
                                                     None if everything else hits)
                lexicon = ()
            else:
                lexicon = snap.field_postings(fieldname)
            for btext, docs in lexicon:
                n = len(docs) if everything else int(np.count_nonzero(hits[docs]))
                if n:
                    counts[_facet_label(snap, fieldname, btext, docs)] = n
            if name == "status":  # "new" is stored as no status at all
                untriaged = self._count - sum(counts.values())
                if untriaged:
                    counts["new"] = untriaged
            order = (lambda kv: (-int(kv[0]), 0)) if name == "year" else \
                (lambda kv: (int(kv[0]), 0)) if name == "kept" else \
                (lambda kv: (-kv[1], kv[0]))
            out[name] = dict(sorted(counts.items(), key=order))
        for name in ("decision", "has"):
            counts = {}
            for btext, docs in snap.field_postings(name):
                label = btext.decode()
                if label in _NOT_FACETS:
                    continue
                n = len(docs) if everything else int(np.count_nonzero(hits[docs]))
                if n:
                    counts[label] = n
            out[name] = dict(sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])))
        for name in FACET_NAMES:
            out[name] = snap.facet_table(name).counts(None if everything else hits, FACET_TOP)
        return out

    def _hits(self) -> np.ndarray:
        """The hits as a mask over document numbers."""
        if self._all is not None:
            return self._all
        return self._snap.live if self._plan is None and self._count else \
            np.zeros(self._snap.size, dtype=bool)

    def close(self) -> None:
        """Forget the loaded papers; the shared searcher stays with the index."""
        self._cache.clear()


FACET_TOP = 100
MATCH_FIELDS = ("title", "name", "abstract", "authors", "keywords", BODY, REVIEW, META)
"""Where a hit may have matched (:attr:`Hit.matched_in`); ``title_exact`` is the title."""
_MATCHED_AS = {"title_exact": "title"}
"""The values of a many-valued facet counted at most (the most frequent: thousands of
affiliations)."""
_NOT_FACETS = frozenset({"accepted", "abstract"})
"""Terms not counted as facet values: ``decision:accepted`` stands for several decisions
(each counted), and almost every paper has an abstract."""


def _facet_label(snap: Snapshot, fieldname: str, btext: bytes, docs: np.ndarray) -> str:
    """Venues as written (``NeurIPS``); other values as indexed."""
    if fieldname == "venue" and len(docs):
        return snap.paper(int(docs[0])).venue
    return btext.decode()


