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

FOR_YOU = "for-you"
"""The sort by what this reader is likeliest to want (the recommender's)."""
TEAM_SORT = "team"
"""The sort by the team: how many members kept a paper, then how many starred it."""
SORTS = ("relevance", "year", "title", TEAM_SORT, FOR_YOU)
"""How results can be ordered: the index's three sorts, the team's, then the
recommender's."""
CITATION_STYLES = ("bibtex", "plain", "markdown", "key")
"""The citation styles, the default first."""


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
