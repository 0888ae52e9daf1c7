"""Reading Whoosh's posting blocks fast: a term's matcher found with one lookup, and a
block's ids and weights read as numpy arrays.

Whoosh's codec writes a posting list as blocks of up to 1,024 postings, each a pickled
``(ids, weights, values)`` tuple after a small pickled info tuple; our writer's blocks
are read in place, without unpickling (``packed.py``). Finding a term and walking its
blocks go through Whoosh's private parts (:mod:`~paper_tui.index.whoosh_internals`).
"""

from __future__ import annotations

import pickle
import zlib
from collections.abc import Iterator

from paper_tui.index.lazy import np
from paper_tui.index.packed import read_block
from paper_tui.index.whoosh_internals import (
    RawBlock,
    is_block_matcher,
    posting_blocks,
)

Span = tuple[int, int] | None
"""Where a block's pickled data starts and ends in the postings file (None: not on disk
as a plain block)."""


def segment_id(reader) -> str | None:
    """The id of a leaf reader's segment (None for an empty index's reader)."""
    segment = reader.segment()
    return segment.segment_id() if segment is not None else None


def blocks(matcher) -> Iterator[tuple[np.ndarray, np.ndarray, Span]]:
    """(ids, weights, span) of the postings as numpy arrays (int32, float32), a block at a
    time for on-disk postings."""
    if not is_block_matcher(matcher):  # a few postings inlined in the term info
        found_ids: list[int] = []
        found_weights: list[float] = []
        while matcher.is_active():
            found_ids.append(matcher.id())
            found_weights.append(matcher.weight())
            matcher.next()
        yield np.array(found_ids, dtype=np.int32), np.array(found_weights, dtype=np.float32), None
        return
    for block in posting_blocks(matcher):
        ids, weights = _ids_weights(block)
        yield ids, weights, None if block.compressed else (block.start, block.end)


def _ids_weights(block: RawBlock) -> tuple[np.ndarray, np.ndarray]:
    """A block's (ids, weights) as numpy arrays (int32, float32)."""
    raw = zlib.decompress(block.data) if block.compressed else block.data
    n = block.length
    ours = read_block(raw)
    if ours is not None:  # our writer's: read in place
        ids, weights = ours.gaps(), ours.weights()
    else:  # Whoosh's own: a pickled tuple of tuples (or arrays)
        ids, weights, _ = pickle.loads(raw)
        ids = np.fromiter(ids, dtype=np.int32, count=n)
        if weights is None or isinstance(weights, float):
            weights = np.full(n, 1.0 if weights is None else weights, dtype=np.float32)
        else:
            weights = np.fromiter(weights, dtype=np.float32, count=n)
    ids = ids.astype(np.int32) if block.byteids else np.cumsum(ids, dtype=np.int32)  # gaps
    return ids, weights
