"""Pilot tests of the PDFs in the app (issue 36): ``P`` downloads a paper's PDF from a
server on 127.0.0.1 and opens it in the viewer (a stand-in script that records its
argument), ``o`` opens a held PDF (else the link, as before), the path said where there is
no viewer, the rows' PDF mark (no column at all while no PDF is held), the full text in the
abstract pane (pages, the query's words, ``n`` / ``N``), and the palette's downloads of
the results and of a reading list, their outcome in one line."""

from __future__ import annotations

import stat
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from pdf_app import ids_by_title, pdf_app
from settling import settle_app
from textual.pilot import Pilot

from http_replay import ReplayServer, Reply
from paper_tui.tui.app import PaperApp
from paper_tui.tui.widgets.full_text import FullTextView, query_words, reflow
from paper_tui.tui.widgets.results import PDF_MARK
from pdf_helpers import NAACL, PDF_HEADERS

NAACL_BYTES = NAACL.read_bytes()


@pytest.fixture(autouse=True)
def _direct(monkeypatch: pytest.MonkeyPatch) -> None:
    """No proxy from the machine's environment (tests must reach 127.0.0.1 directly)."""
    for name in ("http_proxy", "https_proxy", "all_proxy", "no_proxy"):
        monkeypatch.delenv(name, raising=False)
        monkeypatch.delenv(name.upper(), raising=False)
    monkeypatch.delenv("PDF_VIEWER", raising=False)


@pytest.fixture
def viewer(tmp_path: Path) -> Iterator[tuple[Path, Path]]:
    """A stand-in viewer: a script that writes the path it was given to a file."""
    record = tmp_path / "viewed.txt"
    script = tmp_path / "viewer.sh"
    script.write_text(f'#!/bin/sh\nprintf "%s\\n" "$1" >> {record}\n')
    script.chmod(script.stat().st_mode | stat.S_IEXEC)
    yield script, record


async def _wait(pilot: Pilot, done, timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while not done():
        assert time.monotonic() < deadline, "timed out"
        await pilot.pause(0.05)


async def _to(pilot: Pilot, app: PaperApp, title: str) -> None:
    """The cursor on the paper titled ``title``."""
    results = app.results_screen.results_list
    await _wait(pilot, lambda: len(results) > 0)
    for _ in range(len(results)):
        paper = results.current_paper()
        if paper is not None and paper.title == title:
            return
        await pilot.press("j")
    raise AssertionError(f"{title} not in the results")


def _said(app: PaperApp, text: str) -> bool:
    return any(text in line for line in app.said)


async def test_P_downloads_the_pdf_then_opens_it_in_the_viewer(
        tmp_path: Path, http_replay: ReplayServer, viewer: tuple[Path, Path]) -> None:
    script, record = viewer
    http_replay.route("/naacl.pdf", Reply(body=NAACL_BYTES, headers=PDF_HEADERS))
    app = pdf_app(tmp_path, {"Preemptive IE": f"{http_replay.url}/naacl.pdf",
                             "Words with vectors": None}, viewer=str(script))
    async with app.run_test(size=(120, 40)) as pilot:
        await settle_app(pilot)
        results = app.main.results_list
        assert results.pdf_held == frozenset()
        await _to(pilot, app, "Preemptive IE")
        row = results.render_line(results.cursor - results.scroll_offset.y).text
        assert PDF_MARK not in row
        await pilot.press("P")
        await _wait(pilot, record.exists)
        pid = ids_by_title(app)["Preemptive IE"]
        assert record.read_text().strip() == str(app.library.pdf_path(pid))
        assert app.library.pdf_path(pid).read_bytes() == NAACL_BYTES
        await _wait(pilot, lambda: _said(app, "opening the PDF in viewer.sh"))
        assert any("the PDF of “Preemptive IE”" in line for line in app.said)
        # the row is marked now, the other's not
        assert results.pdf_held == frozenset({pid})
        await pilot.pause()
        row = results.render_line(results.cursor - results.scroll_offset.y).text
        assert row[3] == PDF_MARK
        # o opens the held PDF (not asked for again)
        asked = len(http_replay.requests)
        await pilot.press("o")
        await _wait(pilot, lambda: len(record.read_text().splitlines()) == 2)
        assert len(http_replay.requests) == asked
        # a paper with no PDF link: P says why in one line, o what it did before
        await _to(pilot, app, "Words with vectors")
        await pilot.press("P")
        await _wait(pilot, lambda: _said(app, "failed — "))
        assert _said(app, "0 downloaded, 1 failed — ")
        assert _said(app, "no PDF link in its source")
        await pilot.press("o")
        assert _said(app, "this paper has no link")


async def test_the_rows_have_no_pdf_column_while_no_pdf_is_held(tmp_path: Path) -> None:
    app = pdf_app(tmp_path, {"Preemptive IE": None, "Words with vectors": None})
    async with app.run_test(size=(120, 40)) as pilot:
        await settle_app(pilot)
        results = app.main.results_list
        before = [results.render_line(y).text for y in range(2)]
        pid = ids_by_title(app)["Preemptive IE"]
        app.library.pdf_add(pid, NAACL)
        results.set_pdf_held(app.library.pdf_ids())
        await pilot.pause()
        after = [results.render_line(y).text for y in range(2)]
        marked = [line for line in after if PDF_MARK in line]
        assert len(marked) == 1 and "Preemptive IE" in marked[0]
        assert not any(PDF_MARK in line for line in before)
        # the column is one cell, there only now: the titles move right by one
        for old, new in zip(before, after, strict=True):
            title = next(t for t in ("Preemptive IE", "Words with vectors") if t in old)
            assert new.index(title) == old.index(title) + 1


async def test_without_a_viewer_the_path_is_said(tmp_path: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("DISPLAY", "WAYLAND_DISPLAY"):
        monkeypatch.delenv(name, raising=False)
    app = pdf_app(tmp_path, {"Preemptive IE": None})
    pid = ids_by_title(app)["Preemptive IE"]
    app.library.pdf_add(pid, NAACL)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle_app(pilot)
        await _wait(pilot, lambda: bool(app.main.results_list.pdf_held))
        await pilot.press("o")
        path = str(app.library.pdf_path(pid))
        await _wait(pilot, lambda: _said(app, path))
        assert _said(app, f"no PDF viewer here; the PDF is at {path}")


async def test_the_full_text_in_the_abstract_pane(tmp_path: Path) -> None:
    app = pdf_app(tmp_path, {"Preemptive IE": None, "Words with vectors": None})
    pid = ids_by_title(app)["Preemptive IE"]
    app.library.pdf_add(pid, NAACL)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle_app(pilot)
        await pilot.press("slash", *"preemptive", "enter")
        await settle_app(pilot)
        await _wait(pilot, lambda: bool(app.main.results_list.pdf_held))
        await pilot.press("p")
        view = app.screen.query_one(FullTextView)
        await _wait(pilot, lambda: view.shown is not None and view.shown.text is not None)
        await pilot.pause()
        assert view.has_focus and view.display and not app.main.abstract.display
        assert "page 1 of 8" in view.plain and "page 8 of 8" in view.plain
        assert "hurricanes" in view.plain  # the body, not the abstract
        assert view.shown.words == ("preemptive",)
        assert len(view.matches) >= 2
        await pilot.press("n")
        assert app.said[-1] == f"match 1 of {len(view.matches)} · page 1"
        await pilot.press("n")
        assert app.said[-1].startswith(f"match 2 of {len(view.matches)} · page ")
        await pilot.press("N", "N")
        last = view.matches[-1][1]
        assert app.said[-1] == f"match {len(view.matches)} of {len(view.matches)} · page {last}"
        assert view.scroll_offset.y > 0  # it scrolled to the match
        # Esc back to the results; p shows the abstract again
        await pilot.press("escape")
        assert app.main.results_list.has_focus
        await pilot.press("p")
        await pilot.pause()
        assert app.main.abstract.display and not view.display
        assert "About Preemptive IE." in app.main.abstract.text.plain


async def test_the_full_text_of_a_paper_with_no_pdf_says_how_to_get_it(
        tmp_path: Path) -> None:
    app = pdf_app(tmp_path, {"Preemptive IE": None})
    async with app.run_test(size=(80, 24)) as pilot:
        await settle_app(pilot)
        await pilot.press("p")
        await pilot.pause()
        view = app.screen.query_one(FullTextView)
        assert "No PDF of this paper in the library yet: P downloads it" in \
            " ".join(view.plain.split())
        await pilot.press("n")  # no matches: said, not a note editor
        assert "search first" in app.said[-1]


async def test_the_palette_downloads_the_results_and_says_the_outcome_in_one_line(
        tmp_path: Path, http_replay: ReplayServer) -> None:
    http_replay.route("/naacl.pdf", Reply(body=NAACL_BYTES, headers=PDF_HEADERS))
    http_replay.route("/gone.pdf", Reply(status=404, body=b"not here"))
    app = pdf_app(tmp_path, {"Preemptive IE": f"{http_replay.url}/naacl.pdf",
                             "Words with vectors": f"{http_replay.url}/gone.pdf"})
    async with app.run_test(size=(120, 40)) as pilot:
        await settle_app(pilot)
        commands = {c.title: c for c in app.get_system_commands(app.screen)}
        assert "Download PDFs of this list" not in commands
        commands["Download PDFs of these results"].callback()
        await _wait(pilot, lambda: _said(app, "downloaded"))
        line = next(s for s in app.said if "downloaded" in s)
        gone = ids_by_title(app)["Words with vectors"]
        assert line.startswith("PDFs of 2 results: 1 downloaded, 1 failed — ")
        assert f"{gone}: " in line and "404" in line
        assert app.main.results_list.pdf_held == \
            frozenset({ids_by_title(app)["Preemptive IE"]})


async def test_the_palette_downloads_a_reading_list(tmp_path: Path,
                                                    http_replay: ReplayServer) -> None:
    http_replay.route("/naacl.pdf", Reply(body=NAACL_BYTES, headers=PDF_HEADERS))
    app = pdf_app(tmp_path, {"Preemptive IE": f"{http_replay.url}/naacl.pdf",
                             "Words with vectors": f"{http_replay.url}/other.pdf"})
    ids = ids_by_title(app)
    app.library.create_list("to print")
    app.library.add_to_list("to print", [ids["Preemptive IE"]])
    async with app.run_test(size=(120, 40)) as pilot:
        await settle_app(pilot)
        await pilot.press("L")
        await pilot.pause()
        commands = {c.title: c for c in app.get_system_commands(app.screen)}
        assert "Download PDFs of these results" not in commands
        commands["Download PDFs of this list"].callback()
        await _wait(pilot, lambda: _said(app, "downloaded"))
        assert _said(app, "PDFs of to print: 1 downloaded")
        assert [r.path for r in http_replay.requests] == ["/naacl.pdf"]
        # an opened list offers it too, and marks its rows
        await pilot.press("enter")
        await pilot.pause()
        titles = {c.title for c in app.get_system_commands(app.screen)}
        assert {"Download PDFs of this list", "Download PDFs of these results"} <= titles
        await _wait(pilot, lambda: bool(app.screen.results_list.pdf_held))


async def test_many_results_are_asked_first(tmp_path: Path,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    from paper_tui.tui.controllers import pdfs
    from paper_tui.tui.screens.confirm import Confirm

    monkeypatch.setattr(pdfs, "ASK_ABOVE", 1)
    app = pdf_app(tmp_path, {"Preemptive IE": None, "Words with vectors": None})
    async with app.run_test(size=(120, 40)) as pilot:
        await settle_app(pilot)
        app.main.action_download_pdfs()
        await pilot.pause()
        assert isinstance(app.screen, Confirm)
        assert "the PDFs of 2 papers" in str(app.screen.question)
        await pilot.press("escape")
        await pilot.pause()
        assert not _said(app, "downloaded")
        app.main.action_download_pdfs()
        await pilot.pause()
        await pilot.press("y")
        await _wait(pilot, lambda: _said(app, "downloaded"))
        assert _said(app, "PDFs of 2 results: 0 downloaded, 2 failed — ")


def test_the_query_words_looked_for_in_the_text() -> None:
    assert query_words('graph "neural networks" -survey year:2020 title:Attention') == \
        ["graph", "neural", "networks", "attention"]
    assert query_words("a OR b NOT c") == []
    assert query_words("fulltext:hurricanes tag:rl") == ["hurricanes"]


def test_a_sentence_broken_by_the_column_reads_on() -> None:
    page = ("Abstract\nWe are trying to extend the boundary of\nInformation Extraction "
            "(IE) systems. Existing\ntime and\nhuman effort.\n1 Background")
    assert reflow(page) == [
        "Abstract",
        "We are trying to extend the boundary of Information Extraction (IE) systems. "
        "Existing time and human effort.",
        "1 Background"]
