"""The reviews of the paper shown and how its rating moved (the reviews key, the venue
line): read off the UI thread.

Each paper the abstract view shows asks its rating history once (``Library.rating_history``
reads ``sources/<id>.ratings.json``), in a thread worker that posts
:class:`RatingMoved` only when the rating moved (two points or more), so a paper without a
history is drawn exactly as before. Toggling to the reviews reads the paper's reviews
(``Library.reviews``) the same way and posts :class:`ReviewsRead`. What was read is kept by
paper id, so a paper shown again costs nothing.
"""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING

from textual.binding import Binding
from textual.message import Message

from paper_tui.tui.widgets.reviews_view import ReviewsView, moved_text

if TYPE_CHECKING:
    from textual.widget import Widget

    from paper_tui.library import PaperReviews
    from paper_tui.tui.host import LibraryPane
    from paper_tui.tui.widgets.abstract import AbstractView

REVIEWS_KEY = Binding("w", "toggle_reviews", "Reviews", show=False, id="reviews",
                      tooltip="What the reviewers wrote, in the abstract pane (again: the "
                              "abstract); ] and [ from one review to the next")

KEPT = 512
"""Papers whose history (and reviews) are kept read."""


class RatingMoved(Message):
    """From the worker: how a paper's rating moved (``5.3 → 6.0 (+0.7 since 20 Nov) ▃▇``)."""

    def __init__(self, paper_id: str, moved: str) -> None:
        super().__init__()
        self.paper_id = paper_id
        self.moved = moved


class ReviewsRead(Message):
    """From the worker: a paper's reviews and history."""

    def __init__(self, paper_id: str, reviewed: PaperReviews) -> None:
        super().__init__()
        self.paper_id = paper_id
        self.reviewed = reviewed


class ReviewsController:
    """Reads reviews and rating histories for the screen ``host``."""

    def __init__(self, host: LibraryPane) -> None:
        self.host = host
        self.moves: dict[str, str] = {}
        """Paper id -> how its rating moved (``""``: it has not); asked once each."""
        self.reviews: dict[str, PaperReviews] = {}
        self.view: ReviewsView | None = None
        """The reviews view, mounted beside the abstract view when first asked for."""

    @property
    def showing(self) -> bool:
        """Whether the reviews view is in the pane (rather than the abstract)."""
        return self.view is not None and self.view.display

    def paper_shown(self, abstract: AbstractView, panes: Widget) -> None:
        """The abstract view shows another paper: read its history unless already read;
        the reviews view, when in the pane, follows."""
        paper = abstract.paper
        if self.showing:
            self._show(abstract)
        if paper is None or paper.id in self.moves:
            return
        paper_id = paper.id
        self.moves[paper_id] = ""  # asked: never twice
        if len(self.moves) > KEPT:
            del self.moves[next(iter(self.moves))]
        self.host.app.run_worker(partial(self._history, paper_id), thread=True,
                                 group="rating-history")

    def _history(self, paper_id: str) -> None:
        moved = moved_text(self.host.library.rating_history(paper_id))
        if moved:
            self.host.post_message(RatingMoved(paper_id, moved))

    def toggle(self, abstract: AbstractView, panes: Widget) -> None:
        """The reviews in the abstract's place, or the abstract back."""
        if self.view is None:
            self.view = ReviewsView(id="reviews")
            self.view.display = False
            panes.mount(self.view, after=abstract)
        view = self.view
        focused = self.host.app.focused in (abstract, view)
        if view.display:
            view.display, abstract.display = False, True
            if focused:
                abstract.focus()
            return
        for other in panes.query("#full-text"):  # one reading view at a time
            other.display = False
        abstract.display, view.display = False, True
        self._show(abstract)
        if focused:
            view.focus()

    def _show(self, abstract: AbstractView) -> None:
        assert self.view is not None
        paper = abstract.paper
        if paper is not self.view.paper or self.view.paper is None:
            self.view.show(paper, None if paper is None else self.read(paper.id))

    def rating_moved(self, message: RatingMoved, abstract: AbstractView) -> None:
        """A worker found that a paper's rating moved: its venue line says so."""
        self.moves[message.paper_id] = message.moved
        if abstract.paper is not None and abstract.paper.id == message.paper_id:
            abstract.moved()

    def reviews_read(self, message: ReviewsRead) -> None:
        """A worker read a paper's reviews: kept, and shown if that paper is in the view."""
        self.kept(message.paper_id, message.reviewed)
        view = self.view
        if view is not None and view.paper is not None and view.paper.id == message.paper_id:
            view.show(view.paper, message.reviewed)

    def read(self, paper_id: str) -> PaperReviews | None:
        """The paper's reviews if read already; else None and a worker reads them."""
        if paper_id in self.reviews:
            return self.reviews[paper_id]
        self.host.app.run_worker(partial(self._reviews, paper_id), thread=True,
                                 group="reviews")
        return None

    def _reviews(self, paper_id: str) -> None:
        self.host.post_message(ReviewsRead(paper_id, self.host.library.reviews(paper_id)))

    def kept(self, paper_id: str, reviewed: PaperReviews) -> None:
        """Keep what a worker read (on the UI thread)."""
        self.reviews[paper_id] = reviewed
        if len(self.reviews) > KEPT:
            del self.reviews[next(iter(self.reviews))]
