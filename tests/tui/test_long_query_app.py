"""A very long query pasted into the search box: refused at once in the status line (the
results of the last query stay), and the box keeps working."""

from __future__ import annotations

from textual import events

from paper_tui.tui.widgets.search_box import SearchBox


async def test_a_pasted_100_kb_query_is_refused_and_typing_goes_on(started, settle):
    async with started() as (app, pilot):
        await pilot.press("slash", *"diffusion")
        await settle(pilot)
        shown = app.results_screen.results_list.results
        box = app.query_one(SearchBox)
        box.post_message(events.Paste("a" * 100_000))
        await settle(pilot)
        assert len(box.value) == 100_009
        error = app.main.search.error or ""
        assert error == "the query is 100,009 characters long: a query is at most 10,000"
        assert error[:30] in app.query_one("#status").text.plain
        assert app.results_screen.results_list.results is shown  # the last good results
        await pilot.press("ctrl+u", *"language")
        await settle(pilot)
        assert app.main.search.error is None
        assert app.results_screen.results_list.results.query == "language"
