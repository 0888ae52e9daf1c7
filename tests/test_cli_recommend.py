"""``paper-tui recommend`` as a real subprocess on the 1,000-paper sample: the hint with
nothing kept, ``--json`` scores, ``--explain`` in text and JSON, a query, a bad query."""

from __future__ import annotations

import gzip
import json
import subprocess
from pathlib import Path

import pytest

import test_search_cli
from test_search_cli import EXE

pytestmark = pytest.mark.skipif(EXE is None, reason="paper-tui is not installed")
SAMPLE = Path(__file__).parent / "data" / "papers-ml-1000.jsonl.gz"


def run(home: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return test_search_cli.run(*args, cwd=home)


@pytest.fixture(scope="module")
def home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("cli-recommend")
    source = root / "papers.jsonl"
    source.write_bytes(gzip.decompress(SAMPLE.read_bytes()))
    out = run(root, "import", str(source))
    assert out.returncode == 0, out.stderr
    return root


def ids_of(home: Path, query: str, limit: int) -> list[str]:
    out = run(home, "search", query, "--json", "--limit", str(limit))
    assert out.returncode == 0, out.stderr
    return [p["id"] for p in json.loads(out.stdout)]


def test_recommend(home: Path) -> None:
    out = run(home, "recommend")
    assert out.returncode == 0
    assert out.stdout == ""
    assert out.stderr.count("\n") == 1 and "nothing to recommend" in out.stderr
    out = run(home, "recommend", "--json")
    assert out.returncode == 0 and json.loads(out.stdout) == []

    kept = ids_of(home, "reinforcement learning", 5)
    skipped = ids_of(home, "image segmentation", 20)
    assert run(home, "status", *kept, "to-read").returncode == 0
    assert run(home, "status", *skipped, "skipped").returncode == 0

    out = run(home, "recommend", "--json", "--limit", "10")
    assert out.returncode == 0, out.stderr
    rows = json.loads(out.stdout)
    assert len(rows) == 10
    assert all(r["status"] == "new" and r["id"] not in kept + skipped for r in rows)
    scores = [r["score"] for r in rows]
    assert scores == sorted(scores, reverse=True)
    assert "learned from 5 kept, 20 skipped" in out.stderr
    assert sum("reinforcement" in (r["title"] + r["abstract"]).lower() for r in rows) >= 6

    out = run(home, "recommend", "--json", "--explain", "--limit", "3")
    top = json.loads(out.stdout)[0]["explain"]
    assert top["up"] and all(r["weight"] > 0 and r["kind"] in ("word", "author", "venue")
                             for r in top["up"])
    assert all(r["weight"] < 0 for r in top["down"])

    out = run(home, "recommend", "--explain", "--limit", "2")
    lines = out.stdout.splitlines()
    assert len(lines) == 4
    assert lines[1].startswith("    +") and "  + " in lines[1]

    out = run(home, "recommend", "venue:icra", "--json", "--limit", "50")
    assert {r["venue"] for r in json.loads(out.stdout)} == {"ICRA"}

    out = run(home, "recommend", "year:[2020", "--json")
    assert out.returncode == 1
    assert out.stderr.startswith("paper-tui: ") and "Traceback" not in out.stderr


@pytest.fixture(scope="module")
def big_home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The sample as a "big" library: a config ranking it from 300 of its papers."""
    root = tmp_path_factory.mktemp("cli-recommend-bounded")
    source = root / "papers.jsonl"
    source.write_bytes(gzip.decompress(SAMPLE.read_bytes()))
    (root / "config.yaml").write_text("recommend:\n  whole_up_to: 100\n  sample: 300\n")
    out = run(root, "import", str(source))
    assert out.returncode == 0, out.stderr
    return root


def test_recommend_says_when_it_ranked_a_sample(big_home: Path) -> None:
    kept = ids_of(big_home, "reinforcement learning", 5)
    assert run(big_home, "status", *kept, "to-read").returncode == 0
    config = str(big_home / "config.yaml")
    out = run(big_home, "--config", config, "recommend", "--limit", "5")
    assert out.returncode == 0, out.stderr
    assert len(out.stdout.splitlines()) == 5
    said = out.stderr.splitlines()
    assert len(said) == 2 and said[0].startswith("paper-tui: ranked ")
    assert " papers (a sample, and those sharing the most words with what you kept)" in said[0]
    assert said[1].startswith("5 of ")
    rows = json.loads(run(big_home, "--config", config, "recommend", "--json").stdout)
    assert len(rows) == 20
    ranked, of = rows[0]["bounded"]["ranked"], rows[0]["bounded"]["of"]
    assert 300 - 5 < ranked < of and f"ranked {ranked:,} of {of:,} papers" in said[0]
    whole = run(big_home, "recommend", "--json")  # the default bound: ranked whole
    assert "bounded" not in json.loads(whole.stdout)[0]
    assert "a sample" not in whole.stderr
