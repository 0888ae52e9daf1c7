"""Reading lists: a name, an optional description, an ordered list of paper ids.

Kept in ``reading-lists.yaml`` by a :class:`~paper_tui.store.file_store.YamlStore`. Every
change goes through the annotation service's journal (undo, background save, the overlay),
which hands itself in as ``commit``.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import TypeVar

from paper_tui.errors import StoreError
from paper_tui.store.file_store import YamlStore
from paper_tui.store.schema import Field, Record, Schema, words
from paper_tui.vocabulary import count

_DESCRIPTION = Field("description", "text")
_PAPERS = Field("papers", "sequence")
SCHEMA = Schema(
    section="lists",
    title="reading lists",
    what="list name",
    fields=(_DESCRIPTION, _PAPERS),
    implicit=False,
    header="# paper-tui reading lists. Edit freely: a running paper-tui picks changes up.\n",
)
MAX_NAME = 100
_Value = TypeVar("_Value")

Commit = Callable[[str, YamlStore, dict[str, Record | None]], None]
"""``commit(description, store, before)``: record an undoable change whose earlier state is
``before`` (key -> the fields it changed, or None when the record did not exist)."""


@dataclass(frozen=True, slots=True)
class ReadingList:
    name: str
    description: str = ""
    ids: tuple[str, ...] = ()
    updated: str | None = None


def _as_list(name: str, record: Record) -> ReadingList:
    return ReadingList(name, record.get("description", ""), tuple(record.get("papers", ())),
                       record.get("updated"))


def clean_text(text: str) -> str:
    """Notes and descriptions as stored: Unix line ends, no white space at line ends, no
    blank lines at either end. Leading spaces on a line are kept."""
    lines = [line.rstrip() for line in text.replace("\r\n", "\n").replace("\r", "\n")
             .split("\n")]
    while lines and not lines[0]:
        lines.pop(0)
    while lines and not lines[-1]:
        lines.pop()
    return "\n".join(lines)


class ReadingLists:
    def __init__(self, store: YamlStore, commit: Commit) -> None:
        self.store = store
        self._commit = commit
        self._members: dict[str, list[str]] | None = None  # paper id -> list names
        self._members_version = -1

    # -- reading ---------------------------------------------------------------------------
    def all(self) -> list[ReadingList]:
        """Every list, by name (ignoring case)."""
        records = self.store.snapshot()
        return [_as_list(name, records[name]) for name in sorted(records, key=str.casefold)]

    def get(self, name: str) -> ReadingList | None:
        key = self._find(name)
        return None if key is None else _as_list(key, self.store.get(key) or {})

    def lists_of(self, paper_id: str) -> list[str]:
        """Names of the lists holding a paper."""
        with self.store.lock:
            if self._members is None or self._members_version != self.store.version:
                members: dict[str, list[str]] = {}
                for lst in self.all():
                    for pid in lst.ids:
                        members.setdefault(pid, []).append(lst.name)
                self._members, self._members_version = members, self.store.version
            return list(self._members.get(paper_id, ()))

    def _find(self, name: str) -> str | None:
        """The stored name matching ``name`` exactly, else ignoring case and spacing."""
        if self.store.get(name) is not None:
            return name
        wanted = words(name).casefold()
        for key in self.store.snapshot():
            if words(key).casefold() == wanted:
                return key
        return None

    def _existing(self, name: str) -> tuple[str, Record]:
        key = self._find(name)
        if key is None:
            raise StoreError(f"no reading list named {name!r}")
        return key, self.store.get(key) or {}

    # -- changing --------------------------------------------------------------------------
    # Each change is made under the store's lock, then committed (undo, save, index) after it.
    def create(self, name: str, description: str = "") -> ReadingList:
        with self.store.lock:
            name = self._new_name(name)
            self.store.put(name, {"description": clean_text(description)}, time.time())
        self._commit(f"create list “{name}”", self.store, {name: None})
        return self.get(name) or ReadingList(name)

    def _new_name(self, name: str, allow: str | None = None) -> str:
        name = words(name)
        if not name:
            raise StoreError("a reading list needs a name")
        if len(name) > MAX_NAME:
            raise StoreError(f"a list name can have at most {MAX_NAME} characters")
        existing = self._find(name)
        if existing is not None and existing != allow:
            raise StoreError(f"there is already a reading list named {existing!r}")
        return name

    def rename(self, old: str, new: str) -> None:
        with self.store.lock:
            key, record = self._existing(old)
            new = self._new_name(new, allow=key)
            if new == key:
                return
            now = time.time()
            self.store.put(key, None, now)
            self.store.put(new, record, now)
        self._commit(f"rename list “{key}” to “{new}”", self.store, {key: record, new: None})

    def delete(self, name: str) -> None:
        with self.store.lock:
            key, record = self._existing(name)
            self.store.put(key, None, time.time())
        self._commit(f"delete list “{key}”", self.store, {key: record})

    def describe(self, name: str, text: str) -> None:
        self._change(name, _DESCRIPTION, lambda _: clean_text(text),
                     lambda key: f"describe list “{key}”")

    def add(self, name: str, ids: Sequence[str]) -> int:
        """Append papers not already in the list; returns how many were added."""
        added: list[str] = []

        def more(papers: tuple[str, ...]) -> tuple[str, ...]:
            added.extend(pid for pid in dict.fromkeys(ids) if pid not in papers)
            return papers + tuple(added)

        self._change(name, _PAPERS, more,
                     lambda key: f"add {count(len(added), 'paper')} to “{key}”")
        return len(added)

    def remove(self, name: str, ids: Iterable[str]) -> int:
        """Take papers out of the list; returns how many were in it."""
        gone = set(ids)
        removed: list[str] = []

        def fewer(papers: tuple[str, ...]) -> tuple[str, ...]:
            removed.extend(pid for pid in papers if pid in gone)
            return tuple(pid for pid in papers if pid not in gone)

        self._change(name, _PAPERS, fewer,
                     lambda key: f"remove {count(len(removed), 'paper')} from “{key}”")
        return len(removed)

    def move(self, name: str, paper_id: str, new_index: int) -> None:
        """Move a paper to ``new_index`` (0-based, clamped to the list)."""
        def moved(papers: tuple[str, ...]) -> tuple[str, ...]:
            if paper_id not in papers:
                raise StoreError(f"{paper_id} is not in the list {name!r}")
            rest = [pid for pid in papers if pid != paper_id]
            rest.insert(max(0, min(new_index, len(rest))), paper_id)
            return tuple(rest)

        self._change(name, _PAPERS, moved, lambda key: f"reorder “{key}”")

    def _change(self, name: str, field: Field, update: Callable[[_Value], _Value],
                what: Callable[[str], str]) -> None:
        with self.store.lock:
            key, record = self._existing(name)
            before = record.get(field.name, field.default)
            changed = self.store.put(key, {**record, field.name: update(before)}, time.time())
        if changed:
            self._commit(what(key), self.store, {key: {field.name: before}})

