"""Leaving the app never waits for a search: 100 KB pasted into the search box starts a
search of many seconds; quitting right after ends the process at once, its annotations
saved, and no traceback on the terminal.

End to end, because the wait was at the very end of the process (the event loop joined
the thread the search ran in): the installed ``paper-tui`` in tmux, the paste as a
terminal sends it (bracketed). The query's cost is measured first in a process of its own:
if 100 KB has become quick to search (the index's own work), there is nothing to wait for
and the test says so instead of passing on a quick search.
"""

from __future__ import annotations

import random
import shutil
import string
import subprocess
import sys
import time
from pathlib import Path

import pytest
import yaml
from test_tmux_triage_e2e import Tmux, pytestmark  # noqa: F401  (same skip rule: tmux needed)

PASTED = 100_000
QUIT_WITHIN = 5.0
"""Seconds from ``q`` to the process gone: far less than the search still running."""
SEARCH_AT_LEAST = 3 * QUIT_WITHIN
"""How long the pasted query must take on its own for the quit to tell anything."""

PROBE = """
import sys, time
from pathlib import Path
from paper_tui import config
from paper_tui.library import Library
lib = Library.open(Path(sys.argv[1]), config=config.defaults(), bundled=False)
print("searching", flush=True)
lib.results(Path(sys.argv[2]).read_text())
print("done", flush=True)
"""


def _words(size: int) -> str:
    """``size`` characters of made-up words: every one a term the index looks up."""
    rng = random.Random(23)
    words: list[str] = []
    length = 0
    while length < size:
        word = "".join(rng.choice(string.ascii_lowercase) for _ in range(rng.randint(3, 9)))
        words.append(word)
        length += len(word) + 1
    return " ".join(words)[:size]


def _search_is_slow(library: Path, query_file: Path) -> bool:
    """Whether searching the query takes longer than :data:`SEARCH_AT_LEAST` (measured in a
    process of its own, stopped once that is known)."""
    probe = subprocess.Popen([sys.executable, "-c", PROBE, str(library), str(query_file)],
                             stdout=subprocess.PIPE, text=True)
    try:
        assert probe.stdout is not None and probe.stdout.readline().strip() == "searching"
        probe.wait(timeout=SEARCH_AT_LEAST)
        return False
    except subprocess.TimeoutExpired:
        return True
    finally:
        probe.kill()
        probe.wait()


def test_quitting_during_a_long_search_does_not_wait_for_it(tmp_path: Path, bundled_library):
    library = tmp_path / "library"
    shutil.copytree(bundled_library, library)
    query = tmp_path / "pasted.txt"
    query.write_text(_words(PASTED))
    if not _search_is_slow(library, query):
        pytest.skip(f"a {PASTED:,}-character query now takes under {SEARCH_AT_LEAST:.0f} s: "
                    "quitting has no search to wait for")
    status = tmp_path / "status"
    tmux = Tmux.start_paper_tui(tmp_path, library, after=f"echo $? > {status}")
    try:
        tmux.wait_for(" hits")
        tmux.keys("i")  # an annotation to save on the way out
        tmux.wait_for("to read:")
        tmux.keys("/")
        tmux.run("load-buffer", str(query))
        tmux.run("paste-buffer", "-p", "-t", tmux.name)  # bracketed, as a terminal pastes
        tmux.wait_for("hits …", timeout=30)  # the pasted query is being searched
        tmux.keys("Escape")
        tmux.wait_for("Quit")  # out of the search box (its footer has no quit key)
        began = time.monotonic()
        tmux.keys("q")
        while not status.exists() and time.monotonic() - began < 60:
            time.sleep(0.05)
        took = time.monotonic() - began
        left_on_terminal = tmux.screen()
    finally:
        tmux.run("kill-session", "-t", tmux.name)
    assert status.read_text().strip() == "0"
    assert took < QUIT_WITHIN, f"quitting took {took:.1f} s: it waited for the search"
    assert "Traceback" not in left_on_terminal and "Error" not in left_on_terminal
    papers = yaml.safe_load((library / "annotations.yaml").read_text())["papers"]
    assert [r["status"] for r in papers.values()] == ["to-read"]
