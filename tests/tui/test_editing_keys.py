"""Pilot tests of the editing keys in the real app: marks and bulk tagging, note, add to a
list, the lists screen, the citation style picker, facets and the quit guard."""

from __future__ import annotations

from screen_host import reopened
from textual.app import App, ComposeResult
from textual.widgets import Input, OptionList, TextArea

from paper_tui.tui.screens.confirm import Confirm
from paper_tui.tui.screens.list_picker import ListPicker
from paper_tui.tui.screens.lists_screen import ListsScreen, ReadingListScreen
from paper_tui.tui.screens.note_editor import NoteEditor
from paper_tui.tui.screens.style_picker import StylePicker
from paper_tui.tui.screens.tag_editor import TagEditor
from paper_tui.tui.widgets.facets import FacetsPanel, narrow, term


def messages(app) -> list[str]:
    """What the app said: confirmations (status line) and toasts (errors, other screens)."""
    return [*app.said, *(n.message for n in app._notifications)]


async def test_bulk_tagging_of_marked_papers(started, library_dir):
    async with started() as (app, pilot):
        results = app.results_screen.results_list
        first, second = results.results.paper(0).id, results.results.paper(1).id
        await pilot.press("v", "v")  # mark two papers (the cursor moves on)
        assert results.marked == {first, second}
        assert app.results_screen.selected_ids() == sorted([first, second])
        await pilot.press("t")
        await pilot.pause()
        assert isinstance(app.screen, TagEditor)
        await pilot.press(*"survey", "enter")
        await pilot.pause()
        assert any("2 papers" in m for m in messages(app))
        await pilot.press("u")
        assert not results.marked
        third = results.results.paper(2).id
    with reopened(library_dir) as again:  # the app closed its library: all on disk
        assert list(again.annotations.get(first).tags) == ["survey"]
        assert list(again.annotations.get(second).tags) == ["survey"]
        assert list(again.annotations.get(third).tags) == []


async def test_mark_all_shown_then_triage_acts_on_all(started, settle):
    async with started() as (app, pilot):
        await pilot.press("V")
        await settle(pilot)  # the ids are read in a worker
        results = app.results_screen.results_list
        assert len(results.marked) == len(results) == 38
        await pilot.press("x")
        assert app.library.annotations.status_counts().get("skipped") == 38
        await pilot.press("u")
        assert not results.marked


async def test_note_from_the_app_and_quit_guard(started, library_dir):
    async with started() as (app, pilot):
        paper = app.results_screen.current_paper()
        await pilot.press("n")
        await pilot.pause()
        assert isinstance(app.screen, NoteEditor)
        app.screen.query_one(TextArea).insert("first note")
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert app.library.annotation(paper.id).note == "first note"
        await pilot.press("n")
        await pilot.pause()
        app.screen.query_one(TextArea).insert(" and more")
        await pilot.press("ctrl+q")  # quitting with an unsaved note asks
        await pilot.pause()
        assert isinstance(app.screen, Confirm)
        await pilot.press("n")
        await pilot.pause()
        assert app.is_running
        await pilot.press("ctrl+s")
        await pilot.pause()
        await pilot.press("q")  # nothing unsaved: quits at once
        await pilot.pause()
        assert not app.is_running
    with reopened(library_dir) as again:
        assert again.annotations.get(paper.id).note == "first note and more"


async def test_add_to_a_new_list_then_open_it_from_the_lists_screen(started):
    async with started() as (app, pilot):
        paper = app.results_screen.current_paper()
        await pilot.press("a")
        await pilot.pause()
        assert isinstance(app.screen, ListPicker)
        await pilot.press(*"weekend", "enter")
        await pilot.pause()
        assert list(app.library.reading_list("weekend").ids) == [paper.id]
        await pilot.press("L")
        await pilot.pause()
        assert isinstance(app.screen, ListsScreen)
        await pilot.press("i")  # app keys do nothing on a screen without results
        assert app.library.annotation(paper.id).status == "new"
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, ReadingListScreen)
        assert app.results_screen.current_paper() == paper
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, ListsScreen)
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is app.screen_stack[0]


async def test_cite_as_picks_a_style_and_copies(started):
    async with started() as (app, pilot):
        paper = app.results_screen.current_paper()
        await pilot.press("C")
        await pilot.pause()
        assert isinstance(app.screen, StylePicker)
        box = app.screen.query_one(OptionList)
        box.highlighted = [o.id for o in box.options].index("key")
        await pilot.press("enter")
        await app.workers.wait_for_complete()
        await pilot.pause()
    from paper_tui import citations

    assert app.clipboard == citations.cite([paper], "key")


def test_facet_terms():
    assert term("tag", "to cite") == 'tag:"to cite"'
    assert term("year", "2024") == "year:2024"
    assert narrow("graph", "venue", "NeurIPS") == "graph venue:NeurIPS"
    assert narrow("graph venue:NeurIPS", "venue", "NeurIPS") == "graph venue:NeurIPS"


async def test_facet_click_posts_the_chosen_term():
    chosen = []

    class Panelled(App[None]):
        def compose(self) -> ComposeResult:
            yield FacetsPanel()

        def on_facets_panel_chosen(self, message: FacetsPanel.Chosen) -> None:
            chosen.append(message.term)

    app = Panelled()
    async with app.run_test(size=(80, 30)) as pilot:
        panel = app.query_one(FacetsPanel)
        panel.show({"status": {"new": 30, "read": 8}, "tag": {"to cite": 2},
                    "venue": {"NeurIPS": 38}, "year": {"2026": 38}})
        await pilot.pause()
        box = panel.query_one(OptionList)
        ids = [o.id for o in box.options]
        assert ids[:3] == [None, "status\x1fnew", "status\x1fread"]  # a heading, then values
        top = box.content_region.y - box.region.y
        await pilot.click(OptionList, offset=(2, top + ids.index("tag\x1fto cite")))
        await pilot.pause()
    assert chosen == ['tag:"to cite"']


async def test_facets_panel_in_the_app_narrows_the_query(started, settle):
    async with started(size=(160, 40)) as (app, pilot):
        await pilot.press("f")
        await settle(pilot)
        panel = app.query_one(FacetsPanel)
        assert panel.facets["venue"]
        box = panel.query_one(OptionList)
        index = next(i for i, o in enumerate(box.options) if str(o.id).startswith("year"))
        box.highlighted = index
        box.focus()
        await pilot.press("enter")
        await settle(pilot)
        assert app.query_one("#search", Input).value == "year:2026"
        assert len(app.results_screen.results_list) == 38


async def test_triage_and_tags_inside_an_opened_reading_list(started):
    async with started() as (app, pilot):
        main_paper = app.results_screen.current_paper()
        ids = [app.results_screen.results_list.results.paper(i).id for i in (5, 6)]
        app.library.create_list("queue")
        app.library.add_to_list("queue", ids)
        await pilot.press("L", "enter")
        await pilot.pause()
        assert isinstance(app.screen, ReadingListScreen)
        await pilot.press("i")  # the list's first paper, not the main screen's
        assert app.library.annotation(ids[0]).status == "to-read"
        assert app.library.annotation(main_paper.id).status == "new"
        assert app.results_screen.current_paper().id == ids[1]  # advanced within the list
        await pilot.press("t", *"queued", "enter")
        await pilot.pause()
        assert list(app.library.annotation(ids[1]).tags) == ["queued"]
        await pilot.press("slash")  # search keys do nothing here
        assert isinstance(app.screen, ReadingListScreen)
        await pilot.press("escape", "escape")
        await pilot.pause()
        assert app.results_screen.current_paper() == main_paper
        assert "1 / 38 triaged" in str(app.query_one("#status").render())
