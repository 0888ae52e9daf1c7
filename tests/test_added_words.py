"""``added:`` — when a paper entered this library — from the first-seen times kept beside
the sources: what an import records, what a re-import and a second source keep, an older
library without them, the words' values and their errors, combined with other words."""

from __future__ import annotations

import datetime as dt
import json
import os
import shutil
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

import forked_cli
from paper_tui import config as config_mod
from paper_tui.errors import QueryError
from paper_tui.holdings.arrivals import file_of, read_times, write_times
from paper_tui.library import Library
from paper_tui.query.added import added_range, time_value

DAY = 86_400


def _paper(n: int, topic: str) -> dict[str, object]:
    return {"title": f"{topic.title()} paper number {n}, mark{n}", "authors": [f"Author {n}"],
            "abstract": f"We study {topic} in the setting number {n}.",
            "venue": "TestConf", "year": 2026}


def _write(path: Path, records: list[dict[str, object]]) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    return path


def _open(root: Path, warn=None) -> Library:
    return Library.open(root, config=config_mod.defaults(), bundled=False, warn=warn)


def _ids(lib: Library, query: str) -> set[str]:
    results = lib.results(query)
    assert results.error is None, results.error
    return set(results.ids())


def _backdate(lib_root: Path, source_id: str, seconds: int) -> None:
    """Make a source's papers look first seen ``seconds`` ago (as an older import would
    have left them)."""
    path = file_of(lib_root / "sources", source_id)
    write_times(path, {pid: int(time.time()) - seconds for pid in read_times(path)})


def _local_day(seconds_ago: int) -> str:
    return dt.datetime.fromtimestamp(time.time() - seconds_ago).date().isoformat()


@pytest.fixture
def two_imports(tmp_path: Path) -> Iterator[tuple[Library, set[str], set[str], str]]:
    """A library where ``old.jsonl`` (papers 0-4) was imported 10 days ago and ``new.jsonl``
    (papers 3-7: two already held) today: (library, old ids, ids new today, old's day)."""
    lib = _open(tmp_path / "lib")
    lib.import_paths([_write(tmp_path / "in" / "old.jsonl",
                             [_paper(n, "diffusion") for n in range(5)])])
    old_ids = set(lib.first_seen())
    (old_source,) = lib.sources.manifest
    _backdate(tmp_path / "lib", old_source, 10 * DAY)
    lib.import_paths([_write(tmp_path / "in" / "new.jsonl",
                             [_paper(n, "diffusion") for n in range(3, 8)])])
    new_ids = set(lib.first_seen()) - old_ids
    assert len(old_ids) == 5 and len(new_ids) == 3
    yield lib, old_ids, new_ids, _local_day(10 * DAY)
    lib.close()


def test_an_import_records_its_papers_and_a_paper_already_held_keeps_its_time(
        two_imports: tuple[Library, set[str], set[str], str]) -> None:
    lib, old_ids, new_ids, _ = two_imports
    seen = lib.first_seen()
    now = time.time()
    assert all(now - 10 * DAY - 5 < seen[pid] < now - 10 * DAY + 5 for pid in old_ids)
    assert all(now - 60 < seen[pid] <= now + 1 for pid in new_ids)


def test_a_reimport_never_changes_a_time(tmp_path: Path,
                                         two_imports: tuple[Library, set[str], set[str], str]
                                         ) -> None:
    lib, _, _, _ = two_imports
    before = lib.first_seen()
    report = lib.import_paths([tmp_path / "in" / "old.jsonl", tmp_path / "in" / "new.jsonl"],
                              force=True)
    assert not report.errors
    assert lib.first_seen() == before


def test_added_words_find_by_day_range_and_age(
        two_imports: tuple[Library, set[str], set[str], str]) -> None:
    lib, old_ids, new_ids, old_day = two_imports
    everything = old_ids | new_ids
    assert _ids(lib, "added:today") == new_ids
    assert _ids(lib, "added:7d") == new_ids
    assert _ids(lib, "added:11d") == everything
    assert _ids(lib, f"added:{old_day}") == old_ids
    assert _ids(lib, f"added:>={old_day}") == everything
    assert _ids(lib, f"added:>{old_day}") == new_ids
    assert _ids(lib, f"added:<{old_day}") == set()
    assert _ids(lib, f"added:<={old_day}") == old_ids
    assert _ids(lib, "added:yesterday") == set()


def test_added_combines_with_text_negation_and_annotation_words(
        two_imports: tuple[Library, set[str], set[str], str]) -> None:
    lib, old_ids, new_ids, _ = two_imports
    assert _ids(lib, "diffusion -added:today") == old_ids
    assert _ids(lib, "NOT added:today") == old_ids
    number_six = {p.id for p in lib.papers() if p.title.endswith("mark6")}
    number_one = {p.id for p in lib.papers() if p.title.endswith("mark1")}
    assert len(number_six) == 1 and number_six <= new_ids
    assert _ids(lib, "added:today mark6") == number_six
    assert _ids(lib, "added:today mark1") == set()
    assert _ids(lib, "NOT added:today AND mark1") == number_one
    assert _ids(lib, "added:today OR added:7d") == new_ids
    picked = sorted(new_ids)[0]
    lib.add_tags([picked], ["look"])
    assert _ids(lib, "added:today tag:look") == {picked}
    assert _ids(lib, "added:>=2000-01-01 -tag:look") == (old_ids | new_ids) - {picked}


def test_another_process_import_is_seen_by_the_next_search(
        tmp_path: Path, two_imports: tuple[Library, set[str], set[str], str]) -> None:
    lib, _, new_ids, _ = two_imports
    assert _ids(lib, "added:today") == new_ids
    with _open(tmp_path / "lib") as other:
        other.import_paths([_write(tmp_path / "in" / "more.jsonl", [_paper(20, "robots")])])
    assert len(_ids(lib, "added:today")) == len(new_ids) + 1


@pytest.mark.parametrize(("query", "message"), [
    ("added:yesterdayish", "added:yesterdayish is not a time: use added:today, added:7d, "
                           "added:2026-11-30 or added:>=2026-11-30"),
    ("added:2026-02-30", "added:2026-02-30: 2026-02-30 is not a date (YYYY-MM-DD)"),
    ("added:0d", "added:0d is not a time"),
    ("added:>=", "added:>= is not a time"),
    ("added:", "added: needs a time after the colon"),
    ("watch:", "watch: needs a watch's name"),
    ("watch:nope", "watch:nope: there is no such watch (`paper-tui watch` lists them)"),
])
def test_a_bad_value_is_one_line(two_imports: tuple[Library, set[str], set[str], str],
                                 query: str, message: str) -> None:
    lib, _, _, _ = two_imports
    results = lib.results(f"diffusion {query}")
    assert results.error is not None and results.error.startswith(message)
    assert "\n" not in results.error and len(results) == 0


def test_ranges_are_local_days_and_ages_are_hours() -> None:
    now = time.time()
    today = dt.datetime.fromtimestamp(now).date()
    midnight = int(dt.datetime.combine(today, dt.time()).astimezone().timestamp())
    assert added_range("today", now) == f"added:[{time_value(midnight)} TO]"
    assert added_range("7d", now) == f"added:[{time_value(int(now) - 7 * DAY)} TO]"
    day = today.isoformat()
    tomorrow = int(dt.datetime.combine(today + dt.timedelta(days=1), dt.time())
                   .astimezone().timestamp())
    assert added_range(day, now) == \
        f"added:[{time_value(midnight)} TO {time_value(tomorrow - 1)}]"
    assert added_range(f"<{day}", now) == f"added:[TO {time_value(midnight - 1)}]"
    assert added_range(f">{day}", now) == f"added:[{time_value(tomorrow)} TO]"
    assert added_range('"today"', now) == added_range("TODAY", now)
    with pytest.raises(QueryError):
        added_range("last week", now)


def test_a_phrase_holding_the_word_is_text(
        two_imports: tuple[Library, set[str], set[str], str]) -> None:
    lib, _, _, _ = two_imports
    assert lib.results('"added:yesterdayish"').error is None


def test_an_older_library_counts_papers_as_added_when_their_source_was_imported(
        tmp_path: Path) -> None:
    root = tmp_path / "lib"
    with _open(root) as lib:
        lib.import_paths([_write(tmp_path / "in" / "a.jsonl",
                                 [_paper(n, "graphs") for n in range(4)])])
        ids = {p.id for p in lib.papers()}
        (source,) = lib.sources.manifest
    # As a library from before first-seen times: no file, imported 3 days ago.
    file_of(root / "sources", source).unlink()
    manifest_path = root / "sources" / "manifest.json"
    manifest = json.loads(manifest_path.read_text())
    imported = time.time() - 3 * DAY
    manifest["sources"][source]["imported_at"] = imported
    manifest_path.write_text(json.dumps(manifest))
    with _open(root) as lib:
        assert _ids(lib, f"added:{_local_day(3 * DAY)}") == ids
        assert _ids(lib, "added:today") == set()
        assert set(lib.first_seen().values()) == {float(int(imported))}
    assert set(read_times(file_of(root / "sources", source))) == ids


def test_a_damaged_file_is_one_line_and_the_rest_goes_on(
        tmp_path: Path, two_imports: tuple[Library, set[str], set[str], str]) -> None:
    lib, old_ids, new_ids, _ = two_imports
    lib.close()
    new_source = max(lib.sources.manifest, key=lambda s: lib.sources.manifest[s].imported_at)
    file_of(tmp_path / "lib" / "sources", new_source).write_text("{not json")
    told: list[str] = []
    with _open(tmp_path / "lib", warn=told.append) as again:
        assert _ids(again, "added:today") == set()
        assert _ids(again, "added:>=2000-01-01") == old_ids
        assert len(_ids(again, "diffusion")) == len(old_ids | new_ids)
    assert len(told) == 1 and told[0].startswith(str(file_of(tmp_path / "lib" / "sources",
                                                             new_source)))
    assert "damaged" in told[0] and "\n" not in told[0]


EXE = shutil.which("paper-tui")


@pytest.mark.skipif(EXE is None, reason="paper-tui is not installed")
def test_search_with_a_bad_added_value_is_one_line_and_exit_1(lib_dir: Path,
                                                             tmp_path: Path) -> None:
    assert EXE is not None
    out = forked_cli.run([EXE, "--library", str(lib_dir), "search", "added:yesterdayish"],
                         cwd=tmp_path, capture_output=True, text=True, timeout=120,
                         env=dict(os.environ), stdin=subprocess.DEVNULL)
    assert out.returncode == 1
    assert out.stdout == ""
    assert out.stderr.strip().splitlines() == [
        "paper-tui: added:yesterdayish is not a time: use added:today, added:7d, "
        "added:2026-11-30 or added:>=2026-11-30"]
    out = forked_cli.run([EXE, "--library", str(lib_dir), "search", "added:today", "--json",
                          "--limit", "100"],
                         cwd=tmp_path, capture_output=True, text=True, timeout=120,
                         env=dict(os.environ), stdin=subprocess.DEVNULL)
    assert out.returncode == 0, out.stderr
    assert len(json.loads(out.stdout)) == 38  # the bundled list, first seen in this copy


def test_an_import_killed_before_its_times_were_written_is_mended_on_next_open(
        tmp_path: Path) -> None:
    """The source was written, its times file not (still the previous import's): the next
    open counts the papers it lacks as seen at that import and keeps the others' times."""
    root = tmp_path / "lib"
    with _open(root) as lib:
        lib.import_paths([_write(tmp_path / "in" / "a.jsonl",
                                 [_paper(n, "graphs") for n in range(4)])])
        (source,) = lib.sources.manifest
        imported = lib.sources.manifest[source].imported_at
    path = file_of(root / "sources", source)
    times = read_times(path)
    lacking = sorted(times)[0]
    earlier = int(imported) - 5 * DAY
    write_times(path, {pid: earlier for pid in times if pid != lacking})
    os.utime(path, (imported - 60, imported - 60))  # older than the source
    with _open(root) as lib:
        seen = lib.first_seen()
        assert seen[lacking] == float(int(imported))
        assert {at for pid, at in seen.items() if pid != lacking} == {float(earlier)}
    assert path.stat().st_mtime >= imported


def test_recording_a_big_list_streams_its_ids(tmp_path: Path) -> None:
    """200,000 ids recorded from a generator: the file lists them all with their times
    (one already held keeps its own), and what recording held is a fraction of a list of
    them (the old recording: 18.5 MB for these, 90 MB at the end of a million-paper import;
    then 4.2 MB, their JSON text held until written; now spooled to a file, 1.7 MB)."""
    import tracemalloc

    from paper_tui.holdings.arrivals import Arrivals
    from paper_tui.holdings.sources import SourceStore

    store = SourceStore(tmp_path / "sources")
    store.write_lines("old", tmp_path / "old.jsonl", "one", "jsonl", iter([b"{}\n"]))
    write_times(file_of(store.root, "old"), {"p-0000007": 1_000, "caf\u00e9": 2_000})
    store.write_lines("big", tmp_path / "big.jsonl", "two", "jsonl", iter([b"{}\n"]))
    arrivals = Arrivals(store.root)
    arrivals.fresh()
    ids = (f"p-{k:07d}" for k in range(200_000))
    tracemalloc.start()
    try:
        arrivals.record("big", ids, 5_000)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    times = read_times(file_of(store.root, "big"))
    assert len(times) == 200_000 and times["p-0000007"] == 1_000
    assert set(times.values()) == {1_000, 5_000}
    assert peak < 3 << 20, f"{peak / 2**20:.1f} MB held to record 200,000 ids"
    arrivals.record("big", iter(["caf\u00e9", "memr\udcff"]), 6_000)  # non-ASCII, surrogate
    assert read_times(file_of(store.root, "big")) == {"caf\u00e9": 2_000, "memr\udcff": 6_000}
