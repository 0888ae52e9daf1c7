"""The app open and triaging while `paper-tui` commands tag the same papers in other
processes: both sides' changes are kept, and the app shows the commands' within a second."""

from __future__ import annotations

import json
import subprocess
import sys
import threading
import time

import forked_cli
from paper_tui.library import Library

COUNT = 15


def _cli(library: Library, *args: str) -> subprocess.CompletedProcess:
    return forked_cli.run([sys.executable, "-m", "paper_tui", "--library",
                           str(library.root), *args], capture_output=True, text=True,
                          timeout=120)


async def test_cli_tags_reach_the_open_app_and_its_triage_is_kept(started, settle):
    async with started() as (app, pilot):
        results = app.results_screen.results_list
        ids = [results.results.paper(i).id for i in range(COUNT)]
        failures: list[str] = []

        def from_the_cli(*args: str) -> None:
            for pid in ids:
                done = _cli(app.library, args[0], pid, *args[1:])
                if done.returncode != 0 or "Traceback" in done.stderr:
                    failures.append(done.stderr)

        commands = [threading.Thread(target=from_the_cli, args=("tag", "from-cli")),
                    threading.Thread(target=from_the_cli, args=("star",))]
        for thread in commands:
            thread.start()
        for _ in ids:  # triage the same papers while the commands run
            await pilot.press("i")
            await pilot.pause(0.15)
        while any(thread.is_alive() for thread in commands):
            await pilot.pause(0.05)
        assert failures == []
        last_exit = time.monotonic()
        shown_at = None
        deadline = last_exit + 5
        while time.monotonic() < deadline:
            await pilot.pause(0.05)
            if all(app.library.annotation(pid).tags == ("from-cli",)
                   and app.library.annotation(pid).starred for pid in ids):
                shown_at = time.monotonic()
                break
        # the saver thread looks at the files every 0.5 s: seen within a second
        assert shown_at is not None and shown_at - last_exit < 1.0
        assert all(app.library.annotation(pid).status == "to-read" for pid in ids)
        await pilot.press("slash", *"tag:from-cli starred:yes status:to-read", "enter")
        await settle(pilot)
        assert sorted(results.results.paper(i).id for i in range(len(results))) == sorted(ids)
    on_disk = _cli(app.library, "search", "tag:from-cli status:to-read", "--json")
    assert on_disk.returncode == 0
    assert sorted(row["id"] for row in json.loads(on_disk.stdout)) == sorted(ids)
