"""Snapshots of the full-text view (``p``): a real paper's text at 80x24 with the query's
words highlighted after ``n`` (the page rule, the match said in the status line), and at
120x40 the view of a paper whose PDF the library does not hold yet (how to get it).

Deterministic: a new library of two papers in tmp, the first with its PDF added from
``tests/data/pdfs`` (no server, no clock on screen)."""

from __future__ import annotations

from pathlib import Path

from pdf_app import ids_by_title, pdf_app
from textual.pilot import Pilot

from paper_tui.tui.widgets.full_text import FullTextView
from pdf_helpers import NAACL


def _app(tmp_path: Path):
    app = pdf_app(tmp_path, {"Preemptive IE": None, "Words with vectors": None})
    app.library.pdf_add(ids_by_title(app)["Preemptive IE"], NAACL)
    return app


async def _shown(pilot: Pilot, settle, text: bool) -> None:
    view = pilot.app.screen.query_one(FullTextView)
    for _ in range(200):
        if view.shown is not None and (view.shown.text is not None) == text:
            break
        await pilot.pause(0.05)
    await settle(pilot)


def test_the_full_text_at_80x24_after_n(tmp_path, snap_compare, settle):
    async def run_before(pilot: Pilot) -> None:
        await settle(pilot)
        await pilot.press("slash", *"preemptive", "enter")
        await settle(pilot)
        for _ in range(200):
            if pilot.app.main.results_list.pdf_held:
                break
            await pilot.pause(0.05)
        await pilot.press("p")
        await _shown(pilot, settle, text=True)
        await pilot.press("n", "n")
        await settle(pilot)

    assert snap_compare(_app(tmp_path), terminal_size=(80, 24), run_before=run_before)


def test_the_full_text_of_a_paper_without_its_pdf(tmp_path, snap_compare, settle):
    async def run_before(pilot: Pilot) -> None:
        await settle(pilot)
        await pilot.press("slash", *"vectors", "enter")
        await settle(pilot)
        await pilot.press("p")
        await _shown(pilot, settle, text=False)

    assert snap_compare(_app(tmp_path), terminal_size=(120, 40), run_before=run_before)
