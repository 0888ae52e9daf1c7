"""A reading list's linked ``.bib`` file (``paper-tui lists bib NAME FILE``): its BibTeX
entries under the keys the papers were given (never changing once given), sorted by key,
so a ``git diff`` of the file shows only the papers that came and went.

The file is replaced atomically (a temporary file beside it, fsync, rename): a reader, or
a ``kill -9`` in the middle, sees the old file or the new one, never half of one. It is
written only when its text changes.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Mapping, Sequence
from pathlib import Path

from paper_tui.citations.bibtex import bibtex
from paper_tui.model import Paper
from paper_tui.trust import atomic
from paper_tui.trust.inert import inert_line


def bib_text(name: str, papers: Sequence[Paper], keys: Mapping[str, str],
             missing: Sequence[str] = ()) -> str:
    """The file's text: a comment naming the list, then one entry per paper by key.
    ``missing``: listed ids no longer in the library (named in a comment)."""
    head = [f"% The reading list “{inert_line(name)}”, kept up to date by paper-tui: edits "
            "here are", "% replaced at the list's next change."]
    if missing:  # one comment line each, whatever the names hold (they may come from a team)
        head.append("% Not in the library, left out: "
                    + inert_line(", ".join(sorted(missing))))
    ordered = sorted(papers, key=lambda p: (keys[p.id].casefold(), keys[p.id]))
    return "\n".join(head) + "\n\n" + "".join(bibtex(p, keys[p.id]) + "\n\n"
                                              for p in ordered)


STALE_TEMP = 60.0
"""Seconds after which a temporary file beside the ``.bib`` is a killed writer's leftover."""


def write_if_changed(path: Path, text: str) -> bool:
    """Replace ``path`` with ``text`` atomically unless it holds that already; True when
    written. OSError when it cannot be: :class:`~paper_tui.trust.atomic.NotARegularFileError`,
    before anything is read, when ``path`` is a device, FIFO, socket or directory (a read
    of ``/dev/zero`` would never end, of a FIFO never start). The old file is read only
    when its size is the new text's, so never more than that. A killed writer's temporary
    file is removed."""
    data = text.encode("utf-8")
    status = atomic.refuse_special(path)
    if status is not None and status.st_size == len(data):
        with contextlib.suppress(OSError):
            if atomic.read_regular(path)[0] == data:
                return False
    for leftover in path.parent.glob(f".{path.name}.*.tmp"):
        with contextlib.suppress(OSError):
            if time.time() - leftover.stat().st_mtime > STALE_TEMP:
                leftover.unlink()
    atomic.write_bytes(path, data, regular_only=True)
    return True
