"""Lines handed to the compositor without Textual's CSS pipeline (DirectLines) are the
pipeline's lines exactly; the status line's message timer; the app's frame cap (speed is
measured by bench/tui.py and bench/tui_part2.py; these check that the shortcuts draw what
Textual would)."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest
from textual.geometry import Region
from textual.widget import Widget

from paper_tui.tui.widgets.abstract import AbstractView
from paper_tui.tui.widgets.lines import DirectLines
from paper_tui.tui.widgets.results import ResultsList
from paper_tui.tui.widgets.status_line import StatusLine


def _pipeline_lines(widget: Widget, crop: Region) -> list:
    """What Textual's own styles pipeline draws for ``crop`` of ``widget``, from scratch."""
    widget._styles_cache.clear()
    return Widget.render_lines(widget, crop)


@pytest.mark.parametrize("size", [(120, 40), (80, 24)], ids=["wide", "narrow"])
async def test_direct_lines_are_the_pipelines_lines(make_app, settle, size):
    app = make_app()
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        app.main.set_query("learning")
        await settle(pilot)
        results, abstract = app.query_one(ResultsList), app.query_one(AbstractView)
        widgets = [results, abstract, app.query_one(StatusLine),
                   results.vertical_scrollbar, abstract.vertical_scrollbar]
        # a status change, a star and a message; the list scrolled; the abstract focused
        # and scrolled; marks; back to the list; undo
        for keys in (("x", "s", "j"), ("G",), ("pageup", "k"), ("enter", "j", "j"),
                     ("escape", "v", "v"), ("z",)):
            await pilot.press(*keys)
            await pilot.pause(0.1)
            direct = 0
            for widget in widgets:
                assert isinstance(widget, DirectLines)
                direct += widget._finisher() is not None
                width, height = widget.region.size
                x, y = min(1, width - 1), min(2, height - 1)  # and a crop off the top left
                for crop in (Region(0, 0, width, height), Region(x, y, width - x, height - y)):
                    ours = widget.render_lines(crop)
                    assert ours == _pipeline_lines(widget, crop), (keys, type(widget).__name__)
                    assert [s.cell_length for s in ours] == [crop.width] * crop.height
            # wide: all five skip the pipeline (the list's right border included); narrow:
            # the abstract view's top border sends it through Textual's pipeline
            assert direct == (5 if size == (120, 40) else 4)


async def test_the_results_lines_follow_focus_and_new_rows(started):
    async with started() as (app, pilot):
        results = app.query_one(ResultsList)
        crop = Region(0, 0, *results.region.size)
        for key in ("slash", "escape", "j", "s"):  # focus changes the background tint
            await pilot.press(key)
            await pilot.pause(0.05)
            assert results.render_lines(crop) == _pipeline_lines(results, crop), key


async def test_a_message_stays_its_time_and_one_timer_serves_many(started):
    async with started() as (app, pilot):
        status = app.query_one(StatusLine)
        status.say("first", timeout=0.3)
        timer = status._expiry
        await pilot.pause(0.1)
        status.say("second", timeout=0.3)  # later: the same timer checks it when it fires
        assert status._expiry is timer
        await pilot.pause(0.25)
        assert status.message.plain == "second"  # the first one's time is up, not this one's
        await pilot.pause(0.2)
        assert status.message.plain == ""
        status.say("long", timeout=5)
        status.say("short", timeout=0.1)  # sooner than the timer set: a new timer
        await pilot.pause(0.25)
        assert status.message.plain == ""


def _max_fps(env: dict[str, str]) -> str:
    code = ("import paper_tui.tui, textual.constants as c, textual.screen as s; "
            "print(c.MAX_FPS, round(1 / s.UPDATE_PERIOD))")
    return subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                          text=True, check=True).stdout.split()


def test_the_app_caps_frames_at_120_unless_told_otherwise():
    env = {k: v for k, v in os.environ.items() if k != "TEXTUAL_FPS"}
    assert _max_fps(env) == ["120", "120"]
    assert _max_fps({**env, "TEXTUAL_FPS": "30"}) == ["30", "30"]


def _wrapped(view: AbstractView, paper) -> bool:
    keys = view._parts.keys()  # an LRUCache: not iterable itself
    return any(key[0] == "body" and key[1] is paper for key in keys)


@pytest.mark.parametrize("leave", ["enter", "escape"])
async def test_the_next_paper_is_wrapped_once_typing_is_over(started, settle, leave):
    async with started() as (app, pilot):
        view = app.query_one(AbstractView)
        await pilot.press("slash", *"learning")
        await settle(pilot)
        await pilot.pause(0.1)
        results = app.results_screen.results_list
        following = results.results.paper(results.cursor + 1)
        assert not _wrapped(view, following)  # not while typing: the next key changes it
        await pilot.press(leave)
        await settle(pilot)
        await pilot.pause(0.1)
        assert _wrapped(view, results.results.paper(results.cursor + 1))
