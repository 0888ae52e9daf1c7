"""The one door both fronts go through: :class:`Library`, for everything they do (open,
import, search, recommend, annotate, reading lists, export, cite, the team), and the types
its methods take and return.

- :mod:`.facade`: :class:`Library`, its methods grouped by concern, each handing on to a
  part or to one of the domains below;
- :mod:`.records`: the frozen records it returns besides papers and result sets;
- :mod:`.parts`: the parts of a library directory, opened and connected;
- :mod:`.importing`: a file imported in one pass, the index kept in step with the sources;
- :mod:`.fetching`: lists from the network fetched and imported as a file is;
- :mod:`.holdings`: the sources listed, one taken out, where each was fetched from;
- :mod:`.finding`: an id resolved, a search in the sort asked for;
- :mod:`.details`: what the library holds of a paper beyond its record;
- :mod:`.citing`: citation keys, citations, the ``.bib`` files linked to reading lists;
- :mod:`.watching`: a watch saved, and the watches run;
- :mod:`.team_work`: the team's split, coverage and agenda;
- :mod:`.context`: the config and the library as a front started from the command line
  opens them.

A library directory holds ``sources/`` (the papers), ``index/`` (derived, rebuildable),
the reader's annotations and reading lists (YAML) and the team's work tree.
"""

import importlib
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from paper_tui.fetch.report import FetchProgress, FetchReport, SourceFetch
    from paper_tui.index import Hit, Results, SearchPage
    from paper_tui.library.facade import Library
    from paper_tui.library.importing import Progress
    from paper_tui.library.records import (
        Citation,
        MemberCoverage,
        MemberMarks,
        PaperDetail,
        PaperReviews,
        TeamCoverage,
    )
    from paper_tui.store import Annotation, ReadingList
    from paper_tui.vocabulary import FOR_YOU, SORTS

__all__ = ["FOR_YOU", "SORTS", "Annotation", "Citation", "FetchProgress", "FetchReport", "Hit",
           "Library", "MemberCoverage", "MemberMarks", "PaperDetail", "PaperReviews", "Progress",
           "ReadingList",
           "Results", "SearchPage", "SourceFetch", "TeamCoverage"]

# Each name is imported on first use, not with the package: a command that needs only a
# light part of it (``library.context`` for ``merge-driver``, ``library.completion`` for a
# shell's Tab) must not pay for Whoosh and numpy (0.3 s of CPU per git merge or Tab).
_HOME = {"Hit": "paper_tui.index", "Results": "paper_tui.index",
         "SearchPage": "paper_tui.index", "Library": "paper_tui.library.facade",
         "Progress": "paper_tui.library.importing", "Citation": "paper_tui.library.records",
         "MemberMarks": "paper_tui.library.records",
         "MemberCoverage": "paper_tui.library.records",
         "TeamCoverage": "paper_tui.library.records",
         "PaperDetail": "paper_tui.library.records",
         "PaperReviews": "paper_tui.library.records", "Annotation": "paper_tui.store",
         "ReadingList": "paper_tui.store", "FOR_YOU": "paper_tui.vocabulary",
         "SORTS": "paper_tui.vocabulary", "FetchReport": "paper_tui.fetch.report",
         "FetchProgress": "paper_tui.fetch.report", "SourceFetch": "paper_tui.fetch.report"}


def __getattr__(name: str) -> object:
    home = _HOME.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(home), name)
    globals()[name] = value
    return value
