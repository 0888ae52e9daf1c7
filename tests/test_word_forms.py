"""The words a user types in their usual forms, and numbers from files capped.

``decision:rejected`` was refused while ``decision:accepted`` worked (issue 38 item 9): a
decision takes its usual forms. ``serch`` was argparse's error listing the hidden
``merge-driver`` and ``__complete``, with no "did you mean". ``gs_citation: 1e308`` was
stored as 10^308 citations and topped the sort by citations (issue 34 item 13): a count
beyond the cap, NaN, inf or negative is unknown, as a rating beyond its cap is."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

import forked_cli
from paper_tui import config as config_mod
from paper_tui.importers.common import parse_year
from paper_tui.library import Library
from paper_tui.query.parse import clean
from paper_tui.venue import signals as venue_signals
from paper_tui.venue.signals import MAX_CITATIONS, citations
from venue_helpers import PAPERS


@pytest.fixture(scope="module")
def lib(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Library]:
    root = tmp_path_factory.mktemp("forms") / "library"
    library = Library.open(root, config=config_mod.defaults(), bundled=False)
    library.index.add(PAPERS)
    yield library
    library.close()


def ids(lib: Library, query: str) -> set[str]:
    results = lib.results(query)
    assert results.error is None, results.error
    found = set(results.ids())
    results.close()
    return found


@pytest.mark.parametrize(("form", "decision"), [
    ("rejected", "reject"), ("Rejected", "reject"), ("rejects", "reject"),
    ("withdraw", "withdrawn"), ("withdrew", "withdrawn"),
    ("desk-rejected", "desk-reject"), ('"desk rejected"', "desk-reject"),
    ('"desk reject"', "desk-reject"), ("desk_reject", "desk-reject"),
    ("orals", "oral"), ("spotlights", "spotlight"), ("posters", "poster"),
    ("workshops", "workshop"), ("submission", "submitted")])
def test_a_decision_in_its_usual_forms(lib: Library, form: str, decision: str) -> None:
    assert clean(f"decision:{form}") == f"decision:{decision}"
    assert ids(lib, f"decision:{form}") == ids(lib, f"decision:{decision}")


def test_the_forms_find_the_papers_of_their_decision(lib: Library) -> None:
    rejected = {p.id for p in PAPERS if p.decision == "reject"}
    assert rejected and ids(lib, "decision:rejected") == rejected
    accepted = ids(lib, "decision:accepted")
    assert accepted and not accepted & rejected


def run(*args: str | Path) -> tuple[int, str, str]:
    done = forked_cli.run([sys.executable, "-m", "paper_tui", *args], capture_output=True,
                          text=True, timeout=120)
    return done.returncode, done.stdout, done.stderr


HIDDEN = ("merge-driver", "__complete")


def test_a_misspelt_command_gets_did_you_mean_and_no_hidden_command(tmp_path: Path) -> None:
    status, out, err = run("--library", tmp_path / "l", "serch", "diffusion")
    assert (status, out) == (2, "")  # argparse's usage errors: 2, as --limit -1
    last = err.splitlines()[-1]
    assert last.startswith("paper-tui: error: argument COMMAND: invalid choice: 'serch': "
                           "did you mean 'search'? (choose from 'import', 'list', 'search'")
    assert not any(hidden in err for hidden in HIDDEN)
    status, _, err = run("--library", tmp_path / "l", "lists", "ad", "Picks", "x")
    assert status == 2 and "invalid choice: 'ad': did you mean 'add'?" in err
    status, _, err = run("--library", tmp_path / "l", "xyzzy")
    assert status == 2 and "did you mean" not in err
    assert not any(hidden in err for hidden in HIDDEN)
    status, out, _ = run("--help")
    assert status == 0 and not any(hidden in out for hidden in HIDDEN)


@pytest.mark.parametrize(("value", "expected"), [
    (1e308, None), (10**400, None), (float("nan"), None), (float("inf"), None), (-1, None),
    ("9" * 400, None), (MAX_CITATIONS + 1, None), (MAX_CITATIONS, MAX_CITATIONS),
    (312, 312), ("1,024", 1024), (True, None)])
def test_a_citation_count_is_capped(value: object, expected: int | None) -> None:
    assert citations(value) == expected


@pytest.mark.parametrize(("value", "expected"), [
    (2024, 2024), (10**30, None), (-5, None), (0, None), (True, None), ("in 2019", 2019)])
def test_a_year_from_a_file_is_one_there_can_be(value: object, expected: int | None) -> None:
    assert parse_year(value) == expected


def test_an_absurd_citation_count_does_not_top_the_sort(tmp_path: Path) -> None:
    listed = tmp_path / "iclr2020.json"
    records = [{"id": "a", "title": "Absurd counts", "author": "A B", "status": "Poster",
                "gs_citation": 1e308},
               {"id": "b", "title": "Many citations", "author": "C D", "status": "Poster",
                "gs_citation": 5000},
               {"id": "c", "title": "Few citations", "author": "E F", "status": "Poster",
                "gs_citation": 5}]
    listed.write_text(json.dumps(records), encoding="utf-8")
    library = Library.open(tmp_path / "lib", config=config_mod.defaults(), bundled=False)
    try:
        library.import_paths([listed])
        results = library.results("", sort="citations")
        papers = [results.paper(i) for i in range(len(results))]
        results.close()
        assert [p.title for p in papers] == ["Many citations", "Few citations",
                                             "Absurd counts"]
        assert papers[-1].citations is None
    finally:
        library.close()


HUGE_INT = 10**400
"""A JSON number of 401 digits: Python reads it as an int no float can hold."""


def test_a_rating_of_400_digits_is_unknown_not_an_internal_error(tmp_path: Path) -> None:
    """Before: ``import`` ended in ``OverflowError: int too large to convert to float``."""
    assert venue_signals.scores([HUGE_INT, 5]) == (5.0,)
    assert venue_signals.mean_and_spread(HUGE_INT) == (None, None)
    found = venue_signals.from_record({"rating": 7, "rating_spread": 1e300})
    assert (found.rating, found.rating_spread) == (7.0, None)  # capped as ratings are
    found = venue_signals.from_record({"rating": 7, "rating_spread": 0.5})
    assert (found.rating, found.rating_spread) == (7.0, 0.5)
    listed = tmp_path / "iclr2021.json"
    listed.write_text(f'[{{"id": "a", "title": "Huge", "author": "A B", "status": "Poster", '
                      f'"rating": [{HUGE_INT}, 5], "rating_avg": {HUGE_INT}, '
                      f'"confidence": "{HUGE_INT}"}}]', encoding="utf-8")
    status, out, err = run("--library", tmp_path / "lib", "import", listed)
    assert (status, err) == (0, ""), err
    status, out, err = run("--library", tmp_path / "lib", "search", "title:huge", "--json")
    assert status == 0, err
    [paper] = json.loads(out)
    assert (paper["ratings"], paper["rating"], paper["confidence"]) == ([5.0], 5.0, None)
