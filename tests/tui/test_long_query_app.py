"""Very long queries pasted into the search box: a 100,000-character word is searched;
100 KB of words is refused at once in the status line (the results of the last query
stay), and the box keeps working."""

from __future__ import annotations

from textual import events

from paper_tui.tui.widgets.search_box import SearchBox


async def test_a_pasted_100_kb_word_is_searched(started, settle):
    async with started() as (app, pilot):
        await pilot.press("slash", *"diffusion")
        await settle(pilot)
        box = app.query_one(SearchBox)
        box.post_message(events.Paste("a" * 100_000))
        await settle(pilot)
        assert len(box.value) == 100_009
        assert app.main.search.error is None
        results = app.results_screen.results_list.results
        assert results.query == box.value and len(results) == 0


async def test_a_pasted_100_kb_of_words_is_refused_and_typing_goes_on(started, settle):
    async with started() as (app, pilot):
        await pilot.press("slash", *"diffusion")
        await settle(pilot)
        shown = app.results_screen.results_list.results
        box = app.query_one(SearchBox)
        box.post_message(events.Paste(" ab" * 33_333))
        await settle(pilot)
        assert len(box.value) == 100_008
        error = app.main.search.error or ""
        assert error == "the query has 33,334 words: a query has at most 1,000"
        assert error[:30] in app.query_one("#status").text.plain
        assert app.results_screen.results_list.results is shown  # the last good results
        await pilot.press("ctrl+u", *"language")
        await settle(pilot)
        assert app.main.search.error is None
        assert app.results_screen.results_list.results.query == "language"
