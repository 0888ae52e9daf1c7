"""The reader's annotations as searchable sets, held in memory beside the index.

The index holds only what comes from sources; ``tag:``, ``status:``, ``starred:``,
``list:`` and ``note:`` words are answered here, at query time: per field, each value ->
the ids of the papers carrying it, kept up to date one paper at a time as the annotation
store changes (a key press, an undo, another process's save, a hand edit). The index turns
these ids into document masks (:mod:`paper_tui.index.annotation_filter`).

Values are folded as the query parser folds what a user types: tags and list names lower
case, the status as stored, notes as their stemmed words (``note_terms``, the index's
analyzer, passed in so this module needs no search engine).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable, Mapping
from typing import Any

FIELDS = ("tags", "status", "starred", "lists", "note")
"""The annotation fields of the query language (its ``tag:`` is ``tags`` here)."""

NoteTerms = Callable[[str], list[str]]
"""A note's searchable words in order (stemmed, stop words out), as the index analyses."""


def _fold_value(text: str) -> str:
    return " ".join(text.split()).lower()


class Overlay:
    """Per-field inverted sets over paper ids. Thread-safe: the store's saver thread
    updates it while a search thread reads it."""

    def __init__(self, note_terms: NoteTerms,
                 load: Callable[[], Iterable[tuple[str, Mapping[str, Any] | None]]]) -> None:
        """``load()``: every annotated paper's fields, read on the first query (a command
        that only tags a paper never builds the sets); changes made before then are not
        kept here, the load reads them from the store."""
        self._note_terms = note_terms
        self._load = load
        self._loaded = False
        self._load_lock = threading.Lock()  # held by a load and by every change
        self._lock = threading.Lock()
        self._sets: dict[str, dict[str, set[str]]] = {f: {} for f in FIELDS}
        self._of: dict[str, dict[str, tuple[str, ...]]] = {}  # paper -> field -> values
        self._notes: dict[str, tuple[str, ...]] = {}  # paper -> its note's words, in order
        self._versions: dict[tuple[str, str], int] = {}
        self.version = 0
        """Bumped by every change: a cache keyed by it is never stale."""

    # -- changing --------------------------------------------------------------------------
    def set(self, paper_id: str, fields: Mapping[str, Any] | None) -> None:
        """A paper's annotations are now ``fields`` (``status``, ``starred``, ``tags``,
        ``lists``, ``note``; None or missing keys: nothing)."""
        with self._load_lock:
            if self._loaded:
                self._set(paper_id, fields)

    def _ensure_loaded(self) -> None:
        if self._loaded:
            return
        with self._load_lock:
            if not self._loaded:
                for paper_id, fields in self._load():
                    self._set(paper_id, fields)
                self._loaded = True

    def _set(self, paper_id: str, fields: Mapping[str, Any] | None) -> None:
        fields = fields or {}
        note = str(fields.get("note") or "")
        values = {
            "tags": tuple(dict.fromkeys(_fold_value(t) for t in fields.get("tags") or ())),
            "status": (str(fields["status"]),) if fields.get("status") not in (None, "new")
            else (),
            "starred": ("true",) if fields.get("starred") else (),
            "lists": tuple(dict.fromkeys(_fold_value(x) for x in fields.get("lists") or ())),
        }
        words = tuple(self._note_terms(note)) if note else ()
        values["note"] = tuple(dict.fromkeys(words))
        with self._lock:
            old = self._of.get(paper_id, {})
            for field in FIELDS:
                before, after = set(old.get(field, ())), set(values[field])
                for value in before - after:
                    self._discard(field, value, paper_id)
                for value in after - before:
                    self._sets[field].setdefault(value, set()).add(paper_id)
                    self._bump(field, value)
            if any(values.values()):
                self._of[paper_id] = values
            else:
                self._of.pop(paper_id, None)
            if words:
                self._notes[paper_id] = words
            else:
                self._notes.pop(paper_id, None)
            self.version += 1

    def _discard(self, field: str, value: str, paper_id: str) -> None:
        ids = self._sets[field].get(value)
        if ids is not None:
            ids.discard(paper_id)
            if not ids:
                del self._sets[field][value]
        self._bump(field, value)

    def _bump(self, field: str, value: str) -> None:
        key = (field, value)
        self._versions[key] = self._versions.get(key, 0) + 1

    # -- reading ---------------------------------------------------------------------------
    def ids(self, field: str, value: str) -> tuple[frozenset[str], int]:
        """The papers whose ``field`` holds ``value`` (as folded), with that set's version
        (for caching what is derived from it)."""
        self._ensure_loaded()
        with self._lock:
            found = self._sets[field].get(value)
            return (frozenset(found) if found else frozenset(),
                    self._versions.get((field, value), 0))

    def version_of(self, field: str, value: str) -> int:
        """The version of one value's set (bumped whenever a paper joins or leaves it)."""
        self._ensure_loaded()
        return self._versions.get((field, value), 0)

    def versions(self, field: str) -> dict[str, int]:
        """``{value: its set's version}`` for every value of ``field`` (for facets)."""
        self._ensure_loaded()
        with self._lock:
            return {value: self._versions.get((field, value), 0) for value in self._sets[field]}

    def values(self, field: str) -> list[str]:
        """Every value of ``field`` some paper carries (for prefix, wildcard, fuzzy)."""
        self._ensure_loaded()
        with self._lock:
            return sorted(self._sets[field])

    def note_phrase(self, words: list[str]) -> frozenset[str]:
        """Papers whose note has ``words`` (analysed) one after another."""
        if not words:
            return frozenset()
        first = self.ids("note", words[0])[0]
        n = len(words)
        target = tuple(words)
        with self._lock:
            notes = {pid: self._notes.get(pid, ()) for pid in first}
        return frozenset(pid for pid, terms in notes.items()
                         if any(terms[i:i + n] == target for i in range(len(terms) - n + 1)))
