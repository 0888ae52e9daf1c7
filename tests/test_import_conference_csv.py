"""CSV as conference sites publish it (Mini-Conf), and ``import --venue --year``."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import forked_cli
from formats_helpers import DATA, read
from paper_tui import config as config_mod
from paper_tui.errors import SourceNotice
from paper_tui.importers import Hints, import_file
from paper_tui.library import Library


def test_miniconf_papers_csv() -> None:
    fmt, papers, errors = read(DATA / "miniconf-papers.csv")
    assert fmt == "csv" and not errors
    first = papers[0]
    assert first.title.startswith("Enabling Deep Spiking Neural Networks with Hybrid")
    assert first.authors == ("Nitin Rathi", "Gopalakrishnan Srinivasan", "Priyadarshini Panda",
                             "Kaushik Roy")  # one cell, names split on |
    assert papers[1].keywords[:2] == ("compression", "network compression")
    assert (first.venue, first.year) == ("", None)  # the file does not say


def test_affiliations_and_contribution_marks_leave_the_names() -> None:
    _, papers, [error] = read(DATA / "miniconf-affiliations.csv")
    assert papers[0].authors == ("Harry Rubin-Falcone", "Joyce Lee", "Jenna Wiens")
    # ";" and " and " split too; "and" inside an affiliation does not; † dropped
    assert papers[1].authors == ("Ana García", "Bo Li", "Chen Wu")
    assert error.line == 4


def test_hints_name_venue_and_year_only_where_the_file_does_not() -> None:
    _, papers, _ = read(DATA / "miniconf-papers.csv", venue="ICLR", year=2020)
    assert {(p.venue, p.year) for p in papers} == {("ICLR", 2020)}
    _, papers, _ = read(DATA / "manubot-bibliography.json", venue="ICLR", year=2020)
    assert [(p.venue, p.year) for p in papers][:2] == [("arXiv", 2018), ("PeerJ", 2014)]


def test_hints_and_notices_cross_to_the_worker_process() -> None:
    _, _, records = import_file(DATA / "miniconf-papers.csv", parallel=True,
                                hints=Hints("ICLR", 2020))
    assert {(p.venue, p.year) for p in records} == {("ICLR", 2020)}
    _, _, records = import_file(DATA / "openreview-v2-iclr2018.json", parallel=True)
    assert [type(r) for r in records][-1] is SourceNotice


def test_reimport_with_hints_names_the_venue(tmp_path: Path) -> None:
    lib = Library.open(tmp_path / "lib", config=config_mod.defaults(), bundled=False)
    try:
        lib.import_paths([DATA / "miniconf-papers.csv"])
        assert {p.venue for p in lib.papers()} == {""}
        report = lib.import_paths([DATA / "miniconf-papers.csv"], hints=Hints("ICLR", 2020))
        assert report.papers == 3 and report.added == 3  # new ids: venue and year are in them
        assert {(p.venue, p.year) for p in lib.papers()} == {("ICLR", 2020)}
        assert lib.count() == 3  # the venue-less copies are gone
    finally:
        lib.close()


def _cli(tmp_path: Path, *args: str) -> subprocess.CompletedProcess:
    config = tmp_path / "config.yaml"
    config.write_text("bundled_lists: false\n")
    return forked_cli.run([sys.executable, "-m", "paper_tui", "--library", str(tmp_path / "l"),
                           "--config", str(config), *args], capture_output=True, text=True,
                          timeout=120)


def test_cli_import_venue_year_and_bad_input(tmp_path: Path) -> None:
    done = _cli(tmp_path, "import", "--venue", "ICLR", "--year", "2020",
                str(DATA / "miniconf-papers.csv"), str(DATA / "bad.ris"))
    assert done.returncode == 1  # bad records: exit 1, the rest imported
    assert "bad.ris:1: record has no ER line before the next TY (line 4)" in done.stderr
    assert "Traceback" not in done.stderr
    assert "5 papers from 2 file(s)" in done.stdout
    listed = _cli(tmp_path, "list").stdout
    assert listed.count("[ICLR 2020]") == 5
    bad_year = _cli(tmp_path, "import", "--year", "twenty", str(DATA / "bad.ris"))
    assert bad_year.returncode == 2 and "is not a year" in bad_year.stderr
