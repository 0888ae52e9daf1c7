"""When each paper entered this library: its first-seen time, kept beside the sources.

``sources/<id>.added.json`` holds, for the papers a source holds now, the time each was
first seen in this library (seconds since the epoch), grouped by time::

    {"version": 1, "seen": {"1764547200": ["2401.00001", "2401.00002"], ...}}

A paper new to the library gets the time of the import that brought it; a paper already
held (by this source or another) keeps its time, so a re-import, a re-fetch or a second
source with the same paper never changes it. A source written before first-seen times
existed counts its papers as seen when it was imported (the manifest's ``imported_at``):
:meth:`Arrivals.fill_missing` writes its file once, from the ids the index holds for it.

This is what ``added:`` and ``watch:`` answer from (``paper_tui.query.added``), never the
index: as arrays of each id's digest and time, kept for every source in one file
(:data:`CACHE`, made again from a source's JSON when that changed), read again only when
the manifest changed (every import rewrites it); the index joins the digests to its
documents (:mod:`paper_tui.index.id_digests`).
"""

from __future__ import annotations

import contextlib
import io
import json
import shutil
import struct
import tempfile
import threading
import zlib
from collections.abc import Callable, Collection, Iterable, Mapping
from dataclasses import dataclass, field
from itertools import chain
from pathlib import Path
from typing import IO, TYPE_CHECKING

from paper_tui.holdings.sources import ADDED_SUFFIX, MANIFEST, SourceInfo, read_manifest
from paper_tui.query import added
from paper_tui.trust import atomic
from paper_tui.trust.atomic import FileIdentity

if TYPE_CHECKING:
    import numpy as np

SUFFIX = ADDED_SUFFIX
VERSION = 1
CACHE = ".added-digests.bin"
"""Every source's first-seen times as arrays (each id's digest, its time), made from the
``.added.json`` files whenever one of them changed (each entry names the identity of the
file it was made from) and read instead of them: a million ids' times load in
milliseconds, not the seconds of parsing the JSON and hashing the ids."""
_MAGIC = b"paper-tui first-seen digests 1\n"
_CHUNK = 8192  # ids looked up at a time while recording


def file_of(sources_dir: Path, source_id: str) -> Path:
    return sources_dir / f"{source_id}{SUFFIX}"


def read_grouped(path: Path) -> dict[int, list[str]]:
    """The ids first seen at each time, from one source's file; ``ValueError`` for a file
    that is not one (``OSError`` when it cannot be read)."""
    raw = json.loads(atomic.read_regular(path)[0])
    seen = raw.get("seen") if isinstance(raw, dict) else None
    if not isinstance(seen, dict):
        raise ValueError('no "seen" object')
    grouped: dict[int, list[str]] = {}
    for stamp, ids in seen.items():
        if not stamp.isdigit() or not isinstance(ids, list) or \
                not all(isinstance(pid, str) for pid in ids):
            raise ValueError(f"the entry {stamp!r} is not a time and its paper ids")
        grouped.setdefault(int(stamp), []).extend(ids)
    return grouped


def read_times(path: Path) -> dict[str, int]:
    """Paper id -> first-seen time from one source's file (see :func:`read_grouped`)."""
    return {pid: at for at, ids in read_grouped(path).items() for pid in ids}


def write_times(path: Path, times: Mapping[str, int]) -> None:
    """Write one source's file from paper id -> first-seen time."""
    grouped: dict[int, list[str]] = {}
    for pid, at in times.items():
        grouped.setdefault(at, []).append(pid)
    _write(path, {at: io.BytesIO(json.dumps(sorted(ids))[1:-1].encode())
                  for at, ids in grouped.items()})


_SPOOL_BYTES = 1 << 16
"""Of each time's ids as JSON text, what is held in memory before the rest goes to an
anonymous temporary file (a million new ids are ~25 MB of text)."""


def _spool() -> IO[bytes]:
    return tempfile.SpooledTemporaryFile(_SPOOL_BYTES)  # (closed by Arrivals.record)


def _write(path: Path, groups: Mapping[int, IO[bytes]]) -> None:
    """Write one source's file from each time's ids as JSON text (a list's items without
    its brackets, in a file of its own)."""
    with atomic.writing(path) as fh:
        fh.write(b'{"version":%d,"seen":{' % VERSION)
        for k, when in enumerate(sorted(groups)):
            fh.write(b'%s"%d":[' % (b"," if k else b"", when))
            ids_then = groups[when]
            ids_then.seek(0)
            shutil.copyfileobj(ids_then, fh)
            fh.write(b"]")
        fh.write(b"}}")


@dataclass
class _File:
    """One source's file as last read: its identity, its ids' digests (ascending, each
    once) with their times, and its ids by time (parsed from the JSON only when asked:
    ``added:`` and ``watch:`` need the digests alone)."""

    identity: FileIdentity
    path: Path
    digests: np.ndarray  # uint64, ascending
    times: np.ndarray  # int64, aligned with digests
    _grouped: dict[int, list[str]] | None = None
    damaged: bool = False  # (read again by the next process, which says so again)

    @property
    def grouped(self) -> dict[int, list[str]]:
        if self._grouped is None:
            try:
                self._grouped = read_grouped(self.path)
            except (OSError, ValueError, UnicodeError):
                self._grouped = {}  # told when it was read
        return self._grouped


def _arrays(grouped: Mapping[int, list[str]]) -> tuple[np.ndarray, np.ndarray]:
    """A file's ids by time as (digests ascending, their times): an id listed twice keeps
    its earliest time."""
    import numpy

    ids = [pid for at in sorted(grouped) for pid in grouped[at]]
    times = numpy.fromiter((at for at in sorted(grouped) for _ in grouped[at]),
                           dtype=numpy.int64, count=len(ids))
    return _earliest(added.digests(ids), times)


def _earliest(digests: np.ndarray, times: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Each digest once, ascending, with its earliest time."""
    import numpy

    order = numpy.lexsort((times, digests))
    digests, times = digests[order], times[order]
    first = numpy.ones(len(digests), dtype=bool)
    first[1:] = digests[1:] != digests[:-1]
    return digests[first], times[first]


@dataclass
class _Read:
    """Every source's arrivals as last read (``manifest``: the manifest's identity then):
    each file's digests and times, and the library's: each digest once with the earliest
    time a source saw it. The ids themselves (a paper's time by id, a source's ids, the
    ids first seen at a time) are parsed from the files only when asked: each is a
    million-entry structure in a million-paper library, and ``added:``/``watch:`` join
    the index on the digests instead."""

    manifest: FileIdentity | None = None
    files: dict[str, _File] = field(default_factory=dict)
    digests: np.ndarray | None = None  # the library's, ascending
    times: np.ndarray | None = None
    _by_time: dict[int, frozenset[str]] | None = None
    _first_seen: dict[str, int] | None = None
    _of_source: dict[str, frozenset[str]] = field(default_factory=dict)
    _times: list[int] | None = None

    @property
    def by_time(self) -> dict[int, frozenset[str]]:
        """The ids first seen at each time (each id under the earliest time a source saw
        it; a file lists each id once)."""
        if self._by_time is not None:
            return self._by_time
        at_times: dict[int, list[list[str]]] = {}
        for file in self.files.values():
            for at, ids in file.grouped.items():
                at_times.setdefault(at, []).append(ids)
        times = sorted(at_times)
        earlier: set[str] = set()
        by_time: dict[int, frozenset[str]] = {}
        for k, at in enumerate(times):
            fresh = frozenset(chain.from_iterable(at_times[at]))
            if earlier:
                fresh -= earlier
            if fresh:
                by_time[at] = fresh
            if k + 1 < len(times):
                earlier |= fresh
        self._by_time = by_time
        return by_time

    @property
    def first_seen(self) -> dict[str, int]:
        if self._first_seen is None:
            self._first_seen = {pid: at for at, ids in self.by_time.items() for pid in ids}
        return self._first_seen

    def of_source(self, source_id: str) -> frozenset[str]:
        found = self._of_source.get(source_id)
        if found is None:
            grouped = self.files[source_id].grouped if source_id in self.files else {}
            found = self._of_source[source_id] = frozenset(
                chain.from_iterable(grouped.values()))
        return found

    def all_times(self) -> list[int]:
        if self._times is None:
            import numpy

            self._times = [] if self.times is None else \
                [int(at) for at in numpy.unique(self.times)]
        return self._times


class Arrivals:
    """The first-seen times of a library's papers (``sources/*.added.json``).

    ``on_problem(message)`` hears of a damaged file (one line; ``added:`` then leaves its
    papers out, everything else goes on)."""

    def __init__(self, sources_dir: Path,
                 on_problem: Callable[[str], None] | None = None) -> None:
        self.root = sources_dir
        self.on_problem = on_problem
        self._lock = threading.Lock()
        self._read = _Read()
        self.version = 0
        """Changes whenever the times read change (another import, here or elsewhere)."""

    # -- writing (an import, under the library's lock) ----------------------------------
    def record(self, source_id: str, ids: Iterable[str], at: float) -> None:
        """The papers ``source_id`` holds now, after an import at ``at``: those the
        library held already keep their time, the others get ``at``. The ids stream
        through (a million of them as a list of strings was 90 MB at an import's end):
        the known times are looked up by digest, a chunk at a time, and each time's ids
        spooled as JSON text (64 KB of each time's in memory, the rest in an anonymous
        temporary file) until the file is written."""
        import numpy

        read = self.fresh()
        stamp = int(at)
        groups: dict[int, IO[bytes]] = {}  # each time's ids as JSON text, spooled
        chunk: list[str] = []

        def flush() -> None:
            times = numpy.full(len(chunk), stamp, dtype=numpy.int64)
            if read.digests is not None and read.times is not None and len(read.digests):
                wanted = added.digests(chunk)
                at_ = numpy.searchsorted(read.digests, wanted).clip(0, len(read.digests) - 1)
                known = read.digests[at_] == wanted
                times[known] = read.times[at_[known]]
            by_time: dict[int, list[str]] = {}
            for pid, when in zip(chunk, times.tolist(), strict=True):
                by_time.setdefault(when, []).append(pid)
            for when, ids_then in by_time.items():
                spool = groups.get(when)
                if spool is None:
                    spool = groups[when] = _spool()
                else:
                    spool.write(b",")
                spool.write(json.dumps(ids_then)[1:-1].encode())
            chunk.clear()

        try:
            for pid in ids:
                chunk.append(pid)
                if len(chunk) >= _CHUNK:
                    flush()
            if chunk:
                flush()
            _write(file_of(self.root, source_id), groups)
        finally:
            for spool in groups.values():
                spool.close()
        with self._lock:  # read again on next use (each file only if it changed)
            self._read = _Read(None, self._read.files)

    def fill_missing(self, manifest: Mapping[str, SourceInfo],
                     ids_of: Callable[[str], Collection[str]]) -> None:
        """Write the file of each source that has none (a library from before first-seen
        times) or an older one than the source (an import killed between writing the
        source and its times): its papers (``ids_of(source_id)``, what the index holds)
        keep the times they have, the others count as seen when the source was imported.
        A stat per source when nothing is missing. A library that cannot be written says
        so once and keeps counting what it has."""
        for sid in sorted(manifest, key=lambda s: manifest[s].imported_at):
            path = file_of(self.root, sid)
            try:
                # (a file's time is the kernel's coarse clock: a second of slack)
                current = path.stat().st_mtime >= manifest[sid].imported_at - 1
            except FileNotFoundError:
                current = False
            if current:
                continue
            try:
                self.record(sid, ids_of(sid), manifest[sid].imported_at)
            except OSError as exc:
                self._tell(f"{path}: cannot record when its papers were added "
                           f"({exc.strerror or exc}); added: does not find them")
                return

    # -- reading ------------------------------------------------------------------------
    def fresh(self) -> _Read:
        """The times as the files hold them now (re-read when the manifest changed)."""
        identity = atomic.identity(self.root / MANIFEST)
        with self._lock:
            read = self._read
            if identity is not None and identity == read.manifest:
                return read
            self._read = self._load(identity, read)
            self.version += 1
            return self._read

    def _load(self, identity: FileIdentity | None, before: _Read) -> _Read:
        import numpy

        try:
            manifest = read_manifest(self.root / MANIFEST)
        except (OSError, ValueError, UnicodeError):
            manifest = {}  # the source store says so, and rebuilds it
        read = _Read(identity)
        cached: dict[str, tuple[FileIdentity, np.ndarray, np.ndarray]] | None = None
        parsed = False
        for sid in manifest:
            path = file_of(self.root, sid)
            file = atomic.identity(path)
            if file is None:
                continue
            kept = before.files.get(sid)
            if kept is not None and kept.identity == file:
                read.files[sid] = kept
                continue
            if cached is None:
                cached = self._read_cache()
            hit = cached.get(sid)
            if hit is not None and hit[0] == file:
                read.files[sid] = _File(file, path, hit[1], hit[2])
                continue
            try:
                grouped = read_grouped(path)
            except (OSError, ValueError, UnicodeError) as exc:
                self._tell(f"{path}: damaged ({exc}); added: does not find its papers "
                           "until it is deleted (they then count as added when the list "
                           "was imported) or the list is imported again")
                empty = numpy.zeros(0, dtype=numpy.uint64)
                read.files[sid] = _File(file, path, empty, empty.astype(numpy.int64), {},
                                         damaged=True)
                continue
            read.files[sid] = _File(file, path, *_arrays(grouped), grouped)
            parsed = True
        if parsed or (cached is not None and set(cached) - set(read.files)):
            self._write_cache(read.files)
        parts = [f for f in read.files.values() if len(f.digests)]
        if len(parts) == 1:
            read.digests, read.times = parts[0].digests, parts[0].times
        elif parts:
            read.digests, read.times = _earliest(
                numpy.concatenate([f.digests for f in parts]),
                numpy.concatenate([f.times for f in parts]))
        return read

    # -- the digests' file: every source's digests and times, as arrays ----------------
    def _read_cache(self) -> dict[str, tuple[FileIdentity, np.ndarray, np.ndarray]]:
        """Source id -> (the identity of the file they were read from, digests, times),
        from :data:`CACHE`; empty when there is none (an older library) or it is damaged
        (said in one line: it is made again from the files, nothing is lost)."""
        import numpy

        path = self.root / CACHE
        try:
            data = path.read_bytes()
        except FileNotFoundError:
            return {}
        except OSError as exc:
            self._tell(f"{path}: cannot be read ({exc.strerror or exc}); the first-seen "
                       "times are read from sources/*.added.json instead")
            return {}
        try:
            if not data.startswith(_MAGIC):
                raise ValueError("not a file of first-seen times")
            start = len(_MAGIC) + 12
            length, crc = struct.unpack_from("<QI", data, len(_MAGIC))
            header = json.loads(data[start:start + length])
            offset = start + length + (-(start + length)) % 8
            if zlib.crc32(memoryview(data)[offset:]) != crc:
                raise ValueError("its check sum does not match")
            out: dict[str, tuple[FileIdentity, np.ndarray, np.ndarray]] = {}
            for sid, ino, mtime_ns, size, count in header["sources"]:
                digests = numpy.frombuffer(data, dtype="<u8", count=count, offset=offset)
                times = numpy.frombuffer(data, dtype="<i8", count=count,
                                         offset=offset + 8 * count)
                offset += 16 * count
                out[str(sid)] = ((int(ino), int(mtime_ns), int(size)), digests, times)
            if offset != len(data):
                raise ValueError("its length does not match")
            return out
        except (ValueError, TypeError, KeyError, struct.error) as exc:
            self._tell(f"{path}: damaged ({exc}); made again from sources/*.added.json")
            return {}

    def _write_cache(self, files: Mapping[str, _File]) -> None:
        """Keep every source's digests and times in :data:`CACHE` (a library that cannot
        be written reads the JSON files each time instead: slower, nothing else)."""
        kept = {sid: f for sid, f in files.items() if not f.damaged}
        header = json.dumps({"sources": [[sid, *f.identity, len(f.digests)]
                                         for sid, f in kept.items()]}).encode()
        head = _MAGIC + struct.pack("<QI", len(header), 0) + header
        head += b"\0" * ((-len(head)) % 8)
        body = b"".join(part for f in kept.values()
                        for part in (f.digests.astype("<u8").tobytes(),
                                     f.times.astype("<i8").tobytes()))
        head = head[:len(_MAGIC)] + struct.pack("<QI", len(header), zlib.crc32(body)) + \
            head[len(_MAGIC) + 12:]
        with contextlib.suppress(OSError):
            atomic.write_bytes(self.root / CACHE, head + body)

    def first_seen(self) -> dict[str, int]:
        """Paper id -> when it first entered this library (seconds since the epoch)."""
        return self.fresh().first_seen

    def times(self) -> list[int]:
        """Every first-seen time, oldest first."""
        return self.fresh().all_times()

    def seen_at(self, at: int) -> frozenset[str]:
        """The papers first seen at ``at`` (one import's)."""
        return self.fresh().by_time.get(at, frozenset())

    def of_source(self, source_id: str) -> frozenset[str]:
        """The papers ``source_id`` holds (as its file says)."""
        return self.fresh().of_source(source_id)

    def digests_at(self, low: int, high: int) -> np.ndarray:
        """The digests (:func:`paper_tui.query.added.digests`, ascending) of the papers
        first seen from ``low`` to ``high`` (both inclusive)."""
        import numpy

        read = self.fresh()
        if read.digests is None or read.times is None:
            return numpy.zeros(0, dtype=numpy.uint64)
        return read.digests[(read.times >= low) & (read.times <= high)]

    def digests_of(self, source_id: str) -> np.ndarray:
        """The digests (ascending) of the papers ``source_id`` holds."""
        import numpy

        file = self.fresh().files.get(source_id)
        return file.digests if file is not None else numpy.zeros(0, dtype=numpy.uint64)

    def _tell(self, message: str) -> None:
        if self.on_problem is not None:
            self.on_problem(message)
