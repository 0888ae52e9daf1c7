"""Reading Whoosh's posting blocks fast: a term's matcher found with one lookup, and a
block's ids and weights read straight from its pickle bytes, its values left unread.

Whoosh's codec writes a posting list as blocks of up to 1,024 postings, each a pickled
``(ids, weights, values)`` tuple after a small pickled info tuple. These functions rely on
that layout (whoosh-reloaded is pinned below 2.8), and fall back to Whoosh's own reading
wherever a block does not look as expected.
"""

from __future__ import annotations

import pickle
import zlib
from collections.abc import Iterator

from whoosh.codec.whoosh3 import W3LeafMatcher
from whoosh.reading import TermNotFound

from paper_tui.index.lazy import np
from paper_tui.index.positions import PACKED_START

Span = tuple[int, int] | None
"""Where a block's pickled data starts and ends in the postings file (None: not on disk
as a plain block)."""


def segment_id(reader) -> str | None:
    """The id of a leaf reader's segment (None for an empty index's reader)."""
    segment = reader.segment()
    return segment.segment_id() if segment is not None else None


def matcher(reader, fieldname: str, btext: bytes):
    """The postings matcher of one term in one segment, deletions not filtered (None when
    the segment lacks the term): one hash lookup, and no block read yet (Whoosh's
    ``reader.postings`` looks the term up twice and, wrapped for deletions, reads and
    unpickles the first block whole, positions included)."""
    terms = getattr(reader, "_terms", None)  # an empty index's reader has none
    if terms is None:
        return None
    try:
        return terms.matcher(fieldname, btext, reader.schema[fieldname].format)
    except TermNotFound:
        return None


def blocks(matcher) -> Iterator[tuple[np.ndarray, np.ndarray, Span]]:
    """(ids, weights, span) of the postings as numpy arrays (int32, float32), a block at a
    time for on-disk postings."""
    if type(matcher) is not W3LeafMatcher:  # a few postings inlined in the term info
        ids, weights = [], []
        while matcher.is_active():
            ids.append(matcher.id())
            weights.append(matcher.weight())
            matcher.next()
        yield np.array(ids, dtype=np.int32), np.array(weights, dtype=np.float32), None
        return
    m = matcher
    while not m._atend:
        ids, weights = _ids_weights(m)
        yield ids, weights, None if m._compression else (m._dataoffset, m._nextoffset)
        if m._lastblock:
            break
        m._goto(m._nextoffset)


_VALUES_START = b"(c_codecs\nencode\n"
"""How a block's pickled values begin when they are a tuple of bytes (non-positional
fields), which pickle protocol 2 writes as ``_codecs.encode(str, "latin1")`` calls; the
values of positional fields begin with :data:`PACKED_START`."""


_HEAD_BYTES = 16 * 1024
"""A block's ids (<= 5 bytes each) and weights (9 bytes each) for 1,024 postings."""


def _ids_weights(m: W3LeafMatcher) -> tuple[np.ndarray, np.ndarray]:
    """The current block's (ids, weights) without unpickling its values.

    A block is the pickle of ``(ids, weights, values)``: read the first two straight from
    its bytes where they have the usual layout (:func:`_decode_head`), else cut the pickle
    before the values and close the tuple there, so pickle reads only the first two.
    Anything unexpected (a block without values, a cut that does not parse) takes Whoosh's
    own full read."""
    size = m._nextoffset - m._dataoffset
    n = m._blocklength
    if not m._compression:  # ids and weights fill at most ~14 KB of a block: read those
        head = m._postfile.get(m._dataoffset, min(size, _HEAD_BYTES))
        cut = head.find(_VALUES_START)
        if cut < 0:
            cut = head.find(PACKED_START)
        if cut > 0:
            found = _decode_head(head, cut, n)
            if found is not None:
                ids, weights = found
                return (ids if m._byteids else np.cumsum(ids, dtype=np.int32)), weights
            try:
                data = pickle.loads(head[:cut] + b"\x86.")  # TUPLE2, STOP
            except Exception:
                data = None
            if isinstance(data, tuple) and len(data) == 2 and len(data[0]) == n:
                return _as_arrays(m, data)
    raw = m._postfile.get(m._dataoffset, size)
    return _as_arrays(m, pickle.loads(zlib.decompress(raw) if m._compression else raw))


def _as_arrays(m: W3LeafMatcher, data: tuple) -> tuple[np.ndarray, np.ndarray]:
    """Unpickled (ids, weights, ...) of a block as numpy arrays (ids no longer deltas)."""
    ids = np.fromiter(data[0], dtype=np.int32, count=m._blocklength)
    if not m._byteids:  # stored as deltas
        ids = np.cumsum(ids, dtype=np.int32)
    weights = data[1]
    if weights is None or isinstance(weights, float):
        weights = np.full(m._blocklength, 1.0 if weights is None else weights,
                          dtype=np.float32)
    else:
        weights = np.fromiter(weights, dtype=np.float32, count=m._blocklength)
    return ids, weights


_K, _G = ord("K"), ord("G")  # pickle's BININT1 (one unsigned byte) and BINFLOAT opcodes


def _decode_head(head: bytes, cut: int, n: int) -> tuple[np.ndarray, np.ndarray] | None:
    """(ids as stored, weights) of a block of ``n`` > 3 postings straight from its pickle
    bytes, ``cut`` being where its values start; None unless the weights are n floats.

    Protocol 2 writes the block as PROTO, the ids tuple (MARK, an int opcode each,
    TUPLE, BINPUT), the weights tuple (MARK, BINFLOAT + 8 big-endian bytes each, TUPLE,
    BINPUT), then the values. Weights are read from the end back; ids straight from the
    bytes when every one is a BININT1 (all deltas < 256), else by pickle (a few large
    gaps make the opcodes vary in length)."""
    if n <= 3 or head[cut - 3:cut - 1] != b"tq":
        return None
    start = cut - 3 - 9 * n  # the weights' first opcode
    if start < 4 or head[start - 1] != 0x28:  # MARK
        return None
    raw = np.frombuffer(head, dtype=np.uint8, count=9 * n, offset=start).reshape(n, 9)
    if not (raw[:, 0] == _G).all():
        return None
    weights = raw[:, 1:].copy().view(">f8").ravel().astype(np.float32)
    end = start - 4  # the ids tuple's TUPLE opcode
    if head[:3] != b"\x80\x02(" or head[end:end + 2] != b"tq":
        return None
    if end - 3 == 2 * n:
        ops = np.frombuffer(head, dtype=np.uint8, count=2 * n, offset=3).reshape(n, 2)
        if (ops[:, 0] == _K).all():
            return ops[:, 1].astype(np.int32), weights
    try:
        ids = pickle.loads(head[:end + 3] + b".")
    except Exception:
        return None
    if not (isinstance(ids, tuple) and len(ids) == n):
        return None
    return np.fromiter(ids, dtype=np.int32, count=n), weights
