"""The fast paths behind search, each against the slow, obvious way on a real index: posting
blocks read without Whoosh's matcher, lazy ranking, caches, phrase positions, fuzzy words."""

from __future__ import annotations

import json
import pickle
import random
import subprocess
import sys
from array import array
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest
from whoosh.matching.wrappers import FilterMatcher

from built_once import built_once, copy_of
from paper_tui import config as config_mod
from paper_tui.index.packed import narrowest, pack_block, read_block
from paper_tui.index.positions import PackedPositions
from paper_tui.index.results import TOP
from paper_tui.index.schema import MAX_EXPANSION, folded_positions, folded_words
from paper_tui.index.snapshot import SizedLRU
from paper_tui.index.word_list import Vocabulary, distance
from paper_tui.library import Library
from paper_tui.model import Paper

WORDS = ["model", "robot", "graph", "network", "learning", "control", "vision", "policy", "agent",
         "memory", "planning", "neural", "sparse", "dense", "motion", "field", "kernel",
         "bayesian"]


def papers(n: int, seed: int = 7) -> list[dict]:
    rng = random.Random(seed)
    out = []
    for i in range(n):
        title = " ".join(rng.choices(WORDS, k=rng.randint(2, 9)))
        abstract = " ".join(rng.choices(WORDS, k=rng.randint(5, 60)))
        out.append({"title": f"{title} {i}", "authors": [f"Ann Lee{i % 7}"],
                    "abstract": abstract, "venue": "icml", "year": 2000 + i % 20})
    return out


@pytest.fixture(scope="module")
def big(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Library]:
    """Enough papers that common words fill more than one ranked page and more than one
    posting block (1,024 postings)."""
    def build(root: Path) -> None:
        source = root / "in" / "papers.jsonl"
        source.parent.mkdir(parents=True)
        source.write_text("".join(json.dumps(p) + "\n" for p in papers(1500)),
                          encoding="utf-8")
        with Library.open(root / "lib", config=config_mod.defaults(), bundled=False
                          ) as library:
            assert library.import_paths([source]).added == 1500

    root = copy_of(tmp_path_factory, built_once(tmp_path_factory, "internals", build) / "lib",
                   "lib")
    library = Library.open(root, config=config_mod.defaults(), bundled=False)
    yield library
    library.close()


@pytest.mark.parametrize(("query", "all_words"), [
    ("model", "model"), ("robot graph", "robot AND graph"),
    ("control OR vision", "control OR vision"), ("model -title:sparse", "model -title:sparse")])
def test_lazy_ranking_is_the_full_sort(big: Library, query: str, all_words: str) -> None:
    full = big.results(query)
    ranked = full.ids()  # every hit ranked at once
    assert len(ranked) == len(full) > 2 * TOP
    lazy = big.results(query)  # the top page first, the rest while scrolling
    assert [lazy.paper(i).id for i in range(len(lazy))] == ranked
    scores = [lazy.score(i) for i in range(len(lazy))]
    snap = big.index.view()
    docs = [snap.docnum(paper_id) for paper_id in ranked]
    strict = len(big.results(all_words))
    for group in (range(strict), range(strict, len(ranked))):  # all words, then some
        keys = [(-scores[i], docs[i]) for i in group]
        assert keys == sorted(keys)


def test_index_of_and_ids_rank_what_is_still_pending(big: Library) -> None:
    results = big.results("model")
    last = big.results("model").ids()[-1]
    assert results.index_of(last) == len(results) - 1


def test_postings_and_positions_equal_whooshs_matcher_and_the_text(big: Library) -> None:
    snap = big.index.view()
    checked = 0
    for reader, offset in snap.leaves:
        for fieldname in ("abstract", "title"):
            fmt = reader.schema[fieldname].format
            assert isinstance(fmt, PackedPositions)
            for btext in list(reader.lexicon(fieldname)):
                matcher = reader.postings(fieldname, btext)
                deleted = reader.deleted_docs_set if isinstance(matcher, FilterMatcher) else ()
                ids, weights, values = [], [], []
                while matcher.is_active():  # Whoosh's own reading of our blocks
                    ids.append(matcher.id())
                    weights.append(matcher.weight())
                    values.append(matcher.value())
                    matcher.next()
                if not deleted:
                    ours = snap.postings(fieldname, btext)
                    assert list(ours.ids) == [offset + d for d in ids]
                    assert list(ours.weights) == weights
                assert weights == [float(fmt.decode_frequency(v)) for v in values]
                child = reader.postings(fieldname, btext)
                child = child.child if isinstance(child, FilterMatcher) else child
                every = []  # deleted documents too
                while child.is_active():
                    every.append((offset + child.id(), fmt.decode_positions(child.value())))
                    child.next()
                wanted = np.array([d for d, _ in every[::3]], dtype=np.int64)
                docs, flat = snap._candidate_positions(fieldname, btext, wanted)
                assert list(zip(docs.tolist(), flat.tolist(), strict=True)) == \
                    [(d, p) for d, ps in every[::3] for p in ps]
                checked += len(ids)
            for doc in range(0, reader.doc_count_all(), 97):  # positions are the text's
                paper = Paper.from_dict(reader.stored_fields(doc)["paper"])
                text = paper.display_abstract if fieldname == "abstract" else paper.display_title
                for term, expected in folded_positions(folded_words(text)).items():
                    value = reader.postings(fieldname, term.encode())
                    value.skip_to(doc)
                    assert value.id() == doc
                    assert fmt.decode_positions(value.value()) == expected
    assert checked > 20_000


def test_packed_positions_round_trip() -> None:
    fmt = PackedPositions(field_boost=2.0)
    for positions in ([0], [5], [255], [256], [70000], [1, 2], [3, 300, 301],
                      list(range(0, 2000, 7)), [2**32 - 1]):
        value = fmt.encode(positions)
        assert fmt.decode_positions(value) == positions
        assert fmt.decode_frequency(value) == len(positions)
        assert fmt.decode_weight(value) == 2.0 * len(positions)
    values = [fmt.encode(p) for p in ([1], [2, 3], [4, 5, 6])]
    for some in (values, []):
        block = pack_block(array("B", [1] * len(some)), None, some, fixed=False)
        assert pickle.loads(block)[2] == tuple(some)  # as Whoosh reads them
        ours = read_block(block)  # as we do
        assert bytes(ours.values()) == b"".join(some)
        assert ours.value_ends().tolist() == np.cumsum([len(v) for v in some]).tolist()


@pytest.mark.parametrize(("numbers", "typecode"), [
    ([0, 1, 255], "B"), ([3, 256, 7], "H"), ([70000, 1], "I"), ([2**32 - 1], "I"), ([], "B")])
def test_packed_ids_are_the_narrowest_array_and_read_back_both_ways(numbers: list[int],
                                                                    typecode: str) -> None:
    block = pack_block(narrowest(array("I", numbers)), None, None, fixed=False)
    ours = read_block(block)
    assert ours.typecode == typecode
    again = pickle.loads(block)[0]
    assert list(again) == numbers == ours.gaps().tolist()  # as Whoosh, as numpy reads it
    assert len(again) == len(numbers)
    if numbers:
        assert again[-1] == numbers[-1]


def test_packed_weights_keep_float32_values() -> None:
    weights = array("f", [1.0, 2.0, 0.5, 3.25, 1e6])
    block = pack_block(array("B", [1] * len(weights)), weights, None, fixed=False)
    assert list(pickle.loads(block)[1]) == list(weights) == read_block(block).weights().tolist()


def test_phrase_hits_equal_a_scan_of_the_text(big: Library) -> None:
    for a, b in (("model", "robot"), ("graph", "network"), ("planning", "planning")):
        expected = {p["title"] for p in papers(1500)
                    if f"{a} {b}" in p["abstract"] or f"{a} {b}" in p["title"]}
        for _ in range(2):  # the second time from the cached posting blocks
            page = big.search(f'"{a} {b}"', limit=None)
            assert {h.paper.title for h in page.hits} == expected


def test_a_new_view_after_a_change_does_not_reuse_cached_postings(big: Library,
                                                                  tmp_path: Path) -> None:
    before = big.results("zebra")
    assert len(before) == 0 and len(big.results("model")) > 0
    old_view = big.index.view()
    source = tmp_path / "zebra.jsonl"
    source.write_text(json.dumps({"title": "A model of zebra stripes", "authors": ["Z Z"],
                                  "abstract": "Zebra stripes, modelled.", "venue": "icml",
                                  "year": 2020}) + "\n", encoding="utf-8")
    big.import_paths([source])
    assert big.index.view() is not old_view
    assert [h.paper.title for h in big.search("zebra").hits] == ["A model of zebra stripes"]
    assert "A model of zebra stripes" in {h.paper.title for h in big.search("model",
                                                                              limit=None).hits}


def test_papers_and_title_words_kept_per_view_are_what_is_stored(big: Library) -> None:
    snap = big.index.view()
    ids = big.results("model").ids()[:60]
    docs = [snap.docnum(paper_id) for paper_id in ids]
    first = [snap.paper(d) for d in docs]
    assert all(a is b for a, b in zip(first, [snap.paper(d) for d in docs], strict=True))
    assert first == [Paper.from_dict(snap.stored(d)["paper"]) for d in docs]
    assert [p.id for p in first] == ids
    # The same title highlighted for two queries: its words are kept, the spans differ
    title = first[0].display_title
    for word in ("model", "robot", "graph"):
        results = big.results(f"title:{word}")
        i = results.index_of(ids[0])
        spans = results.highlights(i, ("title",)).get("title", []) if i is not None else []
        assert [title[s:e].lower() for s, e in spans] == \
            [w for w in title.lower().split() if w == word]


def test_sized_lru_evicts_least_recently_used_by_size() -> None:
    lru = SizedLRU(10)
    lru.put("a", 1, 4)
    lru.put("b", 2, 4)
    assert lru.get("a") == 1  # a is now the most recent
    lru.put("c", 3, 4)  # over budget: b goes
    assert lru.get("b") is None and lru.get("a") == 1 and lru.get("c") == 3
    assert lru.size == 8
    lru.put("huge", 4, 50)  # bigger than the budget: kept alone, the rest dropped
    assert len(lru) == 1 and lru.get("huge") == 4


def _levenshtein(a: str, b: str) -> int:
    row = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        prev, row[0] = row[0], i
        for j, cb in enumerate(b, 1):
            prev, row[j] = row[j], min(row[j] + 1, row[j - 1] + 1, prev + (ca != cb))
    return row[-1]


def test_edit_distance_and_fuzzy_words_equal_brute_force(tmp_path: Path) -> None:
    rng = random.Random(5)
    words = sorted({"".join(rng.choices("abcdeéz", k=rng.randint(1, 9))) for _ in range(3000)})
    for _ in range(2000):
        a, b = rng.choice(words), rng.choice(words)
        assert distance(a, b) == _levenshtein(a, b)
    path = tmp_path / "vocabulary.txt"
    path.write_text("\n".join(words) + "\n", encoding="utf-8")
    vocabulary = Vocabulary(path)
    for word in [*rng.sample(words, 60), "abcd", "zzzz", "é"]:
        for maxdist in (1, 2):
            for prefix in (1, 2):
                found = sorted((_levenshtein(word, w), w) for w in words
                               if w[:1] == word[:1] and w[:prefix] == word[:prefix]
                               and _levenshtein(word, w) <= maxdist)
                assert vocabulary.near(word, maxdist, prefix) == [w for _, w in found][:12]


def test_a_result_set_for_a_query_with_no_hits_costs_no_ranking(big: Library) -> None:
    results = big.index.results("xyzzy~")
    assert len(results) == 0 and results.ids() == []


def test_vocabulary_read_by_first_letter_equals_the_whole_list(tmp_path: Path) -> None:
    rng = random.Random(6)
    words = sorted({"".join(rng.choices("abcéz1", k=rng.randint(1, 7))) for _ in range(2000)})
    path = tmp_path / "vocabulary.txt"
    path.write_text("\n".join(words) + "\n", encoding="utf-8")
    vocabulary = Vocabulary(path)
    for probe in [*rng.sample(words, 100), "", "a", "zz", "y", "é", "1", "ab", "q"]:
        assert (probe in vocabulary) == (probe in words)
        starting = [w for w in words if w.startswith(probe)]
        assert vocabulary.starting(probe) == starting[:MAX_EXPANSION]
    vocabulary.extend(["yak", "Ant"])  # a new word in a letter not seen before, and folded
    assert "yak" in vocabulary and "ant" in vocabulary and "Ant" not in vocabulary
    assert path.read_text(encoding="utf-8").split() == sorted({*words, "yak", "ant"})


def test_listing_papers_imports_no_numpy_and_a_search_does(big: Library) -> None:
    """numpy costs ~0.1 s to import: the app's first screen (the empty query) goes without.
    In a new process, as the app starts."""
    script = """
import sys
from paper_tui import config
from paper_tui.library import Library
lib = Library.open(sys.argv[1], config=config.defaults(), bundled=False)
results = lib.results("")
shown = [results.paper(i).title for i in range(min(40, len(results)))]
listed = "numpy" in sys.modules
assert len(results) == lib.count() >= 1500 and len(shown) == 40, (len(results), lib.count())
assert lib.results("model robot").ids() and "numpy" in sys.modules
print(listed)
"""
    out = subprocess.run([sys.executable, "-c", script, str(big.root)], capture_output=True,
                         text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "False"
