"""The abstract view draws from cached parts (header + abstract) and wraps ahead: what it
shows must be exactly the paper's whole text wrapped at once, for every paper."""

from __future__ import annotations

from paper_tui.tui.widgets.abstract import MARGIN, AbstractView, render_paper


def shown_lines(view: AbstractView) -> list[str]:
    height = view.scrollable_content_region.height
    lines = [view.render_line(y).text for y in range(height)]
    assert all(line[:MARGIN] == " " * MARGIN for line in lines)
    return [line[MARGIN:].rstrip() for line in lines]


def wrapped_whole(app, view: AbstractView) -> list[str]:
    """The text of the shown paper rendered in one piece, as the view's first screenful."""
    text = view.text
    width = view.scrollable_content_region.width - 2 * MARGIN
    options = app.console.options.update_width(width)
    lines = ["".join(s.text for s in line).rstrip()
             for line in app.console.render_lines(text, options, pad=False)]
    height = view.scrollable_content_region.height
    return (lines + [""] * height)[:height]


async def test_every_paper_shows_its_whole_text_wrapped(started):
    async with started() as (app, pilot):
        view = app.query_one(AbstractView)
        results = app.results_screen.results_list
        for i in range(len(results)):
            results.cursor = i
            await pilot.pause()
            assert view.paper == results.results.paper(i)
            assert shown_lines(view) == wrapped_whole(app, view), f"paper {i}"


async def test_a_paper_is_shown_as_it_is_now_not_as_cached(started):
    """Headers are cached by annotation: after a change, coming back shows the change."""
    async with started(triage={"advance_after_triage": False}) as (app, pilot):
        view = app.query_one(AbstractView)
        await pilot.press("j")  # paper 1 shown as new, paper 2 wrapped ahead
        assert "[new]" in view.text.plain
        await pilot.press("r", "s")
        assert "[read]  ★ starred" in view.text.plain
        assert shown_lines(view) == wrapped_whole(app, view)
        await pilot.press("j")
        assert "[new]" in view.text.plain and view.paper == app.results_screen.current_paper()
        assert shown_lines(view) == wrapped_whole(app, view)
        await pilot.press("k")
        assert "[read]  ★ starred" in view.text.plain
        assert shown_lines(view) == wrapped_whole(app, view)


async def test_text_matches_render_paper(started):
    async with started() as (app, _pilot):
        view = app.query_one(AbstractView)
        paper = app.results_screen.current_paper()
        whole = render_paper(paper, app.library.annotation(paper.id), [], {},
                             view.get_component_rich_style("abstract--match", partial=True))
        assert view.text.plain == whole.plain
