"""A query's results in the order of what this reader is likeliest to want: the app's
"for you" sort.

Wraps the index's result set (same papers, same highlights) and reorders it: the papers
not triaged yet first, best first (as ``paper-tui recommend`` ranks them), then the
triaged ones, also by score; papers it cannot score keep the query's order after those.
"""

from __future__ import annotations

from paper_tui.index import Reordered, Results
from paper_tui.recommend.ranking import Recommender
from paper_tui.vocabulary import FOR_YOU


class ForYouResults(Reordered):
    """``results`` reordered (a :class:`~paper_tui.index.Results` too)."""

    sort = FOR_YOU

    def __init__(self, results: Results, recommender: Recommender) -> None:
        ids = results.ids()
        ranked = recommender.rank(ids) if recommender.ready else ids
        if recommender.ready:
            done = recommender.triaged
            ranked = [p for p in ranked if p not in done] + [p for p in ranked if p in done]
        position = {pid: i for i, pid in enumerate(ids)}
        super().__init__(results, [position[pid] for pid in ranked], ids)
        learned = recommender.learned_from.text()
        bounded = recommender.bounded(ids) if recommender.ready else None
        if bounded is not None:  # a big library: the others keep the query's order
            learned = f"{learned}; {bounded.text()}"
        self.sort_label = f"for you: {learned}" if recommender.ready else \
            "for you: nothing kept yet (mark a paper to read or star it)"

    def score(self, i: int) -> float | None:
        return None  # a relevance score means nothing in this order
