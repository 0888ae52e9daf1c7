"""What the library holds of a paper beyond its record (the detail pane's, ``show``'s): the
reader's marks, the lists holding it, its other versions named as the reader would name
them, the other members' marks; and the reader's work on papers the library no longer
holds (kept, never dropped).

:class:`~paper_tui.library.Library` builds one :class:`Details` when it opens and hands
it the parts it needs.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from paper_tui.index import PaperIndex
from paper_tui.library.records import MemberMarks, PaperDetail
from paper_tui.store import Annotations

TeamMarks = Callable[[str, bool], tuple[MemberMarks, ...]]
"""``team_marks(paper_id, fresh)``: the other members' marks on a paper."""


class Details:
    """A paper's detail from the index, the reader's store and the team's marks."""

    def __init__(self, index: PaperIndex, annotations: Annotations,
                 team_marks: TeamMarks) -> None:
        self.index = index
        self.annotations = annotations
        self.team_marks = team_marks

    def detail(self, paper_id: str, *, team: bool = False, fresh: bool = False
               ) -> PaperDetail:
        """What the library holds of a paper beyond its record. ``team``: with the other
        members' marks — as last read (the library's ``reload_team`` reads what changed,
        in the app's worker), so a draw never parses a file; ``fresh``: read now, parsing
        only this paper's block of a member's file that changed (a command's ``show``)."""
        versions = tuple(v for v in self.index.versions_of(paper_id) if v != paper_id)
        return PaperDetail(paper_id, self.annotations.get(paper_id),
                           tuple(self.annotations.lists.lists_of(paper_id)),
                           versions, self._also_in(versions),
                           self.team_marks(paper_id, fresh) if team else ())

    def _also_in(self, versions: Sequence[str]) -> tuple[str, ...]:
        """Other versions as the reader would name them: ``arXiv 2401.01234``,
        ``NeurIPS 2024``."""
        names = []
        for other in versions:
            paper = self.index.get(other)
            if paper is None:
                continue
            if other.startswith("arxiv-"):
                names.append(f"arXiv {other.removeprefix('arxiv-')}")
            else:
                names.append(" ".join(x for x in (paper.venue, str(paper.year or "")) if x)
                             or paper.source or other)
        return tuple(names)

    def orphans(self) -> list[str]:
        """Annotated or listed ids whose paper is not in the library (kept, not dropped)."""
        return self.annotations.orphans(_Known(self.index))

    def triaged_count(self) -> int:
        """How many papers have a status other than ``new``."""
        return sum(self.annotations.status_counts().values())


class _Known:
    """Membership in the index, asked one id at a time."""

    def __init__(self, index: PaperIndex) -> None:
        self.index = index

    def __contains__(self, paper_id: object) -> bool:
        return isinstance(paper_id, str) and self.index.get(paper_id) is not None
