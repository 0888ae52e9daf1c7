"""What the reader has told the library, as training labels: kept (positive) and skipped
(negative) papers, read from the annotation store and the reading lists only."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

KEPT_STATUSES = frozenset({"to-read", "read"})


@dataclass(frozen=True)
class Labels:
    kept: frozenset[str]
    """Papers marked to-read or read, starred, tagged, or put on a reading list."""
    skipped: frozenset[str]
    """Papers marked skipped (and nothing of the above)."""
    triaged: frozenset[str]
    """Every paper whose status is not new, and every kept one: never recommended."""


def labels_from(records: Mapping[str, Mapping[str, Any]],
                listed: Iterable[str] = ()) -> Labels:
    """Labels from annotation records (``{paper id: {"status", "starred", "tags"}}``, as
    the store holds them) and the ids on any reading list."""
    kept: set[str] = set(listed)
    skipped: set[str] = set()
    triaged: set[str] = set()
    for paper_id, record in records.items():
        status = record.get("status", "new")
        if status != "new":
            triaged.add(paper_id)
        if status in KEPT_STATUSES or record.get("starred") or record.get("tags"):
            kept.add(paper_id)
        elif status == "skipped":
            skipped.add(paper_id)
    skipped -= kept
    return Labels(frozenset(kept), frozenset(skipped), frozenset(triaged | kept))


def library_labels(library) -> Labels:
    """The labels of a :class:`~paper_tui.library.Library` (its public annotation calls)."""
    listed = (paper_id for lst in library.reading_lists() for paper_id in lst.ids)
    return labels_from(library.annotations.store.snapshot(), listed)
