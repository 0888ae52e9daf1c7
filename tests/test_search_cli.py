"""``paper-tui search`` as a real subprocess: --sort, --similar, --json score and highlights,
one-line errors."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

import forked_cli
from test_search import PAPERS, write_jsonl

EXE = shutil.which("paper-tui")
pytestmark = pytest.mark.skipif(EXE is None, reason="paper-tui is not installed")


def run(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    assert EXE is not None
    return forked_cli.run([EXE, "--library", str(cwd / "lib"), *args], cwd=cwd,
                          capture_output=True, text=True, timeout=120, env=dict(os.environ),
                          stdin=subprocess.DEVNULL)


@pytest.fixture(scope="module")
def home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("cli")
    out = run("import", str(write_jsonl(root / "papers.jsonl", PAPERS)), cwd=root)
    assert out.returncode == 0, out.stderr
    return root


def test_json_has_score_and_highlights(home: Path) -> None:
    out = run("search", "graph passing", "--json", cwd=home)
    assert out.returncode == 0, out.stderr
    hits = json.loads(out.stdout)
    top = hits[0]
    assert top["title"] == "Graph Neural Networks for Molecules"
    assert top["score"] > hits[-1]["score"] > 0
    assert top["highlights"]["title"] == "«Graph» Neural Networks for Molecules"
    assert "«passing» «graph»" in top["highlights"]["abstract"]
    start, end = top["highlight_spans"]["title"][0]
    assert top["display_title"][start:end] == "Graph"


def test_sort_and_similar(home: Path) -> None:
    out = run("search", "", "--sort", "year", "--json", "--limit", "100", cwd=home)
    years = [p["year"] for p in json.loads(out.stdout) if p["venue"] != "NeurIPS" or
             p["year"] != 2026]  # the bundled NeurIPS 2026 list is in every new library
    assert years == sorted(years, reverse=True)
    graph = next(p for p in json.loads(run("search", "molecules", "--json", cwd=home).stdout))
    out = run("search", "--similar", graph["id"], "--json", "--limit", "3", cwd=home)
    assert out.returncode == 0, out.stderr
    similar = json.loads(out.stdout)
    assert graph["id"] not in [p["id"] for p in similar]
    assert "Attention Is Not All You Need for Graphs" in [p["title"] for p in similar]


def test_a_query_of_one_excluded_word_is_a_query_not_an_option(home: Path) -> None:
    every = json.loads(run("search", "", "--json", "--limit", "1000", cwd=home).stdout)
    out = run("search", "-molecules", "--json", "--limit", "1000", cwd=home)
    assert out.returncode == 0, out.stderr
    titles = {p["title"] for p in json.loads(out.stdout)}
    molecules = {p["title"] for p in json.loads(
        run("search", "molecules", "--json", "--limit", "1000", cwd=home).stdout)}
    assert "Graph Neural Networks for Molecules" in molecules
    assert titles == {p["title"] for p in every} - molecules
    out = run("search", "--jsn", cwd=home)  # an option it does not know is still one
    assert out.returncode == 2 and "unrecognized arguments: --jsn" in out.stderr


def test_errors_are_one_line_and_exit_1(home: Path) -> None:
    out = run("search", "(graph", cwd=home)
    assert (out.returncode, out.stdout) == (1, "")
    assert out.stderr.strip() == "paper-tui: a '(' is not closed"
    out = run("search", "--similar", "no-such-paper", cwd=home)
    assert out.returncode == 1 and "no paper with id" in out.stderr
    out = run("search", "moleclues", cwd=home)
    assert out.returncode == 0 and "did you mean: molecules" in out.stderr
