"""Files in the team work tree, which every team-mate can write to: read and written without
ever following a link out of it.

A team-mate controls what a checkout puts in ``<library>/team/``: a symbolic link there
(``sources/x.txt -> ~/diary.txt``, ``people/eve.yaml -> /dev/zero``, ``.gitattributes ->
~/.bashrc``) must never be read through nor written through. Each path is opened one
component at a time from the work tree's directory with ``O_NOFOLLOW``; only directories and
regular files are accepted (a FIFO or device is opened non-blocking, looked at and
refused). Writes go to a new file beside the target, then replace the name itself (a link
there is replaced, not followed). Reads stop at a size cap.
"""

from __future__ import annotations

import contextlib
import errno
import os
import secrets
import stat
from collections.abc import Iterator
from pathlib import Path

from paper_tui.errors import PaperTuiError

_READ = os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK
_DIRECTORY = _READ | os.O_DIRECTORY
_CHUNK = 1 << 20


class TeamFileError(PaperTuiError):
    """A path in the team repo that is not what it must be (a link, a device, too big)."""


def _mb(size: int) -> str:
    return f"{size / (1 << 20):,.1f} MB"


def _refused(rel: str, err: OSError) -> TeamFileError:
    if err.errno in (errno.ELOOP, errno.EMLINK, errno.ENOTDIR):
        why = ("is a symbolic link or passes through one, or through a file where a folder "
               "belongs (never followed out of the repo)")
    else:
        why = f"cannot be read ({err.strerror or err})"
    return TeamFileError(f"{rel} in the team repo {why}")


@contextlib.contextmanager
def _directory(root: Path, parts: list[str], create: bool = False) -> Iterator[int]:
    """A descriptor of ``root/parts…`` reached without following a link (made when
    ``create``); FileNotFoundError when a part is missing."""
    fd = os.open(root, _DIRECTORY)
    try:
        for part in parts:
            if create:
                with contextlib.suppress(FileExistsError):
                    os.mkdir(part, 0o777, dir_fd=fd)
            inner = os.open(part, _DIRECTORY, dir_fd=fd)
            os.close(fd)
            fd = inner
        yield fd
    finally:
        os.close(fd)


def _split(rel: str) -> tuple[list[str], str]:
    parts = rel.split("/")
    if not rel or any(p in ("", ".", "..") for p in parts):
        raise TeamFileError(f"{rel!r} is not a path inside the team repo")
    return parts[:-1], parts[-1]


def read_bytes(root: Path, rel: str, limit: int) -> bytes | None:
    """The bytes of the regular file ``rel`` under ``root`` (None when absent);
    :class:`TeamFileError` when it is a link, not a regular file, or over ``limit`` bytes."""
    folders, name = _split(rel)
    try:
        with _directory(root, folders) as parent:
            fd = os.open(name, _READ, dir_fd=parent)
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise _refused(rel, exc) from None
    with os.fdopen(fd, "rb") as fh:
        info = os.fstat(fh.fileno())
        if not stat.S_ISREG(info.st_mode):
            raise TeamFileError(f"{rel} in the team repo is not a regular file; not read")
        if info.st_size > limit:
            raise TeamFileError(f"{rel} in the team repo is {_mb(info.st_size)}, more than "
                                f"the {_mb(limit)} it may hold; not read")
        data = fh.read(limit + 1)
    if len(data) > limit:  # it grew while we looked
        raise TeamFileError(f"{rel} in the team repo holds more than the {_mb(limit)} it "
                            "may hold; not read")
    return data


def is_regular(root: Path, rel: str) -> bool:
    """Whether ``rel`` under ``root`` is a regular file reached through real folders."""
    folders, name = _split(rel)
    try:
        with _directory(root, folders) as parent:
            return stat.S_ISREG(os.stat(name, dir_fd=parent, follow_symlinks=False).st_mode)
    except OSError:
        return False


def names(root: Path, folder: str) -> list[str]:
    """The names of the regular files directly in ``folder`` (a real folder under
    ``root``); none when it is missing or not a real folder."""
    try:
        with _directory(root, [folder]) as fd:
            listed = os.listdir(fd)
            return sorted(n for n in listed if _is_file_at(fd, n))
    except OSError:
        return []


def _is_file_at(fd: int, name: str) -> bool:
    try:
        return stat.S_ISREG(os.stat(name, dir_fd=fd, follow_symlinks=False).st_mode)
    except OSError:
        return False


def write_bytes(root: Path, rel: str, chunks: Iterator[bytes] | bytes) -> None:
    """Make ``rel`` under ``root`` a regular file holding ``chunks``: written beside it,
    then renamed over the name (a link there is replaced, never written through).
    Missing folders are made; a folder that is a link is refused."""
    folders, name = _split(rel)
    try:
        with _directory(root, folders, create=True) as parent:
            tmp = f".{name[:64]}.{secrets.token_hex(4)}.tmp"
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o666,
                         dir_fd=parent)
            try:
                with os.fdopen(fd, "wb") as fh:
                    for chunk in [chunks] if isinstance(chunks, bytes) else chunks:
                        fh.write(chunk)
                os.replace(tmp, name, src_dir_fd=parent, dst_dir_fd=parent)
            except BaseException:
                with contextlib.suppress(OSError):
                    os.unlink(tmp, dir_fd=parent)
                raise
    except TeamFileError:
        raise
    except OSError as exc:
        if exc.errno in (errno.ELOOP, errno.EMLINK, errno.ENOTDIR, errno.EISDIR):
            raise _refused(rel, exc) from None
        raise TeamFileError(f"cannot write {rel} in the team repo {root} "
                            f"({exc.strerror or exc})") from None


def write_text(root: Path, rel: str, text: str) -> None:
    write_bytes(root, rel, text.encode("utf-8"))


def copy_in(root: Path, rel: str, source: Path) -> None:
    """Copy the file ``source`` (the reader's own) to ``rel`` under ``root``."""
    with open(source, "rb") as fh:
        write_bytes(root, rel, iter(lambda: fh.read(_CHUNK), b""))
