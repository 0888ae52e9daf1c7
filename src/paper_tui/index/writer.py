"""Writing the index: Whoosh's segment writer, with its posting pool replaced.

Whoosh's ``SegmentWriter`` hands every posting, as one tuple, to a ``PostingPool`` (an
external merge sort in pure Python), and at commit feeds them one by one to the codec's
posting writer. For an import of 87,549 papers that was most of the time. Here postings
are kept per term, in arrays, already in document order (document numbers only grow
within a writer), and each term's posting list goes to the codec's writer a block at a
time. The files are the ones Whoosh writes, byte for byte (a test compares them), except
that a posting block's parts are packed (``packed.py``): Whoosh's readers read them as
they read their own.
"""

from __future__ import annotations

import time
from array import array
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from functools import cache
from itertools import accumulate, chain, groupby
from operator import itemgetter, sub
from pickle import dumps
from typing import IO, Any

from whoosh import index as windex
from whoosh.codec.whoosh3 import WHOOSH3_HEADER_MAGIC, W3FieldWriter
from whoosh.fields import Schema
from whoosh.formats import Format
from whoosh.index import LockError
from whoosh.system import pack_int, pack_long, pack_ushort
from whoosh.util.numeric import length_to_byte
from whoosh.writing import SegmentWriter

from paper_tui.errors import StoreError
from paper_tui.index.fulltext import Extender
from paper_tui.index.packed import narrowest, pack_joined
from paper_tui.index.posting_runs import (
    RUN_POSTINGS,
    Buffered,
    in_memory,
    merged,
    read_run,
    write_run,
)
from paper_tui.index.schema import (
    CODEC,
    FoldedText,
    Progress,
    build_schema,
    folded_words,
    shared_values,
    sortkey,
    stored_fields,
    versionkey,
)
from paper_tui.index.signals import REPEATED, document_fields
from paper_tui.index.whoosh_internals import (
    TERMINFO,
    FieldFiles,
    field_files,
    mark_added,
    spill_columns,
)
from paper_tui.model import Paper

VOCABULARY_FIELDS = frozenset({"title", "abstract", "name", "authors"})
"""Fields whose words (unstemmed, stop words too) make the spelling vocabulary."""



class PostingBuffer:
    """Stands in for a ``SegmentWriter``'s posting pool: the same ``add``/``iter_postings``
    /``cleanup`` calls, so Whoosh's own code (``add_document``, the merging of small
    segments at commit) still works through it; :meth:`add_terms` is the fast way in."""

    def __init__(self, writer: SegmentWriter, run_postings: int | None = None) -> None:
        """``run_postings``: how many postings are held before they are written out as a
        run (:mod:`.posting_runs`; None: :data:`~.posting_runs.RUN_POSTINGS`)."""
        self._writer = writer
        self._fields: dict[str, dict[bytes, Buffered]] = {}
        self._held = 0
        self._run_postings = run_postings or RUN_POSTINGS
        self._runs: list[IO[bytes]] = []

    def add(self, item: tuple[str, bytes, int, float, bytes]) -> None:
        fieldname, tbytes, docnum, weight, vbytes = item
        self.add_terms(fieldname, docnum, [(tbytes, 1, weight, vbytes)])

    def add_terms(self, fieldname: str, docnum: int,
                  items: Iterable[tuple[bytes, int, float, bytes]]) -> int:
        """Add one document's ``(term, frequency, weight, value)`` items of one field;
        returns the field's length (the summed frequencies)."""
        terms = self._fields.get(fieldname)
        if terms is None:
            terms = self._fields[fieldname] = {}
        length = count = 0
        for tbytes, freq, weight, vbytes in items:
            length += freq
            postings = terms.get(tbytes)
            if postings is None:
                terms[tbytes] = [array("I", (docnum,)), array("f", (weight,)), [vbytes]]
            else:
                postings[0].append(docnum)
                postings[1].append(weight)
                postings[2].append(vbytes)
            count += 1
        self._held += count
        if self._held >= self._run_postings:
            self._write_run()
        return length

    @property
    def runs_written(self) -> int:
        """How many runs this buffer wrote out so far (none: it held everything)."""
        return len(self._runs)

    def _write_run(self) -> None:
        """Write the postings held out as a run, and forget them."""
        folder = getattr(self._writer.storage, "folder", None)
        self._runs.append(write_run(self._fields, folder))
        self._fields = {}
        self._held = 0

    def merge(self, prepared: Prepared, docnums: list[int | None]) -> None:
        """Add the postings of :func:`prepare`, its paper ``i`` being document
        ``docnums[i]`` (None: left out). Must come before any later document's postings."""
        if not any(d is not None for d in docnums):
            return
        kept = [d for d in docnums if d is not None]
        if kept != sorted(kept):
            raise ValueError("prepared papers must be added in their order")
        base = kept[0]
        contiguous = docnums == list(range(base, base + len(docnums)))
        schema = self._writer.schema
        for fieldname, (keys, ends, docs, weights, values) in prepared.fields.items():
            terms = self._fields.get(fieldname)
            if terms is None:
                terms = self._fields[fieldname] = {}
            fmt = schema[fieldname].format
            if fmt.supports("positions"):
                shared = shared_values(fmt).get
                values = [shared(v, v) for v in values]
            if contiguous:
                ids = array("I", [d + base for d in docs])
            else:
                mapped = [docnums[d] for d in docs]
            start = 0
            for tbytes, end in zip(keys, ends, strict=True):
                if contiguous:
                    postings = [ids[start:end], weights[start:end], values[start:end]]
                else:
                    keep = [j for j in range(start, end) if mapped[j] is not None]
                    postings = [array("I", [mapped[j] for j in keep]),
                                array("f", [weights[j] for j in keep]),
                                [values[j] for j in keep]]
                start = end
                if not postings[2]:
                    continue
                mine = terms.get(tbytes)
                if mine is None:
                    terms[tbytes] = postings
                else:
                    mine[0].extend(postings[0])
                    mine[1].extend(postings[1])
                    mine[2].extend(postings[2])
                self._held += len(postings[0])
        if self._held >= self._run_postings:
            self._write_run()

    def iter_postings(self) -> Iterator:
        """Called by the segment writer at commit, between closing the per-document files
        and the field writer: writes every posting list now, leaves nothing to iterate."""
        self._write(self._writer.fieldwriter)
        return iter(())

    def _write(self, fieldwriter: W3FieldWriter) -> None:
        schema = self._writer.schema
        records = in_memory(self._fields)
        if self._runs:
            records = merged([*map(read_run, self._runs), records])
        for fieldname, field_records in groupby(records, key=itemgetter(0)):
            fieldobj = schema[fieldname]
            fieldwriter.start_field(fieldname, fieldobj)
            write = _TermWriter(field_files(fieldwriter), fieldobj.format)
            for _, tbytes, postings in field_records:
                write(tbytes, *postings)
            fieldwriter.finish_field()
        self.cleanup()

    def cleanup(self) -> None:
        self._fields = {}
        self._held = 0
        for run in self._runs:
            run.close()
        self._runs = []


_NO_LENGTH = length_to_byte(0)  # no length statistics: see ``Codec``


class _TermWriter:
    """Writes one term's posting list and term info as ``W3FieldWriter`` does through
    ``start_term``/``add``/``finish_term``, a block at a time instead of a Python call per
    posting, with the block's parts packed (``packed.py``)."""

    def __init__(self, files: FieldFiles, fmt: Format) -> None:
        self._postfile = files.postfile
        self._tindex = files.terms
        self._prefix = pack_ushort(files.prefix)
        self._limit = files.blocklimit
        self._fixedsize = fmt.fixed_value_size()
        self._fixed = self._fixedsize is not None and self._fixedsize > 0
        # Where the next posting list starts: counted, not asked of the file (an lseek).
        self._offset = files.postfile.tell()

    def __call__(self, tbytes: bytes, docs: array, weights: array, sizes: array, blob: bytes
                 ) -> None:
        """Write a term's postings: their documents, weights, and values (each one's size,
        and all of them joined)."""
        if 0 in sizes:  # as add_posting: empty values are not kept
            sizes = array("I", filter(None, sizes))
        offset = self._offset
        count = len(docs)
        if count == 1:  # two terms in three (an id, a rare word): no slices, no gaps
            written, total, maxweight = self._one(docs[0], weights[0], sizes, blob)
        else:
            written, total, maxweight = self._blocks(docs, weights, sizes, blob)
        self._postfile.write(written)
        self._offset = offset + len(written)
        terminfo = TERMINFO.pack(False, total, count, 0, _NO_LENGTH, maxweight, docs[0],
                                  docs[-1])
        terminfo += pack_long(offset) + pack_int(len(written))
        self._tindex.add(self._prefix + tbytes, terminfo)

    def _one(self, doc: int, weight: float, sizes: array, blob: bytes
             ) -> tuple[bytes, float, float]:
        """The posting list of a term in one document (what :meth:`_blocks` makes of it):
        its bytes, total weight, max weight."""
        gaps = array("B" if doc < 1 << 8 else "H" if doc < 1 << 16 else "I", (doc,))
        mini_weight = None if weight == 1.0 else weight
        if self._fixedsize != 0:
            data = pack_joined(gaps, mini_weight, sizes, blob, self._fixed)
        else:
            data = pack_joined(gaps, mini_weight, None, None, self._fixed)
        blockmax = max(0, weight)
        info = dumps((1, doc, blockmax, 0, 0, _NO_LENGTH), 2)
        head = pack_int(-(len(info) + len(data)))
        return b"".join((WHOOSH3_HEADER_MAGIC, head, info, data)), weight, max(0, blockmax)

    def _blocks(self, docs: array, weights: array, sizes: array, blob: bytes
                ) -> tuple[bytes, float, float]:
        """A term's posting list, a block of :attr:`_limit` postings at a time: its bytes,
        total weight, max weight."""
        limit, with_values, fixed = self._limit, self._fixedsize != 0, self._fixed
        ends = array("Q", accumulate(sizes, initial=0))
        parts = [WHOOSH3_HEADER_MAGIC]
        total, maxweight, count = 0, 0, len(docs)
        for start in range(0, count, limit):
            stop = start + limit
            ids, ws = docs[start:stop], weights[start:stop]
            total += sum(ws)
            blockmax = max(0, max(ws))
            maxweight = max(maxweight, blockmax)
            first = ws[0]
            mini_weights = (None if first == 1.0 else first) if ws.count(first) == len(ws) \
                else ws
            gaps = narrowest(array("I", map(sub, ids, chain((0,), ids))))
            if with_values:
                last = min(stop, len(sizes))
                data = pack_joined(gaps, mini_weights, sizes[start:last],
                                   blob[ends[min(start, last)]:ends[last]], fixed)
            else:
                data = pack_joined(gaps, mini_weights, None, None, fixed)
            info = dumps((len(ids), ids[-1], blockmax, 0, 0, _NO_LENGTH), 2)
            size = len(info) + len(data)
            parts += (pack_int(-size if stop >= count else size), info, data)
        return b"".join(parts), total, maxweight


_REPEATED = frozenset({"source", "venue", "year", *REPEATED})
_KEYS: dict[tuple[str, Any], list[tuple[bytes, int, float, bytes]]] = {}


def add_document(writer: SegmentWriter, fields: dict[str, Any],
                 words: set[str] | None = None, lengths: dict[str, int] | None = None
                 ) -> None:
    """``writer.add_document(**fields)``, with the postings going straight to the
    :class:`PostingBuffer` and each text folded once; the folded words of
    :data:`VOCABULARY_FIELDS` are added to ``words``. With ``lengths`` (from
    :func:`prepare`), the paper's own texts are not analysed: their postings come later,
    with :meth:`PostingBuffer.merge`."""
    schema = writer.schema
    docnum = writer.docnum
    perdoc = writer.perdocwriter
    buffer = writer.pool
    folded_texts: dict[str, list[str]] = {}
    perdoc.start_doc(docnum)
    try:
        for name in sorted(fields):
            value = fields[name]
            if value is None:
                continue
            field = schema[name]
            length = 0
            if lengths is not None and name in PREPARED_FIELDS:
                length = lengths.get(name, 0)
            elif field.indexed:
                if isinstance(field, FoldedText):
                    folded = folded_texts.get(value)
                    if folded is None:
                        folded = folded_texts[value] = folded_words(value)
                    if words is not None and name in VOCABULARY_FIELDS:
                        words.update(folded)
                    items = field.index_folded(folded)
                elif name in _REPEATED:  # few distinct values: analysed once each
                    repeated = _KEYS.get((name, value))
                    if repeated is None:
                        repeated = _KEYS[name, value] = list(field.index(value))
                    items = repeated
                else:
                    items = field.index(value)
                length = buffer.add_terms(name, docnum, items)
                if not field.scorable:
                    length = 0
            perdoc.add_field(name, field, value if field.stored else None, length)
            if field.column_type:
                perdoc.add_column_value(name, field.column_type, field.to_column_value(value))
    except Exception:
        perdoc.cancel_doc()
        raise
    perdoc.finish_doc()
    mark_added(writer)
    writer.docnum += 1


@contextmanager
def open_writer(ix: windex.Index, where: object, timeout: float = 60.0,
                run_postings: int | None = None) -> Iterator[SegmentWriter]:
    """A segment writer with a :class:`PostingBuffer` (``run_postings``: see there),
    waiting up to ``timeout`` for another process's lock; commits at the end (cancels on
    an exception)."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            # Not compound: Whoosh reads a compound segment by copying each of its files
            # into memory (hundreds of MB and a second per process on the big index).
            writer = SegmentWriter(ix, codec=CODEC, compound=False)
            break
        except LockError:
            if time.monotonic() > deadline:
                raise StoreError(f"{where}: the index is locked by another paper-tui "
                                 "process; try again when it is done") from None
            time.sleep(0.1)
    writer.pool = PostingBuffer(writer, run_postings)
    spill_columns(writer)
    try:
        yield writer
    except BaseException:
        writer.cancel()
        raise
    writer.commit()


# -- papers as documents ---------------------------------------------------------------------
PREPARED_FIELDS = frozenset({"title", "title_exact", "name", "authors", "abstract"})


def _texts(paper: Paper) -> dict[str, str]:
    """The paper's own text fields (:data:`PREPARED_FIELDS`)."""
    return {
        "title": paper.display_title,
        "title_exact": paper.display_title,
        "name": paper.name,
        "authors": " ; ".join(paper.authors),
        "abstract": paper.display_abstract,
    }


def document(paper: Paper) -> dict:
    """The index document of a paper (empty fields left out)."""
    doc = {
        "id": paper.id,
        "source": paper.source,
        **_texts(paper),
        "venue": paper.venue,
        "year": str(paper.year) if paper.year else "",
        "keywords": ",".join(paper.keywords),
        "sortkey": sortkey(paper),
        "versionkey": versionkey(paper),
        "paper": stored_fields(paper),
        **document_fields(paper),
    }
    return {k: v for k, v in doc.items() if v not in (None, "")}


_Flat = tuple  # (terms, end offsets: array("I"), docs: array("I"), weights: array("f"), values)


@dataclass
class Prepared:
    """The postings of a run of papers' own text fields, the papers numbered from 0: made
    by :func:`prepare` (in the process that parses them), merged by the writer. Per field,
    the terms and flat arrays (a posting list per term would be slow to unpickle)."""

    fields: dict[str, _Flat]
    lengths: list[dict[str, int]]
    words: set[str]


def prepare(papers: list[Paper]) -> Prepared:
    """Analyse the papers' :data:`PREPARED_FIELDS` ahead of writing them."""
    schema = _schema()
    fields: dict[str, dict[bytes, tuple[list[int], list[float], list[bytes]]]] = {}
    lengths = []
    words: set[str] = set()
    for i, paper in enumerate(papers):
        folded_texts: dict[str, list[str]] = {}
        mine = {}
        for name, text in _texts(paper).items():
            if not text:
                continue
            folded = folded_texts.get(text)
            if folded is None:
                folded = folded_texts[text] = folded_words(text)
            if name in VOCABULARY_FIELDS:
                words.update(folded)
            terms = fields.get(name)
            if terms is None:
                terms = fields[name] = {}
            length = 0
            for tbytes, freq, weight, vbytes in schema[name].index_folded(folded):
                length += freq
                postings = terms.get(tbytes)
                if postings is None:
                    terms[tbytes] = ([i], [weight], [vbytes])
                else:
                    postings[0].append(i)
                    postings[1].append(weight)
                    postings[2].append(vbytes)
            mine[name] = length
        lengths.append(mine)
    return Prepared({name: _flatten(terms) for name, terms in fields.items()}, lengths, words)


def _flatten(terms: dict[bytes, tuple[list[int], list[float], list[bytes]]]) -> _Flat:
    ends, docs, weights, values = array("I"), array("I"), array("f"), []
    for d, w, v in terms.values():
        docs.extend(d)
        weights.extend(w)
        values.extend(v)
        ends.append(len(values))
    return list(terms), ends, docs, weights, values


@cache
def _schema() -> Schema:
    return build_schema()


class Adder:
    """Feeds papers to an open writer; see :meth:`PaperIndex.adding`. A paper whose id is
    already in the index replaces it."""

    def __init__(self, writer: SegmentWriter, progress: Progress | None,
                 extenders: Sequence[Extender] = ()) -> None:
        """``extenders``: each fills more of every paper's document from what the library
        keeps beside the papers (a held PDF's text, the reviews)."""
        self._writer = writer
        self._extenders = extenders
        # Ids already in the index (none in a new one: nothing to look up then).
        self._reader = writer.searcher().reader() if writer.segments else None
        self._progress = progress
        self.count = 0
        self.new_count = 0
        """Papers added that the index did not hold before (in any source)."""
        self.words: set[str] = set()
        self._run: Prepared | None = None
        self._docnums: list[int | None] = []

    def add(self, paper: Paper, prepared: tuple[Prepared, int] | None = None) -> bool:
        """Add (or replace) a paper; ``prepared``: its run's :func:`prepare` and its place
        in the run, when that was done ahead. Whether the index did not hold it before."""
        held = self._held(paper.id)
        if held:
            self._writer.delete_by_term("id", paper.id)
        else:
            self.new_count += 1
        lengths = None
        if prepared is not None:
            run, i = prepared
            if run is not self._run:
                self.finish()
                self._run, self._docnums = run, [None] * len(run.lengths)
                self.words.update(run.words)
            self._docnums[i] = self._writer.docnum
            lengths = run.lengths[i]
        else:
            self.finish()
        doc = document(paper)
        for extend in self._extenders:
            extend(paper, doc)
        add_document(self._writer, doc, self.words, lengths)
        self.count += 1
        if self._progress and self.count % 500 == 0:
            self._progress(self.count)
        return not held

    def _held(self, paper_id: str) -> bool:
        """Whether the index holds the paper: the term list keeps the id of a deleted one
        (a source removed, a paper a re-import dropped) until segments merge."""
        term = paper_id.encode()
        return self._reader is not None and ("id", term) in self._reader and \
            self._reader.postings("id", term).is_active()

    def finish(self) -> None:
        """Merge the postings of the prepared run in progress (before any later paper's,
        and before the commit)."""
        if self._run is not None:
            self._writer.pool.merge(self._run, self._docnums)
            self._run, self._docnums = None, []

    def delete(self, ids: Iterable[str]) -> None:
        for paper_id in ids:
            self._writer.delete_by_term("id", paper_id)
