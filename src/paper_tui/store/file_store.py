"""The reader's work on disk: YAML files that a person can read and edit, never losing a word.

One :class:`YamlStore` holds one file (``annotations.yaml``, ``reading-lists.yaml``): a
``version:`` field and a mapping of records (paper id or list name -> fields), described by
a :class:`~paper_tui.store.schema.Schema`. It keeps the records in memory and saves them so
that:

- a save is atomic (temp file, fsync, ``os.replace``) and keeps the previous file as
  ``<name>.bak``;
- two processes never clobber each other: a save takes a file lock, re-reads the file when
  it changed since it was read, merges per record and per field (the newer change wins;
  tags and list members merge as sets; lines added to a note are added to the other's
  note), then writes;
- a file that does not parse or breaks the schema is never written: the store turns
  read-only and says which file, line and column, and where the backup is;
- a hand edit is picked up by :meth:`YamlStore.refresh` (the file's identity changed).

Each record's YAML text is kept, so a save emits only the records that changed; a clean
close caches the parsed records for the next start (checked against the file's digest).
"""

from __future__ import annotations

import contextlib
import hashlib
import marshal
import os
import stat
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import filelock

from paper_tui.errors import StoreError
from paper_tui.store.merge import added_lines, merge_record, stamp
from paper_tui.store.schema import Field, Parsed, Record, Schema, unique, words
from paper_tui.store.yaml_format import emit_fragments, parse, render
from paper_tui.trust import atomic
from paper_tui.trust.atomic import FileIdentity

CACHE_VERSION = 1
_CHECK = 16  # the parse cache starts with this many bytes of digest of the rest
LOCK_TIMEOUT = 15.0
Changes = dict[str, tuple[Record | None, Record | None]]
"""Records that changed in memory because of the file: key -> (before, after)."""


# -- the store -----------------------------------------------------------------------------
@dataclass
class _Pending:
    """A record changed in memory and not yet on disk."""

    base: Record | None  # the record as the file held it when we changed it
    at: float  # when we last changed it
    version: int
    added: dict[str, list[tuple[int, str]]] = field(default_factory=dict)
    """Text fields changed by adding lines at the end: what each change added (with the
    change's version), added to the other side's text by a merge."""
    rewritten: dict[str, int] = field(default_factory=dict)
    """Text fields changed otherwise: the version of the last such change."""

    def appended(self) -> dict[str, list[str]]:
        """The text fields changed only by adding lines since ``base``, with what was added."""
        return {name: [text for _, text in adds] for name, adds in self.added.items()
                if name not in self.rewritten}

    def saved(self, version: int) -> None:
        """The changes up to ``version`` are in ``base`` now (written to the file)."""
        self.added = {name: kept for name, adds in self.added.items()
                      if (kept := [(v, text) for v, text in adds if v > version])}
        self.rewritten = {name: v for name, v in self.rewritten.items() if v > version}


class YamlStore:
    """One YAML file's records, in memory first. Thread-safe; :meth:`save` and
    :meth:`refresh` do the disk work and are meant for a background thread."""

    def __init__(self, path: Path, schema: Schema) -> None:
        self.path = path
        self.schema = schema
        self.backup = path.with_name(path.name + ".bak")
        # The parsed file, for a fast next start: derived, checked against the file's digest.
        self.cache = path.with_name(f".{path.name}.cache")
        self.lock = threading.RLock()  # the in-memory state
        self._io = threading.Lock()  # one load / refresh / save at a time
        self._file_lock = filelock.FileLock(str(path) + ".lock", timeout=LOCK_TIMEOUT)
        self._texts = [f.name for f in schema.fields if f.kind == "text"]
        self._records: dict[str, Record] = {}
        self._fragments: dict[str, str] = {}
        self._pending: dict[str, _Pending] = {}
        self._counter = 0
        self._seen: FileIdentity | None = None  # the file as last read or written
        self._rewrite = False  # the file vanished: write it back from memory
        self._loaded = False
        self._swept = False
        self.read_only_reason: str | None = None
        self.version = 0  # bumped whenever the records change
        self._digest: bytes | None = None  # of the file as last read (None: as last written)
        self._written: str | None = None  # the text last written

    # -- reading ---------------------------------------------------------------------------
    @property
    def loaded(self) -> bool:
        return self._loaded

    def ensure_loaded(self) -> None:
        if not self._loaded:
            self.load()

    def load(self) -> None:
        """Read the file. A broken one makes the store read-only, showing the backup."""
        with self._io:
            if self._loaded:
                return
            with self.lock:
                self._loaded = True
                try:
                    read = self._read()
                except StoreError as exc:  # e.g. a FIFO in its place: read again once changed
                    self._seen = atomic.identity(self.path)
                    self._go_read_only(exc, show_backup=True)
                    return
                if read is None:
                    return
                try:
                    data, self._seen = read
                    self._digest = _digest(data)
                    parsed = (self._from_cache(self._digest)
                              or parse(_decode(data, self.path), self.path, self.schema))
                except StoreError as exc:
                    self._go_read_only(exc, show_backup=True)
                    return
                self._records, self._fragments = parsed.records, parsed.fragments
                self.version += 1

    def _from_cache(self, digest: bytes) -> Parsed | None:
        """The records kept by :meth:`write_cache`, if they are of this file as it is now
        and the cache is whole (marshal has no check of its own: a flipped byte would read
        back as another tag, status or id)."""
        try:
            data = atomic.read_regular(self.cache)[0]
            blob = data[_CHECK:]
            if data[:_CHECK] != _digest(blob):
                return None
            version, section, cached, records, fragments = marshal.loads(blob)
        except (OSError, ValueError, EOFError, TypeError):
            return None
        if (version, section, cached) != (CACHE_VERSION, self.schema.section, digest) or not (
                isinstance(records, dict) and isinstance(fragments, dict)):
            return None
        return Parsed(records, fragments)

    def write_cache(self) -> None:
        """Keep the records for the next start, when memory holds exactly the file."""
        with self._io, self.lock:
            if (not self._loaded or self.needs_save or self.read_only_reason
                    or self._seen is None or atomic.identity(self.path) != self._seen):
                return
            if self._digest is None and self._written is not None:
                self._digest = _digest(self._written.encode("utf-8"))
            if self._digest is None:
                return
            blob = marshal.dumps((CACHE_VERSION, self.schema.section, self._digest,
                                  self._records, self._fragments))
            with contextlib.suppress(OSError):
                _remove_unless_a_file(self.cache)
                atomic.write_bytes(self.cache, _digest(blob) + blob)

    def get(self, key: str) -> Record | None:
        self.ensure_loaded()
        return self._records.get(key)

    def snapshot(self) -> dict[str, Record]:
        """Every record (a shallow copy of the mapping; records are never mutated)."""
        self.ensure_loaded()
        with self.lock:
            return dict(self._records)

    @property
    def needs_save(self) -> bool:
        return bool(self._pending) or self._rewrite

    # -- changing --------------------------------------------------------------------------
    def put(self, key: str, record: Record | None, at: float) -> bool:
        """Replace one record (None: delete it). Returns False when nothing changed.

        Fields holding their default are dropped; ``updated`` is stamped with ``at``."""
        self.ensure_loaded()
        with self.lock:
            if self.read_only_reason:
                raise StoreError(self.read_only_reason)
            old = self._records.get(key)
            new = None
            if record is not None:  # normalised as the file would read back
                new = {f.name: _normal(f, record[f.name]) for f in self.schema.fields
                       if f.name in record and _normal(f, record[f.name]) != f.default}
                if self.schema.implicit and not new:
                    new = None
            if _without_stamp(old) == new:
                return False
            if new is not None:
                new["updated"] = stamp(at)
                self._records[key] = new
            else:
                self._records.pop(key, None)
            self._fragments.pop(key, None)
            self._counter += 1
            pending = self._pending.get(key)
            if pending is None:
                pending = self._pending[key] = _Pending(old, at, self._counter)
            else:
                pending.at, pending.version = at, self._counter
            for name in self._texts:
                before, after = (old or {}).get(name, ""), (new or {}).get(name, "")
                if before != after:
                    added = added_lines(before, after)
                    if added is None:
                        pending.rewritten[name] = self._counter
                    else:
                        pending.added.setdefault(name, []).append((self._counter, added))
            self.version += 1
            return True

    # -- disk ------------------------------------------------------------------------------
    @contextlib.contextmanager
    def transaction(self) -> Iterator[Changes]:
        """Hold the file lock, memory brought up to date with the file first (the changes
        that brought in are yielded): what is read and changed inside, then saved with
        :meth:`save` (which takes the lock again: it is re-entrant), no other process can
        change in between. StoreError when the lock cannot be had."""
        self.ensure_loaded()
        self._acquire()
        try:
            with self._io:
                changes = self._sync_from_disk()
            yield changes
        finally:
            self._file_lock.release()

    def _acquire(self) -> None:
        try:
            self._file_lock.acquire()
        except filelock.Timeout:
            raise StoreError(f"{self.path}: another paper-tui has held the lock "
                             f"{self._file_lock.lock_file} for {LOCK_TIMEOUT:.0f} s; "
                             "changes are kept in memory") from None

    def refresh(self) -> Changes:
        """Pick up the file when someone else changed it; returns what changed in memory."""
        self.ensure_loaded()
        with self._io:
            return self._sync_from_disk()

    def save(self) -> Changes:
        """Write pending changes, merged with the file if someone else changed it.

        Raises :class:`StoreError` when the file cannot be read or written; the changes stay
        in memory and pending, so a later save (after the file is fixed) writes them."""
        self.ensure_loaded()
        with self._io:
            self._acquire()
            try:
                changes = self._sync_from_disk()
                with self.lock:
                    if self.read_only_reason:
                        raise StoreError(self.read_only_reason)
                    if not self.needs_save:
                        return changes
                    text = self._render()
                    written = {key: self._records.get(key) for key in self._pending}
                    versions = {key: p.version for key, p in self._pending.items()}
                self._sweep_temp_files()
                try:
                    atomic.write_text(self.path, text, backup=True)
                except OSError as exc:
                    raise StoreError(f"{self.path}: cannot save ({exc.strerror or exc}); "
                                     "changes are kept in memory") from None
                seen = atomic.identity(self.path)
                with self.lock:
                    self._seen, self._rewrite = seen, False
                    self._digest, self._written = None, text
                    for key, version in versions.items():
                        pending = self._pending.get(key)
                        if pending is None:
                            continue
                        if pending.version == version:
                            del self._pending[key]
                        else:  # changed again while we wrote
                            pending.base = written[key]
                            pending.saved(version)
                return changes
            finally:
                self._file_lock.release()

    def _read(self) -> tuple[bytes, FileIdentity | None] | None:
        """The file's bytes and identity (read through one descriptor: they match). A
        FIFO, device or directory in the file's place (or behind its link) is refused
        unread: reading it could wait forever or never end."""
        try:
            return atomic.read_regular(self.path)
        except FileNotFoundError:
            return None
        except OSError as exc:
            raise StoreError(f"{self.path}: cannot read ({exc.strerror or exc})") from None

    def _sync_from_disk(self) -> Changes:
        if atomic.identity(self.path) == self._seen:
            return {}
        try:
            read = self._read()
        except StoreError as exc:  # a FIFO or a directory in its place: as a broken file
            with self.lock:
                self._seen = atomic.identity(self.path)
                self._go_read_only(exc, show_backup=False)
            return {}
        if read is None:  # deleted under us: keep the work, write it back
            with self.lock:
                self._seen, self._rewrite = None, bool(self._records)
            return {}
        data, seen = read
        try:
            parsed = parse(_decode(data, self.path), self.path, self.schema)
        except StoreError as exc:
            with self.lock:
                self._seen = seen
                self._go_read_only(exc, show_backup=False)
            return {}
        with self.lock:
            self._seen, self._digest, self._written = seen, _digest(data), None
            self.read_only_reason = None
            return self._merge(parsed)

    def _merge(self, parsed: Parsed) -> Changes:
        ours, theirs = self._records, parsed.records
        result = dict(theirs)
        fragments = parsed.fragments
        for key, pending in self._pending.items():
            merged = merge_record(self.schema, pending.base, ours.get(key), theirs.get(key),
                                  pending.at, pending.appended())
            if merged is None:
                result.pop(key, None)
            else:
                result[key] = merged
            if merged != theirs.get(key):
                fragments.pop(key, None)
            pending.base = theirs.get(key)
        for key in [k for k in self._pending if result.get(k) == theirs.get(k)]:
            del self._pending[key]
        changes = {key: (ours.get(key), result.get(key))
                   for key in ours.keys() | result.keys() if ours.get(key) != result.get(key)}
        self._records, self._fragments = result, fragments
        if changes:
            self.version += 1
        return changes

    def _go_read_only(self, exc: StoreError, show_backup: bool) -> None:
        backup = f"the backup is {self.backup}" if self.backup.exists() else "no backup yet"
        if show_backup and self.backup.exists():
            with contextlib.suppress(StoreError, OSError, UnicodeDecodeError):
                text = atomic.read_regular(self.backup)[0].decode("utf-8")
                parsed = parse(text, self.backup, self.schema)
                self._records, self._fragments = parsed.records, {}
                self.version += 1
                backup = f"showing the backup {self.backup}"
        self.read_only_reason = (f"{exc}; {self.schema.title} are read-only until the file "
                                 f"is fixed ({backup})")

    def prepare(self) -> None:
        """Emit the text of records that have none yet (a file read in another layout), off
        the lock, so the next save need not emit them all while a change waits."""
        with self.lock:
            if len(self._fragments) >= len(self._records):
                return
            missing = [(k, r) for k, r in self._records.items() if k not in self._fragments]
        emitted = emit_fragments(self.schema, missing)
        with self.lock:
            for key, record in missing:
                if self._records.get(key) is record and key not in self._fragments:
                    self._fragments[key] = emitted[key]

    def _render(self) -> str:
        keys = sorted(self._records)
        missing = [(key, self._records[key]) for key in keys if key not in self._fragments]
        self._fragments.update(emit_fragments(self.schema, missing))
        return render(self.schema, keys, self._fragments)

    def _sweep_temp_files(self) -> None:
        """Remove temp files a killed process left behind (we hold the lock: none is live)."""
        if self._swept:
            return
        self._swept = True
        for leftover in self.path.parent.glob(f".{self.path.name}.*.tmp"):
            with contextlib.suppress(OSError):
                leftover.unlink()


def _remove_unless_a_file(path: Path) -> None:
    """Remove what stands at a derived file's name if it is not a regular file (a FIFO, a
    link, a device), so that writing makes a file of our own there instead of writing
    through it (into a FIFO no one reads: forever)."""
    with contextlib.suppress(FileNotFoundError):
        if not stat.S_ISREG(os.lstat(path).st_mode):
            path.unlink()


def _normal(field: Field, value: Any) -> Any:
    if field.kind in ("set", "sequence"):
        return unique([words(item) for item in value], fold=field.kind == "set")
    return value


def _digest(data: bytes) -> bytes:
    return hashlib.blake2b(data, digest_size=16).digest()


def _decode(data: bytes, path: Path) -> str:
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        column = exc.start - (data.rfind(b"\n", 0, exc.start) + 1) + 1
        raise StoreError(f"{path}:{line}:{column}: not UTF-8 text") from None


def _without_stamp(record: Record | None) -> Record | None:
    if record is None:
        return None
    return {k: v for k, v in record.items() if k != "updated"}
