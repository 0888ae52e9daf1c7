"""The facets panel follows the annotations, not only the query: after a triage key, a
tag, an undo or a change made elsewhere its status and tag counts are the library's, shown
or shown again; hidden, it counts nothing."""

from __future__ import annotations

import time

from screen_host import reopened
from textual import events
from textual.message import Message
from textual.pilot import Pilot
from textual.widgets import OptionList

from paper_tui.tui.app import PaperApp
from paper_tui.tui.controllers.search import RECOUNT_DELAY
from paper_tui.tui.widgets.facets import FacetsPanel


async def recounted(pilot: Pilot, settle) -> None:
    """Past the moment the triage count is worked out again, and its counts shown."""
    await pilot.pause(RECOUNT_DELAY * 4)
    await settle(pilot)


def expected(app: PaperApp, field: str) -> dict[str, int]:
    return {k: v for k, v in app.library.facets(app.main.search.query)[field].items() if v}


def shown(panel: FacetsPanel, field: str) -> dict[str, int]:
    """What the panel's rows say for ``field``: ``{"new": 35, ...}``."""
    rows = {}
    for option in panel.query_one(OptionList).options:
        name, _, value = str(option.id).partition("\x1f")
        if name == field:
            rows[value] = int(str(option.prompt).split()[-1].replace(",", ""))
    return rows


async def opened_panel(app: PaperApp, pilot: Pilot, settle) -> FacetsPanel:
    await pilot.press("f")
    await settle(pilot)
    return app.query_one(FacetsPanel)


async def test_triage_with_the_panel_open_changes_its_counts(started, settle):
    async with started(size=(160, 40)) as (app, pilot):
        panel = await opened_panel(app, pilot, settle)
        box = panel.query_one(OptionList)  # the tester's way: the year from the panel
        box.highlighted = next(i for i, o in enumerate(box.options)
                               if str(o.id) == "year\x1f2026")
        box.focus()
        await pilot.press("enter")
        await settle(pilot)
        assert app.main.search.query == "year:2026"
        before = shown(panel, "status")
        assert before == expected(app, "status") and "skipped" not in before
        await pilot.press("x", "j", "x")
        await recounted(pilot, settle)
        after = shown(panel, "status")
        assert after == expected(app, "status")
        assert after["skipped"] == 2 and after["new"] == before["new"] - 2


async def test_the_empty_query_follows_a_change_of_status(started, settle):
    async with started(size=(160, 40)) as (app, pilot):
        panel = await opened_panel(app, pilot, settle)
        app.main.results_list.focus()
        await pilot.press("x", "x")
        await recounted(pilot, settle)
        assert shown(panel, "status")["skipped"] == expected(app, "status")["skipped"]
        await pilot.press("k", "i")  # to read, on a skipped paper
        await recounted(pilot, settle)
        assert shown(panel, "status") == expected(app, "status")
        assert panel.facets["status"] == app.library.facets("")["status"]


async def test_undo_brings_the_counts_back(started, settle):
    async with started(size=(160, 40)) as (app, pilot):
        panel = await opened_panel(app, pilot, settle)
        app.main.results_list.focus()
        before = shown(panel, "status")
        await pilot.press("r")
        await recounted(pilot, settle)
        assert shown(panel, "status") != before
        await pilot.press("z")
        await recounted(pilot, settle)
        assert shown(panel, "status") == before == expected(app, "status")


async def test_a_tag_added_is_counted(started, settle):
    async with started(size=(160, 40)) as (app, pilot):
        panel = await opened_panel(app, pilot, settle)
        app.main.results_list.focus()
        assert "followed" not in shown(panel, "tag")
        await pilot.press("t")
        await pilot.pause()
        await pilot.press(*"followed", "enter")
        await recounted(pilot, settle)
        assert shown(panel, "tag")["followed"] == 1


async def test_hidden_it_counts_nothing_and_shown_again_it_is_right(make_app, settle):
    counted: set[int] = set()

    def hook(message: Message) -> None:  # each node the message bubbles through sees it
        if isinstance(message, FacetsPanel.Counted):
            counted.add(message.asked)

    app = make_app()
    async with app.run_test(size=(160, 40), message_hook=hook) as pilot:
        await settle(pilot)
        panel = await opened_panel(app, pilot, settle)
        app.main.results_list.focus()
        before = shown(panel, "status")
        await pilot.press("f", "f")  # into it, then hidden (the focus back on the results)
        counted.clear()
        await pilot.press("x", "x", "i")
        await recounted(pilot, settle)
        assert not counted
        await pilot.press("f", "f", "f")  # the tester's f f (shown, hidden), then shown
        await settle(pilot)
        assert panel.display
        assert shown(panel, "status") == expected(app, "status") != before


async def test_a_burst_of_keys_is_counted_right(make_app, settle):
    app = make_app()
    async with app.run_test(size=(160, 40)) as pilot:
        await settle(pilot)
        panel = await opened_panel(app, pilot, settle)
        app.main.results_list.focus()
        keys = ["x", "i", "r"] * 4
        for key in keys:  # as a terminal hands over keys typed fast: all at once (how many
            app.post_message(events.Key(key, key))  # counts that costs is the machine's)
        await recounted(pilot, settle)
        assert app.main.results_list.cursor == len(keys)  # every key was a triage
        assert shown(panel, "status") == expected(app, "status")


async def test_a_change_made_elsewhere_is_counted(started, settle, library_dir):
    async with started(size=(160, 40)) as (app, pilot):
        panel = await opened_panel(app, pilot, settle)
        paper = app.main.results_list.current_paper()
        assert paper is not None and "elsewhere" not in shown(panel, "tag")
        with reopened(library_dir) as other:  # another process's paper-tui
            other.add_tags([paper.id], ["elsewhere"])
            other.flush()
        deadline = time.monotonic() + 10
        while "elsewhere" not in shown(panel, "tag") and time.monotonic() < deadline:
            await recounted(pilot, settle)
        assert shown(panel, "tag")["elsewhere"] == 1
