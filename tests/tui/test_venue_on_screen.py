"""What the venue says, on screen: the abstract view's line (decision, rating, citations,
links, area) and the affiliations under the authors; the results row's decision mark and
the sort's value; the key opening a paper's code; the facets; all of it inert."""

from __future__ import annotations

import dataclasses
import stat
import time
import webbrowser
from pathlib import Path

import pytest
from rich.style import Style
from textual.widgets import Input, OptionList

from hostile_helpers import ACTIVE, EVIL, PAYLOAD
from paper_tui.tui.widgets.abstract import AbstractView
from paper_tui.tui.widgets.facets import FacetsPanel
from venue_helpers import PAPERS, venue_paper

SPECTRAL = PAPERS[0]  # Oral, 7 7 8, 5,867 citations, code
HELSINKI = PAPERS[6]  # Oral, area, affiliations, no abstract, no citations
PLAIN = PAPERS[-1]  # the venue says nothing


async def _with_venue_papers(app, pilot, settle, query: str) -> None:
    app.library.index.add(PAPERS)
    await pilot.press("slash", "ctrl+u", *query, "enter")
    await settle(pilot)


def _rows(app) -> list[str]:
    results = app.results_screen.results_list
    return [results.render_line(y).text for y in range(min(len(results), 10))]


async def test_the_abstract_view_says_what_the_venue_says(started, settle):
    async with started(size=(160, 40)) as (app, pilot):
        await _with_venue_papers(app, pilot, settle, '"spectral normalization"')
        view = app.query_one(AbstractView)
        assert view.paper == SPECTRAL
        lines = view.text.plain.splitlines()
        line = "Oral · μ 7.33 ± 0.47 (7 7 8; confidence 3.0) · 5,867 citations (2026-12-01) " \
               "· code ↗"
        assert line in lines
        assert lines.index(line) == lines.index("ICLR 2018") + 1
        code = view.text.plain.index("code ↗")
        styles = [span.style for span in view.text.spans
                  if span.start <= code < span.end and isinstance(span.style, Style)]
        assert any(s.link == SPECTRAL.code for s in styles)

        await pilot.press("slash", "ctrl+u", *"cognition saliency", "enter")
        await settle(pilot)
        assert view.paper == HELSINKI
        lines = view.text.plain.splitlines()
        authors = lines.index("A. Author")
        assert lines[authors + 1] == "University of Helsinki (Finland)"  # once, under them
        assert "Oral · μ 3.75 ± 1.48 (2 3 4 6; confidence 2.25) · area: Emotional and " \
               "Social Signals" in lines

        await pilot.press("slash", "ctrl+u", *"without any venue signal", "enter")
        await settle(pilot)
        assert view.paper == PLAIN
        lines = view.text.plain.splitlines()
        assert lines[:4] == [PLAIN.title, "A. Author", "arXiv 2024", ""]  # nothing more


async def test_only_what_is_known_is_said(started, settle):
    cited = venue_paper("Only Citations Known", "ICML", 2019, "Nothing else.", citations=12)
    unrated = venue_paper("Rated Without Reviews", "ICML", 2019, "A mean only.",
                          rating=5.5, decision="poster", decision_text="Poster Workshop")
    async with started(size=(160, 40)) as (app, pilot):
        app.library.index.add([cited, unrated])
        view = app.query_one(AbstractView)
        for paper, line in ((cited, "12 citations"), (unrated, "Poster Workshop · μ 5.5")):
            await pilot.press("slash", "ctrl+u", *paper.title.lower(), "enter")
            await settle(pilot)
            assert view.paper == paper
            assert line in view.text.plain.splitlines()
            assert "0 citations" not in view.text.plain and "None" not in view.text.plain


async def test_a_row_marks_orals_and_spotlights_and_shows_the_sorts_value(started, settle):
    async with started(size=(120, 40), search={"sort": "rating"}) as (app, pilot):
        await _with_venue_papers(app, pilot, settle, "year:2018")
        rows = _rows(app)
        assert "μ 7.33  oral  ICLR 2018" in rows[0]  # the best rated first
        assert "Spectral Normalization" in rows[0]
        assert all("μ" in row for row in rows[:6])
        spotlight = next(r for r in rows if "Concave Graph Matching" in r)
        assert "  spotlight  NeurIPS 2018" in spotlight and "μ" not in spotlight  # unrated
        assert not any("poster" in r or "reject" in r for r in rows)
        await pilot.press("ctrl+s", "ctrl+s")  # rating -> citations -> consensus
        await settle(pilot)
        assert app.main.search.sort == "consensus"
        assert "μ 7.33 ± 0.47" in _rows(app)[0]
        # team, for you, relevance, year, title, rating, citations
        await pilot.press(*["ctrl+s"] * 7)
        await settle(pilot)
        assert app.main.search.sort == "citations"
        rows = _rows(app)
        assert "5,867 cites  oral  ICLR 2018" in rows[0]
        assert "903 cites" in rows[1]


@pytest.fixture
def browser(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    opened = tmp_path / "opened.txt"
    script = tmp_path / "browser.sh"
    script.write_text(f'#!/bin/sh\necho "$1" > {opened}\n')
    script.chmod(script.stat().st_mode | stat.S_IEXEC)
    monkeypatch.setenv("BROWSER", f"{script} %s")
    # webbrowser reads BROWSER once per process: a test before this one in the same
    # worker would otherwise have its own script opened
    webbrowser.register_standard_browsers()
    return opened


async def test_the_code_key_opens_the_papers_code(started, settle, browser: Path):
    async with started() as (app, pilot):
        await _with_venue_papers(app, pilot, settle, '"spectral normalization"')
        await pilot.press("O")
        await settle(pilot)
        deadline = time.monotonic() + 30  # a browser process started on a loaded machine
        while not browser.exists() and time.monotonic() < deadline:
            await pilot.pause(0.05)
        assert browser.read_text().strip() == SPECTRAL.code
        await pilot.press("slash", "ctrl+u", *"without any venue signal", "enter")
        await settle(pilot)
        await pilot.press("O")
        assert app.said[-1] == "this paper has no link to its code"


async def test_without_a_display_the_code_link_is_copied(started, settle,
                                                         monkeypatch: pytest.MonkeyPatch):
    for name in ("BROWSER", "DISPLAY", "WAYLAND_DISPLAY"):
        monkeypatch.delenv(name, raising=False)
    async with started(keymap={"open-code": "ctrl+o"}) as (app, pilot):
        await _with_venue_papers(app, pilot, settle, '"spectral normalization"')
        await pilot.press("ctrl+o")  # remapped, as every key with an id
        assert app.clipboard == SPECTRAL.code
        assert any(m.startswith("no browser here; sent the link ") and "tmux needs" in m
                   for m in app.said)
        keys = {key.id: key for key in app.live_keys()}
        assert keys["open-code"].key_display == "ctrl+o"
        commands = {c.help for c in app.get_system_commands(app.screen)}
        assert "Open code (ctrl+o)" in commands


async def test_the_facets_count_the_venues_words_and_narrow_the_query(started, settle):
    async with started(size=(160, 40)) as (app, pilot):
        await _with_venue_papers(app, pilot, settle, "has:reviews")
        await pilot.press("f")
        await settle(pilot)
        panel = app.query_one(FacetsPanel)
        reviewed = [p for p in PAPERS if p.rating is not None]
        assert panel.facets["decision"]["oral"] == sum(p.decision == "oral" for p in reviewed)
        box = panel.query_one(OptionList)
        shown = [str(o.prompt) for o in box.options]
        for heading in ("Decisions", "Has", "Areas", "Countries", "Affiliations"):
            assert heading in shown
        for wanted, query in (("decision\x1foral", "has:reviews decision:oral"),
                              ("area\x1fVision and Language",
                               'has:reviews decision:oral area:"Vision and Language"')):
            box = panel.query_one(OptionList)
            ids = [o.id for o in box.options]
            if wanted not in ids:  # the area of a poster: not among the orals
                assert wanted.startswith("area")
                break
            box.highlighted = ids.index(wanted)
            box.focus()
            await pilot.press("enter")
            await settle(pilot)
            assert app.query_one("#search", Input).value == query
        orals = [p for p in reviewed if p.decision == "oral"]
        assert len(app.results_screen.results_list) == len(orals)


async def test_what_the_venue_says_is_shown_inert(started, settle):
    hostile = dataclasses.replace(
        SPECTRAL, id="hostile-venue", title=f"Hostile venue{EVIL} paper",
        display_title=f"Hostile venue{EVIL} paper", decision_text=f"Oral{EVIL}",
        area=f"Vision{EVIL} and Language", code=f"https://github.com/x{EVIL}",
        project=f"https://example.org/{EVIL}",
        affiliations=((f"Evil{EVIL} University",),), countries=(f"Evil{EVIL}land",))
    async with started(size=(160, 40), search={"sort": "rating"}) as (app, pilot):
        app.library.index.add([hostile])
        await pilot.press("slash", "ctrl+u", *"hostile venue", "enter")
        await settle(pilot)
        view = app.query_one(AbstractView)
        assert view.paper is not None and view.paper.id == "hostile-venue"
        shown = [view.render_line(y).text for y in range(view.size.height)]
        shown += _rows(app)
        for line in shown:
            assert ACTIVE.search(line) is None, repr(line)
            assert PAYLOAD not in line
        assert any("Evil  University (Evil land)" in line for line in shown)  # NEL: a space
        assert any("Oral" in line and "μ 7.33" in line for line in shown)
        for span in view.text.spans:
            if isinstance(span.style, Style) and span.style.link:
                assert ACTIVE.search(span.style.link) is None
        await pilot.press("f")
        await settle(pilot)
        box = app.query_one(FacetsPanel).query_one(OptionList)
        for option in box.options:
            assert ACTIVE.search(str(option.prompt)) is None
