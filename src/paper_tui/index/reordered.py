"""A result set in another order: the same papers, hits and highlights as the results it
wraps, shown in the order a sort outside the index decides (the team's, "for you")."""

from __future__ import annotations

from collections.abc import Sequence

from paper_tui.index.results import Hit, Results
from paper_tui.index.schema import Spans
from paper_tui.model import Paper


class Reordered:
    """``results`` in ``order`` (positions in ``results``; ``ids`` its paper ids, as
    ``results.ids()`` gave them): a :class:`~paper_tui.index.Results` too. A subclass
    names its ``sort`` and says what it sorted by in ``sort_label``."""

    sort: str = ""
    sort_label: str | None = None

    def __init__(self, results: Results, order: Sequence[int], ids: Sequence[str]) -> None:
        self._results = results
        self.query = results.query
        self.error = results.error
        self._order = list(order)
        self._ids = [ids[i] for i in self._order]
        self._index_of = {pid: i for i, pid in enumerate(self._ids)}

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
