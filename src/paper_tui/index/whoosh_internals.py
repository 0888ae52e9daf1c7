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

import tempfile
import weakref
from array import array
from collections.abc import Iterable, Iterator
from itertools import accumulate
from typing import IO, Any, NamedTuple

import whoosh
from whoosh.codec.whoosh3 import (
    LENGTHS_COLUMN,
    W3FieldWriter,
    W3LeafMatcher,
    W3PerDocWriter,
    W3PostingsWriter,
    W3TermInfo,
    _lenfield,
)
from whoosh.columns import VarBytesColumn, WrappedColumnWriter
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
    values = bytes_column_values(reader, fieldname)
    return [v.decode() for v in values] if values is not None \
        else list(reader.column_reader(fieldname))


def bytes_column_values(reader, fieldname: str) -> list[bytes] | None:
    """A variable-width column's raw values (``b""`` for a document without one) of every
    document of a segment, read in one go and split (the sort and version keys of a
    million papers: ~0.3 s instead of ~4 s); None for another codec's column."""
    column = reader.column_reader(fieldname, translate=False)
    try:
        lengths = column._lengths
        data = bytes(column._dbfile.get(column._basepos, sum(lengths)))
    except AttributeError:
        return None
    values, start = [], 0
    for end in accumulate(lengths):
        values.append(data[start:end])
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
    return FieldFiles(fieldwriter._postfile, table, fieldwriter._fieldid,
                      postwriter._blocklimit)


class SpilledNumbers:
    """Stands in for the ``GrowableArray`` (no longs) in which Whoosh's variable-size
    column writer keeps each document's value size and offset until the segment is
    written: the numbers go to an anonymous temporary file a block at a time, so four such
    columns (the stored fields, id, sort and version keys) no longer hold ~21 bytes a paper
    through a whole import (21 MB at a million). At the commit, :attr:`array` is the
    narrowest array that holds them all, as Whoosh's would be, and later numbers are
    appended to it (Whoosh takes the array, then fills the last documents' sizes)."""

    BLOCK = 1 << 16

    def __init__(self, values: Iterable[int] = ()) -> None:
        self._file: IO[bytes] | None = None
        self._finalizer: weakref.finalize | None = None
        self._block = array("Q")
        self._spilled = 0
        self._max = 0
        self._live: array | None = None
        self.extend(values)

    def __len__(self) -> int:
        return len(self._live) if self._live is not None else self._spilled + len(self._block)

    def __iter__(self) -> Iterator[int]:
        return iter(self.array)

    def append(self, n: int) -> None:
        if self._live is not None:
            try:
                self._live.append(n)
            except OverflowError:
                self._live = array(_narrowest(max(n, *self._live)), self._live)
                self._live.append(n)
            return
        self._block.append(n)
        self._max = max(self._max, n)
        if len(self._block) >= self.BLOCK:
            if self._file is None:
                self._file = tempfile.TemporaryFile(prefix="paper-tui-column-")  # noqa: SIM115
                self._finalizer = weakref.finalize(self, self._file.close)
            self._block.tofile(self._file)
            self._spilled += len(self._block)
            self._block = array("Q")

    def extend(self, numbers: Iterable[int]) -> None:
        for n in numbers:
            self.append(n)

    @property
    def array(self) -> array:
        if self._live is None:
            values = array("Q")
            if self._file is not None and self._finalizer is not None:
                self._file.seek(0)
                values.fromfile(self._file, self._spilled)
                self._finalizer()  # closes the file
                self._file = None
            values.extend(self._block)
            self._block = array("Q")
            self._live = array(_narrowest(self._max), values)
        return self._live

    @property
    def typecode(self) -> str:
        return self.array.typecode


def _narrowest(top: int) -> str:
    """The type code Whoosh's ``GrowableArray`` (no longs) ends with for numbers up to
    ``top``."""
    for code, limit in (("B", 1 << 8), ("H", 1 << 16), ("i", 1 << 31), ("I", 1 << 32)):
        if top < limit:
            return code
    raise OverflowError(f"{top!r} is too big to fit in an array")


def spill_columns(writer: SegmentWriter) -> None:
    """Keep the per-document numbers of the writer's variable-size columns on disk until
    the commit (:class:`SpilledNumbers`): the columns made so far and those made later."""
    perdoc = writer.perdocwriter
    if not isinstance(perdoc, W3PerDocWriter):
        raise TypeError(f"unexpected per-document writer {perdoc!r}")
    for column_writer in perdoc._colwriters.values():
        _spill(column_writer)
    create = perdoc._create_column

    def create_spilled(fieldname: str, column: Any) -> None:
        create(fieldname, column)
        _spill(perdoc._colwriters[fieldname])

    perdoc._create_column = create_spilled


def _spill(column_writer: Any) -> None:
    while isinstance(column_writer, WrappedColumnWriter):
        column_writer = column_writer._child
    if isinstance(column_writer, VarBytesColumn.Writer):
        column_writer._lengths = SpilledNumbers(column_writer._lengths.array)
        column_writer._offsets = SpilledNumbers(column_writer._offsets.array)


def mark_added(writer: SegmentWriter) -> None:
    """Tell a segment writer a document was added without its ``add_document`` (else its
    commit writes no segment)."""
    writer._added = True
