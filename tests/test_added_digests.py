"""The first-seen times as arrays (issue 39): every source's ids' digests and times kept
in one file beside the sources and read instead of the JSON, the index's documents by
digest kept beside the index; a damaged, stale or missing file of either is made again
(said in one line when damaged) and nothing is lost."""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

import numpy as np
import pytest

from paper_tui.holdings import arrivals as arrivals_mod
from paper_tui.holdings.arrivals import CACHE, Arrivals, file_of, read_times, write_times
from paper_tui.index.id_digests import DigestTable
from paper_tui.query.added import digests
from test_added_words import _ids, _open

DAY = 86_400


def _paper(n: int) -> dict[str, object]:
    return {"title": f"Diffusion paper number {n}, mark{n}", "authors": [f"Author {n}"],
            "abstract": f"We study diffusion in the setting number {n}.",
            "venue": "TestConf", "year": 2026}


@pytest.fixture
def library(tmp_path: Path) -> tuple[Path, set[str], set[str]]:
    """Papers 0-4 imported 10 days ago, 3-7 today: (library root, old ids, new ids)."""
    root = tmp_path / "lib"
    with _open(root) as lib:
        for name, numbers in (("old", range(5)), ("new", range(3, 8))):
            path = tmp_path / "in" / f"{name}.jsonl"
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text("".join(json.dumps(_paper(n)) + "\n" for n in numbers), "utf-8")
            lib.import_paths([path])
            if name == "old":
                (sid,) = lib.sources.manifest
                times = file_of(root / "sources", sid)
                write_times(times, {p: int(time.time()) - 10 * DAY
                                    for p in read_times(times)})
                old = set(read_times(times))
        new = set(lib.first_seen()) - old
    return root, old, new


def test_digests_are_stable_and_distinct() -> None:
    found = digests(["a", "b", "é", "a"])
    assert found.dtype == np.dtype("<u8") and len(found) == 4
    assert found[0] == found[3] and len(set(found[:3].tolist())) == 3
    assert digests([]).tolist() == []


def test_added_is_answered_from_the_digests_file_without_the_json(
        library: tuple[Path, set[str], set[str]], monkeypatch: pytest.MonkeyPatch) -> None:
    root, old, new = library
    with _open(root) as lib:
        assert _ids(lib, "added:today") == new  # (writes the digests' file)
    assert (root / "sources" / CACHE).is_file()
    assert list((root / "index").glob("iddigests-*.bin"))

    def no_json(path: Path) -> dict[int, list[str]]:
        raise AssertionError(f"{path} parsed")

    monkeypatch.setattr(arrivals_mod, "read_grouped", no_json)
    with _open(root) as lib:
        assert _ids(lib, "added:today") == new
        assert _ids(lib, "added:11d") == old | new
        assert _ids(lib, "added:7d mark6") == {p.id for p in lib.papers()
                                               if p.title.endswith("mark6")}
        assert _ids(lib, "-added:today") == old


@pytest.mark.parametrize("damage", ["garbage", "truncated", "flipped", "empty"])
def test_a_damaged_digests_file_is_said_in_one_line_and_made_again(
        library: tuple[Path, set[str], set[str]], damage: str) -> None:
    root, old, new = library
    with _open(root) as lib:
        assert _ids(lib, "added:today") == new
    cache = root / "sources" / CACHE
    good = cache.read_bytes()
    bad = {"garbage": b"not arrays at all", "truncated": good[:-5],
           "flipped": good[:-3] + bytes([good[-3] ^ 0xFF]) + good[-2:],
           "empty": b""}[damage]
    cache.write_bytes(bad)
    told: list[str] = []
    with _open(root, warn=told.append) as lib:
        assert _ids(lib, "added:today") == new
        assert _ids(lib, "added:11d") == old | new
    said = [line for line in told if CACHE in line]
    assert len(said) == 1 and "made again" in said[0] and "\n" not in said[0]
    assert cache.read_bytes() == good  # made again, as it was


def test_a_changed_json_file_is_read_again(library: tuple[Path, set[str], set[str]]
                                           ) -> None:
    """A source's times rewritten (by hand, a merge): its entry in the digests' file names
    the JSON it was made from, so the new times count."""
    root, old, new = library
    with _open(root) as lib:
        assert _ids(lib, "added:today") == new
        sids = list(lib.sources.manifest)
    for sid in sids:  # everything seen 20 days ago now
        path = file_of(root / "sources", sid)
        write_times(path, dict.fromkeys(read_times(path), int(time.time()) - 20 * DAY))
    with _open(root) as lib:
        assert _ids(lib, "added:today") == set()
        assert _ids(lib, "added:21d") == old | new


def test_an_older_library_without_the_files_makes_them(
        library: tuple[Path, set[str], set[str]]) -> None:
    root, _, new = library
    (root / "sources" / CACHE).unlink(missing_ok=True)
    for file in (root / "index").glob("iddigests-*.bin"):
        file.unlink()
    told: list[str] = []
    with _open(root, warn=told.append) as lib:
        assert _ids(lib, "added:today") == new
    assert told == []
    assert (root / "sources" / CACHE).is_file()


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes anywhere")
def test_a_read_only_library_reads_the_json_each_time(
        library: tuple[Path, set[str], set[str]]) -> None:
    root, old, new = library
    (root / "sources" / CACHE).unlink(missing_ok=True)
    sources = root / "sources"
    sources.chmod(0o555)
    try:
        arrivals = Arrivals(sources)
        assert set(arrivals.first_seen()) == old | new
        assert len(arrivals.digests_at(0, 2**62)) == len(old | new)
        assert not (sources / CACHE).exists()
    finally:
        sources.chmod(0o755)


def test_the_earliest_time_of_an_id_two_sources_hold(tmp_path: Path) -> None:
    root = tmp_path / "sources"
    root.mkdir()
    manifest = {}
    for n, (sid, times) in enumerate((("a", {"x": 50, "y": 10}), ("b", {"x": 20, "z": 30}))):
        write_times(file_of(root, sid), times)
        manifest[sid] = {"id": sid, "path": f"/{sid}.json", "checksum": "0" * 64,
                         "format": "paperlists", "count": len(times), "imported_at": n}
    (root / "manifest.json").write_text(json.dumps({"version": 2, "sources": manifest}))
    arrivals = Arrivals(root)
    assert arrivals.times() == [10, 20, 30]
    assert sorted(arrivals.digests_at(20, 20).tolist()) == digests(["x"]).tolist()
    assert sorted(arrivals.digests_at(0, 100).tolist()) == sorted(
        digests(["x", "y", "z"]).tolist())
    assert sorted(arrivals.digests_of("b").tolist()) == sorted(digests(["x", "z"]).tolist())
    assert arrivals.first_seen() == {"x": 20, "y": 10, "z": 30}
    assert Arrivals(root).times() == [10, 20, 30]  # from the digests' file


def test_the_digest_table_finds_live_documents_and_refuses_a_bad_file() -> None:
    ids = ["p0", "p1", "p2", "p3"]
    live = np.array([True, False, True, True])
    table = DigestTable.build(ids, live)
    assert sorted(table.find(digests(["p2", "p1", "nope", "p0"])).tolist()) == [0, 2]
    again = DigestTable.load(table.dump(), 4)
    assert again is not None and again.find(digests(["p3"])).tolist() == [3]
    assert DigestTable.load(table.dump(), 3) is None  # a document past the index
    assert DigestTable.load(table.dump()[:-1], 4) is None
    assert DigestTable.load(b"", 4) is None
    assert table.find(digests([])).tolist() == []
