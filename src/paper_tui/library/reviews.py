"""A paper's reviews and rating history, from what its sources keep beside their copies
(:mod:`paper_tui.holdings.reviews`): the source the index holds the paper from first,
then the others that kept any."""

from __future__ import annotations

from paper_tui.holdings import reviews as kept
from paper_tui.holdings.sources import SourceStore
from paper_tui.library.records import PaperReviews
from paper_tui.model import Paper


def of_paper(sources: SourceStore, paper: Paper | None, paper_id: str) -> PaperReviews:
    """The paper's kept reviews (None when no fetch kept them) and rating history."""
    own = [paper.source] if paper is not None and paper.source in sources.manifest else []
    order = own + sorted(sid for sid in sources.manifest if sid not in own)
    found = kept.reviews_of(sources.root, order, paper_id)
    return PaperReviews(None if found is None else tuple(found),
                        tuple(kept.history_of(sources.root, order, paper_id)))
