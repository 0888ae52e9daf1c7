"""Learning the reader's interest: a linear model over the paper features, trained on the
kept papers against the skipped ones and, weakly, the papers not looked at yet; then once
more with the best-ranked unlabelled papers as weak positives (pseudo-relevance feedback).

The model is an L2-regularised logistic regression with per-paper weights (scikit-learn's
``LogisticRegression`` objective, the bias not regularised), minimised here by Newton's method
over just the terms the training papers hold (sparse products in NumPy/SciPy). Not
scikit-learn, nor ``scipy.optimize``: on top of NumPy and ``scipy.sparse`` (0.1 s), they add
1.3 s and 0.3 s to a new process (``python -X importtime``, the shared 2-core machine at load
9), against a budget of 1 s for the whole ``recommend`` command; bench/recommend.py runs
scikit-learn's solver on the same labels and shows the two rank alike.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
from scipy import sparse


@dataclass(frozen=True)
class Settings:
    """The learner's knobs (defaults tuned on bench/recommend.py's tune lists)."""

    c: float = 1.0
    """Inverse regularisation of the logistic regression."""
    skip_weight: float = 1.0
    """Weight of a skipped paper as a negative, per paper."""
    unlabelled_weight: float = 0.05
    """Weight of a paper not labelled yet as a negative, per paper."""
    unlabelled_sample: int = 4000
    """At most this many unlabelled papers are used (a fixed random sample): training time
    stays flat on a big library."""
    feedback: int = 10
    """Best-ranked unlabelled papers added as weak positives for a second fit (0: none)."""
    feedback_weight: float = 0.3


Solver = Callable[[sparse.csr_matrix, np.ndarray, np.ndarray, float], tuple[np.ndarray, float]]
"""``solve(x, y, weight, c) -> (coef, intercept)``: y is 0/1, weight per row."""


@dataclass(frozen=True)
class Model:
    coef: np.ndarray  # float32, one weight per feature column
    intercept: float

    def scores(self, x: sparse.csr_matrix) -> np.ndarray:
        return x @ self.coef + self.intercept


def fit(x: sparse.csr_matrix, kept: np.ndarray, skipped: np.ndarray,
        unlabelled: np.ndarray, settings: Settings | None = None,
        solve: Solver | None = None) -> Model:
    """A model scoring rows of ``x`` by predicted interest; ``kept``, ``skipped`` and
    ``unlabelled`` are disjoint row numbers (``kept`` not empty)."""
    settings = settings or Settings()
    solve = solve or logistic
    if len(unlabelled) > settings.unlabelled_sample:
        rng = np.random.default_rng(len(unlabelled))
        unlabelled = np.sort(rng.choice(unlabelled, settings.unlabelled_sample, replace=False))
    model = _fit(x, kept, skipped, unlabelled, np.zeros(0, dtype=np.int64), settings, solve)
    if settings.feedback and len(unlabelled):
        scores = model.scores(x[unlabelled])
        top = np.argsort(-scores, kind="stable")[:settings.feedback]
        pseudo = unlabelled[top]
        rest = np.delete(unlabelled, top)
        model = _fit(x, kept, skipped, rest, pseudo, settings, solve)
    return model


def _fit(x: sparse.csr_matrix, kept: np.ndarray, skipped: np.ndarray,
         unlabelled: np.ndarray, pseudo: np.ndarray, settings: Settings,
         solve: Solver) -> Model:
    rows = np.concatenate([kept, pseudo, skipped, unlabelled])
    y = np.concatenate([np.ones(len(kept) + len(pseudo)),
                        np.zeros(len(skipped) + len(unlabelled))])
    weight = np.concatenate([
        np.ones(len(kept)), np.full(len(pseudo), settings.feedback_weight),
        np.full(len(skipped), settings.skip_weight),
        np.full(len(unlabelled), settings.unlabelled_weight)])
    positive, negative = weight[y == 1].sum(), weight[y == 0].sum()
    if not negative:  # nothing to learn against: every word of the kept papers counts
        coef = np.asarray(x[kept].mean(axis=0)).ravel().astype(np.float32)
        return Model(coef, 0.0)
    weight[y == 1] *= negative / positive  # balanced: the few kept count as much as the rest
    coef, intercept = solve(x[rows], y, weight, settings.c)
    return Model(coef.astype(np.float32), intercept)


def logistic(x: sparse.csr_matrix, y: np.ndarray, weight: np.ndarray, c: float
             ) -> tuple[np.ndarray, float]:
    """Minimise ``|w|^2 / 2 + c * sum(weight * log(1 + exp(-s * (x @ w + b))))``, s = ±1,
    the bias unregularised, by Newton's method with conjugate-gradient steps (liblinear's
    primal method, without its trust region: a backtracking line search instead); over
    the columns ``x`` uses (the others stay 0)."""
    used = np.unique(x.indices)
    sub = x[:, used].tocsr().astype(np.float64)
    subt = sub.T.tocsr()
    sign = np.where(y > 0, 1.0, -1.0)
    cw = c * weight
    theta = np.zeros(len(used) + 1)

    def objective(theta: np.ndarray) -> tuple[float, np.ndarray]:
        margin = sign * (sub @ theta[:-1] + theta[-1])
        return 0.5 * _dot(theta[:-1], theta[:-1]) + _dot(cw, np.logaddexp(0.0, -margin)), margin

    value, margin = objective(theta)
    first = None
    for _ in range(_NEWTON_STEPS):
        wrong = np.exp(-np.logaddexp(0.0, margin))  # sigmoid(-margin)
        pull = -cw * sign * wrong
        grad = np.concatenate([theta[:-1] + subt @ pull, [pull.sum()]])
        size = _dot(grad, grad) ** 0.5
        first = first or size
        if size <= _TOLERANCE * first:
            break
        curvature = cw * wrong * (1 - wrong)

        def hessian(v: np.ndarray, curvature: np.ndarray = curvature) -> np.ndarray:
            d = curvature * (sub @ v[:-1] + v[-1])
            return np.concatenate([v[:-1] + subt @ d, [d.sum() + _BIAS_RIDGE * v[-1]]])

        step = _conjugate_gradient(hessian, -grad)
        slope = _dot(grad, step)
        t = 1.0
        while True:  # Armijo backtracking
            new, new_margin = objective(theta + t * step)
            if new <= value + 1e-4 * t * slope or t < 1e-8:
                break
            t *= 0.5
        theta, value, margin = theta + t * step, new, new_margin
    coef = np.zeros(x.shape[1])
    coef[used] = theta[:-1]
    return coef, float(theta[-1])


_NEWTON_STEPS = 30
_TOLERANCE = 1e-4
"""Stop when the gradient is this much smaller than at the start."""
_BIAS_RIDGE = 1e-8
"""Keeps the Hessian invertible along the (unregularised) bias."""


def _conjugate_gradient(apply: Callable[[np.ndarray], np.ndarray], b: np.ndarray,
                        tolerance: float = 0.1, steps: int = 50) -> np.ndarray:
    """An approximate solution of ``apply(p) = b`` for a positive definite ``apply``."""
    p = np.zeros_like(b)
    r = b.copy()
    d = r.copy()
    rr = _dot(r, r)
    stop = tolerance ** 2 * rr
    for _ in range(steps):
        if rr <= stop:
            break
        ad = apply(d)
        alpha = rr / _dot(d, ad)
        p += alpha * d
        r -= alpha * ad
        rr, old = _dot(r, r), rr
        d = r + (rr / old) * d
    return p


def _dot(a: np.ndarray, b: np.ndarray) -> float:
    """``a @ b`` without BLAS: OpenBLAS hands a vector dot to its threads, which stall for
    milliseconds each when the machine's cores are busy (a refit took 0.7 s instead of
    0.1 s at load 6); an element-wise product and a sum never leave this thread."""
    return float(np.multiply(a, b).sum())
