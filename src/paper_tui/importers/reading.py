"""How far through its file an import has read, for its progress line: the bytes of the
file on disk read so far (of a gzipped file, the packed bytes) and the file's size.

A reader that streams its file (JSON Lines, :func:`~paper_tui.importers.common.read_lines`)
says where it is while it reads (:func:`reading`); the worker of :mod:`.parallel` sends
that position with each chunk of records, and the importing process answers with the last
one it received. A format read whole says nothing (its import has no fraction).

:func:`counting` makes an import's progress callback: a front's callback that has a
``through_file(stage, done, read, size)`` method hears how far
through the file the import is with each count; any other is called as before,
``progress(stage, done, None)``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

Progress = Callable[[str, int, int | None], None]

_OPEN: dict[Path, tuple[Callable[[], int], int]] = {}
"""The file being read at each path: how to ask its position, its size."""
_ENDED: list[tuple[Path, tuple[int, int]]] = []
"""The last file whose reading ended, and where it ended (an import's last count comes
after its reader closed the file)."""


@contextmanager
def reading(path: Path, position: Callable[[], int]) -> Iterator[None]:
    """While in this block, ``position()`` says how many bytes of the file at ``path``
    were read (``path`` is open: a file that cannot be measured says nothing)."""
    try:
        size = path.stat().st_size
    except OSError:
        yield
        return
    _OPEN[path] = (position, size)
    try:
        yield
    finally:
        ended = through(path)
        if _OPEN.get(path, (None,))[0] is position:
            del _OPEN[path]
        if ended is not None:
            _ENDED[:] = [(path, ended)]


def through(path: Path) -> tuple[int, int] | None:
    """``(bytes read, size)`` of the file at ``path`` being read (or the last one read)."""
    open_ = _OPEN.get(path)
    if open_ is None:
        return next((at for ended, at in _ENDED if ended == path), None)
    position, size = open_
    try:
        return min(position(), size), size
    except (OSError, ValueError):  # closed under us: nothing to say
        return None


def counting(progress: Progress, stage: str, path: Path) -> Callable[[int], None]:
    """``report(done)`` for an import of ``path``: ``progress.through_file(stage, done, read,
    size)`` when the callback has that method and the file's position is known, else
    ``progress(stage, done, None)``."""
    heard: Callable[[str, int, int, int], None] | None = getattr(progress, "through_file", None)

    def report(done: int) -> None:
        at = through(path) if heard is not None else None
        if heard is None or at is None:
            progress(stage, done, None)
        else:
            heard(stage, done, *at)

    return report
