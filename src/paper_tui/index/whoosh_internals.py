"""Every use of Whoosh's private parts, behind one door.

The fast paths of the index (reading a posting block's bytes at once, writing a term's
postings a block at a time, reading a segment's field lengths in one go) use attributes and
classes that whoosh-reloaded does not promise to keep. They are all here, named by what they
do, so a Whoosh upgrade is checked in one module. It was written for whoosh-reloaded 2.7
(pyproject pins ``>=2.7.5,<2.8``) and refuses another version at import: the write side has
no public slow path, and writing with changed internals could corrupt an index. The read
side keeps the public fallbacks it has (an empty index's reader, a field-length column of
another codec).
"""

from __future__ import annotations

from array import array
from collections.abc import Iterator
from itertools import accumulate
from typing import Any, NamedTuple

import whoosh
from whoosh.codec.whoosh3 import (
    LENGTHS_COLUMN,
    W3FieldWriter,
    W3LeafMatcher,
    W3PostingsWriter,
    W3TermInfo,
    _lenfield,
)
from whoosh.reading import TermNotFound
from whoosh.writing import SegmentWriter

from paper_tui.errors import PaperTuiError

WRITTEN_FOR = (2, 7)
"""The whoosh-reloaded minor version whose internals this module reads and writes."""


class WhooshVersionError(PaperTuiError, ImportError):
    """The installed Whoosh is not the version this module was written for (a user's
    error to fix, so the fronts print it as one line)."""


def check_version(installed: tuple[int, ...]) -> None:
    """Refuse a Whoosh whose major/minor version differs from :data:`WRITTEN_FOR`."""
    if tuple(installed[:2]) != WRITTEN_FOR:
        expected = ".".join(map(str, WRITTEN_FOR))
        raise WhooshVersionError(
            f"paper-tui needs whoosh-reloaded {expected}.x (it reads and writes Whoosh's "
            f"index internals), but {'.'.join(map(str, installed))} is installed: run "
            f"pip install 'whoosh-reloaded>={expected}.5,<2.8'")


check_version(whoosh.__version__)


# -- reading --------------------------------------------------------------------------------
def term_matcher(reader, fieldname: str, btext: bytes):
    """The postings matcher of one term in one segment, deletions not filtered (None when
    the segment lacks the term): one hash lookup in the segment's term table, and no block
    read yet (Whoosh's ``reader.postings`` looks the term up twice and, wrapped for
    deletions, reads and unpickles the first block whole, positions included)."""
    terms = getattr(reader, "_terms", None)  # an empty index's reader has none
    if terms is None:
        return None
    try:
        return terms.matcher(fieldname, btext, reader.schema[fieldname].format)
    except TermNotFound:
        return None


def postings_file(reader):
    """The open postings file of a segment's reader (``get(offset, length)`` reads it)."""
    return reader._terms._postfile


def is_block_matcher(matcher: Any) -> bool:
    """Whether ``matcher`` reads posting blocks from the postings file (not postings
    inlined in the term info), i.e. whether :func:`posting_blocks` can walk it."""
    return type(matcher) is W3LeafMatcher


class RawBlock(NamedTuple):
    """One posting block as stored: its pickled ``(ids, weights, values)`` tuple."""

    data: bytes  # the pickle, zlib-compressed when ``compressed``
    compressed: bool
    length: int  # postings in the block
    byteids: bool  # ids are stored as they are (term vectors), not as gaps
    start: int  # where ``data`` is in the postings file
    end: int


def posting_blocks(matcher: W3LeafMatcher) -> Iterator[RawBlock]:
    """The blocks of a block matcher (:func:`is_block_matcher`), first to last, read
    without unpickling (the matcher is moved along; it is spent afterwards)."""
    m = matcher
    while not m._atend:
        start, end = m._dataoffset, m._nextoffset
        yield RawBlock(m._postfile.get(start, end - start), bool(m._compression),
                       m._blocklength, bool(m._byteids), start, end)
        if m._lastblock:
            break
        m._goto(m._nextoffset)


def length_bytes(reader, fieldname: str) -> bytes:
    """The per-document field lengths Whoosh keeps, one byte per document (see
    ``byte_to_length``), read in one go instead of one column lookup per document."""
    count = reader.doc_count_all()
    perdoc = getattr(reader, "_perdoc", None)
    name = _lenfield(fieldname)
    if perdoc is None or not perdoc.has_column(name):
        return bytes(count)
    column = perdoc.column_reader(name, LENGTHS_COLUMN)
    try:  # the column is a plain run of bytes; documents after the last are 0
        raw = column._dbfile.get(column._basepos, column._count)
        return bytes(raw) + bytes(count - len(raw))
    except AttributeError:  # another codec: the slow, public way
        return bytes(column)


def fixed_column_bytes(reader, fieldname: str, column, size: int, default: bytes) -> bytes:
    """A fixed-width column's values (``size`` bytes each, ``default`` for a document
    without one) of every document of a segment, read in one go instead of one lookup per
    document; a segment without the column gives ``default`` for each."""
    count = reader.doc_count_all()
    perdoc = getattr(reader, "_perdoc", None)
    if perdoc is None or not perdoc.has_column(fieldname):
        return default * count
    values = perdoc.column_reader(fieldname, column)
    try:  # a run of values; the documents after the last value written have none
        raw = bytes(values._dbfile.get(values._basepos, values._count * size))
    except AttributeError:  # another codec: the slow, public way
        raw = b"".join(values[d] for d in range(count))
    return raw + default * (count - len(raw) // size)


def text_column_values(reader, fieldname: str) -> list[str]:
    """A variable-width text column's values (UTF-8; "" for a document without one) of
    every document of a segment, read in one go and split, instead of a file read per
    document (a million ids: ~0.2 s instead of ~3 s)."""
    column = reader.column_reader(fieldname, translate=False)
    try:
        lengths = column._lengths
        data = bytes(column._dbfile.get(column._basepos, sum(lengths)))
    except AttributeError:  # another codec: the slow, public way
        return list(reader.column_reader(fieldname))
    values, start = [], 0
    for end in accumulate(lengths):
        values.append(data[start:end].decode())
        start = end
    return values


# -- writing --------------------------------------------------------------------------------
TERMINFO = W3TermInfo._struct
"""The struct of a term info's fixed part (flags, weight, doc frequency, lengths, max
weight, min and max id), as ``W3TermInfo.to_bytes`` packs it."""


def codec_arguments(codec) -> tuple[int, int, int]:
    """``(blocklimit, compression, inlinelimit)``: what rebuilds ``codec`` as a
    ``W3Codec``."""
    return codec._blocklimit, codec._compression, codec._inlinelimit


class FieldFiles(NamedTuple):
    """Where a field writer puts the field being written."""

    postfile: Any  # the postings file (``tell``/``write``)
    terms: Any  # the term table (``add(key, terminfo)``)
    prefix: int  # the field's number, which prefixes its keys in the term table
    blocklimit: int  # postings per block


class _Pairs:
    """One of the 256 buckets of a term table being written: the ``(hash, position)`` of
    each term, in two arrays (12 bytes a term) instead of Whoosh's list of tuples (~120
    bytes a term). A segment has a few terms a paper of its own (its id, its exact title),
    so a million-paper import held 100+ MB of them until the table was written. Whoosh
    appends pairs, takes the length and iterates, the same as with its list."""

    __slots__ = ("hashes", "positions")

    def __init__(self) -> None:
        self.hashes = array("I")  # crc32, as Whoosh's table hashes keys
        self.positions = array("q")

    def append(self, pair: tuple[int, int]) -> None:
        self.hashes.append(pair[0])
        self.positions.append(pair[1])

    def __len__(self) -> int:
        return len(self.hashes)

    def __iter__(self) -> Iterator[tuple[int, int]]:
        return zip(self.hashes, self.positions, strict=True)


def field_files(fieldwriter: W3FieldWriter) -> FieldFiles:
    """The files a ``W3FieldWriter`` writes the current field's terms to (after its
    ``start_field``); its term table keeps its terms' places compactly (:class:`_Pairs`)."""
    postwriter = fieldwriter._postwriter
    if not isinstance(postwriter, W3PostingsWriter):
        raise TypeError(f"unexpected posting writer {postwriter!r}")
    table = fieldwriter._tindex
    if not isinstance(table.buckets[0], _Pairs):
        if any(table.buckets):
            raise TypeError("the term table was written to before it was made compact")
        table.buckets = [_Pairs() for _ in range(256)]
    return FieldFiles(fieldwriter._postfile, fieldwriter._tindex, fieldwriter._fieldid,
                      postwriter._blocklimit)


def mark_added(writer: SegmentWriter) -> None:
    """Tell a segment writer a document was added without its ``add_document`` (else its
    commit writes no segment)."""
    writer._added = True
