"""The annotation service both fronts call: triage status, stars, tags, notes, reading lists.

Memory first: a change is made in memory, recorded for undo, applied to the overlay (the
in-memory sets that answer ``tag:``/``status:``/… queries, :mod:`paper_tui.store.overlay`), and
handed to a background thread that saves it (coalescing bursts) within a fraction of a
second, so a keypress never waits on disk. The same thread notices when another process or
a person changed the files and merges that in (and into the overlay).
:meth:`Annotations.flush` blocks until everything is on disk (the CLI calls it before
exiting). Nothing here writes the search index.
"""

from __future__ import annotations

import threading
import time
from collections import Counter, deque
from collections.abc import Callable, Container, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from paper_tui.errors import StoreError
from paper_tui.query.parse import fold
from paper_tui.store.file_store import Changes, YamlStore
from paper_tui.store.overlay import NoteTerms, Overlay
from paper_tui.store.reading_lists import SCHEMA as LIST_SCHEMA
from paper_tui.store.reading_lists import ReadingLists, clean_text
from paper_tui.store.schema import Field, Record, Schema, unique, words
from paper_tui.vocabulary import STATUSES, count

SCHEMA = Schema(
    section="papers",
    title="annotations",
    what="paper id",
    fields=(Field("status", "choice", STATUSES), Field("starred", "flag"), Field("tags", "set"),
            Field("note", "text")),
    implicit=True,
    header="# paper-tui annotations. Edit freely: a running paper-tui picks changes up.\n",
)
UNDO_LIMIT = 100
COALESCE = 0.05  # seconds a save waits for more changes of the same burst
POLL = 0.5  # seconds between looks at the files for changes made elsewhere


def _plain_words(text: str) -> list[str]:
    """Note words when no analyzer is given (the library passes the index's)."""
    return fold(text).split()


@dataclass(frozen=True, slots=True)
class Annotation:
    status: str = "new"
    starred: bool = False
    tags: tuple[str, ...] = ()
    note: str = ""
    updated: str | None = None


_EMPTY = Annotation()


@dataclass
class _Entry:
    description: str
    store: YamlStore
    before: dict[str, Record | None]  # key -> the fields as they were, None: did not exist


def _only_version(paper_id: str) -> tuple[str, ...]:
    return (paper_id,)


def clean_tags(tags: Iterable[str]) -> list[str]:
    """Tags as stored: trimmed, inner spaces single, split at commas, no empty ones."""
    return [t for tag in tags for t in (words(part) for part in tag.split(",")) if t]


class Annotations:
    def __init__(self, root: Path, note_terms: NoteTerms | None = None, *,
                 versions_of: Callable[[str], Sequence[str]] | None = None,
                 watch: Callable[[], None] | None = None) -> None:
        """``versions_of(paper_id)``: every version of a paper from two sources (the
        library's index knows them): a change to one is made to all, and a paper with none
        shows another's. Without it each paper is its only version. ``watch()``: called by
        the background thread after each look at the files, to look at others the library
        reads (the team's: see ``Team.reload_if_stale``)."""
        self.store = YamlStore(root / "annotations.yaml", SCHEMA)
        self.lists = ReadingLists(YamlStore(root / "reading-lists.yaml", LIST_SCHEMA),
                                  self._commit)
        self._stores = (self.store, self.lists.store)
        self._overlay = Overlay(note_terms or _plain_words, self._searchable_all)
        self.versions_of: Callable[[str], Sequence[str]] = versions_of or _only_version
        self._undo: deque[_Entry] = deque(maxlen=UNDO_LIMIT)
        self._save_listeners: list[Callable[[str | None], None]] = []
        self._change_listeners: list[Callable[[set[str]], None]] = []
        self._pass_listeners: list[Callable[[], None]] = []
        self.last_save_error: str | None = None
        self._wake = threading.Event()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._start_lock = threading.Lock()
        self._tag_spelling: tuple[int, dict[str, str]] = (-1, {})
        self._tag_counts: tuple[int, dict[str, int]] = (-1, {})
        self._watch = watch

    # -- reading ---------------------------------------------------------------------------
    def _ready(self) -> YamlStore:
        """Load both files on first use and start the background saver."""
        if self._thread is None:
            with self._start_lock:
                if self._thread is None:
                    for store in self._stores:
                        store.ensure_loaded()
                    self._thread = threading.Thread(target=self._run, daemon=True,
                                                    name="paper-tui annotations")
                    self._thread.start()
        return self.store

    @property
    def overlay(self) -> Overlay:
        """The annotations as searchable sets (built on the first query that needs them,
        then kept up to date change by change)."""
        return self._overlay

    def _searchable_all(self) -> list[tuple[str, dict[str, Any] | None]]:
        self._ready()
        return [(pid, self.searchable(pid)) for pid in self._annotated_ids()]

    def get(self, paper_id: str) -> Annotation:
        store = self._ready()
        record = store.get(paper_id)
        if record is None:  # marked on another version of the paper before this one came?
            for other in self.versions_of(paper_id):
                record = store.get(other) if other != paper_id else None
                if record is not None:
                    break
        if record is None:
            return _EMPTY
        return Annotation(record.get("status", "new"), record.get("starred", False),
                          tuple(record.get("tags", ())), record.get("note", ""),
                          record.get("updated"))

    @property
    def read_only_reason(self) -> str | None:
        self._ready()
        reasons = [s.read_only_reason for s in self._stores if s.read_only_reason]
        return " · ".join(reasons) if reasons else None

    def tag_counts(self) -> dict[str, int]:
        """Every tag (first spelling seen) with how many papers carry it, most used first
        (counted again only after the annotations changed)."""
        store = self._ready()
        version, counted = self._tag_counts
        now = store.version  # before counting: a change meanwhile is counted next time
        if version != now:
            counts: Counter[str] = Counter()
            spelling = self._spellings()
            for record in store.snapshot().values():
                for tag in record.get("tags", ()):
                    counts[spelling.get(tag.casefold(), tag)] += 1
            counted = dict(sorted(counts.items(), key=lambda kv: (-kv[1], kv[0].casefold())))
            self._tag_counts = (now, counted)
        return dict(counted)

    def status_counts(self) -> dict[str, int]:
        """Papers per status other than ``new`` (the default, which is not stored)."""
        counts = dict.fromkeys(STATUSES[1:], 0)
        for record in self._ready().snapshot().values():
            if "status" in record:
                counts[record["status"]] += 1
        return counts

    def searchable(self, paper_id: str) -> dict[str, Any] | None:
        """What queries can find of a paper's annotations; None when there is nothing."""
        record = self.store.get(paper_id)
        lists = self.lists.lists_of(paper_id)
        if record is None and not lists:
            return None
        record = record or {}
        return {"status": record.get("status", "new"), "starred": record.get("starred", False),
                "tags": list(record.get("tags", ())), "lists": lists,
                "note": record.get("note", "")}

    def orphans(self, known_ids: Container[str]) -> list[str]:
        """Ids annotated or in a list that are not among ``known_ids`` (kept, never
        dropped: the paper may come back with a re-import)."""
        self._ready()
        return sorted(pid for pid in self._annotated_ids() if pid not in known_ids)

    def records(self) -> dict[str, Record]:
        """Every annotated paper's fields (status, starred, tags, note, updated), as stored:
        a copy of the mapping, its records never changed."""
        return self._ready().snapshot()

    def annotated_ids(self) -> frozenset[str]:
        """Every paper with a status, star, tag or note (lists aside)."""
        return frozenset(self._ready().snapshot())

    def _annotated_ids(self) -> set[str]:
        """Every id with a record or in a list."""
        ids = set(self.store.snapshot())
        for lst in self.lists.all():
            ids.update(lst.ids)
        return ids

    def _spellings(self) -> dict[str, str]:
        """casefolded tag -> the spelling seen first (in file order, then order of change)."""
        version, spelling = self._tag_spelling
        if version != self.store.version:
            spelling = {}
            for record in self._ready().snapshot().values():
                for tag in record.get("tags", ()):
                    spelling.setdefault(tag.casefold(), tag)
            self._tag_spelling = (self.store.version, spelling)
        return spelling

    # -- changing --------------------------------------------------------------------------
    def set_status(self, ids: Sequence[str], status: str) -> None:
        if status not in STATUSES:
            raise StoreError(f"unknown status {status!r}: use one of {', '.join(STATUSES)}")
        self._change(ids, lambda a: {"status": status}, f"status {status}")

    def set_starred(self, ids: Sequence[str], starred: bool) -> None:
        self._change(ids, lambda a: {"starred": starred}, "star" if starred else "unstar")

    def toggle_star(self, ids: Sequence[str]) -> bool:
        """Star all of ``ids`` unless all are starred already (then unstar them)."""
        starred = not all(self.get(pid).starred for pid in ids)
        self.set_starred(ids, starred)
        return starred

    def add_tags(self, ids: Sequence[str], tags: Iterable[str]) -> None:
        spelling = self._spellings()
        new = [spelling.get(t.casefold(), t) for t in unique(clean_tags(tags), fold=True)]
        if new:
            self._change(ids, lambda a: {"tags": unique([*a.tags, *new], fold=True)},
                         f"tag {', '.join(new)}")

    def remove_tags(self, ids: Sequence[str], tags: Iterable[str]) -> None:
        gone = {t.casefold() for t in clean_tags(tags)}
        if gone:
            self._change(ids, lambda a: {"tags": tuple(t for t in a.tags
                                                       if t.casefold() not in gone)},
                         f"untag {', '.join(clean_tags(tags))}")

    def set_note(self, paper_id: str, text: str) -> None:
        self._change([paper_id], lambda a: {"note": clean_text(text)}, "edit note")

    def append_note(self, paper_id: str, text: str) -> None:
        addition = clean_text(text)
        if addition:
            self._change([paper_id], lambda a: {"note": f"{a.note}\n{addition}" if a.note
                                                else addition}, "add to note")

    def _change(self, ids: Sequence[str], update: Callable[[Annotation], Record],
                what: str) -> None:
        # a change to one version of a paper from two sources is made to every version,
        # so it holds whichever is shown, after a re-import, and on a team mate's machine
        ids = list(dict.fromkeys(v for pid in ids for v in self.versions_of(pid)))
        before: dict[str, Record | None] = {}
        now = time.time()
        store = self._ready()
        with store.lock:
            for pid in ids:
                record = store.get(pid) or {}
                fields = update(self.get(pid))
                old = {name: record.get(name, SCHEMA.default(name)) for name in fields}
                if store.put(pid, {**record, **fields}, now):
                    before[pid] = old
        if before:
            subject = next(iter(before)) if len(before) == 1 else count(len(before), "paper")
            self._commit(f"{what} on {subject}", store, before)

    def _commit(self, description: str, store: YamlStore,
                before: dict[str, Record | None]) -> None:
        """A change was made in memory: remember it for undo, show it to searches, save it
        soon."""
        self._ready()
        self._undo.append(_Entry(description, store, before))
        changes = {k: (v, store.get(k)) for k, v in before.items()}
        self._update_overlay(self._touched(store, changes))
        self._wake.set()

    def undo(self) -> str | None:
        """Undo the last change (of the last 100); returns what it was, None if none."""
        if not self._undo:
            return None
        if self._undo[-1].store.read_only_reason:
            raise StoreError(self._undo[-1].store.read_only_reason)
        entry = self._undo.pop()
        now = time.time()
        with entry.store.lock:
            after: Changes = {}
            for key, fields in entry.before.items():
                after[key] = (entry.store.get(key), None)
                record = None if fields is None else {**(entry.store.get(key) or {}), **fields}
                entry.store.put(key, record, now)
        self._update_overlay(self._touched(entry.store, after))
        self._wake.set()
        return entry.description

    def _touched(self, store: YamlStore, changes: Changes) -> set[str]:
        """Paper ids whose searchable fields change with ``changes`` (key -> before,
        after)."""
        if store is self.store:
            return set(changes)
        ids: set[str] = set()
        for key, (before, _) in changes.items():
            ids.update((before or {}).get("papers", ()))
            ids.update((store.get(key) or {}).get("papers", ()))
        return ids

    def _update_overlay(self, ids: Iterable[str]) -> None:
        for pid in ids:
            self._overlay.set(pid, self.searchable(pid))

    # -- saving ----------------------------------------------------------------------------
    def add_save_listener(self, callback: Callable[[str | None], None]) -> None:
        """``callback(error)`` after a save fails (the message) or works again (None).
        Called from the saver thread."""
        self._save_listeners.append(callback)

    def add_change_listener(self, callback: Callable[[set[str]], None]) -> None:
        """``callback(paper_ids)`` when another process or a hand edit changed annotations
        or lists. Called from the saver thread."""
        self._change_listeners.append(callback)

    def add_pass_listener(self, callback: Callable[[], None]) -> None:
        """``callback()`` after each pass of the saver (a save, or a look for changes made
        elsewhere: within a second of a change). Called from the saver thread."""
        self._pass_listeners.append(callback)

    def flush(self) -> None:
        """Block until every change is on disk; :class:`StoreError` if it cannot be."""
        self._sync(strict=True)

    def close(self) -> None:
        """Stop the saver, then flush (raising :class:`StoreError` if that fails)."""
        self._stop.set()
        self._wake.set()
        if self._thread is not None:
            self._thread.join()
        self._sync(strict=True)
        for store in self._stores:
            store.write_cache()

    def _run(self) -> None:
        while not self._stop.is_set():
            woke = self._wake.wait(POLL)
            if self._stop.is_set():
                return
            if woke:
                time.sleep(COALESCE)  # let the rest of a burst of keys arrive
                self._wake.clear()
            self._sync(strict=False)
            for store in self._stores:
                store.prepare()
            if self._watch is not None:
                self._watch()
            for listener in list(self._pass_listeners):
                listener()

    def _sync(self, strict: bool) -> None:
        """Save what is pending, or (nothing pending) look for changes made elsewhere."""
        errors = []
        outside: set[str] = set()
        for store in self._stores:
            if not store.loaded:
                continue
            try:
                changes = store.save() if store.needs_save else store.refresh()
            except StoreError as exc:
                errors.append(str(exc))
                continue
            if changes:
                outside |= self._touched(store, changes)
        if outside:
            self._update_overlay(outside)
            for listener in list(self._change_listeners):
                listener(outside)
        error = " · ".join(errors) or None
        if error != self.last_save_error:
            self.last_save_error = error
            for callback in list(self._save_listeners):
                callback(error)
        if error and strict:
            raise StoreError(error)

