"""A burst of annotation changes reaches the index as one write, and a search that needs
them (flush) gets them at once rather than after the pause the writer waits for."""

from __future__ import annotations

import time
from pathlib import Path

from paper_tui import config as config_mod
from paper_tui.library import Library
from test_search import PAPERS, write_jsonl


def test_a_burst_is_one_write_and_flush_does_not_wait_for_quiet(tmp_path: Path) -> None:
    lib = Library.open(tmp_path / "lib", config=config_mod.defaults(), bundled=False)
    try:
        lib.import_paths([write_jsonl(tmp_path / "in" / "papers.jsonl", PAPERS)])
        index = lib.index
        ids = lib.results("").ids()[:3]
        before = index.ix.latest_generation()
        for paper_id in ids:  # three keys in a row, as a reader triages
            index.set_annotations(paper_id, {"tags": ["burst"], "status": "read"})
            time.sleep(0.03)
        started = time.monotonic()
        assert index.flush(timeout=10)
        assert time.monotonic() - started < 5  # written now, not after a quiet period
        assert index.ix.latest_generation() == before + 1  # one commit for the burst
        assert sorted(lib.results("tag:burst").ids()) == sorted(ids)
    finally:
        lib.close()
