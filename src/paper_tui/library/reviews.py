"""A paper's reviews and rating history, from what its sources keep beside their copies
(:mod:`paper_tui.holdings.reviews`): the source the index holds the paper from first,
then the others that kept any."""

from __future__ import annotations

from typing import TYPE_CHECKING

from paper_tui.holdings import reviews as kept
from paper_tui.holdings.sources import SourceStore
from paper_tui.library.records import PaperReviews
from paper_tui.model import Paper
from paper_tui.venue.reviews import RatingPoint, change_text

if TYPE_CHECKING:
    from paper_tui.index import PaperIndex


def _order(sources: SourceStore, paper: Paper | None) -> list[str]:
    own = [paper.source] if paper is not None and paper.source in sources.manifest else []
    return own + sorted(sid for sid in sources.manifest if sid not in own)


def of_paper(sources: SourceStore, paper: Paper | None, paper_id: str) -> PaperReviews:
    """The paper's kept reviews (None when no fetch kept them) and rating history."""
    order = _order(sources, paper)
    found = kept.reviews_of(sources.root, order, paper_id)
    return PaperReviews(None if found is None else tuple(found),
                        tuple(kept.history_of(sources.root, order, paper_id)))


def history(sources: SourceStore, paper: Paper | None, paper_id: str) -> tuple[RatingPoint, ...]:
    """The paper's rating history alone, oldest first (no review read: the app's venue
    line asks it for every paper shown)."""
    return tuple(kept.history_of(sources.root, _order(sources, paper), paper_id))


def all_histories(sources: SourceStore) -> dict[str, list[RatingPoint]]:
    """Every paper's rating history, by id (``team digest``'s rating moves)."""
    return kept.histories(sources.root, sorted(sources.manifest))


def move(sources: SourceStore, paper: Paper | None, paper_id: str) -> str:
    """How the paper's rating moved, ``7.0 → 8.0 (+1.0 since 20 Nov)``; "" with fewer than
    two points (a row's value in the ``rating-change`` sort)."""
    return change_text(history(sources, paper, paper_id))


class ReviewsDoor:
    """The part of the library's door that reads what the reviewers wrote of a paper
    (:class:`~paper_tui.library.Library` is one; it sets ``sources`` and ``index``): from
    the paper's own source first, then the others that kept any."""

    sources: SourceStore
    index: PaperIndex

    def reviews(self, paper_id: str) -> PaperReviews:
        """What the reviewers wrote of a paper and how its ratings moved."""
        return of_paper(self.sources, self.index.get(paper_id), paper_id)

    def rating_history(self, paper_id: str) -> tuple[RatingPoint, ...]:
        """A paper's rating history alone, oldest first."""
        return history(self.sources, self.index.get(paper_id), paper_id)

    def rating_move(self, paper_id: str) -> str:
        """How a paper's rating moved, ``7.0 → 8.0 (+1.0 since 20 Nov)`` ("" with one
        point of history or none)."""
        return move(self.sources, self.index.get(paper_id), paper_id)
