"""Atomic file writes (temp file in the same directory, fsync, ``os.replace``), and a
file's identity, which tells a reader that the file was replaced or written since."""

from __future__ import annotations

import contextlib
import os
import tempfile
from pathlib import Path


def write_bytes(path: Path, data: bytes, *, backup: bool = False) -> None:
    """Replace ``path`` with ``data`` so that a crash leaves either the old or the new file.

    With ``backup``, the previous version is kept as ``<name>.bak`` (hard link, so the
    original is never absent for a moment).
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        if backup and path.exists():
            bak = path.with_name(path.name + ".bak")
            with contextlib.suppress(FileNotFoundError):
                bak.unlink()
            os.link(path, bak)
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        raise
    fsync_dir(path.parent)


def write_text(path: Path, text: str, *, backup: bool = False) -> None:
    write_bytes(path, text.encode("utf-8"), backup=backup)


def fsync_dir(directory: Path) -> None:
    with contextlib.suppress(OSError):
        fd = os.open(directory, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


FileIdentity = tuple[int, int, int]
"""(inode, modification time in ns, size): a replace changes the inode, a write in place
the time or the size."""


def identity(file: Path | int) -> FileIdentity | None:
    """The identity of a file (a path, or an open descriptor); None when there is none."""
    try:
        st = os.stat(file)
    except OSError:
        return None
    return (st.st_ino, st.st_mtime_ns, st.st_size)
