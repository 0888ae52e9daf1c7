"""Every key hint on screen names the key in force: remapped in config.yaml's ``keymap:``,
the hints (the reading lists' title and header, the empty lists' advice, help's closing
key, the confirmations that name a key) follow; with no keymap they read as always."""

from __future__ import annotations

from textual.widgets import Label, OptionList

from paper_tui.tui.screens.help import HelpScreen
from paper_tui.tui.screens.lists_screen import ListsScreen, ReadingListScreen

REMAPPED = {"list-move-down": "ctrl+j", "list-move-up": "ctrl+k", "list-remove": "X",
            "list-rename": "R", "list-new": "N", "add-to-list": "A", "close-help": "c",
            "leave-similar": "b", "clear-marks": "U"}


def _text(label: Label) -> str:
    return str(label.content)


async def _open_a_list(app, pilot) -> None:
    ids = [app.results_screen.results_list.results.paper(i).id for i in range(3)]
    app.library.create_list("survey")
    app.library.add_to_list("survey", ids)
    await pilot.press("L")
    await pilot.pause()
    assert isinstance(app.screen, ListsScreen)
    await pilot.press("enter")
    await pilot.pause()
    assert isinstance(app.screen, ReadingListScreen)


async def test_the_reading_list_hints_name_the_remapped_keys(started):
    async with started(keymap=REMAPPED) as (app, pilot):
        assert app.problems == []  # the reading lists' and help's ids are known ids
        await _open_a_list(app, pilot)
        header = _text(app.screen.query_one("#list-header", Label))
        assert "ctrl+j/ctrl+k move · X remove · R rename · e describe" in header
        assert "J/K" not in header and " d remove" not in header
        first = app.screen.results_list.current_paper().id
        await pilot.press("ctrl+j")  # and the key named works
        await pilot.pause()
        assert app.library.reading_list("survey").ids[1] == first
        await pilot.press("escape")
        await pilot.pause()
        title = _text(app.screen.query_one("#lists-title", Label))
        assert "N new · R rename" in title and "n new" not in title


async def test_the_empty_lists_advice_names_the_remapped_keys(started):
    async with started(keymap=REMAPPED) as (app, pilot):
        await pilot.press("L")
        await pilot.pause()
        advice = str(app.screen.query_one("#lists", OptionList).get_option_at_index(0).prompt)
        assert "Press N to make one, or A on a paper" in advice


async def test_help_says_its_closing_key(started):
    async with started(keymap=REMAPPED) as (app, pilot):
        await pilot.press("question_mark")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        scroll = app.screen.query_one("VerticalScroll")
        assert scroll.border_subtitle == "c closes"
        await pilot.press("c")
        await pilot.pause()
        assert not isinstance(app.screen, HelpScreen)


async def test_confirmations_name_the_remapped_keys(started, settle):
    async with started(keymap=REMAPPED) as (app, pilot):
        await pilot.press("m")
        await settle(pilot)
        assert app.said[-1].endswith("(b: back)")
        await pilot.press("V")
        await settle(pilot)
        assert app.said[-1].endswith("marked (U clears)")


async def test_with_no_keymap_the_hints_name_the_default_keys(started, settle):
    async with started() as (app, pilot):
        await pilot.press("m")
        await settle(pilot)
        assert app.said[-1].endswith("(Esc: back)")
        await pilot.press("escape", "V")
        await settle(pilot)
        assert app.said[-1].endswith("marked (u clears)")
        await _open_a_list(app, pilot)
        header = _text(app.screen.query_one("#list-header", Label))
        assert header.endswith("· J/K move · d remove · R rename · e describe · X export · "
                               "V c cite all")
