"""Why a paper ranks where it does: the words, authors and venue whose learned weights
pushed its score up, and those that pushed it down (arxiv-sanity's weight list, per paper)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy import sparse

from paper_tui.index.term_matrix import surface_words
from paper_tui.model import Paper

KINDS = {"authors": "author", "venue": "venue"}
"""A term's field -> the kind of reason it is (every other field's terms are words)."""


@dataclass(frozen=True)
class Reason:
    text: str
    """As the paper writes it: "diffusion", "Yoshua Bengio", "ijcai"."""
    kind: str  # "word", "author" or "venue"
    weight: float
    """What it added to the paper's score (negative: what it took away)."""


@dataclass(frozen=True)
class Explanation:
    up: tuple[Reason, ...]
    down: tuple[Reason, ...]

    def text(self) -> str:
        """``+ diffusion, Yoshua Bengio  − theorem`` (empty when nothing is known)."""
        parts = []
        if self.up:
            parts.append("+ " + ", ".join(r.text for r in self.up))
        if self.down:
            parts.append("− " + ", ".join(r.text for r in self.down))
        return "  ".join(parts)


def explain(paper: Paper, row: sparse.csr_matrix, terms: tuple[str, ...],
            coef: np.ndarray, n: int = 3) -> Explanation:
    """The ``n`` strongest reasons each way in one paper's feature ``row`` (1 x terms)."""
    surface = surface_words(paper)
    totals: dict[tuple[str, str], list] = {}
    for column, value in zip(row.indices, row.data, strict=True):
        push = float(value * coef[column])
        if not push:
            continue
        term = terms[column]
        fieldname, _, word = term.partition(":")
        text = surface.get(term, word)
        key = (KINDS.get(fieldname, "word"), text.casefold())
        entry = totals.setdefault(key, [text, 0.0])
        entry[1] += push
    reasons = sorted((Reason(text, kind, weight) for (kind, _), (text, weight)
                      in totals.items()), key=lambda r: r.weight)
    up = tuple(r for r in reversed(reasons[-n:]) if r.weight > 0)
    down = tuple(r for r in reasons[:n] if r.weight < 0)
    return Explanation(up, down)
