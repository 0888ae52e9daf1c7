"""New results on screen: no layout pass whatever the hit count, every row that changes
repainted, rows cached across result sets still follow annotations and marks (speed is
measured by bench/tui_part2.py; these check the shape of the work and that no stale row
stays on screen)."""

from __future__ import annotations

from frame_log import rows_painted
from textual._compositor import ChopsUpdate


async def test_new_results_repaint_the_rows_that_change_and_no_layout(started, settle):
    async with started(logged=True) as (app, pilot):
        results = app.results_screen.results_list
        height = results.scrollable_content_region.height
        top = results.region.y

        def lines() -> list[str]:
            return [results.render_line(y).text for y in range(height)]

        # from all papers to a few (the list fits: the scrollbar would come and go), none,
        # some, all again
        for query in ("language", "zzzqqqxx", "learning", ""):
            before = lines()
            app.frames.clear()
            app.main.set_query(query)
            await settle(pilot)
            after = lines()
            assert results.results.query == query
            assert all(isinstance(f, ChopsUpdate) for f in app.frames), f"{query}: a layout"
            painted = set().union(*(rows_painted(f, results.region) for f in app.frames))
            changed = {top + y for y, (old, new) in enumerate(zip(before, after, strict=True))
                       if old != new}
            assert changed and changed <= painted, query
            assert results.vertical_scrollbar.display
        assert len(results) > height


async def test_rows_follow_annotations_and_marks_after_new_results(started, settle):
    async with started() as (app, pilot):
        results = app.results_screen.results_list
        first = results.render_line(1).text
        await pilot.press("j", "s")  # star the second row
        await settle(pilot)
        app.main.set_query("language")
        await settle(pilot)
        app.main.set_query("")
        await settle(pilot)
        starred = results.render_line(1).text
        assert starred != first and starred[2] == "★"  # the row cache keys on the annotation
        await pilot.press("v")  # mark the row under the cursor (the cursor moves on)
        await settle(pilot)
        assert results.render_line(0).text[0] == "▌"
