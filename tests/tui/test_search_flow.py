"""Pilot tests: searching as you type, history, the abstract view, help and the keymap."""

from __future__ import annotations

from paper_tui.tui.controllers.search import ResultsReady
from paper_tui.tui.widgets.abstract import AbstractView
from paper_tui.tui.widgets.search_box import SearchBox


async def test_typing_a_query_shows_its_hits(started, settle):
    async with started() as (app, pilot):
        assert len(app.results_screen.results_list) == 38  # the bundled list
        await pilot.press("slash", *"diffusion")
        await settle(pilot)
        results = app.results_screen.results_list
        hits = [results.results.paper(i) for i in range(len(results))]
        assert 0 < len(hits) < 38
        assert all("diffusion" in (p.display_title + p.display_abstract).lower() for p in hits)
        status = app.query_one("#status").text.plain
        assert f"{len(hits)} hits" in status
        assert app.focused is app.query_one(SearchBox)


async def test_enter_moves_to_the_first_hit_and_shows_its_abstract(started, settle):
    async with started() as (app, pilot):
        await pilot.press("slash", *"diffusion", "enter")
        await settle(pilot)
        results = app.results_screen.results_list
        assert app.focused is results and results.cursor == 0
        first = results.results.paper(0)
        body = app.query_one(AbstractView).text.plain
        assert first.display_abstract[:30] in body.replace("\n", " ")
        await pilot.press("j")
        assert results.cursor == 1
        second = results.results.paper(1)
        body = app.query_one(AbstractView).text.plain
        assert second.display_abstract[:20] in body.replace("\n", " ")
        await pilot.press("enter")
        assert isinstance(app.focused, AbstractView)
        await pilot.press("escape")
        assert app.focused is results


async def test_a_stale_search_never_overwrites_a_newer_one(started, settle):
    async with started() as (app, pilot):
        control = app.main.search
        stale = app.library.results("diffusion")
        control.search("language", immediate=True)
        app.post_message(ResultsReady(control.generation - 1, stale, None, ""))
        await settle(pilot)
        assert app.results_screen.results_list.results.query == "language"
        assert app.results_screen.results_list.results is not stale


async def test_query_error_is_shown_inline(started, settle):
    async with started() as (app, pilot):
        await pilot.press("slash", *"diffusion")
        await settle(pilot)
        await pilot.press("ctrl+u", *'title:"unclosed')
        await settle(pilot)
        assert "quote is not closed" in (app.main.search.error or "")
        assert app.main.search.error[:20] in app.query_one("#status").text.plain
        # the results of the last query that parsed stay on screen
        assert app.results_screen.results_list.results.query != 'title:"unclosed'


async def test_history_walks_back_and_forth(started, settle):
    async with started() as (app, pilot):
        box = app.query_one(SearchBox)
        for query in ("diffusion", "language"):
            await pilot.press("slash", "ctrl+u", *query, "enter")
            await settle(pilot)
        await pilot.press("slash", "ctrl+u", "up")
        assert box.value == "language"
        await pilot.press("up")
        assert box.value == "diffusion"
        await pilot.press("down", "down")
        assert box.value == ""
        await pilot.press("escape")
        assert app.focused is app.results_screen.results_list
        await pilot.press("slash", *"language", "up")  # the box's own query is not a step
        assert box.value == "diffusion"


async def test_cursor_keys_and_sort(started, settle):
    async with started(size=(80, 24)) as (app, pilot):
        results = app.results_screen.results_list
        await pilot.press("G")
        assert results.cursor == 37
        await pilot.press("g", "pagedown")
        assert results.cursor > 1
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert app.main.search.sort == "year"
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert app.main.search.sort == "title" and results.results.sort == "title"
        by_title = app.library.results("", sort="title")
        shown = [results.results.paper(i).id for i in range(len(results))]
        assert shown == [by_title.paper(i).id for i in range(len(by_title))]
        by_title.close()


async def test_a_new_sort_puts_the_cursor_on_the_first_row(started, settle):
    async with started(size=(80, 24)) as (app, pilot):
        results = app.results_screen.results_list
        await pilot.press("G")
        await pilot.press("ctrl+s")  # the next sort: year
        await settle(pilot)
        assert app.main.search.sort == "year" and results.cursor == 0
        assert results.scroll_offset.y == 0
        await pilot.press("G", "S", *"tit", "enter")  # the picker: type to choose
        await settle(pilot)
        assert app.main.search.sort == "title" and results.cursor == 0
        assert app.said[-1] == "sorted by title"


async def test_the_sort_picker_filters_and_escape_keeps_the_sort(started, settle):
    from paper_tui.tui.screens.sort_picker import SortPicker

    async with started() as (app, pilot):
        await pilot.press("S")
        picker = app.screen
        assert isinstance(picker, SortPicker)
        options = picker.query_one("#sort-options")
        assert options.highlighted_option.id == "relevance"  # the one in force
        await pilot.press(*"rat")
        assert [options.get_option_at_index(i).id for i in range(options.option_count)
                ] == ["rating"]
        await pilot.press("backspace", "backspace", "backspace", *"cons")  # best match first
        assert options.highlighted_option.id == "consensus"
        await pilot.press("escape")
        assert app.screen is app.main and app.main.search.sort == "relevance"
        await pilot.press("S", *"zzz", "enter")  # nothing matches: Enter does nothing
        assert isinstance(app.screen, SortPicker)
        await pilot.press("escape", "S", "down", "down", "down", "enter")
        await settle(pilot)
        assert app.main.search.sort == "rating"


async def test_help_lists_the_live_keys_and_a_remapped_key_works(started):
    async with started(keymap={"search": "f", "bottom": "e", "nonsense": "y"}) as (app, pilot):
        await pilot.press("e")
        assert app.results_screen.results_list.cursor == 37
        await pilot.press("f")
        assert isinstance(app.focused, SearchBox)
        await pilot.press("escape", "question_mark")
        await pilot.pause()
        rows = {action.id: action.key_display for action in app.screen.actions}
        assert rows["search"] == "f"
        assert rows["bottom"] == "e"
        assert rows["to-read"] == "i"
        assert rows["star"] == "s"
        await pilot.press("escape")
        assert app.screen is app.screen_stack[0]
    assert any("keymap.nonsense" in p for p in app.problems)


async def test_did_you_mean_and_matched_words_are_shown(started, settle):
    async with started() as (app, pilot):
        await pilot.press("slash", *"difusion")
        await settle(pilot)
        assert "did you mean: diffusion" in app.query_one("#status").text.plain
        await pilot.press("ctrl+u", *"diffusion", "enter")
        await settle(pilot)
        spans = app.results_screen.results_list.highlights(0)
        assert spans.get("title") or spans.get("abstract")
        view = app.query_one(AbstractView)
        marked = [view.text.plain[s.start:s.end].lower() for s in view.text.spans
                  if s.style == view.get_component_rich_style("abstract--match",
                                                              partial=True)]
        assert "diffusion" in marked


async def test_more_like_this_and_back(started, settle):
    async with started() as (app, pilot):
        await pilot.press("j", "j", "j")
        paper = app.results_screen.current_paper()
        await pilot.press("m")
        await settle(pilot)
        assert app.main.search.mode.startswith("like: ")
        assert "like: " in app.query_one("#status").text.plain
        results = app.results_screen.results_list
        like = [results.results.paper(i).id for i in range(len(results))]
        assert like and paper.id not in like
        await pilot.press("j", "escape")
        await settle(pilot)
        assert app.main.search.mode == "" and len(app.results_screen.results_list) == 38
        assert app.results_screen.current_paper() == paper  # back where "like this" began
