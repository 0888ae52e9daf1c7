"""A source's title is shown as the source gave it: a name derived from the abstract is a
badge in its own style beside it (results row, abstract view), in every shipped theme; a
derived title and a missing abstract say so."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from rich.style import Style
from settling import settle_app
from textual.pilot import Pilot
from textual.strip import Strip

from paper_tui import config as config_mod
from paper_tui.library import Library
from paper_tui.model import DERIVED_TITLE, NO_ABSTRACT, Paper
from paper_tui.tui.app import PaperApp
from paper_tui.tui.widgets.abstract import NAME_NOTE, AbstractView
from paper_tui.tui.widgets.results import ResultsList

DATA = Path(__file__).parent.parent / "data"
THEMES = ("paper-dark", "paper-light", "paper-high-contrast")


@pytest.fixture
def sample_library(tmp_path: Path) -> Iterator[Library]:
    """41 real papers with their source titles (three named only in their abstract), and
    DBLP records, which have no abstract."""
    lib = Library.open(tmp_path / "library", config=config_mod.defaults(), bundled=False)
    lib.import_paths([DATA / "papers-ml-sample.jsonl", DATA / "formats" / "dblp-sample.xml"])
    yield lib
    lib.close()


async def _show(app: PaperApp, pilot: Pilot, paper_id: str) -> ResultsList:
    """Put the cursor on ``paper_id``."""
    results = app.results_screen.results_list
    results.cursor = next(i for i in range(len(results))
                          if results.results.paper(i).id == paper_id)
    await settle_app(pilot)
    return results


def _cells(strip: Strip) -> list[tuple[str, Style]]:
    return [(ch, seg.style or Style()) for seg in strip for ch in seg.text]


def _style_of(strip: Strip, word: str) -> Style:
    text = strip.text
    return _cells(strip)[text.index(word)][1]


def test_badge_only_when_the_title_does_not_say_the_name() -> None:
    def paper(title: str, name: str, generated: bool = False) -> Paper:
        return Paper(id="x", title=title, abstract="a", name=name, display_title=title,
                     title_generated=generated)

    assert paper("A Random CNN Sees Objects", "Tobias").badge == "Tobias"
    assert paper("URANIA: Differentially Private Insights", "Urania").badge == ""
    assert paper("Scaling KGO to Large Models", "KGO").badge == ""
    assert paper("A Non-KGO Method", "KGO").badge == "KGO"  # a word of its own only
    assert paper("KGO: Koopman Generative Operator", "KGO", generated=True).badge == ""
    assert paper("A Title", "").badge == ""


async def test_the_results_row_shows_the_source_title_and_a_separate_badge(sample_library):
    named = [p for p in sample_library.papers() if p.badge]
    assert {p.name for p in named} >= {"DMTrack", "SportsVD", "Sketched-KONS"}
    paper = next(p for p in named if p.name == "DMTrack")
    app = PaperApp(sample_library, config_mod.defaults())
    async with app.run_test(size=(140, 40)) as pilot:
        await settle_app(pilot)
        results = await _show(app, pilot, paper.id)
        row = results.cursor
        other = results.results.paper(row + 1 if row + 1 < len(results) else row - 1)
        title = paper.display_title
        for theme in THEMES:
            app.theme = theme
            for cursor in (paper.id, other.id):  # on the cursor's row, and off it
                await _show(app, pilot, cursor)
                strip = results.render_line(row - results.scroll_offset.y)
                text = strip.text
                assert f" DMTrack  {title[:30]}" in text, (theme, text)
                assert "DMTrack:" not in text
                badge, heading = _style_of(strip, "DMTrack"), _style_of(strip, title[:8])
                assert badge.bgcolor is not None and badge.bgcolor != heading.bgcolor, theme
                assert badge.color != heading.color, theme


async def test_the_abstract_view_header(sample_library):
    papers = {p.id: p for p in sample_library.papers()}
    named = next(p for p in papers.values() if p.name == "Sketched-KONS")
    bare = next(p for p in papers.values() if not p.abstract)
    app = PaperApp(sample_library, config_mod.defaults())
    async with app.run_test(size=(140, 40)) as pilot:
        await settle_app(pilot)
        view = app.query_one(AbstractView)
        await _show(app, pilot, named.id)
        lines = view.text.plain.split("\n")
        assert lines[0] == named.display_title  # as the source gave it
        assert lines[1] == f" Sketched-KONS {NAME_NOTE}"
        assert DERIVED_TITLE not in view.text.plain
        badge = next(s for s in view.text.spans if view.text.plain[s.start:s.end].strip()
                     == "Sketched-KONS")
        assert badge.style == view.get_component_rich_style("abstract--name", partial=True)
        assert isinstance(badge.style, Style) and badge.style.bgcolor is not None
        for theme in THEMES:  # switched while the paper is shown: the new theme's badge
            app.theme = theme
            await settle_app(pilot)
            drawn = _style_of(next(line for line in _strips(view) if "Sketched-KONS" in
                                   line.text), "Sketched-KONS")
            wanted = view.get_component_rich_style("abstract--name", partial=True)
            assert (drawn.color, drawn.bgcolor) == (wanted.color, wanted.bgcolor), theme

        await _show(app, pilot, bare.id)
        assert view.text.plain.rstrip().endswith(NO_ABSTRACT)
        assert NO_ABSTRACT in [line.strip() for line in _lines(view)]


def _strips(view: AbstractView) -> list[Strip]:
    return [view.render_line(y) for y in range(view.scrollable_content_region.height)]


def _lines(view: AbstractView) -> list[str]:
    return [strip.text for strip in _strips(view)]


async def test_a_derived_title_says_so(started):
    async with started() as (app, _pilot):  # the bundled list: no source titles
        view = app.query_one(AbstractView)
        paper = app.results_screen.current_paper()
        assert paper.title_generated
        lines = view.text.plain.split("\n")
        assert lines[:2] == [paper.display_title, DERIVED_TITLE]
        assert paper.badge == ""  # a derived title starts with the name it has
