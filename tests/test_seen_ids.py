"""The import's compact record of the ids it read (library/seen_ids.py) answers as a set
and a list of the ids would, across the folds of its digests into sorted arrays."""

from __future__ import annotations

import random
import tracemalloc

import pytest

from paper_tui.library.seen_ids import DigestMap, IdLog, SeenIds


def test_seen_ids_answer_as_a_set_across_folds() -> None:
    rng = random.Random(39)
    ids = [f"arxiv:{rng.randrange(10**9):09d}v{rng.randrange(3)}" for _ in range(130_000)]
    ids += ["Rodolà-2024", "memr\udcff", "x"]  # non-ASCII, a lone surrogate from a file name
    seen, reference = SeenIds(), set()
    for pid in ids:
        assert seen.add(pid) == (pid not in reference), pid
        reference.add(pid)
    assert len(seen) == len(reference) > 100_000  # two folds at least
    for pid in rng.sample(ids, 2_000):
        assert pid in seen and not seen.add(pid)
    for k in range(2_000):
        assert f"absent:{k}" not in seen
    assert 17 not in seen


def test_id_log_keeps_order_and_the_new_ones() -> None:
    log = IdLog()
    entries = [(f"p{k}", k % 3 == 0) for k in range(10_000)]
    entries += [("Rodolà", True), ("memr\udcff", False), ("", True), ("x" * 254, True),
                ("y" * 255, False), ("é" * 300, True)]  # sizes either side of one byte's
    for pid, new in entries:
        log.append(pid, new)
    assert len(log) == len(entries)
    assert list(log.ids()) == [pid for pid, _ in entries]
    assert list(log.new_ids()) == [pid for pid, new in entries if new]
    assert log.new_count == sum(new for _, new in entries)
    log.close()  # the file goes, the new ids stay
    assert list(log.new_ids()) == [pid for pid, new in entries if new]
    with pytest.raises(ValueError, match="closed"):
        log.append("late", True)


def test_closing_a_big_id_log_keeps_its_new_ids_out_of_memory() -> None:
    """The new ids of a million-paper import were joined in memory at its end (~90 MB);
    200,000 ids, half of them new, held 15.9 MB while closing."""
    import tracemalloc

    log = IdLog()
    for k in range(200_000):
        log.append(f"neurips2026-{k:010d}", k % 2 == 0)
    tracemalloc.start()
    try:
        log.close()
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 2 << 20, f"{peak / 2**20:.1f} MB held to close the log"
    new = list(log.new_ids())
    assert len(new) == 100_000 and new[:2] == ["neurips2026-0000000000", "neurips2026-0000000002"]
    assert list(log.new_ids()) == new  # read again, from the start


def test_digest_map_answers_as_a_dict_would() -> None:
    said, reference = DigestMap(), {}
    for k in range(20_000):
        value = f"({[float(k % 7)]}, 'accept')".encode()
        said.put(f"p{k}", value)
        reference[f"p{k}"] = value
    said.put("p3", b"changed")  # the last put wins
    reference["p3"] = b"changed"
    for key, value in reference.items():
        assert said.same(key, value) is True
        assert said.same(key, value + b"!") is False
    assert said.same("absent", b"") is None and said.same("Rodol\u00e0", b"") is None
    said.put("memr\udcff", b"x")
    assert said.same("memr\udcff", b"x") is True and said.same("p4", b"x") is False


def test_digest_map_of_50_000_papers_holds_about_16_bytes_each() -> None:
    tracemalloc.start()
    try:
        said = DigestMap()
        for k in range(50_000):
            said.put(f"openreview:{k:010d}", b"([6.0, 5.0], [3.0, 4.0], 'accept', 'Poster')")
        assert said.same("openreview:0000000007", b"") is False
        held = tracemalloc.get_traced_memory()[0]
    finally:
        tracemalloc.stop()
    assert held < 3 << 20, f"{held / 2**20:.1f} MB for 50,000 papers"  # a dict: ~27 MB
