"""A query's results in the order of what this reader is likeliest to want: the app's
"for you" sort.

Wraps the index's result set (same papers, same highlights) and reorders it: the papers
not triaged yet first, best first (as ``paper-tui recommend`` ranks them), then the
triaged ones, also by score; papers it cannot score keep the query's order after those.
"""

from __future__ import annotations

from paper_tui.index import Hit, Results, Spans
from paper_tui.model import Paper
from paper_tui.recommend.ranking import Recommender
from paper_tui.vocabulary import FOR_YOU


class ForYouResults:
    """``results`` reordered (a :class:`~paper_tui.index.Results` too)."""

    sort = FOR_YOU

    def __init__(self, results: Results, recommender: Recommender) -> None:
        self._results = results
        self.query = results.query
        self.error = results.error
        ids = results.ids()
        ranked = recommender.rank(ids) if recommender.ready else ids
        if recommender.ready:
            new = set(recommender.new_ids())
            ranked = [p for p in ranked if p in new] + [p for p in ranked if p not in new]
        position = {pid: i for i, pid in enumerate(ids)}
        self._order = [position[pid] for pid in ranked]
        self._ids = ranked
        self._index_of = {pid: i for i, pid in enumerate(ranked)}
        learned = recommender.learned_from.text()
        self.sort_label = f"for you: {learned}" if recommender.ready else \
            "for you: nothing kept yet (mark a paper to read or star it)"

    def __len__(self) -> int:
        return len(self._order)

    @property
    def total(self) -> int:
        return len(self._order)

    @property
    def suggestion(self) -> str | None:
        return self._results.suggestion

    def paper(self, i: int) -> Paper:
        return self._results.paper(self._order[i])

    def hit(self, i: int) -> Hit:
        return self._results.hit(self._order[i])

    def score(self, i: int) -> float | None:
        return None

    def highlights(self, i: int, fields: tuple[str, ...] = ("title", "abstract")) -> Spans:
        return self._results.highlights(self._order[i], fields)

    def ids(self) -> list[str]:
        return list(self._ids)

    def index_of(self, paper_id: str) -> int | None:
        return self._index_of.get(paper_id)

    def close(self) -> None:
        self._results.close()
