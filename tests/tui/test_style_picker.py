"""``C``: the style picker offers the favourite styles first, searches every CSL style as
the reader types, previews the highlighted style (italics kept) and copies the choice."""

from __future__ import annotations

from textual.widgets import Input, OptionList, Static

from paper_tui.tui.screens.style_picker import StylePicker, styled


def _ids(app) -> list[str]:
    return [str(o.id) for o in app.screen.query_one(OptionList).options]


def _preview(app) -> str:
    return str(app.screen.query_one("#style-preview", Static).render())


async def test_favourites_first_then_type_to_search_every_style(started, settle):
    async with started(citation_styles=["ieee", "apa"], citation_style="nature") as (
            app, pilot):
        paper = app.results_screen.current_paper()
        await pilot.press("C")
        await settle(pilot)
        assert isinstance(app.screen, StylePicker)
        assert _ids(app)[:7] == ["ieee", "apa", "nature", "bibtex", "plain", "markdown", "key"]
        box = app.screen.query_one(OptionList)
        assert box.highlighted == 2  # the configured style
        assert _preview(app).startswith("1. ")  # Nature, rendered
        for key in "vancouver":
            await pilot.press(key)
        await settle(pilot)
        assert app.screen.query_one(Input).value == "vancouver"
        found = _ids(app)
        assert "vancouver" in found and all("vancouver" in sid or "ancouver" in
                                            app.screen.titles[sid].lower() for sid in found)
        box.highlighted = found.index("vancouver")
        await settle(pilot)
        assert _preview(app).startswith("1. ")
        await pilot.press("enter")
        await settle(pilot)
        assert app.screen is app.screen_stack[0]
    cited = app.library.cite([paper], "vancouver")
    assert app.clipboard == cited.text


async def test_the_preview_shows_italics_and_says_a_bad_style_in_one_line(started, settle):
    async with started(citation_style="apaa") as (app, pilot):
        await pilot.press("C")
        await settle(pilot)
        assert _preview(app).startswith("unknown citation style 'apaa'; closest: apa")
        for key in "apa":
            await pilot.press(key)
        await settle(pilot)
        found = _ids(app)
        assert found[:2] == ["apaa", "apa"]  # the configured one, then the matches
        app.screen.query_one(OptionList).highlighted = 1
        await settle(pilot)
        shown = app.screen.query_one("#style-preview", Static).render()
        assert "Advances in Neural Information Processing Systems" in str(shown)
        assert any("italic" in str(span.style) for span in shown.spans)
        await pilot.press("escape")
        await settle(pilot)
        assert app.screen is app.screen_stack[0]


def test_styled_html() -> None:
    text = styled('<div class="csl-entry">A. (2020). <i>Title &amp; more</i>. <b>V</b></div>')
    assert text.plain == "A. (2020). Title & more. V"
    assert [(text.plain[s.start:s.end], str(s.style)) for s in text.spans] == [
        ("Title & more", "italic"), ("V", "bold")]
