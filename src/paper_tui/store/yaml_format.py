"""The store's files as YAML: reading with libyaml's events, writing with its emitter.

Reading turns the C parser's events into records directly (composing nodes and
constructing objects is ~8x slower) and reports file:line:column for every error; the
layout the store writes itself goes through the faster :mod:`.own_layout` reader first.
Writing emits records with libyaml and cuts the text into one fragment per record, so a
save only emits the records that changed.
"""

from __future__ import annotations

from collections.abc import Generator, Mapping
from functools import lru_cache
from pathlib import Path
from typing import Any, cast

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
from paper_tui.query import ranges
from paper_tui.store.own_layout import TooManyRecords
from paper_tui.store.own_layout import read as read_own_layout
from paper_tui.store.schema import (
    AWKWARD,
    NULLS,
    VERSION,
    Field,
    Parsed,
    Record,
    Schema,
    convert,
    words,
)

try:  # libyaml: ~15x faster than the pure-Python parser and emitter
    from yaml import CSafeDumper as Dumper
    from yaml import CSafeLoader as Loader
except ImportError:  # pragma: no cover - the same YAML, only slower
    # Must stay: mypy types a name by its first import (libyaml's classes); the pure-Python
    # ones are other classes with the same API, and a union of the two could not be a base
    # class (export's YAML dumper subclasses Dumper).
    from yaml import SafeDumper as Dumper  # type: ignore[assignment]
    from yaml import SafeLoader as Loader  # type: ignore[assignment]

_ODD_BREAKS = ("\r", "\x85", "\u2028", "\u2029")  # line breaks to YAML, not to str.split("\n")


# -- reading -------------------------------------------------------------------------------
def parse(text: str, path: Path, schema: Schema) -> Parsed:
    """Records from a file's text; :class:`StoreError` naming file:line:column if invalid.

    The store's own layout is read line by line (:mod:`.own_layout`, twice as fast);
    anything else, and every error but one record too many, goes through the YAML parser."""
    try:
        return read_own_layout(text, schema) or read_yaml(text, path, schema)
    except TooManyRecords as exc:  # the key's column: 3, as the YAML reader says it
        raise StoreError(f"{path}:{exc.line}:3: {too_many(schema)}") from None


def too_many(schema: Schema) -> str:
    """What a file over :attr:`Schema.max_records` is told, by either reader."""
    return f"more than {schema.max_records:,} records, the most this file may hold"


def read_yaml(text: str, path: Path, schema: Schema) -> Parsed:
    """Records from any YAML text, through libyaml's events."""
    return _Reader(text, path, schema).read()


class _Reader:
    """Schema-driven reader over the parser's events, reporting file:line:column."""

    def __init__(self, text: str, path: Path, schema: Schema) -> None:
        self.path = path
        self.schema = schema
        self.text = text
        # a generator (typeshed says Iterator): closed when the reading ends
        self.events = cast(Generator[Event, None, None], yaml.parse(text, Loader=Loader))
        self.records: dict[str, Record] = {}
        # (key, first line, reusable) per record in file order, to cut the text into fragments
        self.spans: list[tuple[str, int, bool]] = []
        self.end_line = 0

    def fail(self, event: Event, message: str) -> StoreError:
        mark = event.start_mark  # the parser marks every event it makes
        where = f"{self.path}:{mark.line + 1}:{mark.column + 1}" if mark else str(self.path)
        return StoreError(f"{where}: {message}")

    def next(self) -> Event:
        event = next(self.events)
        if isinstance(event, AliasEvent):
            raise self.fail(event, "anchors and aliases (&name, *name) are not supported here")
        return event

    @staticmethod
    def is_null(event: Event) -> bool:
        return isinstance(event, ScalarEvent) and not event.style and event.value in NULLS

    def read(self) -> Parsed:
        try:
            self.document()
        except yaml.MarkedYAMLError as exc:
            mark = exc.problem_mark or exc.context_mark
            where = f"{self.path}:{mark.line + 1}:{mark.column + 1}" if mark else str(self.path)
            raise StoreError(f"{where}: not valid YAML: {exc.problem or exc.context}") from None
        except yaml.YAMLError as exc:
            raise StoreError(f"{self.path}: not valid YAML: {words(str(exc))}") from None
        finally:  # a parser left suspended would run again whenever gc finalizes it
            self.events.close()
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
        text = event.value if isinstance(event, ScalarEvent) else ""
        if not (text.isascii() and text.isdigit()):  # not ², not -1
            raise self.fail(event, "version must be a whole number")
        try:
            ranges.whole(text, 0, VERSION)
        except ranges.OutOfRange:  # any number of digits
            raise self.fail(event, f"version {ranges.shown(text)} was written by a newer "
                                   f"paper-tui (this one reads version {VERSION})") from None

    def section(self) -> None:
        event = self.next()
        if self.is_null(event):
            return
        if not isinstance(event, MappingStartEvent):
            raise self.fail(event, f"'{self.schema.section}' must map each "
                                   f"{self.schema.what} to its fields")
        while True:
            event = self.next()
            mark = event.start_mark
            assert mark is not None  # the parser marks every event it makes
            if isinstance(event, MappingEndEvent):
                self.end_line = mark.line
                return
            key = self.key(event, self.schema.what)
            assert isinstance(event, ScalarEvent)  # key() took nothing else
            if key in self.records:
                raise self.fail(event, f"{self.schema.what} {key!r} appears twice")
            if len(self.records) == self.schema.max_records:
                raise self.fail(event, too_many(self.schema))
            record, as_written = self.record(key)
            self.records[key] = record
            self.spans.append((key, mark.line,
                               as_written and event.style == '"' and mark.column == 2))

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
            return convert(field, raw,
                           plain=not event.style if isinstance(event, ScalarEvent) else True)
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


# -- writing -------------------------------------------------------------------------------
_RESOLVER = yaml.resolver.Resolver()


@lru_cache(maxsize=65536)
def _plain_is_string(text: str) -> bool:
    """False when ``text`` written plain would read back as something else (2024, yes)."""
    return _RESOLVER.resolve(yaml.ScalarNode, text, (True, False)) == "tag:yaml.org,2002:str"


def _literal_fits(text: str) -> bool:
    """A literal block (``|``) shows ``text`` as is. Not with spaces at a line's end:
    libyaml then writes a block that runs into the next key."""
    return ("\n" in text and not AWKWARD.search(text)
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
