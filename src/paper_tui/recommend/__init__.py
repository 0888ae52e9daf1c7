"""What to read next: the new papers ranked by what this library's reader kept (to-read,
read, starred, tagged, listed) and skipped, each with the words and authors behind its
place. Never imports textual or whoosh; scipy is imported only when a recommendation is asked for.

The app keeps one :class:`Recommender` per library (``recommender(library)``): call
``refresh()`` in a worker after a triage key, then ``rank(ids)`` for the rows on screen,
``learned_from.text()`` for the status line and ``explain(paper_id)`` for the abstract view.
"""

from __future__ import annotations

import weakref

from paper_tui.recommend.explain import Explanation, Reason
from paper_tui.recommend.ranking import (
    HINT,
    Bounded,
    LearnedFrom,
    Recommendation,
    Recommendations,
    Recommender,
)

_kept: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def recommender(library) -> Recommender:
    """The library's recommender, made on first use and kept while the library lives."""
    found = _kept.get(library)
    if found is None:
        found = _kept[library] = Recommender(library)
    return found


def recommend(library, query: str = "", limit: int = 20) -> Recommendations:
    """The ``limit`` best new papers (within ``query`` when given)."""
    return recommender(library).recommend(query, limit)


__all__ = ["HINT", "Bounded", "Explanation", "LearnedFrom", "Reason", "Recommendation",
           "Recommendations", "Recommender", "recommend", "recommender"]
