"""The one door both fronts go through: :class:`Library`, for everything they do (open,
import, search, recommend, annotate, reading lists, export, cite, the team), and the types
its methods take and return.

- :mod:`.facade`: :class:`Library`, its methods grouped by concern;
- :mod:`.records`: the frozen records it returns besides papers and result sets;
- :mod:`.importing`: a file imported in one pass, the index kept in step with the sources;
- :mod:`.context`: the config and the library as a front started from the command line
  opens them.

A library directory holds ``sources/`` (the papers), ``index/`` (derived, rebuildable),
the reader's annotations and reading lists (YAML) and the team's work tree.
"""

from paper_tui.index import Hit, Results, SearchPage
from paper_tui.library.facade import Library
from paper_tui.library.importing import Progress
from paper_tui.library.records import (
    Citation,
    MemberCoverage,
    MemberMarks,
    PaperDetail,
    TeamCoverage,
)
from paper_tui.store import Annotation, ReadingList
from paper_tui.vocabulary import FOR_YOU, SORTS

__all__ = ["FOR_YOU", "SORTS", "Annotation", "Citation", "Hit", "Library", "MemberCoverage",
           "MemberMarks", "PaperDetail", "Progress", "ReadingList", "Results", "SearchPage",
           "TeamCoverage"]
