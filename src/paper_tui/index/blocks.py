"""Reading Whoosh's posting blocks fast: a term's matcher found with one lookup, and a
block's ids and weights read as numpy arrays.

Whoosh's codec writes a posting list as blocks of up to 1,024 postings, each a pickled
``(ids, weights, values)`` tuple after a small pickled info tuple; our writer packs the
parts (``packed.py``). The block walk uses the matcher's fields (whoosh-reloaded is pinned
below 2.8).
"""

from __future__ import annotations

import pickle
import zlib
from collections.abc import Iterator

from whoosh.codec.whoosh3 import W3LeafMatcher
from whoosh.reading import TermNotFound

from paper_tui.index.lazy import np
from paper_tui.index.packed import PackedNumbers

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


def _ids_weights(m: W3LeafMatcher) -> tuple[np.ndarray, np.ndarray]:
    """The current block's (ids, weights) as numpy arrays (int32, float32)."""
    raw = m._postfile.get(m._dataoffset, m._nextoffset - m._dataoffset)
    ids, weights, _ = pickle.loads(zlib.decompress(raw) if m._compression else raw)
    n = m._blocklength
    if isinstance(ids, PackedNumbers):  # our writer's blocks
        ids = ids.array()
    else:  # Whoosh's own: a tuple
        ids = np.fromiter(ids, dtype=np.int32, count=n)
    ids = ids.astype(np.int32) if m._byteids else np.cumsum(ids, dtype=np.int32)  # gaps
    if weights is None or isinstance(weights, float):
        weights = np.full(n, 1.0 if weights is None else weights, dtype=np.float32)
    elif isinstance(weights, PackedNumbers):
        weights = weights.array()
    else:
        weights = np.fromiter(weights, dtype=np.float32, count=n)
    return ids, weights
