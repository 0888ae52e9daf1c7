"""The facets panel has a key (``f``) that goes into it, and its own footer there."""

from __future__ import annotations

from textual.widgets._footer import FooterKey

from paper_tui.tui.widgets.facets import FacetOptions, FacetsPanel
from paper_tui.tui.widgets.footer import KeyFooter
from paper_tui.tui.widgets.results import ResultsList


def _footer(app) -> list[tuple[str, str]]:
    return [(key.key, key.description)
            for key in app.screen.query_one(KeyFooter).query(FooterKey)]


async def test_f_goes_into_the_panel_whose_footer_shows_its_keys(started, settle):
    async with started(size=(160, 40)) as (app, pilot):
        paper = app.main.current_paper()
        await pilot.press("f")
        await settle(pilot)
        panel = app.main.query_one(FacetsPanel)
        assert panel.display and isinstance(app.focused, FacetOptions)
        footer = _footer(app)
        assert ("enter", "Narrow") in footer and ("escape", "Back to results") in footer
        assert ("s", "Star") not in footer and ("i", "To read") not in footer
        await pilot.press("s", "i")  # the paper keys rest in the panel
        assert app.library.annotation(paper.id).status == "new"
        assert not app.library.annotation(paper.id).starred
        await pilot.press("escape")  # back to the results, the panel stays
        assert isinstance(app.focused, ResultsList) and panel.display
        assert ("s", "Star") in _footer(app)
        await pilot.press("f", "f")  # into it, then (from inside) hide it
        assert not panel.display and isinstance(app.focused, ResultsList)


async def test_enter_in_the_panel_narrows_and_goes_back_to_the_results(started, settle):
    async with started(size=(160, 40)) as (app, pilot):
        await pilot.press("f")
        await settle(pilot)
        box = app.main.query_one(FacetOptions)
        target = next(i for i, o in enumerate(box.options) if str(o.id) == "year\x1f2026")
        while box.highlighted != target:
            await pilot.press("j")
        await pilot.press("enter")
        await settle(pilot)
        assert app.main.search.query == "year:2026"
        assert isinstance(app.focused, ResultsList)
        assert app.said[-1] == "narrowed to year:2026"
