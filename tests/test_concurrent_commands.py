"""Real `paper-tui` processes at once on one library: no command breaks another.

Annotation commands never write the index, so four writers, an import and a search loop
running together must all exit 0, print no traceback, and keep every change.
"""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import forked_cli
from paper_tui import config as config_mod
from paper_tui.library import Library

TEST_DATA = Path(__file__).parent / "data"
PER_WRITER = 25


def _cli(library: Path, *args: str) -> list[str]:
    return [sys.executable, "-m", "paper_tui", "--library", str(library), *args]


def _run_all(commands: list[list[str]], failures: list[str]) -> None:
    """Run commands one after another (like a shell loop), recording every failure."""
    for command in commands:
        done = forked_cli.run(command, capture_output=True, text=True, timeout=300,
                              stdin=subprocess.DEVNULL)
        if done.returncode != 0 or "Traceback" in done.stderr:
            failures.append(f"{' '.join(command[5:])}: exit {done.returncode}: "
                            f"{done.stderr.strip()[-600:]}")


def _bundled_ids(library: Path) -> list[str]:
    out = forked_cli.run(_cli(library, "list", "--json"), capture_output=True, text=True,
                         check=True)
    return [row["id"] for row in json.loads(out.stdout)]


def _search_ids(library: Path, query: str) -> set[str]:
    out = forked_cli.run(_cli(library, "search", query, "--json", "--limit", "1000"),
                         capture_output=True, text=True, check=True)
    return {row["id"] for row in json.loads(out.stdout)}


def test_four_writers_an_import_and_searches_at_once_lose_nothing(tmp_path: Path) -> None:
    library = tmp_path / "library"
    ids = _bundled_ids(library)[:PER_WRITER]
    assert len(ids) == PER_WRITER
    writers = {
        "tag": [_cli(library, "tag", pid, "conc-tag") for pid in ids],
        "status": [_cli(library, "status", pid, "to-read") for pid in ids],
        "note": [_cli(library, "note", pid, "--set", f"concurrent note {i}")
                 for i, pid in enumerate(ids)],
        "lists": [_cli(library, "lists", "add", "together", pid) for pid in ids],
    }
    failures: list[str] = []
    stop = threading.Event()
    searches = 0

    def search_loop() -> None:
        nonlocal searches
        while not stop.is_set():
            _run_all([_cli(library, "search", "tag:conc-tag learning")], failures)
            searches += 1

    threads = [threading.Thread(target=_run_all, args=(cmds, failures))
               for cmds in writers.values()]
    threads.append(threading.Thread(target=_run_all, args=(
        [_cli(library, "import", str(TEST_DATA / "papers-ml-1000.jsonl.gz"))], failures)))
    looper = threading.Thread(target=search_loop)
    for thread in [*threads, looper]:
        thread.start()
    for thread in threads:
        thread.join()
    stop.set()
    looper.join()
    assert failures == []
    assert searches >= 1

    lib = Library.open(library, config=config_mod.defaults())
    try:
        for i, pid in enumerate(ids):
            annotation = lib.annotation(pid)
            assert annotation.tags == ("conc-tag",), pid
            assert annotation.status == "to-read", pid
            assert annotation.note == f"concurrent note {i}", pid
        assert set(lib.reading_list("together").ids) == set(ids)
        assert lib.count() == 38 + 1000
    finally:
        lib.close()
    assert _search_ids(library, "tag:conc-tag") == set(ids)
    assert _search_ids(library, "status:to-read") == set(ids)
    assert _search_ids(library, "list:together") == set(ids)
    assert _search_ids(library, "note:concurrent") == set(ids)


def test_an_import_killed_at_random_moments_loses_nothing(tmp_path: Path) -> None:
    library = tmp_path / "library"
    ids = _bundled_ids(library)
    forked_cli.run(_cli(library, "tag", ids[0], "before-kill"), check=True,
                   capture_output=True)
    forked_cli.run(_cli(library, "status", ids[1], "skipped"), check=True, capture_output=True)
    big = TEST_DATA / "papers-ml-1000.jsonl.gz"
    rng = random.Random(15)
    for _ in range(5):
        proc = subprocess.Popen(_cli(library, "import", str(big)), stdout=subprocess.DEVNULL,
                                stderr=subprocess.DEVNULL, start_new_session=True)
        time.sleep(rng.uniform(0.3, 3.0))
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
        lib = Library.open(library, config=config_mod.defaults())
        try:
            assert lib.count() >= 38
            assert lib.annotations.get(ids[0]).tags == ("before-kill",)
            assert lib.annotations.get(ids[1]).status == "skipped"
            assert len(lib.search("tag:before-kill").hits) == 1
        finally:
            lib.close()
    done = forked_cli.run(_cli(library, "import", str(big)), capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    lib = Library.open(library, config=config_mod.defaults())
    try:
        assert lib.count() == 38 + 1000
        assert lib.annotations.get(ids[0]).tags == ("before-kill",)
        assert [h.paper.id for h in lib.search("status:skipped").hits] == [ids[1]]
    finally:
        lib.close()
