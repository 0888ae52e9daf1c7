"""Pilot tests: opening a paper's link, and the command palette listing every action."""

from __future__ import annotations

import stat
import time
import webbrowser
from pathlib import Path

import pytest

TEST_DATA = Path(__file__).parent.parent / "data"


async def _on_paper_with_link(app, pilot, settle):
    """Import a sample list whose papers have links, and put the cursor on one of them."""
    app.library.import_paths([TEST_DATA / "nips2017-sample.json"])
    await pilot.press("slash", *"exploration", "enter")
    await settle(pilot)
    paper = app.results_screen.current_paper()
    assert paper.url
    return paper


async def test_open_runs_the_browser_in_a_worker(started, settle, tmp_path: Path,
                                                 monkeypatch: pytest.MonkeyPatch):
    opened = tmp_path / "opened.txt"
    browser = tmp_path / "browser.sh"
    browser.write_text(f'#!/bin/sh\necho "$1" > {opened}\n')
    browser.chmod(browser.stat().st_mode | stat.S_IEXEC)
    monkeypatch.setenv("BROWSER", f"{browser} %s")
    # webbrowser reads BROWSER once per process: a test before this one in the same
    # worker would otherwise have its own script opened
    webbrowser.register_standard_browsers()
    async with started() as (app, pilot):
        paper = await _on_paper_with_link(app, pilot, settle)
        await pilot.press("o")
        await settle(pilot)
        deadline = time.monotonic() + 10
        while not opened.exists() and time.monotonic() < deadline:
            await pilot.pause(0.05)
        assert opened.read_text().strip() == paper.url
        assert any("opening" in m for m in app.said)


async def test_without_a_display_the_link_is_copied_instead(started, settle,
                                                            monkeypatch: pytest.MonkeyPatch):
    for name in ("BROWSER", "DISPLAY", "WAYLAND_DISPLAY"):
        monkeypatch.delenv(name, raising=False)
    async with started() as (app, pilot):
        paper = await _on_paper_with_link(app, pilot, settle)
        await pilot.press("o")
        assert app.clipboard == paper.url
        assert any(m.startswith("no browser here; sent the link ") and "tmux needs" in m
                   for m in app.said)


async def test_the_palette_offers_every_action_and_the_themes(started):
    async with started(keymap={"star": "asterisk"}) as (app, _pilot):
        commands = {c.title: c.help for c in app.get_system_commands(app.screen)}
        assert "Theme" in commands
        for key in app.live_keys():
            if key.id not in ("command-palette", "quit"):
                assert key.help in commands
        assert "(*)" in commands["Star / unstar"]
        star = next(c for c in app.get_system_commands(app.screen)
                    if c.title == "Star / unstar")
        paper = app.results_screen.current_paper()
        await star.callback()
        assert app.library.annotation(paper.id).starred
