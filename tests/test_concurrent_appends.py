"""Two `paper-tui note ID --append` at once both land: a save that meets the other's adds
its lines to the other's note (before, the newer note won and one append was lost in 4 of
20 rounds, both commands exiting 0). Real processes on one library."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import forked_cli

ROUNDS = 20


def _paper_tui(library: Path, *args: str) -> list[str]:
    return [sys.executable, "-m", "paper_tui", "--library", str(library), *args]


def test_two_appends_at_once_both_land_every_round(tmp_path: Path) -> None:
    library = tmp_path / "library"
    listed = forked_cli.run(_paper_tui(library, "list", "--json"), capture_output=True,
                            text=True, check=True)
    pid = json.loads(listed.stdout)[0]["id"]
    for n in range(ROUNDS):
        procs = [forked_cli.Popen(_paper_tui(library, "note", pid, "--append", f"{who} {n}"),
                                  stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
                 for who in ("left", "right")]
        for proc in procs:
            out, err = proc.communicate(timeout=120)
            assert proc.returncode == 0, (out, err)
    shown = forked_cli.run(_paper_tui(library, "show", pid, "--json"), capture_output=True,
                           text=True, check=True)
    lines = json.loads(shown.stdout)["note"].split("\n")
    want = {f"{who} {n}" for who in ("left", "right") for n in range(ROUNDS)}
    assert set(lines) == want and len(lines) == len(want)
    for who in ("left", "right"):  # each writer's lines in the order it added them
        assert [line for line in lines if line.startswith(who)] == \
            [f"{who} {n}" for n in range(ROUNDS)]
