"""A big file is parsed (and some of it analysed) in a worker process: the library ends
up exactly as when one process does everything."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest

from paper_tui import config as config_mod
from paper_tui.importers import import_file, registry
from paper_tui.importers import parallel as worker
from paper_tui.library import Library
from paper_tui.model import Paper
from test_index_writer import segment_files

WORDS = ("graph", "diffusion", "robots", "memory", "transformers", "bandits", "proofs")


def records(n: int, start: int = 0) -> list[dict]:
    return [{"title": f"{WORDS[i % 7].title()} for task {i}: a Study of {WORDS[i % 5]}",
             "abstract": f"We study {WORDS[i % 3]} and {WORDS[i % 7]} models, case {i}; "
                         f"{'rough terrain ' * (i % 4)}results on Rodolà's MemR$^3$.",
             "authors": [f"Ann Author{i % 13}", "Bo Chen"], "venue": "iclr",
             "year": 2015 + i % 10, "keywords": ["ml", WORDS[i % 6]]}
            for i in range(start, start + n)]


def write(path: Path, lines: list[bytes]) -> Path:
    path.write_bytes(gzip.compress(b"".join(lines), mtime=0))
    return path


def state(lib: Library) -> dict:
    """Everything a reader of the library can see."""
    index = lib.root / "index"
    queries = ["", "graph", '"rough terrain"', "author:author3 year:>=2020", "diffusion~",
               "memr3", "transform*", "title:study -robots"]
    return {
        "count": lib.count(),
        "hits": {q: [(h.paper.id, round(h.score or 0, 6)) for h in lib.search(q, limit=None).hits]
                 for q in queries},
        "vocabulary": (index / "vocabulary.txt").read_text(),
        "sources": {p.name: gzip.decompress(p.read_bytes())
                    for p in (lib.root / "sources").glob("*.gz")},
    }


@pytest.fixture
def parallel(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every file counts as big (so the worker runs on a small test file)."""
    monkeypatch.setattr(registry, "PARALLEL_BYTES", 0)


def open_lib(root: Path) -> Library:
    return Library.open(root, config=config_mod.defaults(), bundled=False)


@pytest.mark.parametrize("every", [None, 2])  # as it goes; one chunk in two in the worker
def test_parallel_import_gives_the_same_library(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                every: int | None) -> None:
    monkeypatch.setattr(worker, "EVERY", every)
    lines = [json.dumps(r).encode() + b"\n" for r in records(300)]
    lines[10:10] = [b"{not json\n", lines[3], b'{"venue": "no title, no abstract"}\n']
    first = write(tmp_path / "papers.jsonl.gz", lines)
    libs, reports = {}, {}
    for mode in ("serial", "parallel"):
        if mode == "parallel":
            monkeypatch.setattr(registry, "PARALLEL_BYTES", 0)
        lib = libs[mode] = open_lib(tmp_path / mode)
        reports[mode] = lib.import_paths([first])
    assert [str(e) for e in reports["parallel"].errors] == \
        [str(e) for e in reports["serial"].errors] == [f"{first}:11: invalid JSON: "
                                                       "Expecting property name enclosed in "
                                                       "double quotes"]
    assert len(reports["parallel"].skipped) == len(reports["serial"].skipped) == 1
    assert reports["parallel"].added == reports["serial"].added == 300
    # One new segment each, written byte for byte alike (postings merged from the worker's
    # chunks and analysed here alike).
    assert segment_files(libs["parallel"].root / "index") == \
        segment_files(libs["serial"].root / "index")
    assert state(libs["parallel"]) == state(libs["serial"])

    # Re-import a changed file: most papers already indexed (left out of the worker's
    # chunks), some new, some gone.
    changed = write(tmp_path / "papers.jsonl.gz",
                    [json.dumps(r).encode() + b"\n" for r in records(250, start=100)])
    for mode in ("serial", "parallel"):
        libs[mode].import_paths([changed])
    assert state(libs["parallel"]) == state(libs["serial"])
    assert libs["parallel"].count() == 250
    for lib in libs.values():
        lib.close()


def test_worker_reports_file_errors_and_stops_early(tmp_path: Path, parallel: None) -> None:
    binary = tmp_path / "binary.jsonl"
    binary.write_bytes(b'{"a": 1}\x00\n')
    with pytest.raises(Exception, match="binary file, not a paper list"):
        list(import_file(binary)[2])
    big = write(tmp_path / "big.jsonl.gz", [json.dumps(r).encode() + b"\n"
                                            for r in records(1000)])
    stream = import_file(big)[2]
    assert isinstance(next(stream), Paper)
    stream.close()  # the worker is stopped, not left running


def test_postings_written_out_in_runs_give_the_same_library(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """An import whose index writer writes its postings out every few hundred (as a
    million-paper import does every 3 million) and whose worker prepares one chunk in two
    ends byte for byte as one that held them all; a repeated paper is one paper."""
    from paper_tui.index import writer

    lines = [json.dumps(r).encode() + b"\n" for r in records(1200)]
    lines[50:50] = [lines[7], lines[700]]
    path = write(tmp_path / "papers.jsonl.gz", lines)
    libs, reports = {}, {}
    for mode in ("whole", "runs"):
        if mode == "runs":
            monkeypatch.setattr(writer, "RUN_POSTINGS", 500)
            monkeypatch.setattr(registry, "PARALLEL_BYTES", 0)
            monkeypatch.setattr(worker, "EVERY", 2)
        lib = libs[mode] = open_lib(tmp_path / mode)
        reports[mode] = lib.import_paths([path])
    assert reports["runs"].added == reports["whole"].added == reports["runs"].papers == 1200
    assert reports["runs"].new_ids == reports["whole"].new_ids
    assert len(set(reports["runs"].new_ids)) == 1200
    assert segment_files(libs["runs"].root / "index") == \
        segment_files(libs["whole"].root / "index")
    assert state(libs["runs"]) == state(libs["whole"])
    added = [json.loads(next((lib.root / "sources").glob("*.added.json")).read_text())
             for lib in libs.values()]
    assert [sorted(pid for ids in a["seen"].values() for pid in ids) for a in added] == \
        [sorted(reports["whole"].new_ids)] * 2
    for lib in libs.values():
        lib.close()


def test_a_repeated_paper_leaves_nothing_of_its_chunk_behind(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A paper a list names twice, far apart: the worker prepared the second one's chunk
    too; none of it may stay held until the import ends (it did: a list with a repeat in
    every chunk held every chunk's postings, memory growing with the list)."""
    import tracemalloc

    monkeypatch.setattr(worker, "EVERY", 1)  # the worker prepares every chunk
    monkeypatch.setattr(registry, "PARALLEL_BYTES", 0)
    once = [json.dumps(r).encode() + b"\n" for r in records(3_000)]
    peaks = {}
    for name, lines in (("once", once), ("twice", once + once)):
        lib = open_lib(tmp_path / name)
        tracemalloc.start()
        try:
            report = lib.import_paths([write(tmp_path / f"{name}.jsonl.gz", lines)])
            peaks[name] = tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()
            lib.close()
        assert report.added == 3_000
    assert peaks["twice"] < peaks["once"] * 1.25, \
        f"{peaks['once'] / 2**20:.1f} MB once, {peaks['twice'] / 2**20:.1f} MB twice"
