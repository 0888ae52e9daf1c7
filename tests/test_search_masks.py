"""The numpy side of search against Whoosh's own evaluation, on a real index with several
segments and deleted documents: document masks, posting lists, BM25 scores, phrases."""

from __future__ import annotations

import json
import math
import random
from array import array
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest
from whoosh import query as wq
from whoosh.filedb.structfile import BufferFile

from built_once import built_once, copy_of
from paper_tui import config as config_mod
from paper_tui.index.packed import narrowest, pack_block
from paper_tui.index.positions import (
    PackedPositions,
    block_positions,
    read_values,
    values_positions,
)
from paper_tui.index.schema import K1, B
from paper_tui.index.snapshot import FIELD_B, Snapshot
from paper_tui.library import Library
from paper_tui.model import Paper

WORDS = ["model", "robot", "graph", "network", "learning", "control", "vision", "policy",
         "agent", "memory", "planning", "neural", "sparse", "dense"]


def papers(n: int, start: int, seed: int) -> list[dict]:
    """Common words everywhere, and "zebra" in every 300th paper only: its posting blocks
    hold gaps of 256 or more (ids pickled as 2-byte ints)."""
    rng = random.Random(seed)
    out = []
    for i in range(start, start + n):
        title = " ".join(rng.choices(WORDS, k=rng.randint(2, 8)))
        abstract = " ".join(rng.choices(WORDS, k=rng.randint(5, 50)))
        if i % 300 == 0:
            abstract += " zebra crossing" * rng.randint(1, 3)
        out.append({"title": f"{title} {i}", "authors": [f"Ann Lee{i % 5}"],
                    "abstract": abstract, "venue": "icml", "year": 2000 + i % 20})
    return out


@pytest.fixture(scope="module")
def lib(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Library]:
    def build(root: Path) -> None:
        with Library.open(root / "lib", config=config_mod.defaults(), bundled=False
                          ) as library:
            sources = []
            # two imports: two segments
            for k, (n, start) in enumerate([(1400, 0), (300, 1400)]):
                source = root / f"papers-{k}.jsonl"
                source.write_text("".join(json.dumps(p) + "\n" for p in papers(n, start, k)),
                                  encoding="utf-8")
                library.import_paths([source])
                sources.append(source)
            # A re-import without some of the papers deletes them: deletions in both segments
            for source in sources:
                lines = source.read_text(encoding="utf-8").splitlines(keepends=True)
                source.write_text("".join(line for i, line in enumerate(lines) if i % 89),
                                  encoding="utf-8")
                library.import_paths([source])
            ids = library.results("").ids()
            library.annotations.set_status(ids[::97], "read")
            library.annotations.add_tags(ids[5::131], ["later"])

    root = copy_of(tmp_path_factory, built_once(tmp_path_factory, "masks", build) / "lib",
                   "lib")
    library = Library.open(root, config=config_mod.defaults(), bundled=False)
    yield library
    library.close()


QUERIES = ["model", "robot graph", "control OR vision", "model -title:sparse", "NOT model",
           '"graph network"', '"model robot"', '"zebra crossing"', '"crossing zebra"',
           "mod*", "robto~", "tag:later", "status:read model", "zebra", "zebra robot",
           "title:(robot OR graph) -vision", "robot AND graph AND NOT policy", "year:2005",
           '"learning learning"']


def _snap(lib: Library) -> Snapshot:
    snap = lib.index.view()
    assert any(reader.has_deletions() for reader, _ in snap.leaves)
    assert len(snap.leaves) > 1
    assert snap.live_count == int(np.count_nonzero(snap.live)) < snap.size
    return snap


def _annotated(lib: Library, snap: Snapshot, q: wq.Term) -> set[int]:
    """The live documents whose paper carries the annotation ``q`` asks for, one paper at
    a time from the store."""
    text = q.text.decode() if isinstance(q.text, bytes) else str(q.text)
    live = set(snap.reader.all_doc_ids())
    found = set()
    for doc, pid in enumerate(snap.all_ids):
        annotation = lib.annotations.get(pid)
        held = {"tags": [t.lower() for t in annotation.tags],
                "status": [annotation.status]}[q.fieldname]
        if doc in live and text in held:
            found.add(doc)
    return found


def _sets(snap: Snapshot, q: wq.Query, lib: Library) -> set[int]:
    """The documents matching ``q`` by Python set algebra over Whoosh's own matching of
    each word and phrase (deleted documents left out by Whoosh), and the store's
    annotations."""
    if isinstance(q, wq.Term) and q.fieldname in ("tags", "status"):
        return _annotated(lib, snap, q)
    if isinstance(q, wq.Term | wq.Phrase):
        return set(snap.searcher.docs_for_query(q))
    if isinstance(q, wq.And):
        return set.intersection(*(_sets(snap, c, lib) for c in q.subqueries))
    if isinstance(q, wq.Or):
        return set().union(*(_sets(snap, c, lib) for c in q.subqueries))
    if isinstance(q, wq.AndNot):
        return _sets(snap, q.a, lib) - _sets(snap, q.b, lib)
    if isinstance(q, wq.Not):
        return set(snap.reader.all_doc_ids()) - _sets(snap, q.query, lib)
    if isinstance(q, wq.MultiTerm):
        return _sets(snap, q.simplify(snap.reader), lib)
    if q is wq.NullQuery:
        return set()
    raise AssertionError(f"no set algebra for {q!r}")


@pytest.mark.parametrize("query", QUERIES)
def test_document_masks_equal_set_algebra(lib: Library, query: str) -> None:
    snap = _snap(lib)
    plan = lib.index.plan(query, snap)
    for q in (plan.strict, plan.loose):
        if q is not None:
            assert np.flatnonzero(snap.docs(q)).tolist() == sorted(_sets(snap, q, lib)), q
    assert len(lib.results(query)) == int(np.count_nonzero(
        snap.docs(plan.loose if plan.loose is not None else plan.strict)))


def test_posting_lists_equal_whooshs_with_deletions_and_wide_gaps(lib: Library) -> None:
    snap = _snap(lib)
    checked = 0
    for fieldname in ("abstract", "title", "title_exact", "authors"):
        terms = sorted({t for reader, _ in snap.leaves for t in reader.lexicon(fieldname)})
        for btext in terms:
            ids, weights = [], []
            for reader, offset in snap.leaves:
                if (fieldname, btext) not in reader:
                    continue
                matcher = reader.postings(fieldname, btext)  # deleted documents left out
                while matcher.is_active():
                    ids.append(offset + matcher.id())
                    weights.append(matcher.weight())
                    matcher.next()
            ours = snap.postings(fieldname, btext)
            assert ours.ids.tolist() == ids and ours.weights.tolist() == weights
            checked += len(ids)
    zebra = snap.postings("abstract", b"zebra").ids
    assert len(zebra) > 3 and np.diff(zebra).min() >= 256
    assert checked > 30_000


def _slow_score(snap: Snapshot, fieldname: str, text: str, boost: float, doc: int) -> float:
    """BM25 of one term in one document, from Whoosh's per-document calls."""
    count = snap.reader.doc_count_all()
    docs = {offset + d for reader, offset in snap.leaves
            for d in (reader.postings(fieldname, text.encode()).all_ids()
                      if (fieldname, text.encode()) in reader else ())}
    if doc not in docs:
        return 0.0
    lengths = [reader.doc_field_length(d, fieldname) for reader, _ in snap.leaves
               for d in range(reader.doc_count_all())]
    avg = sum(lengths) / count
    weight = next(m.weight() for reader, offset in snap.leaves
                  if (fieldname, text.encode()) in reader and offset <= doc
                  < offset + reader.doc_count_all()
                  for m in [reader.postings(fieldname, text.encode())]
                  if m.skip_to(doc - offset) or (m.is_active() and m.id() == doc - offset))
    b = FIELD_B.get(fieldname, B)
    idf = math.log(count / (len(docs) + 1)) + 1
    return boost * idf * (K1 + 1) * weight / (weight + K1 * ((1 - b) + b * lengths[doc] / avg))


@pytest.mark.parametrize("query", ["robot graph", "zebra", "title:vision policy"])
def test_scores_equal_bm25_worked_out_one_document_at_a_time(lib: Library,
                                                            query: str) -> None:
    snap = _snap(lib)
    plan = lib.index.plan(query, snap)
    hits = np.flatnonzero(snap.docs(plan.loose if plan.loose is not None else plan.strict))
    sample = hits[:: max(1, len(hits) // 12)]
    for docs in (hits, sample):  # a whole posting list scored, and a few documents of it
        ours = snap.scores(plan.scoring, docs)
        for doc, score in zip(docs.tolist(), ours.tolist(), strict=True):
            if doc in sample:
                slow = sum(_slow_score(snap, f, t, boost, doc) for f, t, boost in plan.scoring)
                assert score == pytest.approx(slow, rel=1e-9)


def test_positions_of_packed_blocks_equal_the_formats_decoding() -> None:
    """Positions read a block at a time with numpy equal each value decoded on its own, for
    the postings a phrase asks for; only the blocks holding one are read."""
    fmt = PackedPositions()
    rng = random.Random(3)
    shapes = [[0], [5], [255], [256], [70000], [1, 2], [3, 300, 301], list(range(0, 2000, 7))]
    positions = [rng.choice(shapes) if rng.random() < 0.3 else
                 sorted(rng.sample(range(600 if rng.random() < 0.2 else 200), rng.randint(1, 9)))
                 for _ in range(2000)]
    values = [fmt.encode(p) for p in positions]
    ids = np.cumsum(np.array([rng.randint(1, 300) for _ in values], dtype=np.int64))
    # blocks of 128 postings pickled as our writer does, in one file
    data, spans = b"", []
    for start in range(0, len(values), 128):
        gaps = np.diff(ids[start:start + 128], prepend=ids[start - 1] if start else 0)
        block = pack_block(narrowest(array("I", gaps.tolist())), None,
                           values[start:start + 128], fixed=False)
        spans.append((len(data), len(data) + len(block)))
        data += block
    postfile = BufferFile(data)
    firsts = np.arange(0, len(values), 128)
    for wanted in (ids, ids[:1], ids[::7], ids[-3:], ids[5:9] + 1, ids[300:310]):
        read_blocks = []

        def read(k: int) -> tuple[np.ndarray, np.ndarray]:
            read_blocks.append(k)  # noqa: B023 (read is called within this iteration)
            return read_values(postfile, *spans[k])

        found, counts, flat = block_positions(ids, firsts, wanted, read)
        chosen = [i for i, d in enumerate(ids.tolist()) if d in set(wanted.tolist())]
        assert found.tolist() == ids[chosen].tolist()
        assert counts.tolist() == [len(positions[i]) for i in chosen]
        assert flat.tolist() == [x for i in chosen for x in fmt.decode_positions(values[i])]
        assert read_blocks == sorted({i // 128 for i in chosen})
        ends, flat = values_positions(values)  # any sequence of values reads the same
        assert flat.tolist() == [x for p in positions for x in p]
        assert ends.tolist() == np.cumsum([len(p) for p in positions]).tolist()


def _whoosh_postings(snap: Snapshot, fieldname: str, btext: bytes) -> tuple[list, list]:
    ids, weights = [], []
    for reader, offset in snap.leaves:
        if (fieldname, btext) in reader:
            matcher = reader.postings(fieldname, btext)  # deleted documents left out
            while matcher.is_active():
                ids.append(offset + matcher.id())
                weights.append(matcher.weight())
                matcher.next()
    return ids, weights


def test_a_new_view_reuses_segment_postings_only_where_they_still_hold(lib: Library) -> None:
    old = _snap(lib)
    words = [b"zebra", b"robot", b"graph", b"cross"]
    for word in words:  # read (and keep) in the old view
        old.postings("abstract", word)
    lib.search('"zebra crossing"')
    sample = np.flatnonzero(old.live)[::7].tolist()
    papers = [old.paper(d) for d in sample]  # kept by segment, for the next view too
    # Papers holding the words are written again (as a re-import does): deleted from their
    # segment, added in a new one
    zebras = lib.results("zebra").ids()
    robots = lib.results("robot").ids()[:40]
    lib.index.add([lib.paper(pid) for pid in [*zebras[:2], *robots]])
    lib.annotations.add_tags(robots, ["robots"])
    new = _snap(lib)
    assert new is not old and len(new.leaves) > len(old.leaves)
    for word in words:
        ids, weights = _whoosh_postings(new, "abstract", word)
        ours = new.postings("abstract", word)
        assert ours.ids.tolist() == ids and ours.weights.tolist() == weights
    for query in ('"zebra crossing"', "zebra robot", "robot -graph", "tag:robots zebra"):
        plan = lib.index.plan(query, new)
        assert np.flatnonzero(new.docs(plan.strict)).tolist() == sorted(_sets(new,
                                                                              plan.strict, lib))
    assert sorted(lib.results("zebra").ids()) == sorted(zebras)
    for doc in [*sample, *np.flatnonzero(new.live)[-60:].tolist()]:
        assert new.paper(doc) == Paper.from_dict(new.stored(doc)["paper"])
    by_id = {p.id: p for p in papers}  # what the old view read, as the new one reads it
    assert all(by_id.get(new.paper(d).id, new.paper(d)) == new.paper(d)
               for d in np.flatnonzero(new.live).tolist())
