"""An older library's stored papers brought up to :data:`paper_tui.holdings.sources.VERSION`.

``sources/`` holds papers, not the files they came from, so what an older paper-tui did
not keep (the venue's decision, reviews, area, citations, links, affiliations; a record
without an abstract) can only come from the original file. Each source of a format that
carries any of it is re-read from the path in the manifest when that file is still there
and unchanged (same checksum) and the re-read keeps every paper the source had (same ids:
annotations stay attached); otherwise the source keeps the papers it has, and the user is
told once how many and how to fill them in (re-import the file). Annotations are never
touched. Run under the library lock, before the index is opened.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from paper_tui.errors import SourceError
from paper_tui.holdings.sources import VERSION, SourceStore, checksum, encode
from paper_tui.model import Paper

Progress = Callable[[str, int, int | None], None]

REREAD_FORMATS = frozenset({"paperlists", "openreview", "csv", "jsonl", "ris"})
"""The formats that carry a venue signal or a record an older paper-tui left out; the
others' stored papers are the same whatever version reads them."""


def upgrade_sources(sources: SourceStore, warn: Callable[[str], None] | None,
                    progress: Progress | None = None) -> list[str]:
    """Bring an older library's sources to :data:`VERSION`; the ids of the sources
    rewritten (their papers must be indexed again). Nothing when already current."""
    if sources.version >= VERSION:
        return []
    todo = sorted(sid for sid, info in sources.manifest.items()
                  if info.format in REREAD_FORMATS)
    if warn is not None and todo:
        warn(f"this library was made by an older paper-tui: re-reading {len(todo)} "
             "source file(s) for the venue's decisions, reviews, areas, citations, links "
             "and affiliations, and rebuilding their part of the index (annotations are "
             "kept)")
    rewritten: list[str] = []
    kept: list[str] = []
    try:
        for number, source_id in enumerate(todo):
            if progress is not None:
                progress("re-reading sources", number, len(todo))
            if _reread(sources, source_id):
                rewritten.append(source_id)
            else:
                kept.append(source_id)
        if progress is not None and todo:
            progress("re-reading sources", len(todo), len(todo))
        sources.mark_current()
    except OSError as exc:  # a library that cannot be written: it stays as it is
        if warn is not None:
            warn(f"{sources.root}: cannot be written ({exc.strerror or exc}): the papers stay "
                 "as an older paper-tui stored them until it can be")
        return rewritten
    if warn is not None and kept:
        named = ", ".join(kept[:3]) + (f" and {len(kept) - 3} more" if len(kept) > 3 else "")
        warn(f"{len(kept)} source(s) keep the papers they had, without the venue's "
             f"signals, as their original file is gone, changed or unreadable ({named}): "
             "re-import the file to fill them in")
    return rewritten


def _reread(sources: SourceStore, source_id: str) -> bool:
    """Re-read one source from its original file; False (nothing changed) when the file
    is gone, changed or unreadable, or the re-read would lose a paper the source has."""
    from paper_tui.importers import import_file

    info = sources.manifest[source_id]
    path = Path(info.path)
    try:
        if not path.is_file() or checksum(path) != info.checksum:
            return False
        found_id, fmt, records = import_file(path)
        if found_id != source_id:
            return False
        lines: list[bytes] = []
        ids: set[str] = set()
        for record in records:
            if isinstance(record, Paper) and record.id not in ids:
                ids.add(record.id)
                lines.append(encode(record))
        had = {paper.id for paper in sources.papers(source_id)}
    except (OSError, SourceError):
        return False
    # Hints given at the first import (--venue, --year) are not kept: a re-read without
    # them could give other ids, and annotations must never lose their paper.
    if not had <= ids:
        return False
    sources.write_lines(source_id, path, info.checksum, fmt, lines)
    return True
