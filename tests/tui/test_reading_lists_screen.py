"""Pilot tests for the reading-lists screen: open, reorder, remove, rename, describe,
delete (asks first) and export (format picker + file name, written atomically)."""

from __future__ import annotations

import json
import os
import shutil
import stat
from pathlib import Path

import pytest
from screen_host import Host, ids_of, reopened
from textual.widgets import Input, OptionList, Static

from paper_tui import config as config_mod
from paper_tui.exports import formats as export
from paper_tui.library import Library
from paper_tui.tui.app import PaperApp
from paper_tui.tui.screens.confirm import Confirm, Prompt
from paper_tui.tui.screens.export_dialog import ExportDialog, file_stem
from paper_tui.tui.screens.lists_screen import ListsScreen, ReadingListScreen

TEST_DATA = Path(__file__).parents[1] / "data"


@pytest.fixture
def with_lists(library):
    ids = ids_of(library, 4)
    library.create_list("survey", "papers for the related-work section")
    library.add_to_list("survey", ids[:3])
    library.create_list("later")
    library.add_to_list("later", ids[3:])
    return library, ids


def test_file_stem():
    assert file_stem("Read: RL/2024") == "read-rl-2024"
    assert file_stem("  ") == "papers"


async def test_lists_screen_shows_counts_and_descriptions(with_lists):
    library, _ids = with_lists
    app = Host(lambda: ListsScreen(library))
    async with app.run_test(size=(120, 30)) as pilot:
        box = app.screen.query_one("#lists", OptionList)
        assert [o.id for o in box.options] == ["later", "survey"]
        survey = str(box.get_option("survey").prompt)
        assert "3 papers" in survey and "related-work" in survey
        await pilot.press("down", "enter")
        await pilot.pause()
        assert isinstance(app.screen, ReadingListScreen)
        assert len(app.screen.results_list) == 3
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, ListsScreen)


async def test_reorder_and_remove_in_an_open_list(with_lists, library_dir):
    library, ids = with_lists
    app = Host(lambda: ReadingListScreen(library, "survey"))
    async with app.run_test(size=(120, 30)) as pilot:
        await pilot.press("J")  # first paper one down
        await pilot.pause()
        assert list(library.reading_list("survey").ids) == [ids[1], ids[0], ids[2]]
        assert app.screen.results_list.current_paper().id == ids[0]  # the cursor follows it
        await pilot.press("J", "K", "K")
        await pilot.pause()
        assert list(library.reading_list("survey").ids) == [ids[0], ids[1], ids[2]]
        await pilot.press("j", "d")  # remove the second paper
        await pilot.pause()
        assert list(library.reading_list("survey").ids) == [ids[0], ids[2]]
    library.annotations.flush()
    with reopened(library_dir) as again:
        assert list(again.reading_list("survey").ids) == [ids[0], ids[2]]


async def test_rename_describe_and_delete_asks_first(with_lists, library_dir):
    library, _ids = with_lists
    app = Host(lambda: ListsScreen(library))
    async with app.run_test(size=(120, 30)) as pilot:
        await pilot.press("down", "r")  # rename "survey"
        await pilot.pause()
        assert isinstance(app.screen, Prompt)
        app.screen.query_one(Input).value = ""
        await pilot.press(*"related work", "enter")
        await pilot.pause()
        await pilot.press("e")
        await pilot.pause()
        app.screen.query_one(Input).value = ""
        await pilot.press(*"cite these", "enter")
        await pilot.pause()
        box = app.screen.query_one("#lists", OptionList)
        assert box.highlighted_option.id == "related work"
        await pilot.press("D")
        await pilot.pause()
        assert isinstance(app.screen, Confirm)
        await pilot.press("n")  # no: nothing deleted
        await pilot.pause()
        assert library.reading_list("related work") is not None
        await pilot.press("D", "y")
        await pilot.pause()
        assert [o.id for o in box.options] == ["later"]
    library.annotations.flush()
    with reopened(library_dir) as again:
        assert [rl.name for rl in again.reading_lists()] == ["later"]
    assert library.reading_list("survey") is None


async def test_export_a_list_to_markdown(with_lists, tmp_path, monkeypatch):
    library, ids = with_lists
    monkeypatch.chdir(tmp_path)
    app = Host(lambda: ReadingListScreen(library, "survey"))
    async with app.run_test(size=(120, 30)) as pilot:
        await pilot.press("X")  # in an opened list; x skips a paper, as on the main screen
        await pilot.pause()
        assert isinstance(app.screen, ExportDialog)
        path_box = app.screen.query_one("#export-path", Input)
        assert path_box.value == "survey.bib"
        await pilot.press("down")  # bibtex -> markdown
        assert path_box.value == "survey.md"
        await pilot.press("enter", "enter")  # pick the format, then write
        await pilot.pause()
        assert isinstance(app.screen, ReadingListScreen)
    papers = [library.paper(pid) for pid in ids[:3]]
    written = (tmp_path / "survey.md").read_text()
    assert written == export.export(library, papers, "markdown", title="survey",
                                    description="papers for the related-work section")
    assert written.startswith("# survey\n")


async def test_export_asks_before_replacing_a_file(with_lists, tmp_path):
    library, ids = with_lists
    target = tmp_path / "out.json"
    target.write_text("keep me")
    papers = [library.paper(pid) for pid in ids[:2]]
    app = Host(lambda: ExportDialog(library, papers, "two", directory=tmp_path))
    async with app.run_test(size=(120, 30)) as pilot:
        app.screen.query_one("#export-format", OptionList).highlighted = 4  # json
        path_box = app.screen.query_one("#export-path", Input)
        path_box.value = "out.json"
        path_box.focus()
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, Confirm)
        await pilot.press("n")
        await pilot.pause()
        assert target.read_text() == "keep me"
        await pilot.press("enter", "y")
        await pilot.pause()
    assert app.returned == [target]
    assert target.read_text() == export.export(library, papers, "json", title="two")


async def test_every_paper_of_an_open_list_can_be_marked(started, settle):
    """``V`` in an opened list marks its papers (the list's results have every id)."""
    async with started() as (app, pilot):
        shown = app.main.results_list.results
        ids = [shown.paper(i).id for i in range(3)]
        app.library.create_list("survey")
        app.library.add_to_list("survey", ids)
        await pilot.press("L")
        await pilot.pause()
        await pilot.press("enter")
        await settle(pilot)
        assert isinstance(app.screen, ReadingListScreen)
        await pilot.press("V")
        await settle(pilot)
        assert app.screen.results_list.marked == set(ids)
        assert "3 marked (u clears)" in app.said


async def test_an_open_list_shows_its_paper_as_the_main_screen_does(tmp_path, settle):
    """One way to show the paper under the cursor: an opened list's abstract view says
    what the main screen's says (here: the paper's other version)."""
    shutil.copy(TEST_DATA / "formats" / "arxiv-api-old-id.atom", tmp_path / "feed.atom")
    (tmp_path / "acta.jsonl").write_text(json.dumps(
        {"title": "Frequency of Hot Jupiters and Very Hot Jupiters from the OGLE-III Transit "
                  "Surveys Toward the Galactic Bulge and Carina",
         "authors": ["Andrew Gould", "Susan Dorsher", "B. Scott Gaudi", "Andrzej Udalski"],
         "venue": "Acta Astronomica", "year": 2006, "abstract": "Hot Jupiters from OGLE-III.",
         "pdf": "https://example.org/acta-56-1.pdf"}) + "\n", "utf-8")
    cfg = config_mod.defaults()
    lib = Library.open(tmp_path / "lib", config=cfg, bundled=False)
    try:
        lib.import_paths([tmp_path / "feed.atom", tmp_path / "acta.jsonl"])
        acta = next(p for p in lib.papers() if p.venue == "Acta Astronomica")
        lib.create_list("planets")
        lib.add_to_list("planets", [acta.id])
        app = PaperApp(lib, cfg)
        async with app.run_test(size=(120, 40)) as pilot:
            await settle(pilot)
            main = app.main.results_list
            main.cursor = main.results.index_of(acta.id)
            await pilot.pause()
            on_main = app.main.abstract.text.plain
            assert "also in: arXiv astro-ph-0601001" in on_main
            app.push_screen(ReadingListScreen(lib, "planets"))
            await settle(pilot)
            assert isinstance(app.screen, ReadingListScreen)
            assert app.screen.abstract.text.plain == on_main
    finally:
        lib.close()


async def test_export_into_a_fifo_is_refused_in_the_dialog(with_lists, tmp_path):
    """Opening a FIFO to write would wait for a reader, and the app with it (here one
    holds it open, so that a regression fails and never hangs)."""
    library, ids = with_lists
    fifo = tmp_path / "pipe.md"
    os.mkfifo(fifo)
    reader = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)
    papers = [library.paper(pid) for pid in ids[:2]]
    app = Host(lambda: ExportDialog(library, papers, "two", directory=tmp_path))
    async with app.run_test(size=(120, 30)) as pilot:
        path_box = app.screen.query_one("#export-path", Input)
        path_box.value = "pipe.md"
        path_box.focus()
        await pilot.press("enter")
        await pilot.pause()
        if isinstance(app.screen, Confirm):
            await pilot.press("y")
            await pilot.pause()
        assert isinstance(app.screen, ExportDialog)
        said = str(app.screen.query_one("#export-error", Static).render())
        assert said == f"{fifo}: cannot write (a FIFO, not a regular file)"
    os.close(reader)
    assert stat.S_ISFIFO(fifo.stat().st_mode)


async def test_c_on_the_lists_copies_the_highlighted_lists_citations(
        with_lists, monkeypatch: pytest.MonkeyPatch):
    """The lists' ``c`` goes the one way every copy goes: cited in a worker (the keys given
    out), sent through the terminal, one toast."""
    monkeypatch.delenv("DISPLAY", raising=False)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    library, ids = with_lists
    app = Host(lambda: ListsScreen(library))
    async with app.run_test(size=(120, 30)) as pilot:
        await pilot.press("down", "c")  # "survey": three papers
        await app.workers.wait_for_complete()
        await pilot.pause()
        said = [n.message for n in app._notifications]
        assert said == ["Sent bibtex citations of 3 papers through the terminal (OSC 52); "
                        "if nothing arrives, tmux needs `set -g set-clipboard on`"]
    papers = [library.paper(pid) for pid in ids[:3]]
    assert app.clipboard == library.cite(papers, "bibtex").text
