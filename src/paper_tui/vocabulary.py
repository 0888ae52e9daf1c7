"""The words paper-tui says to its reader, spelled once: triage statuses and their labels
and marks, the sorts, the citation styles, counts (``1 paper``, ``1,234 papers``) and a
paper's marks in a line.

Both fronts, the config and the core read them from here, so the app's abstract view, the
command line and the config's checks never disagree on a word. Nothing here imports
paper-tui: a paper's marks are anything shaped like :class:`Marks` (an annotation, a team
member's).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

STATUSES = ("new", "to-read", "read", "skipped")
"""Triage statuses, in triage order; ``new`` (not triaged yet) is the default."""
STATUS_LABELS = {"new": "new", "to-read": "to read", "read": "read", "skipped": "skipped"}
"""A status as a sentence says it."""
STATUS_MARKS = {"new": "·", "to-read": "+", "read": "✓", "skipped": "×"}
"""A status as one character, at the start of a result row."""
STAR = "★"
DECISION_MARKS = {"oral": "oral", "spotlight": "spotlight"}
"""The decisions a result row marks (the rarer presentations; a poster is the rule)."""

FOR_YOU = "for-you"
"""The sort by what this reader is likeliest to want (the recommender's)."""
TEAM_SORT = "team"
"""The sort by the team: how many members kept a paper, then how many starred it."""
RATING_CHANGE = "rating-change"
"""The sort by how far the reviewers' mean rating moved since the first point of its
history, the biggest rise first (a paper with one point has no change)."""
SORTS = ("relevance", "year", "title", "rating", "citations", "consensus", RATING_CHANGE,
         TEAM_SORT, FOR_YOU)
"""How results can be ordered: the index's sorts (``rating``: the reviewers' mean,
``citations``, ``consensus``: the mean less the reviewers' spread, so papers every reviewer
liked come first; ``rating-change``: the mean's move since the first point of its history;
unknown values last), the team's, then the recommender's."""
CITATION_STYLES = ("bibtex", "plain", "markdown", "key")
"""The citation styles, the default first."""
MEAN = "μ"
"""Before the reviewers' mean rating: μ, the mean, in every font and one cell wide; never a
star, which is the reader's own mark (★ starred)."""
CODE_LINK = "code ↗"
"""A link to the paper's code, as a view shows it (the arrow: it leaves the app)."""


class VenueSignals(Protocol):
    """What the venue says of a paper (:class:`~paper_tui.model.Paper` is one)."""

    @property
    def decision(self) -> str: ...

    @property
    def decision_text(self) -> str: ...

    @property
    def ratings(self) -> tuple[float, ...]: ...

    @property
    def rating(self) -> float | None: ...

    @property
    def rating_spread(self) -> float | None: ...

    @property
    def confidence(self) -> float | None: ...

    @property
    def citations(self) -> int | None: ...

    @property
    def citations_date(self) -> str: ...

    @property
    def award(self) -> bool | None: ...

    @property
    def area(self) -> str: ...


class Marks(Protocol):
    """What a reader can mark on a paper (:class:`~paper_tui.store.Annotation` is one)."""

    @property
    def status(self) -> str: ...

    @property
    def starred(self) -> bool: ...

    @property
    def tags(self) -> Sequence[str]: ...

    @property
    def note(self) -> str: ...


def status_label(status: str) -> str:
    """``to-read`` -> ``to read``."""
    return STATUS_LABELS.get(status, status)


def count(n: int, noun: str, plural: str | None = None) -> str:
    """``1 paper``, ``2 papers``, ``1,234 papers`` (``plural``: when not ``noun + "s"``)."""
    return f"{n:,} {noun if n == 1 else plural or noun + 's'}"


def mark_words(marks: Marks, lists: Sequence[str] = ()) -> list[str]:
    """A paper's marks as the command line lists them beside its id: ``to-read``, ``★``,
    ``tags: a, b``, ``lists: x, y``, ``note`` (the status always, the rest when there)."""
    words = [marks.status]
    words += [STAR] if marks.starred else []
    words += [f"tags: {', '.join(marks.tags)}"] if marks.tags else []
    words += [f"lists: {', '.join(lists)}"] if lists else []
    words += ["note"] if marks.note else []
    return words


def member_marks(marks: Marks) -> str:
    """A team member's marks on a paper in a few words: ``to read ★ #kernels note``
    (empty when they only looked at it)."""
    words = [status_label(marks.status)] if marks.status != "new" else []
    words += [STAR] if marks.starred else []
    words += [f"#{tag}" for tag in marks.tags]
    words += ["note"] if marks.note else []
    return " ".join(words)


def number(value: float) -> str:
    """A rating, a spread or a confidence as shown: two decimals at most, a whole one as
    ``6`` in a list of ratings but ``6.0`` alone (``6.75``, ``6.5``, ``6.0``, ``0.43``)."""
    text = f"{value:.2f}"
    return text[:-1] if text.endswith("0") else text


DECISION_LABELS = {"oral": "Oral", "spotlight": "Spotlight", "poster": "Poster",
                   "accept": "Accepted", "reject": "Rejected", "withdrawn": "Withdrawn",
                   "desk-reject": "Desk rejected", "workshop": "Workshop",
                   "findings": "Findings", "submitted": "Submitted"}
"""How each normalised decision reads when the source gives no words of its own."""


def decision_label(signals: VenueSignals) -> str:
    """The decision in the source's own words (``Poster Workshop``), said to be an
    acceptance when they only name the kind of paper (``Accepted (Long)``, ``Accepted
    (Technical)``), else the normalised one (``Oral``); "" when unknown. One rule for the
    app, ``show`` and the exports."""
    said = signals.decision_text
    if not said:
        return DECISION_LABELS.get(signals.decision, signals.decision.capitalize())
    if signals.decision == "accept" and "accept" not in said.casefold():
        return f"Accepted ({said})"
    return said


def rating_words(signals: VenueSignals, spread: bool = True, detail: bool = True) -> str:
    """``μ 6.75 ± 0.43 (6 7 7 7; confidence 4.0)``: the mean rating, its spread and the
    ratings themselves with the mean confidence, what of it is known ("" when no rating)."""
    if signals.rating is None:
        return ""
    words = f"{MEAN} {number(signals.rating)}"
    if spread and signals.rating_spread is not None:
        words += f" ± {number(signals.rating_spread)}"
    inside = []
    if detail and signals.ratings:
        inside.append(" ".join(f"{r:g}" for r in signals.ratings))
    if detail and signals.confidence is not None:
        inside.append(f"confidence {number(signals.confidence)}")
    return words + (f" ({'; '.join(inside)})" if inside else "")


def citation_words(signals: VenueSignals) -> str:
    """``312 citations (2026-12-01)``: the count and the day it was imported ("" unknown)."""
    if signals.citations is None:
        return ""
    words = count(signals.citations, "citation")
    return words + (f" ({signals.citations_date})" if signals.citations_date else "")


def sort_value(signals: VenueSignals, sort: str) -> str:
    """A paper's value for a sort by a number, as a result row shows it: ``μ 6.75``
    (rating), ``μ 6.75 ± 0.43`` (consensus: what it weighs), ``312 cites`` (citations);
    "" for another sort or an unknown value."""
    if sort == "rating":
        return rating_words(signals, spread=False, detail=False)
    if sort == "consensus":
        return rating_words(signals, detail=False)
    if sort == "citations" and signals.citations is not None:
        return f"{signals.citations:,} cites"
    return ""


def venue_words(signals: VenueSignals) -> list[str]:
    """What the venue says of a paper, as a line lists it, only what is known: the
    decision, the rating, the citations, an award, the area (links are the view's)."""
    words = [decision_label(signals), rating_words(signals), citation_words(signals),
             "award" if signals.award else "",
             f"area: {signals.area}" if signals.area else ""]
    return [w for w in words if w]
