"""The team screen (``T``) and your share in the status line, on a real team: a bare git
remote, team-mates as real `paper-tui` processes.

Deterministic for the snapshot: every commit dated by ``GIT_*_DATE``, Bob's triage stamped
at a fixed time in his store before he syncs, the clock read in UTC."""

from __future__ import annotations

import re
import subprocess
import sys
import time
from pathlib import Path

import pytest
from textual.pilot import Pilot

import forked_cli
from paper_tui.tui.screens.team_screen import TeamScreen

WHEN = "2026-11-20T10:00:00Z"


def _cli(library: Path, *args: str) -> subprocess.CompletedProcess:
    done = forked_cli.run([sys.executable, "-m", "paper_tui", "--library", str(library),
                           *args], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, (args, done.stderr)
    return done


@pytest.fixture
def team(library_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
         make_app) -> list[str]:
    """Alice (this library), Bob and Carol (who never synced) split the bundled list; Bob
    keeps four papers of his share and skips two. Returns Alice's share."""
    for name in ("GIT_AUTHOR_DATE", "GIT_COMMITTER_DATE"):
        monkeypatch.setenv(name, WHEN)
    monkeypatch.setenv("TZ", "UTC")
    time.tzset()
    remote = tmp_path / "team.git"
    subprocess.run(["git", "init", "-q", "--bare", "-b", "main", str(remote)], check=True)
    bob = tmp_path / "bob"
    _cli(bob, "list")  # Bob opens the demo list first, as Alice did (joining brings none)
    _cli(library_dir, "sync", "--remote", str(remote), "--as", "alice")
    _cli(bob, "sync", "--remote", str(remote), "--as", "bob")
    _cli(library_dir, "team", "split", "year:2026", "--among", "alice,bob,carol", "--by",
         "random")  # the bundled demo list: split only when a query names it
    _cli(bob, "sync")
    share = [line.split()[0] for line in _cli(bob, "search", "assigned:me", "--limit",
                                              "100").stdout.splitlines()]
    _cli(bob, "status", *share[:4], "to-read")
    _cli(bob, "status", *share[4:6], "skipped")
    store = bob / "annotations.yaml"
    store.write_text(re.sub(r'updated: "[^"]*"', f'updated: "{WHEN}"', store.read_text()))
    _cli(bob, "sync")
    _cli(library_dir, "sync")
    mine = _cli(library_dir, "search", "assigned:me", "--limit", "100").stdout
    yield [line.split()[0] for line in mine.splitlines()]
    monkeypatch.undo()
    time.tzset()


def test_the_team_screen(team, make_app, snap_compare, settle):
    async def open_team(pilot: Pilot) -> None:
        await settle(pilot)
        await pilot.press("T")
        deadline = time.monotonic() + 30
        screen = pilot.app.screen
        while time.monotonic() < deadline and (
                not isinstance(screen, TeamScreen) or screen.coverage is None):
            await pilot.pause(0.05)
            screen = pilot.app.screen
        await pilot.pause()

    assert snap_compare(make_app(), terminal_size=(120, 30), run_before=open_team)


async def test_rows_open_as_queries_and_your_share_is_counted(team, make_app, settle):
    app = make_app()
    async with app.run_test(size=(140, 36)) as pilot:
        await settle(pilot)
        await pilot.pause(0.6)  # the triage count is redrawn after a moment
        line = app.main.status_line.text.plain
        assert f"your share: 0 / {len(team)}" in line, line

        await pilot.press("T")
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and (
                not isinstance(app.screen, TeamScreen) or app.screen.coverage is None):
            await pilot.pause(0.05)
        screen = app.screen
        assert isinstance(screen, TeamScreen) and screen.coverage is not None
        rows = {m.name: m for m in screen.coverage.members}
        assert (rows["bob"].assigned, rows["bob"].triaged, rows["bob"].kept,
                rows["bob"].skipped) == (13, 6, 4, 2)
        assert rows["carol"].state == "not synced yet" and rows["alice"].you
        await pilot.press("down", "enter")  # Bob's row
        await settle(pilot)
        assert not isinstance(app.screen, TeamScreen)
        assert app.main.search.query == "assigned:bob"
        shown = app.results_screen.results_list
        assert len(shown) == rows["bob"].assigned

        # Alice triages a paper of her share in the app: the status line counts it.
        await pilot.press("slash", *"assigned:me", "enter")
        await settle(pilot)
        await pilot.press("i")
        await pilot.pause(0.6)
        await settle(pilot)
        line = app.main.status_line.text.plain
        assert f"your share: 1 / {len(team)}" in line, line


def test_the_team_facets_add_the_words_of_the_query_language():
    from paper_tui.query.team import rewrite
    from paper_tui.tui.widgets.facets import term
    from paper_tui.tui.widgets.team_facets import label

    assert [term(f, v) for f, v in (("assigned", "bob"), ("kept", "2"), ("kept-by", "me"),
                                    ("team", "untouched"), ("team", "disputed"))] == \
        ["assigned:bob", "kept:2", "kept-by:me", "untouched", "disputed"]
    assert rewrite("kept-by:me untouched") == "keptby:me team:untouched"
    assert (label("kept", "1"), label("kept", "3"), label("assigned", "bob")) == \
        ("1 member", "3 members", "bob")
