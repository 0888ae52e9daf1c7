"""The sync key in the app: a real sync with a real bare git remote, in a worker, its
progress and outcome in the status line, what came in shown at once."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

from paper_tui.tui.widgets.abstract import AbstractView


def _cli(library: Path, *args: str) -> subprocess.CompletedProcess:
    done = subprocess.run([sys.executable, "-m", "paper_tui", "--library", str(library),
                           *args], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    return done


async def test_the_sync_key_brings_a_members_triage_into_the_open_app(started, tmp_path):
    remote = tmp_path / "team.git"
    subprocess.run(["git", "init", "-q", "--bare", "-b", "main", str(remote)], check=True)
    bob = tmp_path / "bob"
    async with started() as (app, pilot):
        first = app.results_screen.results_list.results.paper(0).id
        _cli(app.library.root, "sync", "--remote", str(remote), "--as", "alice")
        _cli(bob, "sync", "--remote", str(remote), "--as", "bob")
        _cli(bob, "star", first)
        _cli(bob, "tag", first, "kernels")
        _cli(bob, "sync")
        await pilot.press("Y")
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and not any("from bob" in m for m in app.said):
            await pilot.pause(0.1)
        assert "sync: starting" in app.said
        assert any("sync: 1 paper from bob" in m for m in app.said), app.said
        await pilot.pause(0.2)
        view = app.query_one(AbstractView)
        assert "team: bob: ★ #kernels" in view.text.plain
        await pilot.press("slash", *"by:bob", "enter")
        await pilot.pause(0.3)
        results = app.results_screen.results_list
        assert [results.results.paper(i).id for i in range(len(results))] == [first]
