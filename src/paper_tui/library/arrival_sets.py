"""What ``added:`` and ``watch:`` are answered from at query time: the papers first seen
at each time (``paper_tui.holdings.arrivals``) and each watch's source, as the sets the index's
annotation filter maps to document masks (its ``AnnotationSets`` protocol)."""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING

from paper_tui.holdings.arrivals import Arrivals
from paper_tui.query.added import ADDED, WATCH, time_value
from paper_tui.store.watches import Watches

if TYPE_CHECKING:
    import numpy as np


class ArrivalSets:
    """``added``: value = a first-seen time (:func:`time_value`), its papers;
    ``watch``: value = a watch's name, the papers its source holds."""

    def __init__(self, arrivals: Arrivals, watches: Watches) -> None:
        self.arrivals = arrivals
        self.watches = watches
        self._lock = threading.Lock()
        self._seen: tuple[int, int] | None = None
        self._version = 0

    def _current(self) -> int:
        """A number that changes whenever the times or the watches changed (on disk too)."""
        self.arrivals.fresh()
        self.watches.refresh()
        state = (self.arrivals.version, self.watches.version)
        with self._lock:
            if state != self._seen:
                self._seen = state
                self._version += 1
            return self._version

    def ids(self, field: str, value: str) -> tuple[frozenset[str], int]:
        version = self._current()
        if field == ADDED:
            return (self.arrivals.seen_at(int(value)) if value.isdigit() else frozenset(),
                    version)
        watch = self.watches.get(value)
        if watch is None or not watch.source_id:
            return frozenset(), version
        return self.arrivals.of_source(watch.source_id), version

    def digests(self, field: str, value: str) -> tuple[np.ndarray, int]:
        version = self._current()
        if field == ADDED:
            if not value.isdigit():
                return self.arrivals.digests_at(1, 0), version
            return self.arrivals.digests_at(int(value), int(value)), version
        watch = self.watches.get(value)
        if watch is None or not watch.source_id:
            return self.arrivals.digests_at(1, 0), version
        return self.arrivals.digests_of(watch.source_id), version

    def version_of(self, field: str, value: str) -> int:
        return self._current()

    def versions(self, field: str) -> dict[str, int]:
        version = self._current()
        return dict.fromkeys(self.values(field), version)

    def values(self, field: str) -> list[str]:
        if field == ADDED:
            return [time_value(at) for at in self.arrivals.times()]
        if field == WATCH:
            return [watch.name for watch in self.watches.all()]
        return []

    def note_phrase(self, words: list[str]) -> frozenset[str]:
        return frozenset()

    def watch_query(self, name: str) -> tuple[str, str] | None:
        self.watches.refresh()
        watch = self.watches.get(name)
        return (watch.name, watch.query) if watch is not None else None
