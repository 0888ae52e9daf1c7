"""``paper-tui list`` / ``search`` as real processes: a plain row shows the value the results
are sorted by and the decision; ``--columns`` chooses the cells; an unknown one is one line."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

import forked_cli
from paper_tui.vocabulary import MEAN, number

EXE = shutil.which("paper-tui")
pytestmark = pytest.mark.skipif(EXE is None, reason="paper-tui is not installed")
ICLR = Path(__file__).parent / "data" / "venue" / "iclr2018.json"


def run(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    assert EXE is not None
    return forked_cli.run([EXE, "--library", str(cwd / "lib"), *args], cwd=cwd,
                          capture_output=True, text=True, timeout=120, env=dict(os.environ),
                          stdin=subprocess.DEVNULL)


@pytest.fixture(scope="module")
def home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("columns")
    out = run("import", str(ICLR), cwd=root)
    assert out.returncode == 0, out.stderr
    return root


def _hits(home: Path, *args: str) -> list[dict]:
    out = run("search", *args, "--json", cwd=home)
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout)


@pytest.mark.parametrize(("sort", "shown"), [
    ("rating", lambda h: f"[ICLR 2018]  {MEAN} {number(h['rating'])}  "),
    ("citations", lambda h: f"[ICLR 2018]  {h['citations']:,} cites  "),
    ("consensus", lambda h: f"[ICLR 2018]  {MEAN} {number(h['rating'])} ± "
                            f"{number(h['rating_spread'])}  "),
])
def test_a_plain_row_shows_the_sorts_value_and_the_decision(home: Path, sort, shown) -> None:
    hits = _hits(home, "--sort", sort, "--limit", "5")
    out = run("search", "--sort", sort, "--limit", "5", cwd=home)
    assert out.returncode == 0, out.stderr
    rows = out.stdout.splitlines()
    assert len(rows) == len(hits) == 5
    for row, hit in zip(rows, hits, strict=True):
        assert row.startswith(f"{hit['id']}  ")
        assert shown(hit) in row, row
        label = hit["decision"].capitalize()
        assert hit["decision"] and (row.endswith(f"  {label}") or f"  {label}  name: " in row)


def test_list_shows_the_decision(home: Path) -> None:
    out = run("list", cwd=home)
    assert out.returncode == 0, out.stderr
    decided = [row for row in out.stdout.splitlines() if "  Oral" in row]
    assert len(decided) > 1 and all("[ICLR 2018]  Oral" in row for row in decided)


def test_columns_choose_the_cells_in_their_order(home: Path) -> None:
    hits = _hits(home, "--sort", "rating", "--limit", "3")
    out = run("search", "--sort", "rating", "--limit", "3",
              "--columns", "title,year,rating,decision,status", cwd=home)
    assert out.returncode == 0, out.stderr
    expected = [f"{h['title']}  2018  {MEAN} {number(h['rating'])}  "
                f"{h['decision'].capitalize()}  new" for h in hits]
    assert out.stdout.splitlines() == expected
    listed = run("list", "--columns", "id,citations", cwd=home)
    assert listed.returncode == 0 and all(
        len(row.split("  ")) == 2 for row in listed.stdout.splitlines())


def test_an_unknown_column_is_one_line_naming_it(home: Path) -> None:
    for command in (["search", "gan"], ["list"]):
        out = run(*command, "--columns", "title,colour", cwd=home)
        assert out.returncode == 1 and out.stdout == ""
        assert out.stderr.count("\n") == 1
        assert out.stderr.startswith("paper-tui: --columns: no column 'colour' (the columns: ")
