"""The library's own copy of every imported file: ``sources/<id>.jsonl.gz`` + a manifest.

Papers stay when the original file moves or is deleted, and the index can always be
rebuilt from here. Re-importing a file replaces its source atomically.
"""

from __future__ import annotations

import contextlib
import gzip
import hashlib
import json
import os
import re
import shlex
import time
from collections.abc import Callable, Container, Iterable, Iterator
from dataclasses import asdict, dataclass
from pathlib import Path

from paper_tui.errors import SourceError
from paper_tui.model import Paper
from paper_tui.trust import atomic
from paper_tui.trust.bounded_gzip import open_gzip
from paper_tui.trust.surrogates import json_escape_surrogates

MANIFEST = "manifest.json"
ADDED_SUFFIX = ".added.json"
"""``<id>.added.json`` beside a source's copy: when its papers entered the library
(:mod:`paper_tui.holdings.arrivals`)."""
BESIDE = (ADDED_SUFFIX, ".reviews.jsonl.gz", ".ratings.json")
"""What is kept beside a source's copy and goes with it: first-seen times, the reviews and
the rating history (:mod:`paper_tui.holdings.reviews`)."""
VERSION = 2
"""What the stored papers hold: 1, before the venue's signals (decision, reviews, area,
citations, links, affiliations: :mod:`paper_tui.venue.signals`); 2, with them, and every
record of a list a paper (with or without an abstract). An older library's sources are
re-read from their original files on first open (:mod:`paper_tui.library.upgrade`)."""


COPY_MAX_UNPACKED = 1 << 40
"""The size cap of reading a source's own copy back: none that a list could reach (the
import held the list to ``import.max_unpacked_gb`` when it came in, and a copy must read
back after that setting was lowered); the ratio of
:mod:`~paper_tui.trust.bounded_gzip` still stops a bomb put in its place."""
MAX_SOURCE_ID = 120


def source_id(path: Path) -> str:
    """A source is named by its file name: re-importing that file replaces it. A name of
    more than :data:`MAX_SOURCE_ID` characters is cut, and ends with a hash of the whole
    (the library's copy, its temp file and the index must fit a file name's 255 bytes)."""
    name = path.name
    if name.endswith(".gz"):
        name = name[:-3]
    sid = re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-") or "source"
    if len(sid) <= MAX_SOURCE_ID:
        return sid
    digest = hashlib.sha256(sid.encode()).hexdigest()[:10]
    return f"{sid[:MAX_SOURCE_ID - 11].rstrip('-')}-{digest}"


@dataclass(frozen=True)
class SourceInfo:
    id: str
    path: str
    checksum: str
    format: str
    count: int
    imported_at: float


def encode(paper: Paper) -> bytes:
    """One stored line: :meth:`Paper.to_record` as JSON (fields at their defaults left out;
    tuples are JSON arrays as lists are)."""
    return json.dumps(paper.to_record(), ensure_ascii=False).encode() + b"\n"


def checksum(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


class SourceStore:
    """Normalised copies of imported files, one gzipped JSON Lines file per source.

    A damaged manifest is rebuilt from the files here (and the index's checksums, through
    ``indexed()``) and a damaged copy gives the papers before the damage: both are told to
    ``on_problem`` in one line with the way out, and every command goes on."""

    def __init__(self, root: Path, indexed: Callable[[], dict[str, str]] | None = None,
                 on_problem: Callable[[str], None] | None = None) -> None:
        """``indexed()``: the checksums the index recorded per source (to rebuild a damaged
        manifest without re-indexing); ``on_problem(message)``: hears of damage found."""
        self.root = root
        self.indexed = indexed
        self.on_problem = on_problem
        self._manifest: dict[str, SourceInfo] | None = None
        self._version = VERSION

    @property
    def manifest(self) -> dict[str, SourceInfo]:
        if self._manifest is None:
            self._manifest = self._load_manifest()
        return self._manifest

    @property
    def version(self) -> int:
        """What the stored papers hold (:data:`VERSION`; a new library is current)."""
        _ = self.manifest
        return self._version

    def mark_current(self) -> None:
        """Record that every stored source is of this :data:`VERSION`."""
        self._version = VERSION
        self._save_manifest()

    def _load_manifest(self) -> dict[str, SourceInfo]:
        path = self.root / MANIFEST
        try:
            text = path.read_text("utf-8")
        except FileNotFoundError:
            self._version = VERSION
            return {}
        except OSError as exc:
            raise SourceError(path, f"cannot read the library's manifest ({exc.strerror}); "
                              f"fix its permissions, or move it aside to rebuild it "
                              "from the copies beside it") from None
        try:
            manifest, self._version = _manifest_from_json(text)
        except (ValueError, UnicodeError) as exc:
            self._version = 1  # what the copies hold is not known: as old as can be
            return self._rebuilt_manifest(path, str(exc))
        return manifest

    def _rebuilt_manifest(self, path: Path, problem: str) -> dict[str, SourceInfo]:
        """The manifest made again from the copies in ``sources/`` (their original paths and
        formats are lost; checksums as the index recorded them, so nothing is re-indexed).
        The damaged file is kept beside it as ``manifest.json.damaged``."""
        checksums = self.indexed() if self.indexed is not None else {}
        manifest = {}
        for file in sorted(self.root.glob(f"*{_SUFFIX}")):
            sid = file.name[: -len(_SUFFIX)]
            if "." in sid:  # the reviews beside a copy (a source id has no dot)
                continue
            manifest[sid] = SourceInfo(sid, "", checksums.get(sid, ""), "", self._count(sid),
                                       file.stat().st_mtime)
        damaged = path.with_name(path.name + ".damaged")
        try:
            os.replace(path, damaged)
            self._save_manifest(manifest)
        except OSError as exc:  # a read-only library: rebuilt in memory, every time
            self._tell(f"{path}: damaged ({_short(problem)}); read from the {len(manifest)} "
                       f"paper list(s) in {self.root}, but it cannot be rewritten "
                       f"({exc.strerror or exc})")
            return manifest
        self._tell(f"{path}: damaged ({_short(problem)}); rebuilt from the {len(manifest)} "
                   f"paper list(s) in {self.root} (the damaged file is {damaged.name}; "
                   "re-import a list to record where it came from)")
        return manifest

    def _count(self, source_id: str) -> int:
        count = 0
        for _ in self.readable_papers(source_id):
            count += 1
        return count

    def _save_manifest(self, manifest: dict[str, SourceInfo] | None = None) -> None:
        manifest = self.manifest if manifest is None else manifest
        sources = {sid: asdict(info) for sid, info in sorted(manifest.items())}
        data = {"version": self._version, "sources": sources}
        # The path of a file whose name is not UTF-8 is kept, escaped, to the byte.
        text = json_escape_surrogates(json.dumps(data, indent=1, ensure_ascii=False))
        atomic.write_text(self.root / MANIFEST, text)

    def _tell(self, message: str) -> None:
        if self.on_problem is not None:
            self.on_problem(message)

    def reload(self) -> None:
        """Forget the manifest read so far; the next use reads it from disk again."""
        self._manifest = None

    def file(self, source_id: str) -> Path:
        return self.root / f"{source_id}{_SUFFIX}"

    def get(self, source_id: str) -> SourceInfo | None:
        return self.manifest.get(source_id)

    def is_current(self, source_id: str, digest: str) -> bool:
        info = self.manifest.get(source_id)
        return info is not None and info.checksum == digest and self.file(source_id).exists()

    def write(self, source_id: str, original: Path, digest: str, fmt: str,
              papers: Iterable[Paper], encoded: Callable[[Paper], bytes] = encode) -> int:
        """Store a source's papers (replacing any earlier copy); return how many.

        ``encoded(paper)`` is its line (:func:`encode`), when that was done ahead."""
        return self.write_lines(source_id, original, digest, fmt, map(encoded, papers))

    def write_lines(self, source_id: str, original: Path, digest: str, fmt: str,
                    lines: Iterable[bytes]) -> int:
        """Store a source's papers as their encoded lines (:func:`encode`); how many."""
        count = 0
        # Written as it goes (a temp file replaces the copy at the end: the library's
        # memory does not hold a copy of the list). mtime=0 keeps the file byte-identical
        # for identical input; level 3 is as small as 5 on these files, at half the time.
        with atomic.writing(self.file(source_id)) as out, \
                gzip.GzipFile(fileobj=out, mode="wb", compresslevel=3, mtime=0) as gz:
            for line in lines:
                gz.write(line)
                count += 1
        self.manifest[source_id] = SourceInfo(source_id, str(original.resolve()), digest, fmt,
                                              count, time.time())
        self._save_manifest()
        return count

    def forget(self, source_ids: Iterable[str]) -> None:
        """Take sources out of the manifest (one atomic write): from then on they are not
        the library's. Their copies stay until :meth:`discard_unlisted`, after the index
        has let their papers go."""
        for sid in source_ids:
            self.manifest.pop(sid, None)
        self._save_manifest()

    def discard_unlisted(self) -> None:
        """Delete the copies (and first-seen times) of sources the manifest does not list:
        those removed, their index done; and the temp file of a copy an import killed
        while writing it left. Under the library's lock (an import writes its copy just
        before its manifest entry)."""
        if not self.root.is_dir():
            return
        manifest = self.manifest
        for suffix in (*BESIDE, _SUFFIX):
            for file in self.root.glob(f"*{suffix}"):
                sid = file.name[: -len(suffix)]
                if suffix == _SUFFIX and "." in sid:
                    sid = sid.split(".", 1)[0]  # <id>.reviews.jsonl.gz: BESIDE's
                if sid not in manifest:
                    with contextlib.suppress(OSError):  # read-only: left for later
                        file.unlink(missing_ok=True)
        for file in self.root.glob(f".*{_SUFFIX}.*.tmp"):  # a copy a killed import wrote
            with contextlib.suppress(OSError):
                file.unlink(missing_ok=True)

    def papers(self, source_id: str, among: Container[str] | None = None
               ) -> Iterator[Paper]:
        """The source's papers (``among``: only those with these ids, the others' lines
        not parsed); a damaged copy raises :class:`SourceError` (naming the line and how
        to restore it) after the papers before the damage."""
        path = self.file(source_id)
        number = 0
        try:
            with open_gzip(path, max_unpacked=COPY_MAX_UNPACKED) as fh:
                for line in fh:
                    number += 1
                    if line.strip() and (among is None or _may_be_among(line, among)):
                        paper = _paper(line)
                        if among is None or paper.id in among:
                            yield paper
        except SourceError as exc:  # cannot be read on (line number + 1 is not whole)
            raise self._damaged(source_id, exc.message, number + 1 if number else None) \
                from None
        except (ValueError, TypeError, RecursionError) as exc:
            raise self._damaged(source_id, f"bad record ({exc})", number) from None

    def _damaged(self, source_id: str, what: str, line: int | None) -> SourceError:
        return SourceError(self.file(source_id), f"{_short(what)}; {self._way_out(source_id)}",
                           line=line)

    def _way_out(self, source_id: str) -> str:
        info = self.manifest.get(source_id)
        if info is None or not info.path:
            return "re-import the paper list it was made from with `paper-tui import --force`"
        return f"re-import it: paper-tui import --force {shlex.quote(info.path)}"

    def readable_papers(self, source_id: str, among: Container[str] | None = None
                        ) -> Iterator[Paper]:
        """:meth:`papers`, a damaged copy's up to the damage, which is told to
        ``on_problem`` (an index rebuilt from it goes on with the other sources)."""
        try:
            yield from self.papers(source_id, among)
        except SourceError as exc:
            self._tell(str(exc))

    def all_papers(self, among: Container[str] | None = None) -> Iterator[Paper]:
        """Every source's papers (``among``: only those with these ids)."""
        for sid in sorted(self.manifest):
            yield from self.readable_papers(sid, among)

    def total(self) -> int:
        return sum(info.count for info in self.manifest.values())


_SUFFIX = ".jsonl.gz"
_INFO_TYPES: dict[str, type | tuple[type, ...]] = {
    "id": str, "path": str, "checksum": str, "format": str, "count": int,
    "imported_at": (int, float)}
"""A manifest entry's fields and their types (a bool is no count)."""


def read_manifest(path: Path) -> dict[str, SourceInfo]:
    """The manifest's entries as the file holds them (nothing rebuilt, nothing told):
    ``OSError`` when it cannot be read, ``ValueError`` when it is not a manifest."""
    return _manifest_from_json(atomic.read_regular(path)[0].decode("utf-8"))[0]


def _manifest_from_json(text: str) -> tuple[dict[str, SourceInfo], int]:
    """The manifest's entries and its :data:`VERSION` (1 when it names none); ``ValueError``
    for anything but a manifest as written."""
    raw = json.loads(text)
    sources = raw.get("sources") if isinstance(raw, dict) else None
    if not isinstance(sources, dict):
        raise ValueError("no \"sources\" object")
    manifest = {}
    for sid, info in sources.items():
        if not isinstance(info, dict) or any(
                not isinstance(info.get(key), kind) or isinstance(info[key], bool)
                for key, kind in _INFO_TYPES.items()):
            raise ValueError(f"the entry of {sid!r} is not a source's")
        manifest[sid] = SourceInfo(**{key: info[key] for key in _INFO_TYPES})
    version = raw.get("version", 1)
    return manifest, version if isinstance(version, int) and not isinstance(version, bool) \
        else 1


_ID_START = b'{"id": "'


def _may_be_among(line: bytes, ids: Container[str]) -> bool:
    """Whether a stored line may be the paper of one of ``ids``, read from the id that
    :func:`encode` writes first, without parsing the line (one it cannot tell is parsed)."""
    if not line.startswith(_ID_START):
        return True
    end = line.find(b'"', len(_ID_START))
    raw = line[len(_ID_START):end]
    if end < 0 or b"\\" in raw:
        return True
    try:
        return raw.decode("utf-8") in ids
    except UnicodeDecodeError:
        return True


def _paper(line: bytes) -> Paper:
    """A stored line as a Paper: ``ValueError`` / ``TypeError`` if it is not one."""
    record = json.loads(line)
    if not isinstance(record, dict) or not all(
            isinstance(record.get(key), str) for key in ("id", "title", "abstract")):
        raise ValueError("not a paper")
    return Paper.from_dict(record)


def _short(message: str, limit: int = 160) -> str:
    """A message from a parser, on one line and not too long to read."""
    message = " ".join(message.split())
    return message if len(message) <= limit else message[: limit - 1] + "…"


# -- the sources as the reader names them (``paper-tui sources``) --------------------------
ORIGINS = "origins.json"
"""Beside the manifest: for each fetched source, the SOURCE its last fetch named and the
day of that fetch (``{"<id>": {"spec": "paperlists:iclr2018", "fetched": "2026-12-04"}}``).
Only told, never needed: a missing or damaged file shows the fetched file's path instead."""


@dataclass(frozen=True)
class Listed:
    """A source as ``paper-tui sources`` shows it. The bundled list's chunk files are one
    source, named as its folder (``neurips-2026``)."""

    name: str
    kind: str
    """``file``, ``fetched``, ``team`` (a list a team-mate shared) or ``bundled``."""
    origin: str
    """Where it came from: the file imported, the SOURCE fetched, or the bundled list."""
    papers: int
    added: float
    """When its first paper entered the library (seconds since the epoch)."""
    last_fetched: str | None
    """The day of its last fetch (``YYYY-MM-DD``), for a fetched source."""
    ids: tuple[str, ...]
    """The manifest's source ids it is made of."""

    @property
    def added_day(self) -> str:
        """``YYYY-MM-DD``, local time."""
        return time.strftime("%Y-%m-%d", time.localtime(self.added))

    def as_json(self) -> dict[str, object]:
        return {"name": self.name, "kind": self.kind, "origin": self.origin,
                "papers": self.papers, "added": self.added_day,
                "last_fetched": self.last_fetched, "ids": list(self.ids)}


@dataclass(frozen=True)
class Removed:
    """What ``sources remove`` did."""

    sources: tuple[Listed, ...]
    left: int
    """Papers that left the library (the others are in another source too)."""

    def line(self) -> str:
        """``removed a-jsonl (3 papers)``, and how many stay when another source has them."""
        from paper_tui.vocabulary import count

        papers = sum(source.papers for source in self.sources)
        names = ", ".join(source.name for source in self.sources)
        stay = papers - self.left
        return (f"removed {names} ({count(papers, 'paper')})" +
                (f": {self.left:,} left the library, {stay:,} "
                 f"{'is' if stay == 1 else 'are'} in another source too" if stay > 0 else ""))


def listed(store: SourceStore, library: Path, bundled: Path) -> list[Listed]:
    """Every source of the library at ``library`` (``bundled``: the bundled list's folder),
    by name."""
    origins = _read_origins(store.root)
    bundled = bundled.resolve()
    team = (library / "team" / "sources").resolve()
    fetched = (library / "fetched").resolve()
    chunks: list[SourceInfo] = []
    found = []
    for sid, info in sorted(store.manifest.items()):
        folder = Path(info.path).parent if info.path else None
        if folder == bundled:
            chunks.append(info)
            continue
        kind, origin, last = "file", info.path or "(not known: the manifest was rebuilt)", None
        if folder == team:
            kind = "team"
        elif folder == fetched:
            kind = "fetched"
            spec = origins.get(sid, {})
            origin, last = spec.get("spec") or info.path, spec.get("fetched")
        found.append(Listed(sid, kind, origin, info.count, _added(store.root, info), last,
                            (sid,)))
    if chunks:
        found.append(Listed(bundled.name, "bundled", str(bundled),
                            sum(c.count for c in chunks),
                            min(_added(store.root, c) for c in chunks), None,
                            tuple(c.id for c in chunks)))
    return sorted(found, key=lambda s: s.name)


def source_names(manifest: Path, bundled: Path) -> list[str]:
    """The sources' names as :func:`listed` gives them, from the manifest file alone
    (nothing rebuilt, nothing written: a shell's Tab); none when it cannot be read."""
    try:
        entries = read_manifest(manifest)
    except (OSError, ValueError, UnicodeError):
        return []
    bundled = bundled.resolve()
    return sorted({bundled.name if info.path and Path(info.path).parent == bundled else sid
                   for sid, info in entries.items()})


def only_bundled(store: SourceStore, bundled: Path) -> bool:
    """Whether the library holds the bundled list and nothing else (the demo); ``bundled``:
    its folder, resolved."""
    manifest = store.manifest
    return bool(manifest) and all(
        info.path and Path(info.path).parent == bundled for info in manifest.values())


def named(sources: Iterable[Listed], names: Iterable[str]) -> list[Listed]:
    """The sources of these names (a source's own id names it too), in the order given;
    :class:`~paper_tui.errors.PaperTuiError` naming the first unknown one."""
    from paper_tui.errors import PaperTuiError

    by_name: dict[str, Listed] = {}
    for source in sources:
        by_name[source.name] = source
        for sid in source.ids:
            by_name.setdefault(sid, source)
    chosen: dict[str, Listed] = {}
    for name in names:
        found = by_name.get(name.strip()) or by_name.get(name.strip().lower())
        if found is None:
            known = ", ".join(sorted({s.name for s in by_name.values()})[:6])
            raise PaperTuiError(f"no source named {name!r} (`paper-tui sources` lists them"
                                f"{': ' + known if known else ''})")
        chosen[found.name] = found
    return list(chosen.values())


def record_fetched(root: Path, fetched: Iterable[tuple[str, str]], day: str) -> None:
    """Remember the SOURCE each ``(source id, SOURCE)`` was fetched from, on ``day`` (a
    library that cannot be written fetched nothing: it is left alone)."""
    origins = _read_origins(root)
    fetched = list(fetched)
    for sid, spec in fetched:
        origins[sid] = {"spec": spec, "fetched": day}
    if fetched:
        with contextlib.suppress(OSError):
            atomic.write_text(root / ORIGINS, json.dumps(origins, indent=1,
                                                         ensure_ascii=False))


def forget_origins(root: Path, source_ids: Iterable[str]) -> None:
    """Drop the fetch origins of removed sources (a re-fetch records them again)."""
    origins = _read_origins(root)
    gone = [sid for sid in source_ids if sid in origins]
    for sid in gone:
        del origins[sid]
    if gone:
        atomic.write_text(root / ORIGINS, json.dumps(origins, indent=1, ensure_ascii=False))


def _read_origins(root: Path) -> dict[str, dict[str, str]]:
    try:
        raw = json.loads((root / ORIGINS).read_text("utf-8"))
    except (OSError, ValueError, UnicodeError):
        return {}
    if not isinstance(raw, dict):
        return {}
    return {sid: {k: v for k, v in entry.items() if isinstance(v, str)}
            for sid, entry in raw.items() if isinstance(entry, dict)}


def _added(root: Path, info: SourceInfo) -> float:
    """When the source's first paper entered the library: its first-seen times' earliest
    (:mod:`paper_tui.holdings.arrivals`), else when it was imported."""
    try:
        raw = json.loads((root / f"{info.id}{ADDED_SUFFIX}").read_text("utf-8"))
        stamps = [int(s) for s in raw["seen"] if s.isdigit()]
    except (OSError, ValueError, UnicodeError, KeyError, TypeError):
        stamps = []
    return float(min(stamps)) if stamps else info.imported_at
