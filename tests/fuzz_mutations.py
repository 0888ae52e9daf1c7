"""Seeded mutations of the real sample files, for the import fuzz test: each makes a file
that is broken the way real files break (cut short, bytes flipped, bad UTF-8, an odd
encoding, deep nesting, fields of the wrong type, huge fields, a damaged gzip, …)."""

from __future__ import annotations

import gzip
import json
import random
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

from paper_tui import paths

DATA = Path(__file__).parent / "data"
FORMATS = DATA / "formats"
MAX_SAMPLE = 40_000
"""Bytes of a sample kept (at a record's end where the format allows): small files keep
the fuzz test quick; what breaks a parser breaks it in the first records too."""


@dataclass(frozen=True)
class Sample:
    name: str
    data: bytes

    @property
    def is_json(self) -> bool:
        return self.name.endswith((".json", ".jsonl", ".csljson"))

    @property
    def is_xml(self) -> bool:
        return self.name.endswith((".xml", ".atom"))


def _cut(name: str, data: bytes) -> bytes:
    """The sample cut to about :data:`MAX_SAMPLE` bytes, still a whole file of its format."""
    if len(data) <= MAX_SAMPLE:
        return data
    if name.endswith(".jsonl"):
        return b"".join(data.splitlines(keepends=True)[:40])[:MAX_SAMPLE * 2]
    if name.endswith(".json"):
        records = json.loads(data)
        while len(json.dumps(records)) > MAX_SAMPLE and len(records) > 2:
            records = records[: len(records) // 2]
        return json.dumps(records, indent=1, ensure_ascii=False).encode()
    return data


def samples() -> list[Sample]:
    """Every sample in ``tests/data`` (and ``formats/``), cut small."""
    found = []
    bundled = sorted(paths.bundled_data_dir().glob("*.txt"))[:1]
    for path in sorted([*DATA.glob("*"), *FORMATS.glob("*"), *bundled]):
        if path.is_file() and path.suffix != ".md" and not path.name.endswith(".gz"):
            found.append(Sample(path.name, _cut(path.name, path.read_bytes())))
    return found


# -- the mutations ---------------------------------------------------------------------------
Mutation = Callable[[random.Random, Sample], tuple[str, bytes]]


def truncate(rng: random.Random, s: Sample) -> tuple[str, bytes]:
    return s.name, s.data[: rng.randrange(1, max(2, len(s.data)))]


def flip_bytes(rng: random.Random, s: Sample) -> tuple[str, bytes]:
    data = bytearray(s.data)
    for _ in range(rng.choice((1, 3, 20))):
        data[rng.randrange(len(data))] = rng.randrange(256)
    return s.name, bytes(data)


_BAD_UTF8 = (b"\xff", b"\xc3", b"\xed\xa0\x80", b"\xc0\xaf", b"\xf4\x90\x80\x80", b"\x80\x80",
             b"\x00", b"\x1b]0;title\x07")


def bad_utf8(rng: random.Random, s: Sample) -> tuple[str, bytes]:
    data = s.data
    for _ in range(rng.choice((1, 4))):
        at = rng.randrange(len(data))
        data = data[:at] + rng.choice(_BAD_UTF8) + data[at:]
    return s.name, data


_ENCODINGS = ("idna", "punycode", "utf-16", "utf-32", "utf-7", "cp037", "latin-1",
              "shift_jis", "bogus-8", "rot13", "hex")


def encoding(rng: random.Random, s: Sample) -> tuple[str, bytes]:
    """An XML declaration naming an odd encoding; any file re-encoded (UTF-16 with and
    without a BOM, Latin-1, cp1252, …)."""
    name = rng.choice(_ENCODINGS)
    if s.is_xml and rng.random() < 0.7:
        data, n = re.subn(rb"encoding=[\"'][^\"']*[\"']", f'encoding="{name}"'.encode(),
                          s.data, count=1)
        if not n:
            data = f'<?xml version="1.0" encoding="{name}"?>\n'.encode() + s.data
        return s.name, data
    text = s.data.decode("utf-8", errors="replace")
    codec = rng.choice(("utf-16", "utf-16-le", "utf-32", "latin-1", "cp1252", "utf-8-sig"))
    return s.name, text.encode(codec, errors="replace")


def deep_nesting(rng: random.Random, s: Sample) -> tuple[str, bytes]:
    depth = rng.choice((500, 5_000, 100_000))
    if s.is_json:
        opened, closed = b"[" * depth, b"]" * depth
        if rng.random() < 0.5:
            opened, closed = b'{"a":' * depth + b"1", b"}" * depth
    elif s.is_xml:
        opened, closed = b"<a>" * depth, b"</a>" * depth
    else:
        opened, closed = b"{" * depth, b"}" * depth
    colons = [m.end() for m in re.finditer(rb": ?", s.data)] or [len(s.data) // 2]
    at = rng.choice(colons)
    if s.is_xml:
        tags = [m.end() for m in re.finditer(rb"<(?:title|summary|author)>", s.data)]
        at = rng.choice(tags or [at])
    if s.is_json and rng.random() < 0.3:
        return s.name, opened + closed  # the whole file
    return s.name, s.data[:at] + opened + closed + s.data[at:]


_WRONG = (5, -1, 0, 1e300, float("nan"), float("inf"), True, False, None, [], {}, [[1]],
          {"a": [1]}, [5, None], "", 10**30, 2018.5, "\ud800", "x" * 150_000, "nineteen",
          [{"family": 5}], {"date-parts": [[{"x": 1}]]}, {"value": 5}, {"value": [1, {}]})
_KEYS = ("title", "abstract", "author", "authors", "year", "venue", "url", "site", "pdf",
         "keywords", "keyword", "bibtex", "tldr", "track", "status", "decision", "issued",
         "container-title", "DOI", "URL", "custom", "id", "forum", "cdate", "pdate",
         "content", "notes", "event", "literal", "given", "family", "date-parts")


def _records(value: object) -> list[dict]:
    """The dicts in a JSON value (notes, their content, CSL authors …), a few levels down."""
    found: list[dict] = []
    todo = [(value, 0)]
    while todo:
        item, depth = todo.pop()
        if depth > 4:
            continue
        if isinstance(item, dict):
            found.append(item)
            todo += [(v, depth + 1) for v in item.values()]
        elif isinstance(item, list):
            todo += [(v, depth + 1) for v in item]
    return found


def wrong_types(rng: random.Random, s: Sample) -> tuple[str, bytes]:
    """A field set to a value of another type (a number, a bool, NaN, an object …)."""
    if not s.is_json:
        return flip_bytes(rng, s)
    lines = s.data.splitlines() if s.name.endswith(".jsonl") else [s.data]
    which = rng.randrange(len(lines))
    try:
        value = json.loads(lines[which])
    except ValueError:
        return flip_bytes(rng, s)
    records = _records(value)
    for _ in range(rng.choice((1, 2, 5))):
        if not records:
            value = rng.choice(_WRONG)
            break
        record = rng.choice(records)
        key = rng.choice([*record, *_KEYS]) if record else rng.choice(_KEYS)
        record[key] = rng.choice(_WRONG)
    lines[which] = json.dumps(value).encode()  # NaN, Infinity written as JSON5-ish literals
    return s.name, b"\n".join(lines) + b"\n"


_HUGE = ("x", "*", "\\", "$", "{", "_", "(", "A-", "a. ", "We propose X ", "\u00e9",
         "\u2028", "&amp;", "TY  - ", "\t", ",", '"')


def huge_field(rng: random.Random, s: Sample) -> tuple[str, bytes]:
    """A field of up to 300,000 characters (or a run of them where any text goes)."""
    piece = rng.choice(_HUGE)
    run = piece * (rng.choice((20_000, 120_000, 300_000)) // len(piece))
    if s.is_json:
        run = json.dumps(run)[1:-1]
    elif s.is_xml:
        run = run.replace("&", "&amp;").replace("<", "&lt;")
    quotes = [m.end() for m in re.finditer(rb'": "', s.data)] or [len(s.data) // 2]
    at = rng.choice(quotes)
    return s.name, s.data[:at] + run.encode() + s.data[at:]


def corrupt_gzip(rng: random.Random, s: Sample) -> tuple[str, bytes]:
    packed = bytearray(gzip.compress(s.data))
    how = rng.random()
    if how < 0.4:
        packed = packed[: rng.randrange(1, len(packed))]
    else:
        for _ in range(rng.choice((1, 5))):
            packed[rng.randrange(len(packed))] = rng.randrange(256)
    if how > 0.9:
        packed += b"trailing garbage"
    return s.name + ".gz", bytes(packed)


def line_ends(rng: random.Random, s: Sample) -> tuple[str, bytes]:
    """CR-only (old Mac), CRLF, or mixed line ends; U+2028 in text."""
    data = s.data.replace(b"\r\n", b"\n")
    ending = rng.choice((b"\r", b"\r\n", b"\n\r", "\u2028".encode()))
    if rng.random() < 0.5:
        return s.name, data.replace(b"\n", ending)
    lines = data.split(b"\n")
    return s.name, b"".join(line + rng.choice((b"\n", ending)) for line in lines)


_XML_BITS = (b"&", b"&foo;", b"&#0;", b"&#xD800;", b"<", b"]]>", b"</entry>", b"<entry>",
             b"<![CDATA[", b"&#99999999;", b"<!-- -", b"\x0c")
_BOMB = (b'<?xml version="1.0"?>\n<!DOCTYPE lolz [<!ENTITY lol "lol">'
         + b"".join(b'<!ENTITY lol%d "%s">' % (i, (b"&lol%d;" % (i - 1) if i > 1 else b"&lol;")
                                                     * 10) for i in range(1, 10))
         + b"]>\n")


def markup(rng: random.Random, s: Sample) -> tuple[str, bytes]:
    """XML: an entity, a bare ``&``, a stray tag, an entity bomb; JSON: a surrogate escape,
    a huge number; any: a NUL."""
    data = s.data
    if s.is_xml and rng.random() < 0.15:
        body = data.split(b"?>", 1)[-1]
        return s.name, _BOMB + body.replace(b"<title>", b"<title>&lol9;", 1)
    if s.is_json:
        bit = rng.choice((b"\\ud800", b"\\udfff", b"\\ud83d", b"1" + b"0" * 5000, b"\\u0000",
                          b"NaN", b"-Infinity", b"1e999"))
        spots = [m.end() for m in re.finditer(rb'": "', data)] or [1]
        if bit[:1].isdigit() or bit[:1] in b"N-":
            spots = [m.end() for m in re.finditer(rb'": ', data)] or [1]
            at = rng.choice(spots)
            end = data.find(b",", at)
            return s.name, data[:at] + bit + (data[end:] if end > 0 else data[at:])
        at = rng.choice(spots)
        return s.name, data[:at] + bit + data[at:]
    bits = _XML_BITS if s.is_xml else (b"\x00", b"&", b"\x1b[2J", b"@", b"TY  - ", b"ER  - ")
    for _ in range(rng.choice((1, 3))):
        at = rng.randrange(len(data))
        data = data[:at] + rng.choice(bits) + data[at:]
    return s.name, data


MUTATIONS: tuple[Mutation, ...] = (truncate, flip_bytes, bad_utf8, encoding, deep_nesting,
                                   wrong_types, huge_field, corrupt_gzip, line_ends, markup)


def mutants(seed: int, count: int, folder: Path, start: int = 0
            ) -> Iterator[tuple[Path, str]]:
    """``count`` mutated files written into ``folder`` (each with a name of its own), and
    how each was made: file ``n`` (from ``start``) is sample ``n % S`` under mutation
    ``(n // S + n % S) % M``, so any ``S * M`` files in a row make every pair once; the
    details are drawn from ``seed``."""
    rng = random.Random(seed)
    pool = samples()
    folder.mkdir(parents=True, exist_ok=True)
    for number in range(start, start + count):
        sample = pool[number % len(pool)]
        mutation = MUTATIONS[(number // len(pool) + number % len(pool)) % len(MUTATIONS)]
        name, data = mutation(rng, sample)
        stem, _, extensions = name.partition(".")  # the name's venue and year stay first
        path = folder / f"{stem}-{number:04d}.{extensions}"
        path.write_bytes(data)
        yield path, f"{mutation.__name__} of {sample.name}"
