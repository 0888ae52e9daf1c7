"""What an import holds in memory does not grow with the list where it need not (issue 39):
a source's copy is written as it goes, never held whole. Memory is measured with
tracemalloc on generated data, never timed."""

from __future__ import annotations

import gzip
import json
import os
import tracemalloc
from collections.abc import Iterator
from pathlib import Path

import pytest

from paper_tui.holdings.sources import SourceStore
from paper_tui.trust import atomic

PAPERS = 50_000


def lines(n: int) -> Iterator[bytes]:
    """``n`` stored lines of ~1 KB that pack about twice (hex): 50 MB, 25 MB packed."""
    for i in range(n):
        yield json.dumps({"id": f"p-{i:08d}", "title": os.urandom(500).hex()}).encode() + \
            b"\n"


def test_a_source_copy_is_written_as_it_goes(tmp_path: Path) -> None:
    store = SourceStore(tmp_path / "sources")
    tracemalloc.start()
    try:
        count = store.write_lines("big", tmp_path / "big.jsonl", "sum", "jsonl",
                                  lines(PAPERS))
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    packed = store.file("big").stat().st_size
    assert count == PAPERS and packed > 20 << 20
    assert peak < 4 << 20, f"{peak / 2**20:.1f} MB held to write a {packed / 2**20:.0f} MB copy"
    with gzip.open(store.file("big"), "rb") as fh:
        assert sum(1 for _ in fh) == PAPERS
    assert sorted(p.name for p in store.root.iterdir()) == ["big.jsonl.gz", "manifest.json"]


def test_a_copy_stopped_half_way_leaves_the_old_one_and_no_temp_file(tmp_path: Path) -> None:
    store = SourceStore(tmp_path / "sources")
    store.write_lines("list", tmp_path / "list.jsonl", "one", "jsonl", lines(10))
    before = store.file("list").read_bytes()

    def broken() -> Iterator[bytes]:
        yield from lines(1000)
        raise ValueError("stopped")

    with pytest.raises(ValueError, match="stopped"):
        store.write_lines("list", tmp_path / "list.jsonl", "two", "jsonl", broken())
    assert store.file("list").read_bytes() == before
    assert store.manifest["list"].checksum == "one" and store.manifest["list"].count == 10
    assert sorted(p.name for p in store.root.iterdir()) == ["list.jsonl.gz", "manifest.json"]


def test_a_killed_copy_s_temp_file_is_removed_on_the_next_opening(tmp_path: Path) -> None:
    store = SourceStore(tmp_path / "sources")
    store.write_lines("list", tmp_path / "list.jsonl", "one", "jsonl", lines(10))
    leftover = store.root / ".list.jsonl.gz.0123abcd.tmp"
    leftover.write_bytes(b"half a copy")
    store.discard_unlisted()
    assert not leftover.exists() and store.file("list").exists()


def test_writing_refuses_what_is_not_a_regular_file(tmp_path: Path) -> None:
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    with pytest.raises(atomic.NotARegularFileError), atomic.writing(fifo) as fh:
        fh.write(b"never")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["fifo"]
