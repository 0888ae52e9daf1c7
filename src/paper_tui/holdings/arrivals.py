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
index: reading it is a JSON load per source, redone only when the manifest changed (every
import rewrites it).
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Collection, Iterable, Mapping
from dataclasses import dataclass, field
from itertools import chain
from pathlib import Path

from paper_tui.holdings.sources import ADDED_SUFFIX, MANIFEST, SourceInfo, read_manifest
from paper_tui.trust import atomic
from paper_tui.trust.atomic import FileIdentity

SUFFIX = ADDED_SUFFIX
VERSION = 1


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
    grouped: dict[int, list[str]] = {}
    for pid, at in times.items():
        grouped.setdefault(at, []).append(pid)
    write_grouped(path, grouped)


def write_grouped(path: Path, grouped: dict[int, list[str]]) -> None:
    """Write the ids first seen at each time (the lists are sorted in place)."""
    for ids in grouped.values():
        ids.sort()
    seen = {str(at): grouped[at] for at in sorted(grouped)}
    atomic.write_text(path, json.dumps({"version": VERSION, "seen": seen},
                                       ensure_ascii=False, separators=(",", ":")))


@dataclass
class _Read:
    """Every source's arrivals as last read (``manifest``: the manifest's identity then):
    each file's ids by time, and the library's ids by the time each was first seen. A
    paper's time and a source's ids are worked out only when asked: ``added:`` needs
    neither, and each is a million-entry structure in a million-paper library."""

    manifest: FileIdentity | None = None
    files: dict[str, tuple[FileIdentity, dict[int, list[str]]]] = field(default_factory=dict)
    by_time: dict[int, frozenset[str]] = field(default_factory=dict)
    _first_seen: dict[str, int] | None = None
    _of_source: dict[str, frozenset[str]] = field(default_factory=dict)

    @property
    def first_seen(self) -> dict[str, int]:
        if self._first_seen is None:
            self._first_seen = {pid: at for at, ids in self.by_time.items() for pid in ids}
        return self._first_seen

    def of_source(self, source_id: str) -> frozenset[str]:
        found = self._of_source.get(source_id)
        if found is None:
            grouped = self.files[source_id][1] if source_id in self.files else {}
            found = self._of_source[source_id] = frozenset(
                chain.from_iterable(grouped.values()))
        return found


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
        library held already keep their time, the others get ``at``."""
        known = self.fresh().first_seen
        stamp = int(at)
        grouped: dict[int, list[str]] = {}  # no id -> time dict: a list may hold millions
        for pid in ids:
            grouped.setdefault(known.get(pid, stamp), []).append(pid)
        write_grouped(file_of(self.root, source_id), grouped)
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
        try:
            manifest = read_manifest(self.root / MANIFEST)
        except (OSError, ValueError, UnicodeError):
            manifest = {}  # the source store says so, and rebuilds it
        read = _Read(identity)
        for sid in manifest:
            path = file_of(self.root, sid)
            file = atomic.identity(path)
            if file is None:
                continue
            kept = before.files.get(sid)
            if kept is not None and kept[0] == file:
                read.files[sid] = kept
                continue
            try:
                read.files[sid] = (file, read_grouped(path))
            except (OSError, ValueError, UnicodeError) as exc:
                self._tell(f"{path}: damaged ({exc}); added: does not find its papers "
                           "until it is deleted (they then count as added when the list "
                           "was imported) or the list is imported again")
                read.files[sid] = (file, {})
        # each id under the earliest time a source saw it (a file lists each id once)
        at_times: dict[int, list[list[str]]] = {}
        for sid in manifest:
            if sid in read.files:
                for at, ids in read.files[sid][1].items():
                    at_times.setdefault(at, []).append(ids)
        times = sorted(at_times)
        earlier: set[str] = set()
        for k, at in enumerate(times):
            fresh = frozenset(chain.from_iterable(at_times[at]))
            if earlier:
                fresh -= earlier
            if fresh:
                read.by_time[at] = fresh
            if k + 1 < len(times):
                earlier |= fresh
        return read

    def first_seen(self) -> dict[str, int]:
        """Paper id -> when it first entered this library (seconds since the epoch)."""
        return self.fresh().first_seen

    def times(self) -> list[int]:
        """Every first-seen time, oldest first."""
        return sorted(self.fresh().by_time)

    def seen_at(self, at: int) -> frozenset[str]:
        """The papers first seen at ``at`` (one import's)."""
        return self.fresh().by_time.get(at, frozenset())

    def of_source(self, source_id: str) -> frozenset[str]:
        """The papers ``source_id`` holds (as its file says)."""
        return self.fresh().of_source(source_id)

    def _tell(self, message: str) -> None:
        if self.on_problem is not None:
            self.on_problem(message)
