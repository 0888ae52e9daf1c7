"""Atomic file writes (temp file in the same directory, fsync, ``os.replace``), reads that
never hang on a file that is not a regular one, and a file's identity, which tells a
reader that the file was replaced or written since.

What a write does depends on what the path names:

- a regular file, or nothing yet: it is replaced atomically, so a crash leaves the old or
  the new file; an existing file keeps its permission bits, a new one gets the umask's
  (``0o666 & ~umask``, as ``open`` and a shell's ``>`` would give it);
- a symbolic link: the file it points to is written by these same rules; the link stays.
  A link is how people keep a file elsewhere (a synced folder, a dotfiles repo): replacing
  the link with a file of its own would silently part the two;
- a device or a FIFO (``/dev/null``, ``/dev/stdout``, a named pipe): written through, in
  place, as a shell's ``>`` would (opening a FIFO waits for its reader); such a file has
  nothing to replace, and replacing a device node with a file would break it for everyone.
  A full device fails with ``ENOSPC``;
- a directory or a socket: an ``OSError``, nothing written.

A file paper-tui keeps for a user (an ``-o`` file, a linked ``.bib``) is written with
``regular_only``: anything there that is not a regular file is refused
(:class:`NotARegularFileError`), as :func:`refuse_special` does before a command starts.
"""

from __future__ import annotations

import contextlib
import errno
import os
import secrets
import stat
from collections.abc import Iterator
from pathlib import Path
from typing import BinaryIO

_NEW_FILE_MODE = 0o666
"""Asked for when a file is created; the kernel takes the umask off."""
_KINDS = {stat.S_IFREG: "a regular file", stat.S_IFDIR: "a directory", stat.S_IFIFO: "a FIFO",
          stat.S_IFCHR: "a character device", stat.S_IFBLK: "a block device",
          stat.S_IFSOCK: "a socket"}


class NotARegularFileError(OSError):
    """A path that had to name a regular file names something else (its ``strerror``
    says what: ``a FIFO, not a regular file``)."""


def write_bytes(path: Path, data: bytes, *, backup: bool = False,
                regular_only: bool = False) -> None:
    """Write ``data`` to ``path``: a regular file is replaced atomically, a link written
    through, a device or FIFO written in place (the module's docstring has the rules);
    with ``regular_only``, a device, FIFO or socket is refused instead, nothing written.

    With ``backup``, the previous version of a regular file is kept as ``<name>.bak`` next
    to ``path`` (a hard link, so the file is never absent for a moment; a copy when no link
    can be made, as to a file a symlink keeps on another file system).
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    target = Path(os.path.realpath(path))  # a link's target is written: its folder must be
    try:
        status: os.stat_result | None = os.stat(target)
    except FileNotFoundError:
        status = None
    if status is not None and not stat.S_ISREG(status.st_mode):
        if regular_only:
            raise _not_regular(status.st_mode, target)
        _write_in_place(target, status, data)
        return
    with _replacing(target, status, path.with_name(path.name + ".bak") if backup else None
                    ) as fh:
        fh.write(data)


@contextlib.contextmanager
def writing(path: Path) -> Iterator[BinaryIO]:
    """A regular file written as it goes, atomically: what is written to the file handed
    out goes to a temp file beside ``path`` (a link's target), which replaces ``path``
    (fsync, ``os.replace``, fsync of the folder) when the ``with`` ends; an exception
    leaves ``path`` as it was and removes the temp file. For a file too big to hold in
    memory first (a source's copy of a million papers); ``path`` must be a regular file
    or nothing (:class:`NotARegularFileError` otherwise, nothing written)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    target = Path(os.path.realpath(path))
    try:
        status: os.stat_result | None = os.stat(target)
    except FileNotFoundError:
        status = None
    if status is not None and not stat.S_ISREG(status.st_mode):
        raise _not_regular(status.st_mode, target)
    with _replacing(target, status) as fh:
        yield fh


@contextlib.contextmanager
def _replacing(target: Path, status: os.stat_result | None, backup: Path | None = None
               ) -> Iterator[BinaryIO]:
    """A temp file beside ``target`` (its mode when it exists), fsynced and renamed over
    it when the ``with`` ends, the old file kept as ``backup`` first if given; removed on
    any exception, ``target`` untouched."""
    fd, tmp = _new_temp_file(target)
    try:
        with os.fdopen(fd, "wb") as fh:
            if status is not None:
                os.fchmod(fh.fileno(), stat.S_IMODE(status.st_mode))
            yield fh
            fh.flush()
            os.fsync(fh.fileno())
        if backup is not None and status is not None:
            _keep_backup(backup, target)
        os.replace(tmp, target)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        raise
    fsync_dir(target.parent)


def write_text(path: Path, text: str, *, backup: bool = False,
               regular_only: bool = False) -> None:
    write_bytes(path, text.encode("utf-8"), backup=backup, regular_only=regular_only)


def refuse_special(path: Path) -> os.stat_result | None:
    """The status of the regular file at ``path`` (a symbolic link followed), None when
    there is nothing there or its status cannot be read (a write will say why);
    :class:`NotARegularFileError` for anything else (a device, FIFO, socket or directory).
    Only the status is read: nothing is opened."""
    try:
        status = os.stat(path)
    except OSError:
        return None
    if not stat.S_ISREG(status.st_mode):
        raise _not_regular(status.st_mode, path)
    return status


def read_regular(path: Path) -> tuple[bytes, FileIdentity]:
    """The bytes of the regular file at ``path`` (a symlink followed) and its identity,
    read through one descriptor so that they match. Anything else raises
    :class:`NotARegularFileError` before a byte is read: the file is opened without
    blocking, so a FIFO with no writer cannot hang the reader, nor a device feed it
    forever."""
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    try:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            raise _not_regular(mode, path)
        with os.fdopen(fd, "rb", closefd=False) as fh:
            data = fh.read()
        st = os.fstat(fd)
        return data, (st.st_ino, st.st_mtime_ns, st.st_size)
    finally:
        os.close(fd)


def _not_regular(mode: int, path: Path) -> NotARegularFileError:
    return NotARegularFileError(errno.EISDIR if stat.S_ISDIR(mode) else errno.EINVAL,
                                f"{kind(mode)}, not a regular file", str(path))


def kind(mode: int) -> str:
    """What a file of this ``st_mode`` is, for a message: ``a FIFO``, ``a directory``…"""
    return _KINDS.get(stat.S_IFMT(mode), "a special file")


def _write_in_place(target: Path, status: os.stat_result, data: bytes) -> None:
    """Write into a device or FIFO as it is (no temp file, no fsync: neither has one)."""
    if stat.S_ISDIR(status.st_mode):
        raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR), str(target))
    fd = os.open(target, os.O_WRONLY | os.O_NOCTTY | os.O_CLOEXEC)
    try:
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view):]
    finally:
        os.close(fd)


def _new_temp_file(target: Path) -> tuple[int, str]:
    """A new file ``.<name>.<random>.tmp`` beside ``target``, created with the umask's mode
    (``tempfile.mkstemp`` would make it 0600, and the replace would keep that)."""
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC
    for _ in range(100):
        tmp = str(target.with_name(f".{target.name}.{secrets.token_hex(4)}.tmp"))
        try:
            return os.open(tmp, flags, _NEW_FILE_MODE), tmp
        except FileExistsError:
            continue
    raise FileExistsError(errno.EEXIST, "no unused temporary file name", str(target))


def _keep_backup(backup: Path, current: Path) -> None:
    with contextlib.suppress(FileNotFoundError):
        backup.unlink()
    try:
        os.link(current, backup)
    except OSError:  # another file system, or one without hard links
        write_bytes(backup, read_regular(current)[0])


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
