"""``paper-tui config`` says how much disk each part of the library takes (sources, index,
PDFs, the team's checkout, annotations, the rest, in all), as ``du`` counts it, on a real
small library: a list imported, a paper starred and noted, a PDF added, a team sync done."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import forked_cli
from pdf_helpers import NAACL
from team_helpers import bare_repo

SAMPLE = Path(__file__).parent / "data" / "papers-ml-1000.jsonl.gz"


def run(library: Path, *args: str) -> subprocess.CompletedProcess[str]:
    done = forked_cli.run([sys.executable, "-m", "paper_tui", "--library", str(library),
                           *args], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, (args, done.stdout, done.stderr)
    return done


def du(path: Path) -> int:
    """What coreutils' du says the folder takes, in bytes."""
    return int(subprocess.run(["du", "-s", "--block-size=1", str(path)], check=True,
                              capture_output=True, text=True).stdout.split()[0])


@pytest.mark.skipif(shutil.which("du") is None or shutil.which("git") is None,
                    reason="du and git needed")
def test_config_says_the_disk_each_part_takes(tmp_path: Path) -> None:
    library = tmp_path / "library"
    run(library, "import", str(SAMPLE))
    first = run(library, "list").stdout.split()[0]
    run(library, "star", first)
    run(library, "note", first, "--set", "read the appendix first")
    run(library, "pdf", "add", first, str(NAACL))
    run(library, "sync", "--remote", str(bare_repo(tmp_path / "team.git")), "--as", "ann")

    disk = json.loads(run(library, "config", "--json").stdout)["disk"]
    assert list(disk) == ["sources", "index", "pdfs", "team", "annotations", "other", "total"]
    for part in ("sources", "index", "pdfs", "team"):
        assert disk[part] == du(library / part), part
    assert disk["total"] == du(library) == sum(disk[p] for p in disk if p != "total")
    assert disk["pdfs"] >= NAACL.stat().st_size  # the PDF and its text
    assert disk["annotations"] > 0  # annotations.yaml and its backup
    assert disk["index"] > disk["sources"] > 0

    shown = run(library, "config").stdout.splitlines()
    at = shown.index("disk:")
    assert [line.split(":")[0].strip() for line in shown[at + 1:]] == [
        "sources (copies)", "index", "PDFs", "team checkout", "annotations", "other", "total"]
    assert shown[at + 2].endswith(f" {disk['index'] / (1 << 20):.1f} MB")


def test_a_library_not_created_yet_takes_nothing(tmp_path: Path) -> None:
    info = json.loads(run(tmp_path / "none", "config", "--json").stdout)
    assert set(info["disk"].values()) == {0}
    assert run(tmp_path / "none", "config").stdout.splitlines()[-1] == \
        f"library:      {tmp_path / 'none'}  (not created yet)"
    assert not (tmp_path / "none").exists()
