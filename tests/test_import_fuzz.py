"""Fuzzing every importer through the real ``paper-tui import``: seeded mutations of the
samples in ``tests/data`` (cut short, bytes flipped, bad UTF-8, odd encodings, deep
nesting, fields of the wrong type, huge fields, damaged gzip, odd line ends, XML entities).

Each file imports (exit 0) or is reported (exit 1), every line on stderr is one of
paper-tui's and names the file, never "internal error" (exit 70) or a traceback, and an
annotation made before is still there after. Bounded: :data:`IN_PROCESS` files through
``paper_tui.cli.main`` (as the command line calls it), :data:`IN_SUBPROCESS` more as one
directory through a real ``paper-tui import``; 20-40 s on the project's 2-core machine.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

import forked_cli
from fuzz_mutations import MUTATIONS, mutants, samples
from paper_tui.cli import main

SEED = 20261201
IN_PROCESS = 130
"""Files tried in this process: each of the 29 samples gets four or five of the ten
mutations."""
IN_SUBPROCESS = 30
"""Files tried next, in one directory: a fifth or sixth mutation of each sample."""


def test_the_mutations_cover_every_sample_and_kind(tmp_path: Path) -> None:
    pairs = {tuple(how.split(" of ")) for _, how in
             mutants(SEED, len(samples()) * len(MUTATIONS), tmp_path)}
    assert pairs == {(m.__name__, s.name) for m in MUTATIONS for s in samples()}
    assert len(samples()) >= 29


def tagged_paper(capsys: pytest.CaptureFixture[str], library: Path) -> str:
    assert main(["--library", str(library), "list", "--json"]) == 0
    paper = json.loads(capsys.readouterr().out)[0]["id"]
    assert main(["--library", str(library), "tag", paper, "before the fuzz"]) == 0
    capsys.readouterr()
    return paper


def tags_of(capsys: pytest.CaptureFixture[str], library: Path, paper: str) -> list[str]:
    assert main(["--library", str(library), "show", paper, "--json"]) == 0
    return json.loads(capsys.readouterr().out)["tags"]


def test_mutated_files_import_or_are_reported_in_one_line(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    library = tmp_path / "lib"
    paper = tagged_paper(capsys, library)
    statuses = []
    for path, how in mutants(SEED, IN_PROCESS, tmp_path / "in"):
        status = main(["--library", str(library), "import", str(path)])
        out = capsys.readouterr()
        assert status in (0, 1), f"{how}: {out.err}"
        assert "Traceback" not in out.err + out.out, how
        for line in out.err.splitlines():
            assert line.startswith("paper-tui: ") and str(path) in line, f"{how}: {line}"
        assert bool(out.err) or status == 0, how  # a failure always says why
        assert out.out.count("\n") == 1, how  # the summary
        assert re.search(r" papers? from ", out.out), how
        statuses.append(status)
    assert statuses.count(1) > IN_PROCESS // 3  # most mutations do break the file
    assert tags_of(capsys, library, paper) == ["before the fuzz"]


def test_a_directory_of_mutated_files_in_a_real_process(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    library = tmp_path / "lib"
    paper = tagged_paper(capsys, library)
    folder = tmp_path / "in"
    made = [path for path, _ in mutants(SEED + 1, IN_SUBPROCESS, folder, start=IN_PROCESS)]
    done = forked_cli.run([sys.executable, "-m", "paper_tui", "--library", str(library),
                           "import", str(folder)], capture_output=True, text=True,
                          timeout=600, stdin=subprocess.DEVNULL)
    assert done.returncode == 1, done.stderr  # some of them are broken
    assert "Traceback" not in done.stderr and "internal error" not in done.stderr
    for line in done.stderr.splitlines():
        assert line.startswith("paper-tui: ") and str(folder) in line, line
    named = {path for path in made if str(path) in done.stderr}
    assert len(named) > IN_SUBPROCESS // 3
    assert done.stdout.count("\n") == 1 and "error(s)" in done.stdout  # the summary, once
    assert tags_of(capsys, library, paper) == ["before the fuzz"]
