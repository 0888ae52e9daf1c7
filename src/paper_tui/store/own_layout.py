"""The fast reader: the layout the store writes itself, read line by line.

It yields exactly what the YAML reader (:mod:`.yaml_format`) would, or gives up (returns
None) and leaves the file to it: hand edits in another layout, and every error but one
record too many (:class:`TooManyRecords`), go through the YAML reader. It is kept because
it pays: an uncached load of the 20,000-record store (3.4 MB; ``python bench/annotations.py
--readers``, 2026-12-01, 3 runs of 10 interleaved rounds) takes 0.14 s of CPU (median wall
0.57 s at load average 10) with it and 0.31-0.34 s (1.2-1.35 s) with libyaml's events
alone, of which 0.14 s is libyaml making the events; a refresh after another process's save
and a merge save re-read the whole file the same way.

It accepts only: a comment header, ``version: N``, the section, then records of
``  "key":`` with ``    field: value``, ``    - item`` lists and literal blocks; plain scalars
without ``: ``, `` #`` or a leading indicator; quoted scalars on one line. Tests check it
against the YAML reader.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any

from paper_tui.store.schema import AWKWARD, NULLS, VERSION, Parsed, Record, Schema, convert


class _Bail(Exception):
    """Not the store's own layout: read it with the YAML parser."""


class TooManyRecords(Exception):
    """The file holds more records than its schema allows; ``line`` (from 1) is the first
    one too many. Raised, not left to the YAML reader, which would parse everything up to
    it again to name the same line (3 s for a team-mate's file of a million papers)."""

    def __init__(self, line: int) -> None:
        super().__init__(line)
        self.line = line


_KEY = re.compile(r'  "((?:[^"\\]|\\.)*)":')
_FIELD = re.compile(r"    ([a-z]+):(?: (.*))?")
_DOUBLE = re.compile(r'"((?:[^"\\]|\\.)*)"')
_SINGLE = re.compile(r"'((?:[^']|'')*)'")
_BLOCK = re.compile(r"\|(?:([1-9])(-)?|(-)([1-9])?)?")
_ESCAPE = re.compile(r"\\(x[0-9A-Fa-f]{2}|u[0-9A-Fa-f]{4}|U[0-9A-Fa-f]{8}|.)")
_ESCAPES = {"0": "\0", "a": "\a", "b": "\b", "t": "\t", "\t": "\t", "n": "\n", "v": "\v",
            "f": "\f", "r": "\r", "e": "\x1b", " ": " ", '"': '"', "/": "/", "\\": "\\",
            "N": "\x85", "_": "\xa0", "L": "\u2028", "P": "\u2029"}
_PLAIN_START = frozenset("-?:,[]{}#&*!|>'\"%@` ")


def read(text: str, schema: Schema) -> Parsed | None:
    """The records of a file in the store's own layout; None for anything else.
    :class:`TooManyRecords` when the records before the first one too many are all in it."""
    if not text.endswith("\n") or AWKWARD.search(text):
        return None
    try:
        return _read_lines(text.split("\n"), schema)
    except (_Bail, ValueError):
        return None


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
    return (None if text in NULLS else text), True


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


def _read_lines(lines: list[str], schema: Schema) -> Parsed:
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
            key, record, as_written, i = _record(lines, i, schema, whole)
            if key in records:
                raise _Bail  # the YAML reader names the line
            if len(records) == schema.max_records:
                raise TooManyRecords(start + 1)
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
    out: dict[str, tuple[str, Any, bool]] = {}
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


def _record(lines: list[str], i: int, schema: Schema,
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

