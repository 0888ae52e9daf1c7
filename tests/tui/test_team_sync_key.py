"""The sync key in the app: a real sync with a real bare git remote, in a worker, its
progress and outcome in the status line, what came in shown at once."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

import forked_cli
from paper_tui.tui.widgets.abstract import AbstractView


def _cli(library: Path, *args: str) -> subprocess.CompletedProcess:
    done = forked_cli.run([sys.executable, "-m", "paper_tui", "--library", str(library),
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
        _cli(bob, "list")  # Bob opens the demo list too (joining a team brings none)
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


async def test_steps_that_come_fast_are_shown_as_the_latest_one(started):
    """A quick sync's steps are not each a frame: the status line keeps "starting" for half
    a second, then shows the latest step; one that lasts is shown at once."""
    from paper_tui.tui.controllers.sync import STEP_SHOWN_FOR, SyncDone, SyncProgress

    async with started() as (app, pilot):
        main = app.main
        assert main.team_sync.start()
        for step in ("committing", "fetching", "merging"):
            main.post_message(SyncProgress(step))
        await pilot.pause(0.1)
        assert [m for m in app.said if m.startswith("sync: ")] == ["sync: starting"]
        await pilot.pause(STEP_SHOWN_FOR)
        assert [m for m in app.said if m.startswith("sync: ")] == ["sync: starting",
                                                                  "sync: merging"]
        await pilot.pause(STEP_SHOWN_FOR)
        main.post_message(SyncProgress("pushing"))  # after a slow step: shown at once
        await pilot.pause(0.1)
        assert app.said[-1] == "sync: pushing"
        main.post_message(SyncProgress("late"))
        main.post_message(SyncDone("nothing new", None))
        await pilot.pause(STEP_SHOWN_FOR + 0.1)
        assert app.said[-1] == "sync: nothing new"  # no step after the outcome
        assert not main.team_sync.running
