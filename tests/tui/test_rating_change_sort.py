"""The ``rating-change`` sort in the app: in the sort picker (``S``) and the ``ctrl+s``
cycle once a paper's rating moved, the biggest rise first; not offered while no paper has
a change (the bundled list: a sort that orders nothing is no step). On the library fetched
twice from the OpenReview pages of ``tests/data/reviews/`` (7 -> 8 after the rebuttal)."""

from __future__ import annotations

from settling import settle_app
from test_reviews_view import reviewed_library, reviewed_library_config

from paper_tui.library import Library
from paper_tui.tui.app import PaperApp
from paper_tui.tui.screens.sort_picker import SortPicker

__all__ = ["reviewed_library"]


async def test_the_picker_and_the_cycle_offer_it_once_a_rating_moved(
        reviewed_library: Library) -> None:
    lib = reviewed_library
    assert "rating-change" in lib.sorts()
    app = PaperApp(lib, reviewed_library_config(lib))
    async with app.run_test(size=(100, 30)) as pilot:
        await settle_app(pilot)
        await pilot.press("S", *"change")
        picker = app.screen
        assert isinstance(picker, SortPicker)
        options = picker.query_one("#sort-options")
        assert options.highlighted_option.id == "rating-change"
        await pilot.press("enter")
        await settle_app(pilot)
        assert app.main.search.sort == "rating-change"
        results = app.results_screen.results_list
        assert "grok" in results.results.paper(0).title.lower()  # the one that rose
        rows = [results.render_line(y).text for y in range(len(results))]
        assert "7.0 → 8.0 (+1.0 since " in rows[0]  # the row says the move
        assert "→" not in rows[1]  # one point: no move
        assert app.said[-1] == "sorted by rating-change"
        # the cycle: consensus -> rating-change -> team
        app.main.search.sort_by("consensus")
        await settle_app(pilot)
        await pilot.press("ctrl+s")
        await settle_app(pilot)
        assert app.main.search.sort == "rating-change"
        await pilot.press("ctrl+s")
        await settle_app(pilot)
        assert app.main.search.sort == "team"


async def test_without_a_change_neither_offers_it(started, settle) -> None:  # type: ignore[no-untyped-def]
    async with started() as (app, pilot):
        assert "rating-change" not in app.library.sorts()
        app.main.search.sort_by("consensus")
        await settle(pilot)
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert app.main.search.sort == "team"
        await pilot.press("S", *"change")
        options = app.screen.query_one("#sort-options")
        assert all(options.get_option_at_index(i).id != "rating-change"
                   for i in range(options.option_count))
        await pilot.press("escape")


async def test_a_sort_no_longer_offered_cycles_on_from_its_place(started, settle) -> None:  # type: ignore[no-untyped-def]
    """The config may start the app on ``rating-change`` in a library with no change yet:
    ``ctrl+s`` goes on to the next sort offered."""
    async with started(search={"sort": "rating-change"}) as (app, pilot):
        assert app.main.search.sort == "rating-change"
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert app.main.search.sort == "team"
