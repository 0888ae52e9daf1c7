"""What the reviewers wrote and how their ratings moved, in the index: the ``review`` field
(the text of a paper's reviews, meta-reviews and decisions: ``review:``), the ``meta``
field (the meta-reviews and decisions alone: ``meta:``) and the ``rating_change`` number
of the signals column (the newest mean rating less the first: ``rating_change:>0``, the
``rating-change`` sort).

Like a PDF's text (:mod:`paper_tui.index.fulltext`), they are derived data: the library
keeps the reviews and the rating history beside each source
(:mod:`paper_tui.holdings.reviews`), and the index reads them through the
:class:`KeptReviews` it is handed whenever it writes a paper (an import, a rebuild, a
fetch whose reviews changed). Neither text is a default field of a plain query, and
neither is stored.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any, Protocol

from paper_tui.index.fulltext import MAX_BODY, Extender
from paper_tui.index.schema import META, REVIEW, SIGNAL_NAMES, SIGNAL_RECORD, SIGNALS, UNKNOWN
from paper_tui.model import Paper

Reviewed = tuple[str, str, float | None]
"""A paper's review text, meta-review text and rating change (None: unknown)."""
_CHANGE = SIGNAL_NAMES.index("rating_change")


class KeptReviews(Protocol):
    """Where the index finds the papers' reviews and rating histories (the library's
    sources)."""

    def looker(self) -> Callable[[Paper], Reviewed]:
        """A look-up for the papers of one writer (it may keep what it read meanwhile)."""


def add_reviews(doc: dict[str, Any], found: Reviewed) -> None:
    """Give the index document ``doc`` its review texts (each cut at
    :data:`~paper_tui.index.fulltext.MAX_BODY` characters) and its rating change."""
    review, meta, change = found
    if review.strip():
        doc[REVIEW] = review[:MAX_BODY]
    if meta.strip():
        doc[META] = meta[:MAX_BODY]
    if change is None or not math.isfinite(change):
        return
    numbers = list(SIGNAL_RECORD.unpack(doc.get(SIGNALS, UNKNOWN)))
    numbers[_CHANGE] = float(change)
    doc[SIGNALS] = SIGNAL_RECORD.pack(*numbers)


def extender(kept: KeptReviews | None) -> Extender | None:
    """What a writer calls with each paper and its document (None: nothing kept)."""
    if kept is None:
        return None
    look = kept.looker()
    return lambda paper, doc: add_reviews(doc, look(paper))
