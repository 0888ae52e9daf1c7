"""The recommender a library keeps: its term matrix and features (cached), the model
learned from the reader's labels (refit only when they change), the ranking of any set of
papers, and why each one ranks where it does.

A library over ``recommend.whole_up_to`` papers is ranked from a bounded part of it (its
time and memory stay flat with the library's size): a reproducible sample of
``recommend.sample`` papers and the labelled ones teach the model; the sample's new
papers and those sharing the most of the model's strongest words are ranked, and
:class:`Bounded` says how many of how many."""

from __future__ import annotations

import threading
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np
from scipy import sparse

from paper_tui.config import RecommendSettings
from paper_tui.errors import QueryError
from paper_tui.index.term_matrix import (
    MIN_DF,
    TermMatrix,
    library_df,
    papers_matrix,
    sample_matrix,
    sharing,
    term_matrix,
)
from paper_tui.model import Paper
from paper_tui.recommend.explain import Explanation, explain
from paper_tui.recommend.features import column_weights, features, features_like
from paper_tui.recommend.labels import Labels, library_labels
from paper_tui.recommend.learner import Model, Settings, fit

SHARING_TERMS = 32
"""On a library ranked from a sample, the model's strongest words whose posting lists
name the papers ranked beside the sample's (:func:`~paper_tui.index.term_matrix.sharing`)."""
SHARING_PAPERS = 2000
"""How many of those papers (at most ``recommend.sample``)."""
HINT = ("nothing to recommend from yet: mark a paper to-read, read, starred or tagged "
        "(and skip the others), then ask again")


@dataclass(frozen=True)
class LearnedFrom:
    kept: int
    skipped: int

    def text(self) -> str:
        """``12 kept, 31 skipped`` (the app's status line says ``for you: `` before it)."""
        return f"{self.kept:,} kept, {self.skipped:,} skipped"


@dataclass(frozen=True)
class Bounded:
    """What a bounded ranking ranked: ``ranked`` of ``of`` papers (a library over
    ``recommend.whole_up_to`` papers is ranked from a sample of ``recommend.sample``)."""

    ranked: int
    of: int

    def text(self) -> str:
        """``ranked 20,000 of 1,000,000 papers (a sample, and those sharing the most
        words with what you kept)``."""
        return (f"ranked {self.ranked:,} of {self.of:,} papers (a sample, and those sharing "
                "the most words with what you kept)")


@dataclass(frozen=True)
class Recommendation:
    paper: Paper
    score: float


@dataclass
class Recommendations:
    """The best new papers, what they were learned from, and (no kept paper yet) a hint."""

    items: list[Recommendation]
    learned_from: LearnedFrom
    candidates: int
    """How many new papers were ranked."""
    hint: str | None = None
    recommender: Recommender | None = field(default=None, repr=False)
    bounded: Bounded | None = None
    """Set when only some of the candidates were ranked (a big library)."""

    def explain(self, paper_id: str, n: int = 3) -> Explanation:
        assert self.recommender is not None
        return self.recommender.explain(paper_id, n)


@dataclass(frozen=True)
class _State:
    matrix: TermMatrix
    """The whole library's, or (bounded) the sample's plus the labelled papers outside it."""
    labels: Labels
    model: Model | None
    x: sparse.csr_matrix
    """The features of ``matrix``'s rows."""
    sample: TermMatrix | None = None
    """The matrix the features are weighted by and over whose terms the papers outside
    it are read: ``matrix`` when ranked from a sample (None: the whole library is ranked)."""
    drawn: TermMatrix | None = None
    """The sample as drawn (:func:`~paper_tui.index.term_matrix.sample_matrix`)."""


class Recommender:
    """Ranks a library's papers by what its reader kept and skipped.

    :meth:`refresh` after labels change (cheap when they did not: the term matrix and the
    features stay in memory, and a refit trains on the labelled papers and a bounded
    sample of the rest); :meth:`rank`, :meth:`scores` and :meth:`explain` read the last
    model and are safe to call from another thread while a refresh runs."""

    def __init__(self, library, settings: Settings | None = None,
                 bound: RecommendSettings | None = None) -> None:
        self.library = library
        self.settings = settings or Settings()
        self.bound = bound or getattr(getattr(library, "settings", None), "recommend",
                                      None) or RecommendSettings()
        self._state: _State | None = None
        self._refreshing = threading.Lock()
        self._explained: tuple[_State | None, dict[tuple[str, int], Explanation]] = (None, {})
        self._sharing: tuple[_State | None, TermMatrix | None] = (None, None)

    def refresh(self) -> bool:
        """Re-read the labels (and the index's terms if the papers changed); refit when
        either changed. True when the ranking may have changed."""
        with self._refreshing:
            index = self.library.index
            labels = library_labels(self.library)
            old = self._state
            if index.view().live_count <= self.bound.whole_up_to:
                matrix = term_matrix(index)
                if old is not None and old.matrix is matrix and old.labels == labels:
                    return False
                x = features(matrix)
                self._state = _State(matrix, labels, self._fit(matrix, x, labels), x)
                return True
            sample = sample_matrix(index, self.bound.sample)
            if old is not None and old.drawn is sample and old.labels == labels:
                return False
            matrix = self._with_labelled(sample, labels)
            x = features(matrix)
            self._state = _State(matrix, labels, self._fit(matrix, x, labels), x, matrix,
                                 sample)
            return True

    def _with_labelled(self, sample: TermMatrix, labels: Labels) -> TermMatrix:
        """The sample's matrix plus the rows of the labelled papers outside it, over the
        sample's terms and every term of a labelled paper."""
        index = self.library.index
        labelled = sorted(labels.kept | labels.skipped)
        known = set(sample.terms)
        new = tuple(t for t in papers_matrix(index, labelled, min_df=1).terms
                    if t not in known)
        df = library_df(index, new)
        new = tuple(t for t, n in zip(new, df, strict=True) if n >= MIN_DF)
        terms = sample.terms + new
        outside = [i for i in labelled if i not in sample.row_of]
        extra = papers_matrix(index, outside, terms)
        counts = sample.counts
        counts = sparse.csr_matrix((counts.data, counts.indices, counts.indptr),
                                   shape=(counts.shape[0], len(terms)))
        assert sample.df is not None
        return TermMatrix(sample.ids + extra.ids, terms,
                          sparse.vstack([counts, extra.counts]).tocsr(),
                          df=np.concatenate([sample.df, df[df >= MIN_DF]]),
                          papers=sample.papers)

    def _fit(self, matrix: TermMatrix, x: sparse.csr_matrix, labels: Labels) -> Model | None:
        kept = matrix.rows(sorted(labels.kept))
        if not len(kept):
            return None
        skipped = matrix.rows(sorted(labels.skipped))
        unlabelled = np.ones(len(matrix.ids), dtype=bool)
        unlabelled[matrix.rows(sorted(labels.triaged))] = False
        unlabelled[kept] = unlabelled[skipped] = False
        return fit(x, kept, skipped, np.flatnonzero(unlabelled), self.settings)

    def _ready(self) -> _State:
        if self._state is None:
            self.refresh()
        assert self._state is not None
        return self._state

    @property
    def learned_from(self) -> LearnedFrom:
        labels = self._ready().labels
        return LearnedFrom(len(labels.kept), len(labels.skipped))

    @property
    def ready(self) -> bool:
        """Whether there is a model (at least one kept paper)."""
        return self._ready().model is not None

    def scores(self, ids: Sequence[str]) -> np.ndarray:
        """Predicted interest of each paper (float64, aligned with ``ids``); NaN for a paper
        the index does not hold, or for all of them before the first kept paper. On a
        library ranked from a sample, the papers outside it are read and scored too when
        there are at most ``recommend.sample`` of them; more stay NaN (:meth:`bounded`)."""
        state = self._ready()
        out = np.full(len(ids), np.nan)
        if state.model is None:
            return out
        row_of = state.matrix.row_of
        known = np.fromiter((i in row_of for i in ids), dtype=bool, count=len(ids))
        rows = state.matrix.rows(list(ids))
        out[known] = state.model.scores(state.x[rows])
        if state.sample is not None and not known.all():
            missing = np.flatnonzero(~known).tolist()
            if len(missing) > self.bound.sample or self._sharing[0] is state:
                shared = self._shared(state)  # too many: those sharing the most words
                self._score_outside(state, shared, ids, missing, out)
                missing = [i for i in missing if ids[i] not in shared.row_of]
            if missing and len(missing) <= self.bound.sample:
                self._score_outside(state, papers_matrix(
                    self.library.index, [ids[i] for i in missing], state.sample.terms),
                    ids, missing, out)
        return out

    def _score_outside(self, state: _State, extra: TermMatrix, ids: Sequence[str],
                       at: list[int], out: np.ndarray) -> None:
        """``out[i]`` for each ``i`` of ``at`` whose paper ``extra`` holds (a matrix over
        the sample's terms), scored as the sample's papers are."""
        assert state.model is not None and state.sample is not None
        if not extra.ids:
            return
        scored = state.model.scores(features_like(state.sample, extra))
        row_of = extra.row_of
        found = [(i, row_of[ids[i]]) for i in at if ids[i] in row_of]
        if found:
            where, rows = zip(*found, strict=True)
            out[list(where)] = scored[list(rows)]

    def rank(self, ids: Sequence[str]) -> list[str]:
        """``ids`` best first (stable: ties, and papers without a score, keep their order,
        the latter at the end)."""
        scores = self.scores(ids)
        order = np.lexsort((np.arange(len(ids)), -np.nan_to_num(scores), np.isnan(scores)))
        return [ids[i] for i in order]

    def bounded(self, ids: Sequence[str]) -> Bounded | None:
        """What :meth:`rank` of ``ids`` ranks when it cannot rank them all (more than
        ``recommend.sample`` of them outside the sample, on a library over
        ``recommend.whole_up_to``): those in the sample (and the labelled papers), and
        those sharing the most words with the kept ones; None when it ranks them all."""
        state = self._ready()
        if state.sample is None or state.model is None:
            return None
        row_of = state.matrix.row_of
        missing = [i for i in ids if i not in row_of]
        if len(missing) <= self.bound.sample:
            return None
        shared = self._shared(state).row_of
        return Bounded(len(ids) - len(missing) + sum(1 for i in missing if i in shared),
                       len(ids))

    def _shared(self, state: _State) -> TermMatrix:
        """The papers whose words the model weighs most (:data:`SHARING_TERMS`), found
        through the index: the best of the library outside the sample, ranked beside it."""
        kept_for, found = self._sharing
        if kept_for is state and found is not None:
            return found
        assert state.model is not None and state.sample is not None
        weight = state.model.coef * column_weights(state.sample)
        strongest = np.argsort(-weight, kind="stable")[:SHARING_TERMS]
        terms = {state.matrix.terms[i]: float(weight[i]) for i in strongest if weight[i] > 0}
        found = sharing(self.library.index, terms, min(SHARING_PAPERS, self.bound.sample),
                        state.sample.terms)
        self._sharing = (state, found)
        return found

    @property
    def triaged(self) -> frozenset[str]:
        """The papers triaged (status not new, or kept): never recommended."""
        return self._ready().labels.triaged

    def explain(self, paper_id: str, n: int = 3) -> Explanation:
        """The words, authors and venue that pushed this paper up and down the most
        (kept per model: the app asks again for the paper under the cursor on each key)."""
        state = self._ready()
        explained_for, explained = self._explained
        if explained_for is not state or len(explained) > 512:
            explained = {}  # another model: the old reasons are stale
            self._explained = (state, explained)
        found = explained.get((paper_id, n))
        if found is None:
            found = explained[(paper_id, n)] = self._explain(state, paper_id, n)
        return found

    def _explain(self, state: _State, paper_id: str, n: int) -> Explanation:
        row = state.matrix.row_of.get(paper_id)
        paper = self.library.index.get(paper_id)
        if row is None and paper is not None and state.sample is not None:
            extra = papers_matrix(self.library.index, [paper_id], state.sample.terms)
            x, row = features_like(state.sample, extra), 0
        else:
            x = state.x
        if state.model is None or row is None or paper is None:
            return Explanation((), ())
        return explain(paper, x[row], state.matrix.terms, state.model.coef, n)

    def new_ids(self, query: str = "") -> list[str]:
        """The papers not triaged yet (status new, not kept), in the query's hits when
        given (a bad query raises :class:`~paper_tui.errors.QueryError`); without a query
        on a library ranked from a sample, those of the sample."""
        state = self._ready()
        if query.strip():
            results = self.library.results(query, sort="year")
            try:
                if results.error:
                    raise QueryError(results.error)
                ids = results.ids()
            finally:
                results.close()
        else:
            ids = list(state.matrix.ids)
        done = state.labels.triaged
        return [i for i in ids if i not in done]

    def recommend(self, query: str = "", limit: int = 20) -> Recommendations:
        self.refresh()
        state = self._ready()
        candidates = self.new_ids(query)
        count = len(candidates)
        if state.sample is not None and not query.strip():
            count = self._new_count(state)
        learned = self.learned_from
        if not self.ready:
            return Recommendations([], learned, count, HINT, self)
        bounded = None
        if state.sample is not None and count > self.bound.sample:
            candidates = self._sampled(candidates, state, bool(query.strip()))
            bounded = Bounded(len(candidates), count)
        elif state.sample is not None and not query.strip():  # few new papers left: all
            snap, done = self.library.index.view(), state.labels.triaged
            live = snap.live
            candidates = [i for d, i in enumerate(snap.all_ids) if live[d] and i not in done]
        scores = self.scores(candidates)
        known = ~np.isnan(scores)
        order = np.lexsort((np.arange(len(candidates)), -np.where(known, scores, -np.inf)))
        items = []
        for i in order[:max(limit, 0)]:
            if not known[i]:
                break
            paper = self.library.index.get(candidates[i])
            if paper is not None:
                items.append(Recommendation(paper, float(scores[i])))
        return Recommendations(items, learned, count, None, self, bounded)

    def _new_count(self, state: _State) -> int:
        """The library's papers not triaged (the triaged ones looked up one by one)."""
        snap = self.library.index.view()
        held = sum(1 for i in state.labels.triaged if snap.docnum(i) is not None)
        return int(snap.live_count) - held

    def _sampled(self, candidates: list[str], state: _State, hits: bool) -> list[str]:
        """What is ranked of ``candidates`` (the sample's new papers, or a query's ``hits``):
        those sharing the most words with the kept ones, those in the sample, and (hits)
        a reproducible draw of the others: those outside the sample at most
        ``recommend.sample``."""
        row_of, done = state.matrix.row_of, state.labels.triaged
        shared = frozenset(self._shared(state).ids)
        if hits:
            held = set(candidates)
            shared = frozenset(i for i in shared if i in held)
        outside = sorted(i for i in shared if i not in row_of and i not in done)
        if not hits:
            return candidates + outside
        inside = [c for c in candidates if c in row_of]
        others = [c for c in candidates if c not in row_of and c not in shared]
        room = max(min(self.bound.sample - len(inside) - len(outside), len(others)), 0)
        drawn = np.sort(np.random.default_rng(0).choice(len(others), room, replace=False))
        return inside + outside + [others[i] for i in drawn]
