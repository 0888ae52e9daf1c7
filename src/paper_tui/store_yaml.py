"""The layout of the store's YAML files: the schema of a record, reading and writing.

Reading turns the C parser's events into records directly (composing nodes and
constructing objects is ~8x slower) and reports file:line:column for every error; the
layout the store writes itself is read line by line, faster still. Writing emits records
with libyaml and cuts the text into one fragment per record, so a save only emits the
records that changed.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

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

from paper_tui.errors import StoreError

try:  # libyaml: ~15x faster than the pure-Python parser and emitter
    from yaml import CSafeDumper as Dumper
    from yaml import CSafeLoader as Loader
except ImportError:  # pragma: no cover - the same YAML, only slower
    from yaml import SafeDumper as Dumper  # type: ignore[assignment]
    from yaml import SafeLoader as Loader  # type: ignore[assignment]

VERSION = 1
Record = dict[str, Any]

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
