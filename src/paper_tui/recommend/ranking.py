"""The recommender a library keeps: its term matrix and features (cached), the model
learned from the reader's labels (refit only when they change), the ranking of any set of
papers, and why each one ranks where it does."""

from __future__ import annotations

import threading
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from paper_tui.errors import QueryError
from paper_tui.index.term_matrix import TermMatrix, term_matrix
from paper_tui.model import Paper
from paper_tui.recommend.explain import Explanation, explain
from paper_tui.recommend.features import features
from paper_tui.recommend.labels import Labels, library_labels
from paper_tui.recommend.learner import Model, Settings, fit

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

    def explain(self, paper_id: str, n: int = 3) -> Explanation:
        assert self.recommender is not None
        return self.recommender.explain(paper_id, n)


@dataclass(frozen=True)
class _State:
    matrix: TermMatrix
    labels: Labels
    model: Model | None


class Recommender:
    """Ranks a library's papers by what its reader kept and skipped.

    :meth:`refresh` after labels change (cheap when they did not: the term matrix and the
    features stay in memory, and a refit trains on the labelled papers and a bounded
    sample of the rest); :meth:`rank`, :meth:`scores` and :meth:`explain` read the last
    model and are safe to call from another thread while a refresh runs."""

    def __init__(self, library, settings: Settings | None = None) -> None:
        self.library = library
        self.settings = settings or Settings()
        self._state: _State | None = None
        self._refreshing = threading.Lock()
        self._explained: tuple[_State | None, dict[tuple[str, int], Explanation]] = (None, {})

    def refresh(self) -> bool:
        """Re-read the labels (and the index's terms if the papers changed); refit when
        either changed. True when the ranking may have changed."""
        with self._refreshing:
            matrix = term_matrix(self.library.index)
            labels = library_labels(self.library)
            old = self._state
            if old is not None and old.matrix is matrix and old.labels == labels:
                return False
            self._state = _State(matrix, labels, self._fit(matrix, labels))
            return True

    def _fit(self, matrix: TermMatrix, labels: Labels) -> Model | None:
        kept = matrix.rows(sorted(labels.kept))
        if not len(kept):
            return None
        skipped = matrix.rows(sorted(labels.skipped))
        unlabelled = np.ones(len(matrix.ids), dtype=bool)
        unlabelled[matrix.rows(sorted(labels.triaged))] = False
        unlabelled[kept] = unlabelled[skipped] = False
        return fit(features(matrix), kept, skipped, np.flatnonzero(unlabelled), self.settings)

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
        the index does not hold, or for all of them before the first kept paper."""
        state = self._ready()
        out = np.full(len(ids), np.nan)
        if state.model is None:
            return out
        row_of = state.matrix.row_of
        known = np.fromiter((i in row_of for i in ids), dtype=bool, count=len(ids))
        rows = state.matrix.rows(list(ids))
        out[known] = state.model.scores(features(state.matrix)[rows])
        return out

    def rank(self, ids: Sequence[str]) -> list[str]:
        """``ids`` best first (stable: ties, and papers without a score, keep their order,
        the latter at the end)."""
        scores = self.scores(ids)
        order = np.lexsort((np.arange(len(ids)), -np.nan_to_num(scores), np.isnan(scores)))
        return [ids[i] for i in order]

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
        if state.model is None or row is None or paper is None:
            return Explanation((), ())
        x = features(state.matrix)
        return explain(paper, x[row], state.matrix.terms, state.model.coef, n)

    def new_ids(self, query: str = "") -> list[str]:
        """The papers not triaged yet (status new, not kept), in the query's hits when
        given (a bad query raises :class:`~paper_tui.errors.QueryError`)."""
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
        candidates = self.new_ids(query)
        learned = self.learned_from
        if not self.ready:
            return Recommendations([], learned, len(candidates), HINT, self)
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
        return Recommendations(items, learned, len(candidates), None, self)
