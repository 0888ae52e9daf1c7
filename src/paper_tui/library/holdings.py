"""What the library holds, source by source (``paper-tui sources``): every source listed
as the disk has it now, one taken out (its papers out of the index, the reader's marks
kept), what each fetched source was fetched from, and whether the library holds the
bundled demo list alone.

:class:`~paper_tui.library.Library` builds one :class:`Holdings` when it opens and hands
it the parts it needs, its lock among them (an import in another thread or process is
writing the manifest).
"""

from __future__ import annotations

import datetime
import functools
from collections.abc import Sequence
from contextlib import AbstractContextManager
from pathlib import Path
from typing import TYPE_CHECKING

from paper_tui import paths
from paper_tui.holdings import sources as sources_mod
from paper_tui.holdings.sources import SourceStore
from paper_tui.index import PaperIndex
from paper_tui.library import importing

if TYPE_CHECKING:
    from paper_tui.fetch.report import FetchReport


class Holdings:
    """The sources of one library (``root``), taken out of ``index`` too, under ``lock``."""

    def __init__(self, root: Path, sources: SourceStore, index: PaperIndex,
                 lock: AbstractContextManager[object]) -> None:
        self.root = root
        self.sources = sources
        self.index = index
        self.lock = lock

    def listed(self) -> list[sources_mod.Listed]:
        """Every source (the bundled list's files as one), by name, as the disk has them
        now (read under the lock: an import in another thread is writing the manifest)."""
        with self.lock:
            self.sources.reload()
            return sources_mod.listed(self.sources, self.root, paths.bundled_data_dir())

    def remove(self, names: Sequence[str]) -> sources_mod.Removed:
        """Take the sources of these names out of the library (all, or none when a name
        is unknown: :class:`~paper_tui.errors.PaperTuiError`); the reader's marks stay."""
        with self.lock:
            chosen = sources_mod.named(self.listed(), names)
            ids = [sid for source in chosen for sid in source.ids]
            left = importing.remove_sources(self.sources, self.index, ids)
            sources_mod.forget_origins(self.sources.root, ids)
        return sources_mod.Removed(tuple(chosen), left)

    def shows_demo(self) -> bool:
        """Whether the library holds the bundled list alone (the app says it is a demo)."""
        return sources_mod.only_bundled(self.sources, self._bundled)

    @functools.cached_property
    def _bundled(self) -> Path:
        """The bundled list's folder, resolved once (the status line asks at every change)."""
        return paths.bundled_data_dir().resolve()

    def record_fetched(self, report: FetchReport) -> None:
        """Keep what each source a fetch brought (or found unchanged) was fetched from,
        and when, for ``paper-tui sources``."""
        with self.lock:
            sources_mod.record_fetched(
                self.sources.root, [(s.source_id, s.spec) for s in report.sources
                                    if s.source_id and s.status in ("fetched", "unchanged")],
                datetime.date.today().isoformat())
