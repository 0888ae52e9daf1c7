"""A query's results in the team's order: the ``team`` sort (``S``, ``search --sort team``,
``search.sort: team``).

The papers most members kept first, then those most members starred, then the query's
own order (relevance); the same papers and highlights as the results it wraps.
"""

from __future__ import annotations

from paper_tui.index import Hit, Results, Spans
from paper_tui.model import Paper
from paper_tui.team.coverage import Lab
from paper_tui.vocabulary import TEAM_SORT, count


class TeamOrder:
    """``results`` reordered by the team (a :class:`~paper_tui.index.Results` too)."""

    sort = TEAM_SORT

    def __init__(self, results: Results, lab: Lab) -> None:
        self._results = results
        self.query = results.query
        self.error = results.error
        ids = results.ids()
        kept, starred = lab.kept_count, lab.starred_count
        self._order = sorted(range(len(ids)), key=lambda i: (-kept.get(ids[i], 0),
                                                             -starred.get(ids[i], 0), i))
        self._ids = [ids[i] for i in self._order]
        self._index_of = {pid: i for i, pid in enumerate(self._ids)}
        picks = sum(1 for pid in ids if kept.get(pid, 0) >= 2)
        self.sort_label = f"team: {count(picks, 'pick')}" if lab.me is not None else None

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
        return self._results.score(self._order[i])

    def highlights(self, i: int, fields: tuple[str, ...] = ("title", "abstract")) -> Spans:
        return self._results.highlights(self._order[i], fields)

    def ids(self) -> list[str]:
        return list(self._ids)

    def index_of(self, paper_id: str) -> int | None:
        return self._index_of.get(paper_id)

    def close(self) -> None:
        self._results.close()
