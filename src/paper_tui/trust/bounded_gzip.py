"""Reading gzip files with limits, so a file that unpacks to far more than a paper list
(a gzip bomb: 10 GB of zeros in 10 MB) fails fast, as one :class:`TooBig` (a
:class:`SourceError`).

Two caps, for imported ``.gz`` files, the library's own ``sources/*.jsonl.gz`` and gzip
bodies fetched over HTTP (:func:`gunzip_bytes`) alike:

- a size cap, ``max_unpacked``: :data:`MAX_UNPACKED` (1 GiB) for what is unpacked whole
  into memory (:func:`gunzip`, :func:`gunzip_bytes`: six times the 87,549-paper corpus,
  168 MB unpacked); a file read as it goes (:func:`open_gzip`: JSON Lines) is held to
  the cap its caller gives, the user's ``import.max_unpacked_gb`` for an import, so a
  list of several GB (arXiv's metadata, ~4 GB) is read. ``how_to_raise`` is said with it.
- :data:`MAX_RATIO`: unpacked at most 100 times the packed bytes read so far, checked
  once :data:`RATIO_FROM` (16 MiB) is unpacked, so a small, very repetitive file is never
  refused. Paper lists pack 3-5 times (JSON, JSON Lines, XML); zeros pack about 1,000
  times, so a bomb stops after 16 MiB of output, in a fraction of a second, whatever the
  size cap.

A damaged file (a bad header, a broken deflate stream, a wrong CRC, cut short) is a
:class:`SourceError` too, never ``zlib.error`` or ``EOFError``.
"""

from __future__ import annotations

import gzip
import io
import zlib
from pathlib import Path
from typing import TYPE_CHECKING, BinaryIO

from paper_tui.errors import SourceError, TooBig

if TYPE_CHECKING:
    from _typeshed import WriteableBuffer

MAX_UNPACKED = 1 << 30
MAX_RATIO = 100
RATIO_FROM = 16 << 20
_CHUNK = 1 << 20
_BUFFER = 1 << 16
_PIECE = 1 << 14  # unpacked at a time: damage loses at most this much before it


class _Bounded(io.RawIOBase):
    """The unpacked bytes of a gzip file, counted as they are read."""

    def __init__(self, path: str | Path, packed: BinaryIO, max_unpacked: int, max_ratio: int,
                 piece: int = _PIECE, how_to_raise: str = "") -> None:
        self._path = path
        self._packed = packed
        self._gzip = gzip.GzipFile(fileobj=packed, mode="rb")
        self._max_unpacked = max_unpacked
        self._max_ratio = max_ratio
        self._piece = piece
        self._how_to_raise = how_to_raise
        self._unpacked = 0
        self._error: SourceError | None = None

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: WriteableBuffer) -> int:
        """Fill ``buffer`` a piece at a time: when the data turns out damaged, what was
        unpacked before is returned first and the error raised by the next call, so a
        reader of lines gets every line before the damage."""
        if self._error is not None:
            raise self._error
        view = memoryview(buffer).cast("B")
        filled = 0
        while filled < view.nbytes:
            try:
                data = self._unpack(min(view.nbytes - filled, self._piece))
            except SourceError as exc:
                if not filled:
                    raise
                self._error = exc
                break
            if not data:
                break
            view[filled:filled + len(data)] = data
            filled += len(data)
        return filled

    def _unpack(self, size: int) -> bytes:
        try:
            data = self._gzip.read1(size)
        except (OSError, EOFError, zlib.error) as exc:  # gzip.BadGzipFile is an OSError
            raise SourceError(self._path, f"damaged gzip data ({exc})") from None
        self._unpacked += len(data)
        if self._unpacked > self._max_unpacked:
            cap = shown_size(self._max_unpacked)
            raise TooBig(self._path, f"unpacks to more than {cap}: too big for a paper list "
                         f"({self._how_to_raise or 'a gzip bomb?'})")
        if self._unpacked > RATIO_FROM and \
                self._unpacked > self._max_ratio * max(self._packed.tell(), 1):
            raise TooBig(self._path, f"unpacks to more than {self._max_ratio} times its "
                              "size: not a paper list (a gzip bomb?)")
        return data

    def packed_position(self) -> int:
        """How many bytes of the gzip file have been read (and unpacked, or are being)."""
        return self._packed.tell()

    def close(self) -> None:
        if not self.closed:
            try:
                self._gzip.close()
            finally:
                self._packed.close()
        super().close()


def open_gzip(path: Path, *, max_unpacked: int = MAX_UNPACKED, max_ratio: int = MAX_RATIO,
              how_to_raise: str = "") -> BinaryIO:
    """``path`` opened for reading its unpacked bytes (lines too), within the caps; a
    :class:`SourceError` for a file that cannot be opened or is damaged, a :class:`TooBig`
    for one that breaks a cap (``how_to_raise``, when given, says how to raise the size
    cap, in its message)."""
    try:
        packed = path.open("rb")
    except OSError as exc:
        raise SourceError(path, f"cannot read: {exc.strerror or exc}") from None
    raw = _Bounded(path, packed, max_unpacked, max_ratio, how_to_raise=how_to_raise)
    return io.BufferedReader(raw, buffer_size=_BUFFER)


def position_on_disk(stream: BinaryIO) -> int:
    """How far into its file on disk ``stream`` has read: the packed bytes read, for a
    stream of :func:`open_gzip` (what the file's size measures); else its position."""
    raw = getattr(stream, "raw", None)
    return raw.packed_position() if isinstance(raw, _Bounded) else stream.tell()


def gunzip(path: Path, *, max_unpacked: int = MAX_UNPACKED, max_ratio: int = MAX_RATIO,
           how_to_raise: str = "") -> bytes:
    """The whole unpacked content of ``path``, within the caps (see :func:`open_gzip`)."""
    try:
        packed = path.open("rb")
    except OSError as exc:
        raise SourceError(path, f"cannot read: {exc.strerror or exc}") from None
    return _unpack_all(_Bounded(path, packed, max_unpacked, max_ratio, piece=_CHUNK,
                                how_to_raise=how_to_raise))


def gunzip_bytes(packed: bytes, where: str, *, max_unpacked: int = MAX_UNPACKED,
                 max_ratio: int = MAX_RATIO) -> bytes:
    """``packed`` (gzip data in memory: a downloaded body) unpacked within the caps; the
    :class:`SourceError` of damage or a broken cap names ``where`` (its URL, say)."""
    raw = _Bounded(where, io.BytesIO(packed), max_unpacked, max_ratio, piece=_CHUNK)
    return _unpack_all(raw)


def _unpack_all(raw: _Bounded) -> bytes:
    parts = []
    with raw:
        while chunk := raw.read(_CHUNK):
            parts.append(chunk)
    return b"".join(parts)


def shown_size(n: int) -> str:
    """``n`` bytes as the caps' messages say it: ``1 GiB``, ``8 MiB``, ``0.5 MiB``."""
    return f"{n / (1 << 30):g} GiB" if n >= 1 << 30 else f"{n / (1 << 20):g} MiB"
