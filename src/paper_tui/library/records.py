"""What the library's methods hand the fronts besides papers and result sets: frozen
records of plain values, so a front never holds a part of the library."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from paper_tui.store import Annotation
from paper_tui.venue.reviews import RatingPoint, Review, rating_change


@dataclass(frozen=True, slots=True)
class MemberMarks:
    """Another team member's marks on a paper, from their file in the team repo (a
    :class:`~paper_tui.vocabulary.Marks`, as an annotation is)."""

    name: str
    status: str = "new"
    starred: bool = False
    tags: tuple[str, ...] = ()
    note: str = ""

    def as_json(self) -> dict[str, Any]:
        """``show --json``'s ``team`` entry for this member."""
        return {"status": self.status, "starred": self.starred, "tags": list(self.tags),
                "note": self.note}


@dataclass(frozen=True, slots=True)
class PaperDetail:
    """What the library holds of a paper beyond its record: what the abstract view,
    ``paper-tui show`` and the exports show with it."""

    id: str
    annotation: Annotation
    """The reader's own marks (status, star, tags, note)."""
    lists: tuple[str, ...] = ()
    """The names of the reading lists holding it."""
    versions: tuple[str, ...] = ()
    """The ids of its other versions (the same paper from another source)."""
    also_in: tuple[str, ...] = ()
    """Those versions as a reader names them: ``arXiv 2401.01234``, ``NeurIPS 2024``."""
    team: tuple[MemberMarks, ...] = ()
    """The other team members' marks, when asked for (see :meth:`Library.detail`)."""

    @property
    def status(self) -> str:
        return self.annotation.status

    @property
    def starred(self) -> bool:
        return self.annotation.starred

    @property
    def tags(self) -> tuple[str, ...]:
        return self.annotation.tags

    @property
    def note(self) -> str:
        return self.annotation.note

    def as_json(self) -> dict[str, Any]:
        """The fields ``--json`` and the exports add to a paper's own."""
        return {"status": self.status, "starred": self.starred, "tags": list(self.tags),
                "note": self.note, "lists": list(self.lists), "also_in": list(self.versions)}


@dataclass(frozen=True, slots=True)
class Citation:
    """Citations of papers in one style, and what they are in a few words (``BibTeX for
    vaswani2017attention``) for the line that confirms a copy."""

    text: str
    style: str
    what: str
    html: str = ""
    """The same as HTML, for a paste that keeps italics (CSL styles; "" for the built-in
    styles, which are plain text)."""


@dataclass(frozen=True, slots=True)
class MemberCoverage:
    """One member's row of ``team status``: their share and what they made of the papers
    (counts within the query)."""

    name: str
    assigned: int = 0
    """Papers assigned to them."""
    triaged: int = 0
    """Of those, papers they kept or skipped."""
    kept: int = 0
    skipped: int = 0
    last_change: float | None = None
    """When they last changed their triage (seconds since the epoch; None: never)."""
    last_sync: float | None = None
    """When they last sent something to the team repo (None: never)."""
    you: bool = False
    state: str = "member"
    """``member`` (a file in the team repo), ``not synced yet`` (named in a split, no file
    yet) or ``left`` (their file was taken out of the repo)."""

    def as_json(self) -> dict[str, Any]:
        return {"assigned": self.assigned, "triaged": self.triaged, "kept": self.kept,
                "skipped": self.skipped, "last_change": _iso(self.last_change),
                "last_sync": _iso(self.last_sync), "you": self.you, "state": self.state}


@dataclass(frozen=True, slots=True)
class TeamCoverage:
    """``team status``: who covered what of a query's papers, and what is left."""

    query: str
    papers: int
    """Papers the query finds."""
    members: tuple[MemberCoverage, ...]
    untouched: int
    """Papers no member has triaged."""
    picks: int
    """Papers at least two members kept (``kept:2``)."""
    disputed: int
    """Papers one member kept and another skipped."""
    unassigned: int = 0
    """Papers no one is assigned (untouched or not)."""
    problems: tuple[str, ...] = ()
    """Why part of the team's work is not shown (a broken file), one line each."""

    def as_json(self) -> dict[str, Any]:
        return {"members": {m.name: m.as_json() for m in self.members},
                "untouched": self.untouched, "picks": self.picks, "disputed": self.disputed,
                "papers": self.papers, "unassigned": self.unassigned,
                "query": self.query, "problems": list(self.problems)}


def _iso(at: float | None) -> str | None:
    """Seconds since the epoch as ``2026-12-01T10:03:00Z`` (UTC)."""
    if at is None:
        return None
    return datetime.fromtimestamp(at, UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


@dataclass(frozen=True, slots=True)
class PaperReviews:
    """What the reviewers wrote of a paper (kept by a fetch with ``--reviews``) and how
    its ratings moved from fetch to fetch."""

    reviews: tuple[Review, ...] | None
    """In the forum's order; None when no fetch kept the paper's reviews."""
    history: tuple[RatingPoint, ...] = ()
    """Oldest first."""

    @property
    def meta_review(self) -> Review | None:
        return next((r for r in self.reviews or () if r.kind == "meta-review"), None)

    @property
    def rating_change(self) -> float | None:
        return rating_change(self.history)

    def as_json(self) -> dict[str, Any]:
        """``show --json``'s ``reviews``, ``meta_review``, ``rating_history`` and
        ``rating_change``."""
        meta = self.meta_review
        return {"reviews": None if self.reviews is None else [r.as_json() for r in self.reviews],
                "meta_review": meta.as_json() if meta is not None else None,
                "rating_history": [p.as_json() for p in self.history],
                "rating_change": self.rating_change}
