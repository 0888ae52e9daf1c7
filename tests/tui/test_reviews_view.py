"""The reviews view in the abstract pane (``w``; ``]``/``[`` from review to review) and the
venue line's rating change, on a library fetched from the OpenReview pages of
``tests/data/reviews/`` (a real HTTP server on 127.0.0.1, twice: before and after the
rebuttal moved a rating from 7 to 8)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from settling import settle_app

from fetch_routes import open_library
from http_replay import ReplayServer
from paper_tui.library import Library
from paper_tui.tui.app import PaperApp
from paper_tui.tui.widgets.reviews_view import HOW_TO_GET, ReviewsView, sparkline
from paper_tui.venue.reviews import RatingPoint
from test_fetch_reviews import NEURIPS, serve_neurips


@pytest.fixture
def reviewed_library(tmp_path: Path, http_replay: ReplayServer) -> Iterator[Library]:
    """The two NeurIPS papers with their reviews; the first's rating moved 7 -> 8."""
    serve_neurips(http_replay)
    lib = open_library(tmp_path / "lib", http_replay.url)
    assert lib.fetch([f"openreview:{NEURIPS}"], reviews=True).sources[0].status == "fetched"
    serve_neurips(http_replay, "offset0-after-rebuttal")
    assert lib.fetch([f"openreview:{NEURIPS}"], reviews=True).sources[0].status == "fetched"
    yield lib
    lib.close()


async def _to(pilot, app: PaperApp, query: str) -> None:  # type: ignore[no-untyped-def]
    app.main.set_query(query)
    await settle_app(pilot)
    await settle_app(pilot)


async def test_the_key_toggles_the_reviews_and_brackets_move_between_them(
        reviewed_library: Library) -> None:
    app = PaperApp(reviewed_library, reviewed_library_config(reviewed_library))
    async with app.run_test(size=(80, 24)) as pilot:
        await _to(pilot, app, "grok")
        abstract = app.main.abstract
        assert abstract.paper is not None and "grok" in abstract.paper.title.lower()
        venue = abstract.text.plain
        assert "7.0 → 8.0 (+1.0 since " in venue and "▁█" in venue  # after the rating
        assert "μ 8.0 ± 0.0 (8; confidence 4.0) · 7.0 → 8.0 (+1.0 since " in venue
        await pilot.press("enter")  # into the abstract pane
        await pilot.press("w")
        await settle_app(pilot)
        view = app.main.query_one(ReviewsView)
        assert view.display and not abstract.display and app.focused is view
        text = view.text.plain
        order = [text.index(w) for w in ("Meta-review by Area_Chair_Xy12",
                                         "Decision by Program_Chairs",
                                         "Review by Reviewer_rwBm, 2024-06-14",
                                         "Comment by Authors")]
        assert order == sorted(order)
        assert "rating 8 · confidence 4 · soundness 3 · presentation 4 · contribution 3" in text
        assert len(view.starts) == 5  # the title, then four replies
        assert view.scroll_offset.y == 0
        await pilot.press("right_square_bracket")
        assert view.scroll_offset.y == min(view.starts[1], view.max_scroll_y)
        await pilot.press("right_square_bracket")
        second = view.scroll_offset.y
        assert second == min(view.starts[2], view.max_scroll_y) and second > view.starts[1]
        await pilot.press("left_square_bracket")
        assert view.scroll_offset.y == view.starts[1]
        await pilot.press("left_square_bracket")
        assert view.scroll_offset.y == 0
        await pilot.press("w")  # the abstract again
        await pilot.pause()
        assert abstract.display and not view.display and app.focused is abstract


async def test_the_view_follows_the_cursor(reviewed_library: Library) -> None:
    app = PaperApp(reviewed_library, reviewed_library_config(reviewed_library))
    async with app.run_test(size=(120, 40)) as pilot:
        await _to(pilot, app, "")
        await pilot.press("w")  # from the results: they keep the focus
        await settle_app(pilot)
        view = app.main.query_one(ReviewsView)
        assert app.focused is app.main.results_list
        first = view.paper
        await pilot.press("down")
        await settle_app(pilot)
        assert view.paper is not first and view.paper is app.main.abstract.paper
        assert "Review by" in view.text.plain


async def test_a_paper_without_reviews_says_how_to_get_them(make_app) -> None:  # type: ignore[no-untyped-def]
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle_app(pilot)
        await pilot.press("w")
        await settle_app(pilot)
        text = app.main.query_one(ReviewsView).text.plain
        assert text.endswith(HOW_TO_GET)
        assert "paper-tui fetch openreview:VENUE_ID --reviews" in HOW_TO_GET


def test_the_sparkline() -> None:
    points = [RatingPoint(f"2026-11-2{i}T00:00:00Z", (r,)) for i, r in enumerate((5, 6, 8))]
    assert sparkline(points) == "▁▃█"
    assert sparkline(points[:1]) == ""
    assert sparkline([points[0], points[0]]) == "▄▄"


def reviewed_library_config(lib: Library):  # type: ignore[no-untyped-def]
    from paper_tui import config as config_mod

    return config_mod.load(lib.root.parent / "lib-config" / "config.yaml")


async def test_the_reviews_and_the_full_text_take_turns_in_the_pane(
        reviewed_library: Library) -> None:
    """``w`` then ``p`` then ``w``: one reading view at a time (both were shown at once, one
    above the other, when each key hid only the abstract)."""
    from paper_tui.tui.widgets.full_text import FullTextView

    app = PaperApp(reviewed_library, reviewed_library_config(reviewed_library))
    async with app.run_test(size=(120, 40)) as pilot:
        await _to(pilot, app, "grok")
        await pilot.press("w")
        await settle_app(pilot)
        reviews = app.main.query_one(ReviewsView)
        assert reviews.display
        await pilot.press("p")
        await settle_app(pilot)
        full_text = app.main.query_one(FullTextView)
        assert full_text.display and not reviews.display and not app.main.abstract.display
        await pilot.press("w")
        await settle_app(pilot)
        assert reviews.display and not full_text.display and not app.main.abstract.display
