"""What a store file holds: a schema of records, and how a value read from YAML becomes a
field's value (shared by both readers, so they cannot disagree on it)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

VERSION = 1
Record = dict[str, Any]

NULLS = frozenset({"", "~", "null", "Null", "NULL"})
_TRUE = frozenset({"true", "True", "TRUE", "yes", "Yes", "YES", "on", "On", "ON"})
_FALSE = frozenset({"false", "False", "FALSE", "no", "No", "NO", "off", "Off", "OFF"})
_DEFAULTS = {"flag": False, "text": "", "set": (), "sequence": ()}
AWKWARD = re.compile("[\x00-\x09\x0b-\x1f\x7f-\x9f\ud800-\udfff\ufeff\ufffe\uffff"
                     "\u2028\u2029]")
"""Not printable in YAML, or a tab, a CR, a BOM, or a line break ``str.split("\\n")``
misses: text holding one is never laid out line by line (as a literal block, or read as
the store's own layout)."""


@dataclass(frozen=True)
class Field:
    """One field of a record. ``kind``: ``choice`` (one of ``choices``, the first is the
    default), ``flag`` (bool), ``text``, ``set`` (strings, unique ignoring case, merged as a
    set) or ``sequence`` (strings in order, unique)."""

    name: str
    kind: str
    choices: tuple[str, ...] = ()

    @property
    def default(self) -> Any:
        return self.choices[0] if self.kind == "choice" else _DEFAULTS[self.kind]


@dataclass(frozen=True)
class Schema:
    section: str  # the top-level key holding the records
    title: str  # what the file holds, for messages ("annotations")
    what: str  # what a key names, for messages ("paper id")
    fields: tuple[Field, ...]
    implicit: bool  # a record holding only defaults is not kept (annotations, not lists)
    header: str = ""  # a comment written at the top of the file
    oldest_wins: bool = False
    """A field both sides changed keeps the older change (a citation key once given out),
    not the newer."""
    max_records: int | None = None
    """Reading a file of more records fails at the first one too many (a file someone
    else writes: a team-mate's); None: no limit (the reader's own files)."""

    def field(self, name: str) -> Field | None:
        for f in self.fields:
            if f.name == name:
                return f
        return None

    def default(self, name: str) -> Any:
        """The default of the field ``name``; ``KeyError`` when the schema has none."""
        found = self.field(name)
        if found is None:
            raise KeyError(name)
        return found.default


@dataclass
class Parsed:
    """A file read: its records, and the text of those it holds exactly as the store would
    write them (reused as is by the next save)."""

    records: dict[str, Record]
    fragments: dict[str, str]  # key -> the record's text in the file, when reusable as is


def words(text: str) -> str:
    """Trimmed, inner runs of white space as one space."""
    return " ".join(text.split())


def unique(items: Iterator[str] | list[str] | tuple[str, ...], fold: bool) -> tuple[str, ...]:
    """Items without repeats (ignoring case when ``fold``), keeping the first spelling."""
    seen: set[str] = set()
    out = []
    for item in items:
        key = item.casefold() if fold else item
        if item and key not in seen:
            seen.add(key)
            out.append(item)
    return tuple(out)


def convert(field: Field, raw: str | list[str] | None, plain: bool) -> tuple[Any, bool]:
    """A field's value from what the file holds (text, a list of texts, or None for null),
    and whether the file holds it exactly as the store writes it. ValueError if invalid."""
    if raw is None:
        return field.default, False
    if field.kind in ("set", "sequence"):
        if isinstance(raw, str):  # `tags: ml` for a one-item list
            return unique([words(raw)], fold=False), False
        clean = unique([words(item) for item in raw], fold=field.kind == "set")
        return clean, clean == tuple(raw)
    if not isinstance(raw, str):
        raise ValueError(f"{field.name} must be a single value, not a list")
    if field.kind == "text":
        return raw, True
    if field.kind == "flag":
        if not plain or raw not in _TRUE | _FALSE:
            raise ValueError(f"{field.name} must be true or false, not {raw!r}")
        return raw in _TRUE, raw in ("true", "false")
    if raw not in field.choices:
        raise ValueError(f"{field.name} must be one of {', '.join(field.choices)}, not {raw!r}")
    return raw, raw != field.default
