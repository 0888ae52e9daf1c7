"""Pilot tests: triage keys, star, next new, undo, and annotations surviving a restart."""

from __future__ import annotations

from pathlib import Path

import yaml

from paper_tui import config as config_mod
from paper_tui.library import Library


def status(app, i: int) -> str:
    return app.library.annotation(app.results_screen.results_list.results.paper(i).id).status


def confirmations(app) -> list[str]:
    """What the keys said, newest last (shown in the status line)."""
    return list(app.said)


def status_line(app) -> str:
    return str(app.query_one("#status").render())


async def test_triage_keys_set_status_and_advance(started):
    async with started() as (app, pilot):
        results = app.results_screen.results_list
        await pilot.press("i")
        assert status(app, 0) == "to-read" and results.cursor == 1
        await pilot.press("r")
        assert status(app, 1) == "read" and results.cursor == 2
        await pilot.press("x")
        assert status(app, 2) == "skipped" and results.cursor == 3
        assert any("to read" in m for m in confirmations(app))
        assert "skipped: “" in status_line(app)  # the last key's confirmation, on screen
        assert "3 / 38 triaged" in app.query_one("#status").text.plain  # in the key's frame
        await pilot.pause(0.2)  # the recount after the frame agrees
        assert "3 / 38 triaged" in app.query_one("#status").text.plain


async def test_no_advance_when_the_config_says_so(started):
    async with started(triage={"advance_after_triage": False}) as (app, pilot):
        await pilot.press("i")
        assert status(app, 0) == "to-read" and app.results_screen.results_list.cursor == 0


async def test_star_toggles_without_moving(started):
    async with started() as (app, pilot):
        paper = app.results_screen.current_paper()
        await pilot.press("s")
        assert app.library.annotation(paper.id).starred
        assert app.results_screen.current_paper() == paper
        await pilot.press("s")
        assert not app.library.annotation(paper.id).starred
        assert [m.split(":")[0] for m in confirmations(app)[-2:]] == ["starred", "unstarred"]


async def test_space_jumps_to_the_next_new_paper(started):
    async with started() as (app, pilot):
        await pilot.press("x", "x", "j", "x")  # 0, 1 and 3 triaged; 2 is still new
        await pilot.press("g", "space")
        assert app.results_screen.results_list.cursor == 2
        await pilot.press("space")
        assert app.results_screen.results_list.cursor == 4


async def test_undo_reverts_the_last_change(started):
    async with started() as (app, pilot):
        await pilot.press("i", "s")
        await pilot.press("z")
        second = app.results_screen.results_list.results.paper(1)
        assert not app.library.annotation(second.id).starred
        await pilot.press("z")
        assert status(app, 0) == "new"
        assert any("undone" in m for m in confirmations(app))


async def test_undo_names_the_papers_title_not_its_id(started):
    async with started() as (app, pilot):
        paper = app.results_screen.current_paper()
        await pilot.press("s", "z")
        said = confirmations(app)[-1]
        assert said.startswith("undone: star on “") and paper.label[:30] in said, said
        assert paper.id not in said


def _find(node, key: str):
    """The record stored under ``key`` anywhere in a YAML document."""
    if isinstance(node, dict):
        if key in node:
            return node[key]
        for value in node.values():
            found = _find(value, key)
            if found is not None:
                return found
    return None


async def test_quit_and_reopen_shows_the_annotations_from_disk(started, library_dir: Path):
    async with started() as (app, pilot):
        first = app.results_screen.current_paper().id
        await pilot.press("i")
        second = app.results_screen.current_paper().id
        await pilot.press("s", "q")
    text = (library_dir / "annotations.yaml").read_text()
    data = yaml.safe_load(text)
    assert _find(data, first)["status"] == "to-read"
    assert _find(data, second)["starred"] is True

    lib = Library.open(library_dir, config=config_mod.defaults())
    try:
        assert lib.annotations.get(first).status == "to-read"
        assert lib.annotations.get(second).starred
    finally:
        lib.close()
