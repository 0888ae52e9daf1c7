"""Leaving the app never waits for a search: on a 50,000-paper library, a query of 1,000
prefixes (``10* 11* … 1009*``, each expanding to up to 64 words per field) takes many
seconds; quitting while it runs ends the process long before the search would have, its
annotations saved, and no traceback on the terminal.

End to end, because the wait was at the very end of the process (the event loop joined
the thread the search ran in): the installed ``paper-tui`` in tmux (a server of its own,
in the test's own ``TMUX_TMPDIR``), the query pasted as a terminal pastes (bracketed).
The search is then timed alone, in a process of its own, so that the test says what it
shows: the app was gone in less than half the time the search takes. That timing stops as
soon as the search has run twice as long as the app took to go (the whole search is 16 s
of CPU that tells nothing more): the search then takes at least that long, and half of it
is the bound.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import time
from pathlib import Path

import yaml
from test_large_library import big_library_dir  # noqa: F401  (the session's 50,000 papers)
from test_tmux_triage_e2e import Tmux, pytestmark  # noqa: F401  (same skip rule: tmux needed)

QUERY = " ".join(f"{i}*" for i in range(10, 1010))
"""1,000 prefixes of the papers' numbers (each paper has its own, 0 to 49,999): within the
query language's limits (1,000 words, 1,000 symbols), and slow on this library."""
QUIT_WITHIN = 60.0
"""Seconds the test waits for the app to be gone after the paste (it fails if not)."""

PROBE = """
import sys, time
from pathlib import Path
from paper_tui import config
from paper_tui.library import Library
lib = Library.open(Path(sys.argv[1]), config=config.defaults(), bundled=False)
lib.search("warm up")
print("searching", flush=True)
start = time.monotonic()
results = lib.results(Path(sys.argv[2]).read_text())
print(time.monotonic() - start, len(results), results.error, flush=True)
"""


def search_outlasts(library: Path, query: Path, seconds: float) -> float:
    """Seconds the query takes in a process of its own (the library's search, as the app's
    query thread runs it), timed up to ``seconds``: the whole search if it ends sooner,
    else ``seconds`` (it takes at least that long)."""
    probe = subprocess.Popen([sys.executable, "-c", PROBE, str(library), str(query)],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert probe.stdout is not None
        assert probe.stdout.readline() == "searching\n", probe.communicate(timeout=60)[1]
        try:
            out, err = probe.communicate(timeout=seconds)
        except subprocess.TimeoutExpired:
            return seconds
    finally:
        probe.kill()
        probe.communicate()
    assert probe.returncode == 0, err
    taken, hits, error = out.split()
    assert error == "None" and int(hits) > 1_000
    return float(taken)


def test_quitting_during_a_long_search_does_not_wait_for_it(
        tmp_path: Path, big_library_dir: Path) -> None:  # noqa: F811
    library = tmp_path / "library"
    shutil.copytree(big_library_dir, library)
    query = tmp_path / "pasted.txt"
    query.write_text(QUERY)
    status = tmp_path / "status"
    tmux = Tmux.start_paper_tui(tmp_path, library, after=f"echo $? > {status}")
    try:
        tmux.wait_for(" hits", timeout=90)
        tmux.keys("i")  # an annotation to save on the way out
        tmux.wait_for("to read:")
        tmux.keys("/")
        tmux.run("load-buffer", str(query))
        pasted = time.monotonic()
        tmux.run("paste-buffer", "-p", "-t", tmux.name)  # bracketed, as a terminal pastes
        tmux.wait_for("hits …", timeout=30)  # the pasted query is being searched
        tmux.keys("Escape")
        tmux.wait_for("s Star")  # out of the search box (its footer has no triage keys)
        tmux.keys("q")
        while not status.exists() and time.monotonic() - pasted < QUIT_WITHIN:
            time.sleep(0.05)
        took = time.monotonic() - pasted
        left_on_terminal = tmux.screen()
    finally:
        tmux.run("kill-session", "-t", tmux.name)
    assert status.exists(), f"still running {took:.1f} s after the paste"
    alone = search_outlasts(library, query, 2 * took + 1)
    assert took < alone / 2, (f"from the paste to the process gone: {took:.1f} s; the search "
                              f"alone takes {alone:.1f} s: quitting waited for it, or the "
                              "query is too quick to show it does not (make it slower)")
    assert status.read_text().strip() == "0"
    assert "Traceback" not in left_on_terminal and "Error" not in left_on_terminal
    papers = yaml.safe_load((library / "annotations.yaml").read_text())["papers"]
    assert [r["status"] for r in papers.values()] == ["to-read"]
