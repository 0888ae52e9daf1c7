"""How much disk each part of a library directory takes (``paper-tui config``), measured
without opening the library: one walk of the directory (``os.scandir``, links not
followed), each file counted by the blocks it holds, as ``du`` counts them.

The parts (see ``docs/design.md``): ``sources/`` (the library's copy of each list),
``index/`` (derived), ``pdfs/`` (PDFs and their texts), ``team/`` (the team's checkout,
its git history with it), the reader's annotations (the files at the top: annotations,
reading lists, citation keys, watches, ``.bib`` links, their backups, caches and locks),
and the rest (fetch's working copies, the recommender's cache).
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

PARTS = ("sources", "index", "pdfs", "team", "annotations", "other")
"""The parts in the order they are said, then ``total``."""
_FOLDERS = {"sources": "sources", "index": "index", "pdfs": "pdfs", "team": "team"}


def disk_use(root: Path) -> dict[str, int]:
    """Bytes on disk of each of :data:`PARTS` of the library at ``root``, and ``total``
    (all zero for a library not created yet)."""
    use = dict.fromkeys((*PARTS, "total"), 0)
    try:
        use["other"] = _blocks(os.stat(root))  # the directory's own (as du counts it)
        with os.scandir(root) as found:
            entries = list(found)
    except OSError:
        return use
    for entry in entries:
        try:
            if entry.is_dir(follow_symlinks=False):
                part = _FOLDERS.get(entry.name, "other")
                size = _tree(entry.path)
            else:
                part = "annotations" if entry.is_file(follow_symlinks=False) else "other"
                size = _blocks(entry.stat(follow_symlinks=False))
        except OSError:  # gone while measured
            continue
        use[part] += size
    use["total"] = sum(use[part] for part in PARTS)
    return use


def _tree(path: str) -> int:
    """Bytes on disk of the directory at ``path`` and everything below it."""
    total = _blocks(os.stat(path, follow_symlinks=False))
    pending = [path]
    while pending:
        try:
            with os.scandir(pending.pop()) as entries:
                for entry in entries:
                    try:
                        info = entry.stat(follow_symlinks=False)
                    except OSError:
                        continue
                    total += _blocks(info)
                    if stat.S_ISDIR(info.st_mode):
                        pending.append(entry.path)
        except OSError:
            continue
    return total


def _blocks(info: os.stat_result) -> int:
    """The bytes a file holds on disk (its size where the system counts no blocks)."""
    blocks = getattr(info, "st_blocks", None)
    return blocks * 512 if blocks is not None else info.st_size
