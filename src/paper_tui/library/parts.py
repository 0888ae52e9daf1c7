"""The parts of a library directory, opened and connected (what
:meth:`~paper_tui.library.Library.open` builds its domains from): the index (``index/``,
derived), the team layer (``team/``), the reader's annotations and reading lists, the
sources (``sources/``), when each paper arrived, the watches, what the team made of each
paper, and the lock an import or a rebuild holds.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import filelock

from paper_tui.holdings.arrivals import Arrivals
from paper_tui.holdings.reviews import ForIndex
from paper_tui.holdings.sources import SourceStore
from paper_tui.index import PaperIndex
from paper_tui.index.schema import note_terms
from paper_tui.library.arrival_sets import ArrivalSets
from paper_tui.pdfs.shelf import Shelf
from paper_tui.store import Annotations
from paper_tui.store.watches import Watches
from paper_tui.team.coverage import Coverage
from paper_tui.team.layer import People, Team

# A rebuild of a big library takes minutes: wait that long for another process's.
_LOCK_TIMEOUT = 1800


@dataclass(frozen=True)
class Parts:
    index: PaperIndex
    team: Team
    annotations: Annotations
    sources: SourceStore
    arrivals: Arrivals
    watches: Watches
    coverage: Coverage
    """What the team made of each paper: the team's query words, status, sort, digest."""
    lock: filelock.BaseFileLock
    """Held (re-entrantly) while the index is rebuilt or sources are imported, so two
    processes never rebuild at once or lose each other's manifest entries."""


def open_parts(root: Path, warn: Callable[[str], None] | None) -> Parts:
    """The parts of the library at ``root`` (created if needed), connected; ``warn`` hears
    of what the user should know (an unreadable index being rebuilt, a broken source)."""
    index = PaperIndex(root / "index", on_rebuild=warn)
    # The text of each PDF held (pdfs/<id>.txt, extracted once) is indexed whenever its
    # paper is written: a rebuild reads it again, never the PDF.
    index.bodies = Shelf(root)
    # So are the reviews and rating history kept beside each source (review:, meta:,
    # rating_change:).
    index.reviews = ForIndex(root / "sources")
    team = Team(root)
    # A change to one version of a paper from two sources is made to every version.
    # The store's thread, which watches the library's files for changes made
    # elsewhere, watches the team's too.
    annotations = Annotations(root, note_terms=note_terms, versions_of=index.versions_of,
                              watch=team.reload_if_stale)
    store = annotations.store
    # The index never holds the reader's work: its annotation words are answered from
    # the store's in-memory sets, so a change is seen by the next search at once.
    sources = SourceStore(root / "sources", indexed=index.indexed_sources, on_problem=warn)
    # When each paper entered the library (added:, watch:): beside the sources.
    arrivals = Arrivals(root / "sources", on_problem=warn)
    watches = Watches(root)
    coverage = Coverage(team, annotations.records, lambda: annotations.store.version)
    index.use_annotations(annotations.overlay, People(
        team, annotations.annotated_ids, lambda: store.version), coverage,
        ArrivalSets(arrivals, watches))
    root.mkdir(parents=True, exist_ok=True)
    # Left by versions that mirrored annotations into the index.
    (root / ".annotations-indexed.json").unlink(missing_ok=True)
    lock = filelock.FileLock(str(root / ".library.lock"), timeout=_LOCK_TIMEOUT)
    return Parts(index, team, annotations, sources, arrivals, watches, coverage, lock)
