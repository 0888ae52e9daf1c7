"""The learner's features: the index's term frequencies (:mod:`paper_tui.index.term_matrix`)
weighted as TF-IDF with a weight per field, each paper's row of unit length."""

from __future__ import annotations

import weakref

import numpy as np
from scipy import sparse

from paper_tui.index.term_matrix import TermMatrix

FIELD_WEIGHTS = {"title": 1.5, "name": 1.0, "abstract": 1.0, "authors": 1.5, "venue": 0.3}
"""How much a term of each field counts against the others before rows are normalised
(tuned on bench/recommend.py's tune lists)."""

_cache: weakref.WeakKeyDictionary[TermMatrix, tuple[tuple, sparse.csr_matrix, np.ndarray]] = \
    weakref.WeakKeyDictionary()


def features(matrix: TermMatrix, weights: dict[str, float] | None = None
             ) -> sparse.csr_matrix:
    """Sublinear TF x IDF x field weight, rows L2-normalised (float32), kept per matrix."""
    return _weighed(matrix, weights)[0]


def features_like(base: TermMatrix, other: TermMatrix,
                  weights: dict[str, float] | None = None) -> sparse.csr_matrix:
    """The features of ``other`` (a matrix over ``base``'s terms) weighted as ``base``'s
    own (its IDF): papers outside a sample, scored by a model learned on it."""
    return _weigh(other.counts, _weighed(base, weights)[1])


def column_weights(matrix: TermMatrix, weights: dict[str, float] | None = None
                   ) -> np.ndarray:
    """Each column's IDF x field weight (what a term's sublinear TF is multiplied by)."""
    return _weighed(matrix, weights)[1]


def _weighed(matrix: TermMatrix, weights: dict[str, float] | None
             ) -> tuple[sparse.csr_matrix, np.ndarray]:
    weights = weights or FIELD_WEIGHTS
    key = tuple(sorted(weights.items()))
    kept = _cache.get(matrix)
    if kept is not None and kept[0] == key:
        return kept[1], kept[2]
    counts = matrix.counts
    n = max(counts.shape[0], 1)
    df = np.bincount(counts.indices, minlength=counts.shape[1])
    if matrix.df is not None:  # some papers of a library: its IDF
        n, df = max(matrix.papers, n), np.maximum(matrix.df, df)
    field_weight = np.array([weights.get(t.split(":", 1)[0], 1.0) for t in matrix.terms],
                            dtype=np.float32)
    column = (np.log((1 + n) / (1 + df)) + 1).astype(np.float32) * field_weight
    x = _weigh(counts, column)
    _cache[matrix] = (key, x, column)
    return x, column


def _weigh(counts: sparse.csr_matrix, column: np.ndarray) -> sparse.csr_matrix:
    data = (1 + np.log(counts.data, dtype=np.float32)) * column[counts.indices]
    lengths = np.diff(counts.indptr)
    rows = np.repeat(np.arange(counts.shape[0]), lengths)
    norms = np.sqrt(np.bincount(rows, weights=data * data, minlength=counts.shape[0]))
    norms[norms == 0] = 1
    data /= norms.astype(np.float32)[rows]
    return sparse.csr_matrix((data, counts.indices, counts.indptr), shape=counts.shape)
