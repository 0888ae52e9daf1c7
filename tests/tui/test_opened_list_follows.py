"""An opened reading list, as on the main screen: the paper keys (``r`` read, ``x`` skip,
``c`` cite) act on its papers, the list's own rename and export are ``R`` and ``X``, help
shows this screen's keys, the layout is the main screen's at any width, and the view
follows the list when an undo or another process changes it."""

from __future__ import annotations

import sys
import time

from textual.widgets import Input

import forked_cli
from paper_tui.tui.screens.confirm import Prompt
from paper_tui.tui.screens.export_dialog import ExportDialog
from paper_tui.tui.screens.help import HelpScreen
from paper_tui.tui.screens.lists_screen import ReadingListScreen


async def _open(app, pilot, settle, count: int = 4) -> list[str]:
    ids = [app.results_screen.results_list.results.paper(i).id for i in range(count)]
    app.library.create_list("survey")
    app.library.add_to_list("survey", ids)
    await pilot.press("L")
    await settle(pilot)
    await pilot.press("enter")
    await settle(pilot)
    assert isinstance(app.screen, ReadingListScreen)
    return ids


def _shown(screen: ReadingListScreen) -> list[str]:
    rows = screen.results_list
    return [rows.results.paper(i).id for i in range(len(rows))]


async def test_the_paper_keys_are_the_main_screens(started, settle):
    async with started() as (app, pilot):
        ids = await _open(app, pilot, settle)
        await pilot.press("r")  # read, and on to the next paper
        await pilot.press("x")  # skipped
        await settle(pilot)
        assert isinstance(app.screen, ReadingListScreen)
        assert [app.library.annotation(pid).status for pid in ids[:2]] == ["read", "skipped"]
        await pilot.press("R")
        await settle(pilot)
        assert isinstance(app.screen, Prompt)
        assert app.screen.query_one(Input).value == "survey"
        await pilot.press("escape", "X")
        await settle(pilot)
        assert isinstance(app.screen, ExportDialog)
        await pilot.press("escape", "question_mark")
        await settle(pilot)
        assert isinstance(app.screen, HelpScreen)
        keys = {key.id: key.key_display for key in app.screen.actions}
        assert (keys["read"], keys["skip"], keys["copy-citation"]) == ("r", "x", "c")
        assert (keys["list-rename"], keys["list-export"], keys["list-move-down"]) == (
            "R", "X", "J shift+down")
        assert "quit" not in keys and "search" not in keys  # the main screen's, not here


async def test_the_view_follows_an_undo_and_another_process(started, settle):
    async with started() as (app, pilot):
        ids = await _open(app, pilot, settle)
        screen = app.screen
        await pilot.press("G", "d")  # remove the last paper
        await settle(pilot)
        assert _shown(screen) == ids[:3]
        await pilot.press("z")
        await settle(pilot)
        assert app.library.reading_list("survey").ids == tuple(ids)
        assert _shown(screen) == ids and "4 papers" in str(screen.query_one("#list-header")
                                                           .content)
        await pilot.press("g", "J", "z")  # a move, undone: the list's order again
        await settle(pilot)
        assert _shown(screen) == ids
        done = forked_cli.run([sys.executable, "-m", "paper_tui", "--library",
                               str(app.library.root), "lists", "remove", "survey", ids[1]],
                              capture_output=True, text=True, timeout=60)
        assert done.returncode == 0, done.stderr
        deadline = time.monotonic() + 10  # the saver thread looks every 0.5 s
        while _shown(screen) != [ids[0], *ids[2:]] and time.monotonic() < deadline:
            await pilot.pause(0.05)
        assert _shown(screen) == [ids[0], *ids[2:]]


async def test_below_120_columns_the_abstract_is_under_the_list(started, settle):
    async with started(size=(100, 30)) as (app, pilot):
        await _open(app, pilot, settle)
        rows, abstract = app.screen.results_list, app.screen.abstract
        assert rows.region.width == abstract.region.width == 100
        assert abstract.region.y > rows.region.y and abstract.region.height >= 10
