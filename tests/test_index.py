"""The index's life: opened not rebuilt, re-indexed per changed source, rebuilt when
corrupt (annotations surviving), safe with two processes, analyzer fast path exact."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from paper_tui import config as config_mod
from paper_tui.holdings.sources import checksum
from paper_tui.index import PaperIndex, terms_of
from paper_tui.index.schema import FoldedText, analyzer
from paper_tui.index.snapshot import LENGTHS, length_bytes
from paper_tui.library import Library
from paper_tui.model import Paper
from test_search import PAPERS, write_jsonl

MORE = [{"title": f"Extra paper {n}", "abstract": f"Extra abstract number {n} about bandits.",
         "venue": "colt", "year": 2020} for n in range(5)]


def open_lib(root: Path, progress=None) -> Library:
    return Library.open(root, config=config_mod.defaults(), bundled=False, progress=progress)


def index_files(root: Path) -> dict[str, int]:
    """The index's files (but the versions cache, written by the first search that needs
    it) and when each was last written."""
    return {p.name: p.stat().st_mtime_ns for p in (root / "index").iterdir()
            if not p.name.startswith("versions-")}


def test_fast_indexing_path_gives_the_analyzers_terms() -> None:
    text = ("Running the L²EAP agents: Rodolà's MemR³ model-based, state-of-the-art "
            "results on 3.5 datasets; ﬁne-tuning is not all we need")
    for stemmed in (True, False):
        slow = [(t.pos, t.text) for t in analyzer(stemmed)(text, positions=True)]
        fast = [(pos, term) for pos, term, _, _ in terms_of(text, stemmed)]
        assert fast == slow
    terms = {term for _, term, _, _ in terms_of(text)}
    assert {"run", "l2eap", "rodola", "memr3", "fine"} <= terms


def test_fast_index_gives_whooshs_postings_byte_for_byte() -> None:
    text = ("The Rodolà model runs; running runners ran the MemR³ model, then the model "
            "ran again: L²EAP vs. L2EAP on 3.5 datasets. ") * 30
    for stemmed, phrase in ((True, True), (False, False)):
        field = FoldedText(stemmed=stemmed, phrase=phrase)
        slow = field.format.word_values(text, field.analyzer, mode="index")
        assert sorted(field.index(text)) == sorted((t.encode(), f, w, v) for t, f, w, v in slow)


def test_scores_read_whooshs_field_lengths(tmp_path: Path) -> None:
    papers = _read(write_jsonl(tmp_path / "a.jsonl", PAPERS))
    index = PaperIndex(tmp_path / "index")
    index.open()
    index.add(papers)
    snap = index.view()
    for reader, _ in snap.leaves:
        for field in ("title", "abstract", "authors"):
            raw = length_bytes(reader, field)
            assert [LENGTHS[b] for b in raw] == \
                [reader.doc_field_length(d, field) for d in range(reader.doc_count_all())]
    index.close()


def test_reopening_does_not_reindex(tmp_path: Path) -> None:
    root = tmp_path / "lib"
    with open_lib(root) as lib:
        lib.import_paths([write_jsonl(tmp_path / "a.jsonl", PAPERS)])
    before = index_files(root)
    stages: list[str] = []
    with open_lib(root, progress=lambda stage, done, total: stages.append(stage)) as lib:
        assert lib.count() == len(PAPERS)
        assert lib.search("graph").total == 2
    assert stages == []
    assert index_files(root) == before


def test_list_orders_are_kept_beside_the_index_per_version(tmp_path: Path) -> None:
    root = tmp_path / "lib"
    with open_lib(root) as lib:
        lib.import_paths([write_jsonl(tmp_path / "a.jsonl", PAPERS)])
        listed = [p.id for p in lib.papers()]
        by_year = [lib.results("", sort="year").paper(i).id for i in range(len(PAPERS))]
    files = sorted(p.name for p in (root / "index").glob("order-*.bin"))
    assert [f.split("-")[-1] for f in files] == ["list.bin", "year.bin"]
    with open_lib(root) as lib:
        assert [p.id for p in lib.papers()] == listed
        assert [lib.results("", sort="year").paper(i).id for i in range(len(PAPERS))] == by_year
        lib.import_paths([write_jsonl(tmp_path / "b.jsonl", MORE)])
        assert len(list(lib.papers())) == len(PAPERS) + len(MORE)
    assert len(list((root / "index").glob("order-*-list.bin"))) == 1  # old version removed


def test_reimporting_an_unchanged_file_adds_nothing(tmp_path: Path) -> None:
    path = write_jsonl(tmp_path / "a.jsonl", PAPERS)
    with open_lib(tmp_path / "lib") as lib:
        lib.import_paths([path])
        before = index_files(tmp_path / "lib")
        report = lib.import_paths([path])
        assert (report.added, report.unchanged) == (0, len(PAPERS))
        assert index_files(tmp_path / "lib") == before


def test_a_changed_source_is_reindexed_alone(tmp_path: Path) -> None:
    root = tmp_path / "lib"
    a = write_jsonl(tmp_path / "a.jsonl", PAPERS)
    b = write_jsonl(tmp_path / "b.jsonl", MORE[:2])
    with open_lib(root) as lib:
        lib.import_paths([a, b])
        # The source copy changes but the index is not told (as when an import is cut
        # short between storing the file and indexing it, or another copy of the library
        # is synced in): the checksum differs from the one the index recorded.
        b = write_jsonl(b, MORE)
        papers = [p for p in _read(b)]
        lib.sources.write("b-jsonl", b, checksum(b), "jsonl", papers)
    stages: list[tuple[str, int | None]] = []
    with open_lib(root, progress=lambda s, d, t: stages.append((s, t))) as lib:
        assert {stage for stage, _ in stages} == {"indexing b-jsonl"}
        assert {total for _, total in stages} == {len(MORE)}
        assert lib.search("bandits").total == len(MORE)
        assert lib.count() == len(PAPERS) + len(MORE)
    stages.clear()
    with open_lib(root, progress=lambda s, d, t: stages.append((s, t))) as lib:
        assert stages == []


def _read(path: Path) -> list[Paper]:
    from paper_tui.importers import import_file

    return [r for r in import_file(path)[2] if isinstance(r, Paper)]


@pytest.mark.parametrize("damage", ["garbage", "empty", "missing", "old-schema"])
def test_a_damaged_index_is_rebuilt_and_annotations_survive(tmp_path: Path,
                                                            damage: str) -> None:
    root = tmp_path / "lib"
    with open_lib(root) as lib:
        lib.import_paths([write_jsonl(tmp_path / "a.jsonl", PAPERS)])
        paper = lib.search("memr3").hits[0].paper
        lib.annotations.add_tags([paper.id], ["to-cite"])
        lib.annotations.set_starred([paper.id], True)
        assert lib.search("tag:to-cite").total == 1
    index = root / "index"
    if damage == "garbage":
        for f in index.iterdir():
            if f.suffix in (".toc", ".seg"):
                f.write_bytes(b"\x00garbage" * 10)
    elif damage == "empty":
        for f in index.iterdir():
            f.unlink()
    elif damage == "missing":
        import shutil

        shutil.rmtree(index)
    else:
        meta = json.loads((index / "paper-tui-index.json").read_text())
        meta["schema"] = 1
        (index / "paper-tui-index.json").write_text(json.dumps(meta))
    stages: list[str] = []
    warnings: list[str] = []
    with Library.open(root, config=config_mod.defaults(), bundled=False, warn=warnings.append,
                      progress=lambda s, d, t: stages.append(s)) as lib:
        assert "indexing" in stages
        assert lib.count() == len(PAPERS)
        assert [h.paper.id for h in lib.search("tag:to-cite starred:yes").hits] == [paper.id]
    if damage in ("garbage", "old-schema"):  # a rebuild of an index that was there is told
        assert len(warnings) == 1 and "rebuilding it from the sources" in warnings[0]


def test_the_readers_work_never_writes_the_index(library: Library) -> None:
    """Tags, statuses, stars, notes, lists and undo change the annotation store only: the
    index keeps its generation and files, and search sees every change at once."""
    index_dir = library.root / "index"
    before = library.index.ix.latest_generation()
    derived = ("order-", "versions-")  # caches a first search may write
    files = sorted(p.name for p in index_dir.iterdir() if not p.name.startswith(derived))
    ids = library.results("").ids()[:3]
    library.annotations.add_tags(ids, ["kernels"])
    library.annotations.set_status(ids[:2], "to-read")
    library.annotations.set_starred(ids[:1], True)
    library.annotations.set_note(ids[2], "Diffusion, again")
    library.create_list("week")
    library.add_to_list("week", ids[1:])
    assert {h.paper.id for h in library.search("tag:kernels").hits} == set(ids)
    assert [h.paper.id for h in library.search("status:to-read starred:yes").hits] == ids[:1]
    assert [h.paper.id for h in library.search("note:diffusion").hits] == [ids[2]]
    assert {h.paper.id for h in library.search("list:week").hits} == set(ids[1:])
    assert library.annotations.undo() is not None
    assert library.search("list:week").hits == []
    library.annotations.flush()
    assert library.index.ix.latest_generation() == before
    assert sorted(p.name for p in index_dir.iterdir()
                  if not p.name.startswith(derived)) == files


_WRITER = """
import sys, json
from pathlib import Path
from paper_tui.index import PaperIndex
from paper_tui.importers import import_file
from paper_tui.model import Paper
index = PaperIndex(Path(sys.argv[1]))
index.open()
papers = [r for r in import_file(Path(sys.argv[2]))[2] if isinstance(r, Paper)]
for round in range(3):
    index.add(papers)
index.close()
"""


def test_two_processes_writing_and_reading_never_corrupt_the_index(tmp_path: Path) -> None:
    a = write_jsonl(tmp_path / "a.jsonl", PAPERS)
    b = write_jsonl(tmp_path / "b.jsonl", MORE)
    index_dir = tmp_path / "index"
    index = PaperIndex(index_dir)
    index.open()
    index.close()
    procs = [subprocess.Popen([sys.executable, "-c", _WRITER, str(index_dir), str(f)])
             for f in (a, b)]
    reader = PaperIndex(index_dir)
    assert reader.open() is False
    while any(p.poll() is None for p in procs):
        assert reader.results("").error is None  # a reader never waits on the writers
    assert [p.returncode for p in procs] == [0, 0]
    reader.close()
    reader = PaperIndex(index_dir)
    assert reader.open() is False
    assert reader.count() == len(PAPERS) + len(MORE)
    reader.close()
