"""The palette's sources, on a real library: "Sources" lists them, "Remove source NAME"
asks, then takes the list out (the results searched again, the marks kept); and the
status line says the bundled list is a demo while it is all the library holds."""

from __future__ import annotations

import json
import time

from textual.command import CommandPalette
from textual.pilot import Pilot

from paper_tui.tui.screens.confirm import Confirm
from paper_tui.tui.widgets.status_line import DEMO


async def _run_command(pilot: Pilot, words: str, title: str) -> None:
    """Open the palette, type ``words``, wait for ``title`` among the hits, choose it."""
    await pilot.press("ctrl+p", *words)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        await pilot.pause(0.05)
        palette = pilot.app.screen
        if isinstance(palette, CommandPalette):
            shown = [str(option.prompt) for option in
                     palette.query_one("CommandList").options]  # type: ignore[attr-defined]
            if shown and title in shown[0]:
                break
    await pilot.press("enter")
    await pilot.pause()


async def test_the_palette_lists_the_sources(started) -> None:
    async with started() as (app, pilot):
        await _run_command(pilot, "sources", "Sources")
        messages = [n.message for n in app._notifications]
        assert any(m.startswith("neurips-2026: 38 papers, added ") for m in messages)


async def test_removing_the_demo_list_from_the_palette(started, settle) -> None:
    async with started() as (app, pilot):
        assert DEMO in app.main.status_line.text.plain
        paper = app.results_screen.current_paper()
        app.library.add_tags([paper.id], ["kept-tag"])
        await _run_command(pilot, "remove source neur", "Remove source neurips-2026")
        assert isinstance(app.screen, Confirm)
        await pilot.press("y")
        deadline = time.monotonic() + 60
        while app.library.count() and time.monotonic() < deadline:
            await pilot.pause(0.05)
        await settle(pilot)
        assert app.library.count() == 0
        assert app.library.orphans() == [paper.id]
        assert app.library.annotation(paper.id).tags == ("kept-tag",)
        assert app.results_screen.current_paper() is None
        assert "0 hits" in app.main.status_line.text.plain
        assert DEMO not in app.main.status_line.text.plain
        assert any(m.startswith("removed neurips-2026 (38 papers)") for m in app.said)


async def test_no_is_no(started) -> None:
    async with started() as (app, pilot):
        await _run_command(pilot, "remove source neur", "Remove source neurips-2026")
        await pilot.press("n")
        await pilot.pause()
        assert app.library.count() == 38


async def test_the_demo_note_goes_once_the_library_has_a_list_of_its_own(
        make_app, settle, tmp_path) -> None:
    source = tmp_path / "mine.jsonl"
    source.write_text(json.dumps({"title": "A paper of my own", "abstract": "On graphs.",
                                  "venue": "icml", "year": 2020}) + "\n")
    app = make_app()
    app.import_paths = [source]
    async with app.run_test(size=(120, 40)) as pilot:
        deadline = time.monotonic() + 60
        while app.library.count() == 38 and time.monotonic() < deadline:
            await pilot.pause(0.05)
        await settle(pilot)
        await settle(pilot)
        assert app.library.count() == 39
        assert DEMO not in app.main.status_line.text.plain
