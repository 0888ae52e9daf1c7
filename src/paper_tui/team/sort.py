"""A query's results in the team's order: the ``team`` sort (``S``, ``search --sort team``,
``search.sort: team``).

The papers most members kept first, then those most members starred, then the query's
own order (relevance); the same papers and highlights as the results it wraps.
"""

from __future__ import annotations

from paper_tui.index import Reordered, Results
from paper_tui.team.coverage import Lab
from paper_tui.vocabulary import TEAM_SORT, count


class TeamOrder(Reordered):
    """``results`` reordered by the team (a :class:`~paper_tui.index.Results` too)."""

    sort = TEAM_SORT

    def __init__(self, results: Results, lab: Lab) -> None:
        ids = results.ids()
        kept, starred = lab.kept_count, lab.starred_count
        super().__init__(results, sorted(range(len(ids)), key=lambda i: (
            -kept.get(ids[i], 0), -starred.get(ids[i], 0), i)), ids)
        picks = sum(1 for pid in ids if kept.get(pid, 0) >= 2)
        self.sort_label = f"team: {count(picks, 'pick')}" if lab.me is not None else None
