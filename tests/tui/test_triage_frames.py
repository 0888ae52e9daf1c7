"""A triage key costs one partial frame: the rows it changed, the abstract view and the
status line, with no layout pass and no toast (speed is measured by bench/tui.py; these
check the shape of the work, which is what the speed comes from)."""

from __future__ import annotations

import gc

import pytest
from frame_log import rows_painted
from textual._compositor import ChopsUpdate


@pytest.mark.parametrize("size", [(120, 40), (80, 24)], ids=["wide", "narrow"])
async def test_a_triage_key_is_one_partial_frame(started, size):
    async with started(size=size, logged=True) as (app, pilot):
        await pilot.pause(0.1)
        results = app.results_screen.results_list
        top = results.region.y
        for key in ("x", "i", "s"):
            app.frames.clear()
            cursor = results.cursor
            await pilot.press(key)
            await pilot.pause(0.15)  # past the status line's recount
            assert len(app.frames) == 1, f"{key}: {len(app.frames)} frames"
            frame = app.frames[0]
            assert isinstance(frame, ChopsUpdate)  # partial: not a layout, not a full repaint
            rows = {cursor + top, results.cursor + top}  # the row left and the row reached
            assert rows_painted(frame, results.region) == rows, key
            assert not app.screen.query("Toast"), "a confirmation mounted a toast"
        assert str(app.query_one("#status").render()).rstrip().endswith("”")


async def test_moving_the_cursor_repaints_two_rows(started):
    async with started(logged=True) as (app, pilot):
        await pilot.pause(0.1)
        results = app.results_screen.results_list
        app.frames.clear()
        await pilot.press("j")
        await pilot.pause(0.05)
        assert len(app.frames) == 1  # the cursor and the abstract view together
        top = results.region.y
        assert rows_painted(app.frames[0], results.region) == {top, top + 1}
        assert app.query_one("#abstract").paper == app.results_screen.current_paper()


async def test_the_collector_is_tuned_while_the_app_runs(started):
    before = gc.get_threshold()
    async with started() as (_app, pilot):
        await pilot.pause(0.1)
        assert gc.get_freeze_count() > 0
        assert gc.get_threshold()[0] > before[0]
    assert gc.get_freeze_count() == 0
    assert gc.get_threshold() == before
