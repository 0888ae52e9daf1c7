"""The reader's work on disk: YAML files that a person can read and edit, never losing a word.

One :class:`YamlStore` holds one file (``annotations.yaml``, ``reading-lists.yaml``): a
``version:`` field and a mapping of records (paper id or list name -> fields), described by
a :class:`Schema`. It keeps the records in memory and saves them so that:

- a save is atomic (temp file, fsync, ``os.replace``) and keeps the previous file as
  ``<name>.bak``;
- two processes never clobber each other: a save takes a file lock, re-reads the file when
  it changed since it was read, merges per record and per field (the newer change wins;
  tags and list members merge as sets), then writes;
- a file that does not parse or breaks the schema is never written: the store turns
  read-only and says which file, line and column, and where the backup is;
- a hand edit is picked up by :meth:`YamlStore.refresh` (the file's identity changed).

Speed: the C parser's events are turned into records directly (composing nodes and
constructing objects is ~8x slower), and each record's YAML text is kept, so a save only
emits the records that changed and joins the rest.
"""

from __future__ import annotations

import contextlib
import hashlib
import marshal
import os
import re
import threading
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import lru_cache
from pathlib import Path
from typing import Any

import filelock
import yaml
from yaml.events import (
    AliasEvent,
    DocumentEndEvent,
    DocumentStartEvent,
    Event,
    MappingEndEvent,
    MappingStartEvent,
    ScalarEvent,
    SequenceEndEvent,
    SequenceStartEvent,
    StreamEndEvent,
    StreamStartEvent,
)

from paper_tui import atomic
from paper_tui.errors import StoreError

try:  # libyaml: ~15x faster than the pure-Python parser and emitter
    from yaml import CSafeDumper as Dumper
    from yaml import CSafeLoader as Loader
except ImportError:  # pragma: no cover - the same YAML, only slower
    from yaml import SafeDumper as Dumper  # type: ignore[assignment]
    from yaml import SafeLoader as Loader  # type: ignore[assignment]

VERSION = 1
CACHE_VERSION = 1
LOCK_TIMEOUT = 15.0
Record = dict[str, Any]
Changes = dict[str, tuple[Record | None, Record | None]]
"""Records that changed in memory because of the file: key -> (before, after)."""

_NULLS = frozenset({"", "~", "null", "Null", "NULL"})
_TRUE = frozenset({"true", "True", "TRUE", "yes", "Yes", "YES", "on", "On", "ON"})
_FALSE = frozenset({"false", "False", "FALSE", "no", "No", "NO", "off", "Off", "OFF"})
_ODD_BREAKS = ("\r", "\x85", "\u2028", "\u2029")  # line breaks to YAML, not to str.split("\n")
_DEFAULTS = {"flag": False, "text": "", "set": (), "sequence": ()}


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

    def field(self, name: str) -> Field | None:
        for f in self.fields:
            if f.name == name:
                return f
        return None


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


# -- time stamps ---------------------------------------------------------------------------
def stamp(at: float) -> str:
    return datetime.fromtimestamp(at, UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def stamp_time(text: str | None) -> float:
    """Seconds since the epoch for a stamp; 0 for none or one that does not parse."""
    if not text:
        return 0.0
    try:
        when = datetime.fromisoformat(text)
    except ValueError:
        return 0.0
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    return when.timestamp()


# -- reading -------------------------------------------------------------------------------
@dataclass
class Parsed:
    records: dict[str, Record]
    fragments: dict[str, str]  # key -> the record's text in the file, when reusable as is


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


class _Reader:
    """Schema-driven reader over the parser's events, reporting file:line:column."""

    def __init__(self, text: str, path: Path, schema: Schema) -> None:
        self.path = path
        self.schema = schema
        self.text = text
        self.events = yaml.parse(text, Loader=Loader)
        self.records: dict[str, Record] = {}
        # (key, first line, reusable) per record in file order, to cut the text into fragments
        self.spans: list[tuple[str, int, bool]] = []
        self.end_line = 0

    def fail(self, event: Event, message: str) -> StoreError:
        mark = event.start_mark
        return StoreError(f"{self.path}:{mark.line + 1}:{mark.column + 1}: {message}")

    def next(self) -> Event:
        event = next(self.events)
        if isinstance(event, AliasEvent):
            raise self.fail(event, "anchors and aliases (&name, *name) are not supported here")
        return event

    @staticmethod
    def is_null(event: Event) -> bool:
        return isinstance(event, ScalarEvent) and not event.style and event.value in _NULLS

    def read(self) -> Parsed:
        try:
            self.document()
        except yaml.MarkedYAMLError as exc:
            mark = exc.problem_mark or exc.context_mark
            where = f"{self.path}:{mark.line + 1}:{mark.column + 1}" if mark else str(self.path)
            raise StoreError(f"{where}: not valid YAML: {exc.problem or exc.context}") from None
        except yaml.YAMLError as exc:
            raise StoreError(f"{self.path}: not valid YAML: {words(str(exc))}") from None
        return Parsed(self.records, self.fragments())

    def document(self) -> None:
        self.next()  # StreamStartEvent
        event = self.next()
        if isinstance(event, StreamEndEvent):
            return
        root = self.next()  # after DocumentStartEvent
        if isinstance(root, MappingStartEvent):
            self.top_level()
        elif not self.is_null(root):
            raise self.fail(root, f"expected a mapping with 'version:' and "
                                  f"'{self.schema.section}:'")
        self.next()  # DocumentEndEvent
        event = self.next()
        if isinstance(event, DocumentStartEvent):
            raise self.fail(event, "more than one YAML document in the file")

    def top_level(self) -> None:
        seen: set[str] = set()
        while True:
            key = self.next()
            if isinstance(key, MappingEndEvent):
                return
            name = self.key(key, "top-level key")
            if name in seen:
                raise self.fail(key, f"'{name}' appears twice")
            seen.add(name)
            if name == "version":
                self.version()
            elif name == self.schema.section:
                self.section()
            else:
                raise self.fail(key, f"unknown key '{name}' (expected 'version' or "
                                     f"'{self.schema.section}')")

    def key(self, event: Event, what: str) -> str:
        if not isinstance(event, ScalarEvent):
            raise self.fail(event, f"a {what} must be a plain string")
        if not event.value.strip():
            raise self.fail(event, f"empty {what}")
        return event.value

    def version(self) -> None:
        event = self.next()
        if not isinstance(event, ScalarEvent) or not event.value.isdigit():
            raise self.fail(event, "version must be a whole number")
        if int(event.value) > VERSION:
            raise self.fail(event, f"version {event.value} was written by a newer paper-tui "
                                   f"(this one reads version {VERSION})")

    def section(self) -> None:
        event = self.next()
        if self.is_null(event):
            return
        if not isinstance(event, MappingStartEvent):
            raise self.fail(event, f"'{self.schema.section}' must map each "
                                   f"{self.schema.what} to its fields")
        while True:
            event = self.next()
            if isinstance(event, MappingEndEvent):
                self.end_line = event.start_mark.line
                return
            key = self.key(event, self.schema.what)
            if key in self.records:
                raise self.fail(event, f"{self.schema.what} {key!r} appears twice")
            record, as_written = self.record(key)
            self.records[key] = record
            self.spans.append((key, event.start_mark.line,
                               as_written and event.style == '"' and event.start_mark.column == 2))

    def record(self, key: str) -> tuple[Record, bool]:
        event = self.next()
        if self.is_null(event):
            return {}, False
        if not isinstance(event, MappingStartEvent):
            names = ", ".join(f.name for f in self.schema.fields)
            raise self.fail(event, f"the fields of {self.schema.what} {key!r} must be a "
                                   f"mapping ({names})")
        as_written = not event.flow_style
        record: Record = {}
        seen: set[str] = set()
        while True:
            name_event = self.next()
            if isinstance(name_event, MappingEndEvent):
                return record, as_written
            name = self.key(name_event, "field name")
            if name in seen:
                raise self.fail(name_event, f"field '{name}' appears twice")
            seen.add(name)
            if name == "updated":
                value_event = self.scalar("updated")
                if not self.is_null(value_event):
                    record[name] = value_event.value
                continue
            field = self.schema.field(name)
            if field is None:
                known = ", ".join([f.name for f in self.schema.fields] + ["updated"])
                raise self.fail(name_event, f"unknown field '{name}' (known: {known})")
            value, clean = self.value(field)
            as_written = as_written and clean and value != field.default
            if value != field.default:
                record[name] = value

    def scalar(self, name: str) -> ScalarEvent:
        event = self.next()
        if not isinstance(event, ScalarEvent):
            raise self.fail(event, f"{name} must be a single value")
        return event

    def value(self, field: Field) -> tuple[Any, bool]:
        """The field's value, and whether the file holds it exactly as it would be written."""
        event = self.next()
        raw: str | list[str] | None
        if isinstance(event, SequenceStartEvent):
            raw = []
            while True:
                item = self.next()
                if isinstance(item, SequenceEndEvent):
                    break
                if not isinstance(item, ScalarEvent):
                    raise self.fail(item, f"each item of {field.name} must be a single value")
                raw.append(item.value)
        elif isinstance(event, ScalarEvent):
            raw = None if self.is_null(event) else event.value
        else:
            raise self.fail(event, f"{field.name} must be a single value or a list")
        try:
            return convert(field, raw, plain=not getattr(event, "style", None))
        except ValueError as exc:
            raise self.fail(event, str(exc)) from None

    def fragments(self) -> dict[str, str]:
        """Each record's lines, when the file lays them out as :func:`emit_fragments` would
        place them (key quoted at column 3, block style, nothing normalised)."""
        if not self.spans or any(c in self.text for c in _ODD_BREAKS):
            return {}
        lines = self.text.split("\n")
        out = {}
        ends = [line for _, line, _ in self.spans[1:]] + [self.end_line]
        for (key, start, reusable), end in zip(self.spans, ends, strict=True):
            if reusable and end > start:
                chunk = "\n".join(lines[start:end])
                out[key] = chunk if chunk.endswith("\n") else chunk + "\n"
        return out


def parse(text: str, path: Path, schema: Schema) -> Parsed:
    """Records from a file's text; :class:`StoreError` naming file:line:column if invalid.

    The store's own layout is read line by line (several times faster); anything else, and
    every error, goes through the YAML parser."""
    return _parse_own_layout(text, schema) or _Reader(text, path, schema).read()


# -- the fast path: the layout the store writes, line by line ------------------------------
# Everything here either yields exactly what the YAML parser would, or gives up (_Bail) and
# lets the parser read the file. It accepts only: a comment header, `version: N`, the
# section, then records of `  "key":` with `    field: value`, `    - item` lists and
# literal blocks; plain scalars without `: `, ` #` or a leading indicator; quoted scalars on
# one line. Tests check it against the parser.

class _Bail(Exception):
    """Not the store's own layout: read it with the YAML parser."""


_KEY = re.compile(r'  "((?:[^"\\]|\\.)*)":')
_FIELD = re.compile(r"    ([a-z]+):(?: (.*))?")
_DOUBLE = re.compile(r'"((?:[^"\\]|\\.)*)"')
_SINGLE = re.compile(r"'((?:[^']|'')*)'")
_BLOCK = re.compile(r"\|(?:([1-9])(-)?|(-)([1-9])?)?")
_ESCAPE = re.compile(r"\\(x[0-9A-Fa-f]{2}|u[0-9A-Fa-f]{4}|U[0-9A-Fa-f]{8}|.)")
_ESCAPES = {"0": "\0", "a": "\a", "b": "\b", "t": "\t", "\t": "\t", "n": "\n", "v": "\v",
            "f": "\f", "r": "\r", "e": "\x1b", " ": " ", '"': '"', "/": "/", "\\": "\\",
            "N": "\x85", "_": "\xa0", "L": "\u2028", "P": "\u2029"}
# Not printable in YAML, or a tab, a CR, a BOM, or a line break str.split("\n") misses.
_AWKWARD = re.compile("[\x00-\x09\x0b-\x1f\x7f-\x9f\ud800-\udfff\ufeff\ufffe\uffff"
                      "\u2028\u2029]")
_PLAIN_START = frozenset("-?:,[]{}#&*!|>'\"%@` ")


def _unescape(match: re.Match[str]) -> str:
    code = match.group(1)
    if code[0] in "xuU" and len(code) > 1:
        point = int(code[1:], 16)
        if 0xD800 <= point <= 0xDFFF:
            raise _Bail
        return chr(point)
    if code not in _ESCAPES:
        raise _Bail
    return _ESCAPES[code]


def _scalar(text: str) -> tuple[str | None, bool]:
    """(value, plain) of a one-line scalar; value None for a plain null."""
    if text[:1] == '"':
        match = _DOUBLE.fullmatch(text)
        if not match:
            raise _Bail
        body = match.group(1)
        return (_ESCAPE.sub(_unescape, body) if "\\" in body else body), False
    if text[:1] == "'":
        match = _SINGLE.fullmatch(text)
        if not match:
            raise _Bail
        return match.group(1).replace("''", "'"), False
    if (not text or text[0] in _PLAIN_START or text[-1] in " :" or ": " in text
            or " #" in text):
        raise _Bail
    return (None if text in _NULLS else text), True


def _block(lines: list[str], i: int, header: str) -> tuple[str, int]:
    """A literal block scalar under a field at indent 4 whose lines start at ``i``."""
    match = _BLOCK.fullmatch(header)
    if not match:
        raise _Bail
    digit = match.group(1) or match.group(4)
    clip = not (match.group(2) or match.group(3))
    j = i
    while j < len(lines) and not lines[j]:
        j += 1
    if j == len(lines) or not lines[j].strip(" "):
        raise _Bail
    indent = 4 + int(digit) if digit else len(lines[j]) - len(lines[j].lstrip(" "))
    if indent <= 4:
        raise _Bail
    prefix = " " * indent
    content = []
    while i < len(lines):
        line = lines[i]
        if line.startswith(prefix):
            content.append(line[indent:])
        elif line:
            if not line.strip(" "):
                raise _Bail  # a line of spaces only
            break
        else:
            content.append("")
        i += 1
    while content and not content[-1]:  # trailing blank lines: chomped, not the record's
        content.pop()
        i -= 1
    if not content:
        raise _Bail
    return "\n".join(content) + ("\n" if clip else ""), i


def _parse_own_layout(text: str, schema: Schema) -> Parsed | None:
    if not text.endswith("\n") or _AWKWARD.search(text):
        return None
    try:
        return _read_own_layout(text.split("\n"), schema)
    except (_Bail, ValueError):
        return None


def _read_own_layout(lines: list[str], schema: Schema) -> Parsed:
    i, n = 0, len(lines)
    while i < n and (not lines[i] or lines[i].startswith("#")):
        i += 1
    version = re.fullmatch(r"version: ([0-9]+)", lines[i]) if i < n else None
    if not version or int(version.group(1)) > VERSION or i + 1 >= n:
        raise _Bail
    i += 1
    records: dict[str, Record] = {}
    fragments: dict[str, str] = {}
    whole = _whole_lines(schema)
    if lines[i] == f"{schema.section}: {{}}":
        i += 1
    elif lines[i] == f"{schema.section}:":
        i += 1
        while i < n and lines[i]:
            start = i
            key, record, as_written, i = _own_record(lines, i, schema, whole)
            if key in records:
                raise _Bail
            records[key] = record
            if as_written:
                fragments[key] = "\n".join(lines[start:i]) + "\n"
    else:
        raise _Bail
    if any(lines[i:]):
        raise _Bail
    return Parsed(records, fragments)


@lru_cache(maxsize=8)
def _whole_lines(schema: Schema) -> dict[str, tuple[str, Any, bool]]:
    """Field lines that say everything by themselves (``    status: read``), read by one
    dictionary lookup: line -> (field, value, as the store writes it)."""
    out = {}
    for field in schema.fields:
        if field.kind == "choice":
            for choice in field.choices:
                out[f"    {field.name}: {choice}"] = (field.name, choice, choice != field.default)
        elif field.kind == "flag":
            out[f"    {field.name}: true"] = (field.name, True, True)
            out[f"    {field.name}: false"] = (field.name, False, False)
    return out


@lru_cache(maxsize=4096)
def _item(text: str) -> str:
    """A list item (tags repeat: each spelling is checked once)."""
    item, _ = _scalar(text)
    if item is None:
        raise _Bail
    return item


def _own_record(lines: list[str], i: int, schema: Schema,
                whole: dict[str, tuple[str, Any, bool]]) -> tuple[str, Record, bool, int]:
    line = lines[i]
    body = line[3:-2]
    if not (line.startswith('  "') and line.endswith('":') and '"' not in body
            and "\\" not in body):
        match = _KEY.fullmatch(line)
        if not match:
            raise _Bail
        body = _ESCAPE.sub(_unescape, match.group(1))
    if not body.strip():
        raise _Bail
    key = body
    i += 1
    record: Record = {}
    seen: set[str] = set()
    as_written = True
    n = len(lines)
    while i < n:
        line = lines[i]
        known = whole.get(line)
        if known is not None:
            name, value, clean = known
            if name in seen:
                raise _Bail
            seen.add(name)
            if clean:
                record[name] = value
            as_written = as_written and clean
            i += 1
            continue
        if not line.startswith("    "):
            break
        if line.startswith('    updated: "') and line.endswith('"') and len(line) > 15:
            name, stamp_text = "updated", line[14:-1]
            if '"' in stamp_text or "\\" in stamp_text or name in seen:
                raise _Bail
            seen.add(name)
            record[name] = stamp_text
            i += 1
            continue
        match = _FIELD.fullmatch(line)
        if not match:
            raise _Bail
        name, rest = match.groups()
        field = schema.field(name)
        if name in seen or (field is None and name != "updated") or rest == "":
            raise _Bail
        seen.add(name)
        i += 1
        raw: str | list[str] | None
        plain = False
        if rest is None:  # a list follows
            raw = []
            while i < n and lines[i].startswith("    - "):
                raw.append(_item(lines[i][6:]))
                i += 1
            if not raw:
                raise _Bail
        elif rest[0] == "|":
            raw, i = _block(lines, i, rest)
        else:
            raw, plain = _scalar(rest)
        if field is None:  # updated, written some other way
            if not isinstance(raw, str):
                raise _Bail
            record[name] = raw
            continue
        value, clean = convert(field, raw, plain)
        as_written = as_written and clean
        if value != field.default:
            record[name] = value
    return key, record, as_written, i


# -- writing -------------------------------------------------------------------------------
_RESOLVER = yaml.resolver.Resolver()


@lru_cache(maxsize=65536)
def _plain_is_string(text: str) -> bool:
    """False when ``text`` written plain would read back as something else (2024, yes)."""
    return _RESOLVER.resolve(yaml.ScalarNode, text, (True, False)) == "tag:yaml.org,2002:str"


def _literal_fits(text: str) -> bool:
    """A literal block (``|``) shows ``text`` as is. Not with spaces at a line's end:
    libyaml then writes a block that runs into the next key."""
    return ("\n" in text and not _AWKWARD.search(text)
            and all(line == line.rstrip(" ") for line in text.split("\n")))


def _string(text: str, style: str | None = None) -> ScalarEvent:
    if style is None and "\n" in text:
        style = "|" if _literal_fits(text) else '"'
    return ScalarEvent(None, None, (_plain_is_string(text), True), text, style=style)


def _record_events(schema: Schema, key: str, record: Record) -> list[Event]:
    out: list[Event] = [_string(key, '"'), MappingStartEvent(None, None, True, flow_style=False)]
    for field in schema.fields:
        if field.name not in record:
            continue
        value = record[field.name]
        out.append(_string(field.name))
        if field.kind == "flag":
            out.append(ScalarEvent(None, None, (True, False), "true" if value else "false"))
        elif field.kind in ("set", "sequence"):
            quote = '"' if field.kind == "sequence" else None  # ids are always quoted
            out.append(SequenceStartEvent(None, None, True, flow_style=False))
            out.extend(_string(item, quote) for item in value)
            out.append(SequenceEndEvent())
        else:
            out.append(_string(value))
    if record.get("updated"):
        out += [_string("updated"), _string(record["updated"], '"')]
    out.append(MappingEndEvent())
    return out


def emit_fragments(schema: Schema, records: list[tuple[str, Record]]) -> dict[str, str]:
    """The YAML text of each record as it sits in the file (indented under the section)."""
    if not records:
        return {}
    events: list[Event] = [StreamStartEvent(), DocumentStartEvent(explicit=False),
                           MappingStartEvent(None, None, True, flow_style=False),
                           _string(schema.section),
                           MappingStartEvent(None, None, True, flow_style=False)]
    for key, record in records:
        events += _record_events(schema, key, record)
    events += [MappingEndEvent(), MappingEndEvent(), DocumentEndEvent(explicit=False),
               StreamEndEvent()]
    text = yaml.emit(events, Dumper=Dumper, allow_unicode=True, width=1 << 30, indent=2)
    lines = text.split("\n")[1:]  # drop "<section>:"
    # A record starts where a line holds a key at column 3: "key" (or ? "key" when long).
    starts = [i for i, line in enumerate(lines) if line.startswith(('  "', "  ? "))]
    if len(starts) != len(records):  # cannot happen with block style and an endless width
        raise RuntimeError("YAML emitter laid out records unexpectedly")
    ends = [*starts[1:], len(lines)]
    return {key: "\n".join(lines[a:b]).rstrip("\n") + "\n"
            for (key, _), a, b in zip(records, starts, ends, strict=True)}


def render(schema: Schema, keys: list[str], fragments: Mapping[str, str]) -> str:
    head = f"{schema.header}version: {VERSION}\n{schema.section}:"
    if not keys:
        return head + " {}\n"
    return "".join([head, "\n", *(fragments[k] for k in keys)])


# -- merging -------------------------------------------------------------------------------
def _merge_items(base: tuple, ours: tuple, theirs: tuple, fold: bool) -> tuple[str, ...]:
    """Theirs, without what we removed, plus what we added (in our order)."""
    def key(item: str) -> str:
        return item.casefold() if fold else item

    base_keys = {key(x) for x in base}
    removed = base_keys - {key(x) for x in ours}
    kept = [x for x in theirs if key(x) not in removed]
    return unique(kept + [x for x in ours if key(x) not in base_keys], fold)


def merge_record(schema: Schema, base: Record | None, ours: Record | None,
                 theirs: Record | None, our_time: float) -> Record | None:
    """Three-way merge of one record: fields only we changed are ours, fields only they
    changed are theirs, and when both changed a field the newer change wins (sets and
    sequences merge item by item)."""
    if schema.implicit:
        base, ours, theirs = base or {}, ours or {}, theirs or {}
    elif ours is None:  # we deleted it (or created and deleted it)
        if base is None or theirs is None or theirs == base:
            return theirs if base is None else None
        return theirs if stamp_time(theirs.get("updated")) > our_time else None
    elif theirs is None:  # they deleted it, or we created it: never lose our work
        return ours
    base = base or {}
    their_time = stamp_time(theirs.get("updated"))
    out: Record = {}
    for field in schema.fields:
        default = field.default
        b = base.get(field.name, default)
        o = ours.get(field.name, default)
        t = theirs.get(field.name, default)
        if o in (b, t):
            value = t
        elif t == b:
            value = o
        elif field.kind in ("set", "sequence"):
            value = _merge_items(b, o, t, field.kind == "set")
        else:
            value = t if their_time > our_time else o
        if value != default:
            out[field.name] = value
    if schema.implicit and not out:
        return None
    stamps = [s for s in (ours.get("updated"), theirs.get("updated")) if s]
    if stamps:
        out["updated"] = max(stamps, key=stamp_time)
    return out


# -- the store -----------------------------------------------------------------------------
@dataclass
class _Pending:
    """A record changed in memory and not yet on disk."""

    base: Record | None  # the record as the file held it when we changed it
    at: float  # when we last changed it
    version: int


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
        self._records: dict[str, Record] = {}
        self._fragments: dict[str, str] = {}
        self._pending: dict[str, _Pending] = {}
        self._counter = 0
        self._seen: tuple[int, int, int] | None = None  # the file as last read or written
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

    @property
    def seen(self) -> list[int] | None:
        """The identity (inode, mtime, size) of the file as last read or written."""
        return list(self._seen) if self._seen else None

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
                    if read is None:
                        return
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
        try:
            version, section, cached, records, fragments = marshal.loads(self.cache.read_bytes())
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
                    or self._seen is None or _identity_of(self.path) != self._seen):
                return
            if self._digest is None and self._written is not None:
                self._digest = _digest(self._written.encode("utf-8"))
            if self._digest is None:
                return
            blob = marshal.dumps((CACHE_VERSION, self.schema.section, self._digest,
                                  self._records, self._fragments))
            with contextlib.suppress(OSError):
                atomic.write_bytes(self.cache, blob)

    def get(self, key: str) -> Record | None:
        self.ensure_loaded()
        return self._records.get(key)

    def snapshot(self) -> dict[str, Record]:
        """Every record (a shallow copy of the mapping; records are never mutated)."""
        self.ensure_loaded()
        with self.lock:
            return dict(self._records)

    def __len__(self) -> int:
        self.ensure_loaded()
        return len(self._records)

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
                self._pending[key] = _Pending(old, at, self._counter)
            else:
                pending.at, pending.version = at, self._counter
            self.version += 1
            return True

    # -- disk ------------------------------------------------------------------------------
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
            try:
                self._file_lock.acquire()
            except filelock.Timeout:
                raise StoreError(f"{self.path}: another paper-tui has held the lock "
                                 f"{self._file_lock.lock_file} for {LOCK_TIMEOUT:.0f} s; "
                                 "changes are kept in memory") from None
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
                    seen = _identity(os.stat(self.path))
                except OSError as exc:
                    raise StoreError(f"{self.path}: cannot save ({exc.strerror or exc}); "
                                     "changes are kept in memory") from None
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
                return changes
            finally:
                self._file_lock.release()

    def _read(self) -> tuple[bytes, tuple[int, int, int]] | None:
        """The file's bytes and identity (read through one descriptor: they match)."""
        try:
            with open(self.path, "rb") as fh:
                return fh.read(), _identity(os.fstat(fh.fileno()))
        except FileNotFoundError:
            return None
        except OSError as exc:
            raise StoreError(f"{self.path}: cannot read ({exc.strerror or exc})") from None

    def _sync_from_disk(self) -> Changes:
        try:
            seen = _identity(os.stat(self.path))
        except FileNotFoundError:
            seen = None
        if seen == self._seen:
            return {}
        read = self._read()
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
                                  pending.at)
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
                parsed = parse(self.backup.read_text("utf-8"), self.backup, self.schema)
                self._records, self._fragments = parsed.records, {}
                self.version += 1
                backup = f"showing the backup {self.backup}"
        self.read_only_reason = (f"{exc}; {self.schema.title} are read-only until the file "
                                 f"is fixed ({backup})")

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


def _normal(field: Field, value: Any) -> Any:
    if field.kind in ("set", "sequence"):
        return unique([words(item) for item in value], fold=field.kind == "set")
    return value


def _digest(data: bytes) -> bytes:
    return hashlib.blake2b(data, digest_size=16).digest()


def _identity_of(path: Path) -> tuple[int, int, int] | None:
    try:
        return _identity(os.stat(path))
    except OSError:
        return None


def _decode(data: bytes, path: Path) -> str:
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        column = exc.start - (data.rfind(b"\n", 0, exc.start) + 1) + 1
        raise StoreError(f"{path}:{line}:{column}: not UTF-8 text") from None


def _identity(st: os.stat_result) -> tuple[int, int, int]:
    return (st.st_ino, st.st_mtime_ns, st.st_size)


def _without_stamp(record: Record | None) -> Record | None:
    if record is None:
        return None
    return {k: v for k, v in record.items() if k != "updated"}
