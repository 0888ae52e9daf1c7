"""What to read next, on a real 1,000-paper sample of the corpus: no kept paper yet, a
topic's papers rising after a few labels, the explanation, the term matrix and its cache."""

from __future__ import annotations

import gzip
import shutil
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

from built_once import built_once
from paper_tui import config as config_mod
from paper_tui.config import RecommendSettings
from paper_tui.index import PaperIndex
from paper_tui.index.schema import terms_of
from paper_tui.index.term_matrix import (
    CACHE_DIR,
    MIN_DF,
    papers_matrix,
    sample_matrix,
    term_matrix,
)
from paper_tui.library import Library
from paper_tui.recommend import HINT, Recommender

SAMPLE = Path(__file__).parent / "data" / "papers-ml-1000.jsonl.gz"


def is_topic(paper) -> bool:
    """The simulated reader's interest: reinforcement learning."""
    return "reinforcement" in f"{paper.title} {paper.abstract}".lower()


@pytest.fixture(scope="module")
def sample_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A library of the sample, imported once (tests copy it before labelling)."""
    def build(folder: Path) -> None:
        source = folder / "papers.jsonl"
        source.write_bytes(gzip.decompress(SAMPLE.read_bytes()))
        with Library.open(folder / "library", config=config_mod.defaults(), bundled=False
                          ) as lib:
            report = lib.import_paths([source])
            assert not report.failed

    return built_once(tmp_path_factory, "recommend-sample", build) / "library"


@pytest.fixture
def lib(sample_dir: Path, tmp_path: Path) -> Iterator[Library]:
    root = tmp_path / "library"
    shutil.copytree(sample_dir, root)
    with Library.open(root, config=config_mod.defaults(), bundled=False) as opened:
        yield opened


def label(lib: Library, kept: int = 5, skipped: int = 30) -> tuple[list[str], list[str]]:
    """Mark the first ``kept`` topic papers to-read and the first ``skipped`` others
    skipped, in list order; returns both lists of ids."""
    topic, other = [], []
    for paper in lib.papers():
        (topic if is_topic(paper) else other).append(paper.id)
    lib.annotations.set_status(topic[:kept], "to-read")
    lib.annotations.set_status(other[:skipped], "skipped")
    return topic[:kept], other[:skipped]


def test_no_kept_paper_gives_the_hint_and_nothing_else(lib: Library) -> None:
    label(lib, kept=0, skipped=10)
    found = lib.recommend()
    assert found.hint == HINT
    assert found.items == []
    assert found.learned_from.text() == "0 kept, 10 skipped"
    assert np.isnan(Recommender(lib).scores([lib.results("").ids()[0]])).all()


def test_the_topic_rises_after_five_labels(lib: Library) -> None:
    all_papers = list(lib.papers())
    share = sum(map(is_topic, all_papers)) / len(all_papers)
    assert share < 0.05  # a random top 20 would hold one topic paper
    kept, skipped = label(lib)
    found = lib.recommend(limit=20)
    assert found.hint is None
    assert found.learned_from.text() == "5 kept, 30 skipped"
    assert found.candidates == len(all_papers) - 35
    ids = [item.paper.id for item in found.items]
    assert len(ids) == 20 and not set(ids) & set(kept + skipped)
    assert sum(is_topic(item.paper) for item in found.items) >= 12
    scores = [item.score for item in found.items]
    assert scores == sorted(scores, reverse=True)


def test_a_query_limits_what_is_ranked(lib: Library) -> None:
    label(lib)
    found = lib.recommend("venue:icra", limit=50)
    assert found.items and all(item.paper.venue == "ICRA" for item in found.items)
    assert found.candidates == len(lib.results("venue:icra").ids())


def test_starred_tagged_and_listed_papers_are_kept(lib: Library) -> None:
    ids = lib.results("").ids()[:5]
    lib.annotations.set_starred([ids[0]], True)
    lib.annotations.add_tags([ids[1]], ["later"])
    lib.create_list("ideas")
    lib.add_to_list("ideas", [ids[2]])
    lib.annotations.set_status([ids[3]], "read")
    lib.annotations.set_status([ids[4]], "skipped")
    lib.annotations.set_starred([ids[4]], True)  # skipped but starred: kept
    rec = Recommender(lib)
    assert rec.learned_from.text() == "5 kept, 0 skipped"
    assert not set(ids) & set(rec.new_ids())


def test_the_explanation_names_the_words_that_pushed(lib: Library) -> None:
    label(lib)
    found = lib.recommend(limit=1)
    top = found.items[0].paper
    why = found.explain(top.id)
    assert why.up and all(r.weight > 0 for r in why.up)
    assert all(r.weight < 0 for r in why.down)
    words = {r.text.casefold() for r in why.up}
    assert words & {"reinforcement", "rl", "policy", "agent", "reward"}, why
    shown = f"{top.display_title} {top.display_abstract} {' '.join(top.authors)}"
    assert all(r.text in shown for r in why.up + why.down)  # as the paper writes it
    assert why.text().startswith("+ ")


def test_an_author_is_a_reason_by_full_name(lib: Library) -> None:
    papers = [p for p in lib.papers() if p.authors]
    by_author: dict[str, list] = {}
    for p in papers:
        for a in p.authors:
            by_author.setdefault(a, []).append(p)
    author, theirs = max(by_author.items(), key=lambda kv: len(kv[1]))
    assert len(theirs) >= 3
    lib.annotations.set_status([p.id for p in theirs[:-1]], "to-read")
    rec = Recommender(lib)
    why = rec.explain(theirs[-1].id, n=10)
    assert any(r.kind == "author" and r.text == author for r in why.up), why


def test_refresh_refits_only_when_labels_change(lib: Library) -> None:
    label(lib)
    rec = Recommender(lib)
    assert rec.refresh() is True
    assert rec.refresh() is False
    candidates = rec.new_ids()
    ranked = rec.rank([*candidates, "no-such-paper"])
    assert sorted(ranked) == sorted([*candidates, "no-such-paper"])
    assert ranked[-1] == "no-such-paper"
    lib.annotations.set_status([ranked[0]], "skipped")
    assert rec.refresh() is True
    assert rec.learned_from.text() == "5 kept, 31 skipped"
    assert ranked[0] not in rec.new_ids()


def test_term_matrix_holds_the_index_terms_and_is_cached(lib: Library) -> None:
    matrix = term_matrix(lib.index)
    assert len(matrix.ids) == lib.count()
    paper = lib.index.get(matrix.ids[0])
    row = matrix.counts[0]
    have = {matrix.terms[j]: v for j, v in zip(row.indices, row.data, strict=True)}
    title_terms = {f"title:{t}" for _, t, _, _ in terms_of(paper.title)}
    df = np.bincount(matrix.counts.indices, minlength=len(matrix.terms))
    column = {t: j for j, t in enumerate(matrix.terms)}
    assert {t for t in have if t.startswith("title:")} == \
        {t for t in title_terms if t in column}
    assert all(df[column[t]] >= MIN_DF for t in have)
    assert not any(t.startswith(("keywords:", "status:", "tags:")) for t in matrix.terms)
    files = list((lib.root / CACHE_DIR).glob("recommend-terms-*.npz"))
    assert len(files) == 1
    # a new process (a new index object) loads the file; without it, reads the same again
    for remove in (False, True):
        if remove:
            files[0].unlink()
        other = PaperIndex(lib.index.path)
        other.open()
        again = term_matrix(other)
        other.close()
        assert again.ids == matrix.ids and again.terms == matrix.terms
        assert (again.counts != matrix.counts).nnz == 0


def test_term_matrix_survives_annotation_writes(lib: Library) -> None:
    """Labelling papers leaves the index, and so the matrix, as they were."""
    matrix = term_matrix(lib.index)
    label(lib)
    lib.annotations.flush()
    assert term_matrix(lib.index) is matrix


def test_a_damaged_cache_file_is_read_again(lib: Library) -> None:
    matrix = term_matrix(lib.index)
    path = next((lib.root / CACHE_DIR).glob("recommend-terms-*.npz"))
    path.write_bytes(b"not a matrix")
    other = PaperIndex(lib.index.path)
    other.open()
    try:
        assert term_matrix(other).ids == matrix.ids
    finally:
        other.close()
    assert path.stat().st_size > 100  # rewritten


def test_startup_and_search_never_load_scipy(tmp_path: Path) -> None:
    """The learner's libraries are imported by ``recommend`` only."""
    import subprocess
    import sys

    code = ("import sys; from paper_tui.cli import build_parser; build_parser(); "
            "from paper_tui.library import Library; from paper_tui import config; "
            f"lib = Library.open({str(tmp_path / 'lib')!r}, config=config.defaults()); "
            "lib.search('learning'); lib.close(); "
            "print(sorted(m for m in ('scipy', 'sklearn') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True)
    assert out.stdout.strip() == "[]"


# -- a big library: ranked from a bounded sample (recommend.whole_up_to / sample) ----------
LOW = RecommendSettings(whole_up_to=100, sample=300)
"""The 1,000-paper sample as a "big" library: ranked from 300 of its papers."""


def test_a_papers_terms_are_its_posting_lists_terms(lib: Library) -> None:
    full = term_matrix(lib.index)
    ids = list(full.ids[::7])
    part = papers_matrix(lib.index, ids, full.terms)
    assert part.ids == tuple(ids)
    assert (part.counts != full.counts[full.rows(ids)]).nnz == 0


def test_the_sample_is_reproducible(sample_dir: Path, tmp_path: Path) -> None:
    drawn = []
    for copy in ("a", "b"):
        shutil.copytree(sample_dir, tmp_path / copy)
        with Library.open(tmp_path / copy, config=config_mod.defaults(), bundled=False) as opened:
            drawn.append(sample_matrix(opened.index, 300).ids)
    assert len(drawn[0]) == 300 and drawn[0] == drawn[1]
    cached = list((tmp_path / "a" / CACHE_DIR).glob("recommend-sample-*.npz"))
    assert len(cached) == 1  # the next process reads it from there
    with Library.open(tmp_path / "a", config=config_mod.defaults(), bundled=False) as opened:
        again = sample_matrix(opened.index, 300)
        assert again.ids == drawn[0]
        assert (again.counts != papers_matrix(opened.index, list(again.ids),
                                              again.terms).counts).nnz == 0


def test_a_big_library_is_ranked_from_the_sample_and_the_labelled(lib: Library) -> None:
    kept, skipped = label(lib)
    whole = Recommender(lib).recommend(limit=20)
    assert whole.bounded is None  # below the bound: as before
    rec = Recommender(lib, bound=LOW)
    found = rec.recommend(limit=20)
    assert found.bounded is not None
    assert found.bounded.of == found.candidates == whole.candidates
    assert 300 - len(kept) - len(skipped) < found.bounded.ranked < found.candidates
    assert found.bounded.text().startswith(f"ranked {found.bounded.ranked:,} of "
                                           f"{found.candidates:,} papers (a sample")
    assert found.learned_from.text() == "5 kept, 30 skipped"
    held = rec._ready().matrix.row_of
    assert all(i in held for i in kept + skipped)  # every labelled paper is learned from
    ids = [item.paper.id for item in found.items]
    assert len(ids) == 20 and not set(ids) & set(kept + skipped)
    assert sum(is_topic(item.paper) for item in found.items) >= 12  # shared words help
    assert ids == [item.paper.id for item in Recommender(lib, bound=LOW).recommend(
        limit=20).items]


def test_a_big_librarys_query_and_scores_stay_bounded(lib: Library) -> None:
    label(lib)
    rec = Recommender(lib, bound=LOW)
    few = rec.recommend("reinforcement", limit=5)
    assert few.bounded is None and few.items  # fewer hits than the sample: all ranked
    every = [p.id for p in lib.papers()]
    assert rec.bounded(every[:400]) is None
    assert not np.isnan(rec.scores(every[:400])).any()  # read beside the sample
    bounded = rec.bounded(every)
    assert bounded is not None and bounded.of == len(every)
    assert np.count_nonzero(~np.isnan(rec.scores(every))) == bounded.ranked
    assert rec.explain(every[-1]).up or rec.explain(every[-1]).down


def test_the_for_you_label_says_when_it_ranked_a_sample(sample_dir: Path, tmp_path: Path
                                                        ) -> None:
    conf = tmp_path / "config.yaml"
    conf.write_text("recommend:\n  whole_up_to: 100\n  sample: 300\n")
    config = config_mod.load(conf, user_file=Path("/nonexistent/paper-tui.yaml"))
    assert not config.problems
    shutil.copytree(sample_dir, tmp_path / "library")
    with Library.open(tmp_path / "library", config=config, bundled=False) as opened:
        label(opened)
        every = opened.results("", sort="for-you")
        assert every.sort_label.startswith("for you: 5 kept, 30 skipped; ranked ")
        assert f" of {len(every.ids()):,} papers (a sample" in every.sort_label
        few = opened.results("reinforcement", sort="for-you")
        assert few.sort_label == "for you: 5 kept, 30 skipped"


def test_a_bounded_refresh_refits_only_when_labels_change(lib: Library) -> None:
    label(lib)
    rec = Recommender(lib, bound=LOW)
    assert rec.refresh() and not rec.refresh()
    lib.annotations.set_status([next(iter(lib.papers())).id], "read")
    assert rec.refresh()


def test_a_big_library_with_few_new_papers_left_ranks_them_all(lib: Library) -> None:
    kept, _ = label(lib)
    every = [p.id for p in lib.papers() if p.id not in kept]
    lib.annotations.set_status(every[:-250], "skipped")
    rec = Recommender(lib, bound=LOW)
    found = rec.recommend(limit=1000)
    assert found.bounded is None and found.candidates == 250
    assert sorted(item.paper.id for item in found.items) == sorted(every[-250:])
