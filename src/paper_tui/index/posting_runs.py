"""Posting runs: the writer's buffer flushed to disk at a fixed size, merged back at commit.

An import used to hold every posting of every paper until its one commit (about 4 KB a
paper: 4 GB for a million). Now the buffer is written out, sorted by field and term, each
time it holds :data:`RUN_POSTINGS` postings, as a *run* in an anonymous temporary file
beside the index (gone with the process, however it ends); at commit the runs and what is
still in memory are merged term by term into the one segment, which is the same file, byte
for byte, as without runs. The memory is then one run's buffer plus one term's postings,
whatever the size of the import.

Documents are numbered in the order they are added, so a term's postings in an earlier run
all come before its postings in a later one: the merge concatenates them, in run order.

A run's record, per term (native byte order: the file never leaves the process)::

    field name size (B), term size (H), postings (I), values' size (I)
    field name, term, document numbers (uint32), weights (float32), value sizes (uint32),
    the values joined
"""

from __future__ import annotations

import heapq
import io
import struct
import tempfile
from array import array
from collections.abc import Iterable, Iterator, Mapping
from itertools import groupby
from operator import itemgetter
from typing import IO

RUN_POSTINGS = 3_000_000
"""Postings the writer holds before it writes them out as a run: ~150 MB of buffer (a
paper's title, abstract, names and venue are ~170 postings: a run every ~18,000 papers)."""

WRITE_BUFFER = 1 << 20
READ_BUFFER = 64 << 10
"""The merge at commit reads every run at once: its buffer is per run (1 MB each was
55 MB at a million papers)."""

_RECORD = struct.Struct("=BHII")

Buffered = list
"""One term's postings in the writer's buffer, ``[docs, weights, values]``: document
numbers (array "I"), weights (array "f"), and each posting's encoded value (bytes)."""

Joined = tuple[array, array, array, bytes]
"""One term's postings as a run keeps them: document numbers ("I"), weights ("f"), each
value's size ("I"), and the values joined."""

Record = tuple[str, bytes, Joined]


def joined(postings: Buffered) -> Joined:
    docs, weights, values = postings
    if None in values:  # a format without values (Whoosh's own merge gives None)
        values = [v or b"" for v in values]
    return docs, weights, array("I", map(len, values)), b"".join(values)


def write_run(fields: Mapping[str, Mapping[bytes, Buffered]], folder: str | None) -> IO[bytes]:
    """Write a buffer's postings, by field then term, to a new anonymous file in
    ``folder`` (None: the system's temporary folder); the file, at its start."""
    # the caller owns the file: it is the run, closed when the segment is written
    raw = tempfile.TemporaryFile(dir=folder, prefix="postings-", buffering=0)  # noqa: SIM115
    fh = io.BufferedWriter(raw, WRITE_BUFFER)
    write, pack = fh.write, _RECORD.pack
    for fieldname in sorted(fields):
        name = fieldname.encode()
        terms = fields[fieldname]
        for tbytes in sorted(terms):
            docs, weights, sizes, blob = joined(terms[tbytes])
            write(pack(len(name), len(tbytes), len(docs), len(blob)))
            write(name)
            write(tbytes)
            write(docs)
            write(weights)
            write(sizes)
            write(blob)
    fh.flush()
    fh.detach()
    raw.seek(0)
    # read back with a small buffer: a million papers make ~55 runs, all open at once
    return io.BufferedReader(raw, READ_BUFFER)


def read_run(fh: IO[bytes]) -> Iterator[Record]:
    """The records of a run, in its order (field, then term)."""
    read, unpack, head = fh.read, _RECORD.unpack, _RECORD.size
    names: dict[bytes, str] = {}
    while record := read(head):
        name_size, term_size, count, values_size = unpack(record)
        body = memoryview(read(name_size + term_size + 12 * count + values_size))
        at = name_size + term_size
        name = bytes(body[:name_size])
        fieldname = names.get(name) or names.setdefault(name, name.decode())
        docs, weights, sizes = array("I"), array("f"), array("I")
        docs.frombytes(body[at:at + 4 * count])
        weights.frombytes(body[at + 4 * count:at + 8 * count])
        sizes.frombytes(body[at + 8 * count:at + 12 * count])
        yield fieldname, bytes(body[name_size:at]), \
            (docs, weights, sizes, bytes(body[at + 12 * count:]))


def merged(runs: Iterable[Iterator[Record]]) -> Iterator[Record]:
    """The records of ``runs`` (each in field-then-term order, the runs in the order their
    documents were added) as one: a term in several runs has its postings concatenated."""
    key = itemgetter(0, 1)
    for (fieldname, tbytes), group in groupby(heapq.merge(*runs, key=key), key=key):
        parts = [record[2] for record in group]
        if len(parts) == 1:
            yield fieldname, tbytes, parts[0]
            continue
        parts.sort(key=lambda part: part[0][0])  # documents in the order they were added
        docs, weights, sizes = array("I"), array("f"), array("I")
        for part in parts:
            docs.extend(part[0])
            weights.extend(part[1])
            sizes.extend(part[2])
        blob = b"".join(p[3] for p in parts)
        parts.clear()  # not held beside the whole while it is written (a million postings)
        yield fieldname, tbytes, (docs, weights, sizes, blob)


def in_memory(fields: Mapping[str, Mapping[bytes, Buffered]]) -> Iterator[Record]:
    """A buffer's postings in a run's order, as records."""
    for fieldname in sorted(fields):
        terms = fields[fieldname]
        for tbytes in sorted(terms):
            yield fieldname, tbytes, joined(terms[tbytes])
