"""The "for you" sort: the app orders the results by what the reader kept and skipped,
learns again after each triage key (in a worker), and says what it learned from."""

from __future__ import annotations

import time


def _status(app) -> str:
    return app.query_one("#status").text.plain


async def test_for_you_puts_the_kept_topic_first_and_follows_each_key(started):
    async with started(search={"sort": "for-you"}) as (app, pilot):
        library = app.library
        diffusion = library.results("diffusion").ids()  # a topic to keep
        others = [pid for pid in library.results("").ids() if pid not in diffusion]
        assert len(diffusion) >= 4 and len(others) >= 10
        library.annotations.set_status(diffusion[:2], "to-read")
        library.annotations.set_status(others[:6], "skipped")
        app.main.refresh_results()
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and "2 kept, 6 skipped" not in _status(app):
            await pilot.pause(0.1)
        assert "sort: for you: 2 kept, 6 skipped" in _status(app)
        results = app.results_screen.results_list.results
        new_first = [results.paper(i).id for i in range(len(results))
                     if library.annotations.get(results.paper(i).id).status == "new"]
        # the untriaged papers first, in the order `paper-tui recommend` gives them
        best = [item.paper.id for item in library.recommend(limit=5).items]
        assert [results.paper(i).id for i in range(5)] == best == new_first[:5]
        before = [library.results("", sort="relevance").ids().index(p) for p in best]
        assert before != sorted(before)  # not the list's own order
        # a triage key: the key acts at once, the order follows in a worker
        app.results_screen.results_list.cursor = 0
        await pilot.press("x")
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and "2 kept, 7 skipped" not in _status(app):
            await pilot.pause(0.1)
        assert "for you: 2 kept, 7 skipped" in _status(app)
        view = app.query_one("#abstract")
        assert "for you: +" in view.text.plain  # why this paper is where it is


async def test_for_you_with_nothing_kept_says_so_and_keeps_the_list(started):
    async with started(search={"sort": "for-you"}) as (app, pilot):
        deadline = time.monotonic() + 30  # the for-you order follows the first screen
        while time.monotonic() < deadline and "for you: nothing kept" not in _status(app):
            await pilot.pause(0.1)
        assert "for you: nothing kept yet" in _status(app)
        assert len(app.results_screen.results_list) == 38
