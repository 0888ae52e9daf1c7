"""Numbers and dates out of range typed or pasted into the search box (issue 34 item 6):
the status line says so in one line and the app goes on; before, a 300-digit ``cites:``
or ``added:>9999-12-31`` ended the app with an internal error."""

from __future__ import annotations

from textual import events

from paper_tui.tui.widgets.search_box import SearchBox

LONG = "9" * 300


async def test_a_pasted_300_digit_number_is_an_error_in_the_status_line(started, settle):
    async with started() as (app, pilot):
        await pilot.press("slash", *"diffusion")
        await settle(pilot)
        shown = app.results_screen.results_list.results
        box = app.query_one(SearchBox)
        box.post_message(events.Paste(f" cites:>{LONG}"))
        await settle(pilot)
        assert app.is_running and app.return_code is None
        error = app.main.search.error or ""
        assert error == ("cites:>9999999999999999999… (301 characters): "
                         "99999999999999999999… (300 characters) is more than 10,000,000")
        assert error[:30] in app.query_one("#status").text.plain
        assert app.results_screen.results_list.results is shown  # the last good results
        await pilot.press("ctrl+u", *"language")
        await settle(pilot)
        assert app.main.search.error is None
        assert app.results_screen.results_list.results.query == "language"


async def test_typed_dates_at_the_ends_of_the_calendar(started, settle):
    async with started() as (app, pilot):
        await pilot.press("slash", *"added:>9999-12-31")
        await settle(pilot)
        assert app.is_running and app.return_code is None
        assert app.main.search.error is None
        assert len(app.results_screen.results_list.results) == 0
        await pilot.press("ctrl+u", *"added:>10000-01-01")
        await settle(pilot)
        assert app.is_running and app.return_code is None
        assert "is out of range" in (app.main.search.error or "")
        await pilot.press("ctrl+u", *"rating:99")
        app.query_one(SearchBox).post_message(events.Paste("9" * 258))
        await settle(pilot)
        assert app.is_running and app.return_code is None
        assert "is more than 1,000" in (app.main.search.error or "")
