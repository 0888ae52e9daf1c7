"""Numbers and dates a user gives, read by one set of helpers with ranges (issue 34 item 6):
a number of any length and a date of any year is read or refused in one line — in the
query words (``cites:`` ``rating:`` ``confidence:`` ``reviews:`` ``year:`` ``added:``), in
``--limit`` and ``fetch --since``, in ``watch add --query`` — never exit 70. Before, a
300-digit ``cites:`` and ``added:>9999-12-31`` ended the command in an internal error.

The property tests feed random numbers and dates to the query words through the library
and through the command line: exit 0 or 1, never 70."""

from __future__ import annotations

import datetime as dt
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

import forked_cli
from paper_tui import config as config_mod
from paper_tui.errors import QueryError
from paper_tui.library import Library
from paper_tui.query import ranges
from paper_tui.query.parse import clean

LONG = "9" * 300
"""A number of 300 digits: 256 and more broke the query words."""
HUGE = "9" * 5_000
"""More digits than Python turns into an int (4,300)."""


@pytest.fixture(scope="module")
def shared_library(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Library]:
    lib = Library.open(tmp_path_factory.mktemp("lib") / "library", config=config_mod.defaults())
    yield lib
    lib.close()


def cli(library: Path, *args: str) -> tuple[int, str, str]:
    done = forked_cli.run([sys.executable, "-m", "paper_tui", "--library", str(library),
                           *args], capture_output=True, text=True, timeout=120)
    return done.returncode, done.stdout, done.stderr


# -- the helpers ----------------------------------------------------------------------------
@pytest.mark.parametrize(("text", "least", "most", "said"), [
    (HUGE, 0, 10, "is more than 10"),
    ("-" + HUGE, 0, 10, "is less than 0"),
    ("11", 0, 10, "is more than 10"),
    ("3.5", 0, 10, "is not a whole number"),
    ("many", 0, 10, "is not a number"),
    ("１２", 0, 100, "is not a number"),  # full-width digits: not what a user types
])
def test_whole_numbers_out_of_range_or_form(text: str, least: int, most: int,
                                            said: str) -> None:
    with pytest.raises(ranges.BadValue) as caught:
        ranges.whole(text, least, most)
    assert str(caught.value) == said


def test_numbers_in_range() -> None:
    assert ranges.whole("0007", 0, 10) == 7
    assert ranges.whole("-3", -5, 5) == -3
    assert ranges.fraction("5.5", 0, 1000.0) == 5.5
    assert ranges.fraction(".5", 0, 1) == 0.5
    with pytest.raises(ranges.OutOfRange, match=r"^is more than 1,000$"):
        ranges.fraction(HUGE, 0, 1000)
    assert ranges.fraction("1." + HUGE, 0, 1000.0) == 2.0  # the fraction rounds


@pytest.mark.parametrize(("text", "said"), [
    ("10000-01-01", "is out of range: dates run from 0001-01-01 to 9999-12-31"),
    ("0000-01-01", "is out of range: dates run from 0001-01-01 to 9999-12-31"),
    ("-5-01-01", "is out of range: dates run from 0001-01-01 to 9999-12-31"),
    (f"{LONG}-01-01", "is out of range: dates run from 0001-01-01 to 9999-12-31"),
    ("2020-13-01", "is not a date (YYYY-MM-DD)"),
    ("2020-02-30", "is not a date (YYYY-MM-DD)"),
    (f"2020-01-{LONG}", "is not a date (YYYY-MM-DD)"),
    ("yesterday", "is not a date (YYYY-MM-DD)"),
])
def test_dates_out_of_range_or_form(text: str, said: str) -> None:
    with pytest.raises(ranges.BadValue) as caught:
        ranges.day(text)
    assert str(caught.value) == said


def test_the_ends_of_the_calendar_are_days_with_a_first_and_last_second() -> None:
    for day in (dt.date.min, dt.date.max, dt.date(1970, 1, 1)):
        start, after = ranges.day_span(day)
        assert after - start in (23 * 3600, 24 * 3600, 25 * 3600)
    assert ranges.day("9999-12-31") == dt.date.max
    assert ranges.day("0001-01-01") == dt.date.min


def test_a_long_value_is_named_by_its_start_and_length() -> None:
    assert ranges.shown("short") == "short"
    assert ranges.shown(HUGE) == "99999999999999999999… (5,000 characters)"


# -- the query words ------------------------------------------------------------------------
@pytest.mark.parametrize(("query", "error"), [
    (f"cites:>{LONG}", "cites:>9999999999999999999… (301 characters): "
                       "99999999999999999999… (300 characters) is more than 10,000,000"),
    (f"cites:{LONG}", "cites:99999999999999999999… (300 characters) is more than 10,000,000"),
    (f"citations:..{HUGE}", "cites:..999999999999999999… (5,002 characters): "
                            "99999999999999999999… (5,000 characters) is more than 10,000,000"),
    (f"rating:>={LONG}", "rating:>=999999999999999999… (302 characters): "
                         "99999999999999999999… (300 characters) is more than 1,000"),
    ("rating:1001", "rating:1001 is more than 1,000"),
    (f"confidence:{LONG}.5", "confidence:99999999999999999999… (302 characters) is more "
                             "than 1,000"),
    ("confidence:-1..3", "confidence:-1..3: -1 is less than 0"),
    (f"reviews:<{LONG}", "reviews:<9999999999999999999… (301 characters): "
                         "99999999999999999999… (300 characters) is more than 100,000"),
    (f"year:{LONG}", "year:99999999999999999999… (300 characters) is more than 9,999: years "
                     "run from 0001 to 9999"),
    ("year:0..2020", "year:0..2020: 0 is less than 1: years run from 0001 to 9999"),
    ("year:>9999", "year:>9999 finds no year: years run from 0001 to 9999"),
    ("year:<0001", "year:<0001 finds no year: years run from 0001 to 9999"),
    ("added:99999999999d", "added:99999999999d is not a time: 99999999999 days is more than "
                           "3,652,058"),
    ("added:>10000-01-01", "added:>10000-01-01: 10000-01-01 is out of range: dates run from "
                           "0001-01-01 to 9999-12-31"),
    ("added:0000-01-01", "added:0000-01-01: 0000-01-01 is out of range: dates run from "
                         "0001-01-01 to 9999-12-31"),
    ("added:<-1-01-01", "added:<-1-01-01: -1-01-01 is out of range: dates run from "
                        "0001-01-01 to 9999-12-31"),
    ("added:2026-13-45", "added:2026-13-45: 2026-13-45 is not a date (YYYY-MM-DD)"),
    (f"kept:{LONG}", "kept:99999999999999999999… (300 characters) is not a number of "
                     "members: use kept:2 (kept by at least 2 members, you included)"),
])
def test_a_number_or_date_out_of_range_is_the_query_languages_one_line(
        shared_library: Library, query: str, error: str) -> None:
    with pytest.raises(QueryError) as caught:
        clean(query)
    assert str(caught.value) == error
    results = shared_library.results(query)
    assert results.error == error and len(results) == 0
    results.close()


@pytest.mark.parametrize("query", [
    "added:>9999-12-31", "added:<=9999-12-31", "added:9999-12-31", "added:0001-01-01",
    "added:<0001-01-01", "added:3652058d", "year:9999", "year:0001..9999", "cites:10000000",
    "rating:0..1000", "reviews:>=100000"])
def test_the_ends_of_each_range_are_searched(shared_library: Library, query: str) -> None:
    results = shared_library.results(query)
    assert results.error is None, results.error
    results.close()


def test_the_command_line_says_one_line_and_exit_1(tmp_path: Path) -> None:
    """Before: ``internal error: ValueError: could not convert string to float`` and
    ``OverflowError: date value out of range``, exit 70."""
    for query in (f"cites:>{LONG}", f"rating:{LONG}", f"confidence:>{LONG}",
                  f"reviews:{LONG}", "added:>9999-12-31", f"year:{HUGE}"):
        status, out, err = cli(tmp_path / "lib", "search", query)
        if query == "added:>9999-12-31":
            assert (status, out, err) == (0, "", "0 hits\n")
            continue
        assert status == 1 and out == "", (query, err)
        assert err.count("\n") == 1 and err.startswith("paper-tui: "), err


def test_numbers_of_arguments_of_any_length(tmp_path: Path) -> None:
    status, out, err = cli(tmp_path / "lib", "search", "x", "--limit", HUGE)
    assert (status, out) == (2, "")
    assert err.endswith("error: argument --limit: '99999999999999999999… (5,000 characters)'"
                        " is more than 1,000,000,000\n")
    status, out, err = cli(tmp_path / "lib", "fetch", "arxiv:cs.LG", "--since", "10000-01-01")
    assert (status, out) == (2, "")
    assert err.endswith("error: argument --since: '10000-01-01' is out of range: dates run "
                        "from 0001-01-01 to 9999-12-31\n")


def test_watch_add_refuses_a_query_out_of_range_and_saves_nothing(tmp_path: Path) -> None:
    """Before: the watch was saved, and then every run of it ended in exit 70."""
    library = tmp_path / "lib"
    status, out, err = cli(library, "watch", "add", "big", "arxiv:cs.LG", "--query",
                           f"cites:>{LONG}")
    assert (status, out) == (1, "")
    assert err == ("paper-tui: cites:>9999999999999999999… (301 characters): "
                   "99999999999999999999… (300 characters) is more than 10,000,000\n")
    status, out, err = cli(library, "watch", "add", "late", "arxiv:cs.LG", "--query",
                           "added:>=10000-01-01")
    assert status == 1 and err.count("\n") == 1 and "out of range" in err
    assert not (library / "watches.yaml").exists() or \
        "big" not in (library / "watches.yaml").read_text(encoding="utf-8")


# -- random numbers and dates -----------------------------------------------------------------
NUMBER_WORDS = ("cites", "citations", "rating", "confidence", "reviews", "year", "kept")
_digits = st.text("0123456789", min_size=1, max_size=400)
_number = st.one_of(
    _digits, st.integers().map(str), st.floats(allow_nan=True).map(repr),
    st.builds(lambda a, b: f"{a}.{b}", _digits, _digits),
    st.builds(lambda a: f"-{a}", _digits), st.text("0123456789.-+e", max_size=30))
_value = st.one_of(
    _number, st.builds(lambda op, n: op + n, st.sampled_from((">", ">=", "<", "<=")), _number),
    st.builds(lambda a, b: f"{a}..{b}", st.one_of(st.just(""), _number),
              st.one_of(st.just(""), _number)))
_year = st.one_of(st.integers(-10**6, 10**6).map(str), _digits)
_date = st.builds(lambda y, m, d: f"{y}-{m}-{d}", _year,
                  st.one_of(st.integers(0, 13).map(lambda n: f"{n:02d}"), _digits),
                  st.one_of(st.integers(0, 32).map(lambda n: f"{n:02d}"), _digits))
_added = st.one_of(
    _date, st.builds(lambda op, d: op + d, st.sampled_from((">", ">=", "<", "<=")), _date),
    st.builds(lambda n: f"{n}d", _digits), st.sampled_from(
        ("0001-01-01", "9999-12-31", ">9999-12-31", "<0001-01-01", "<=9999-12-31")))
WORDS = st.one_of(
    st.builds(lambda f, v: f"{f}:{v}", st.sampled_from(NUMBER_WORDS), _value),
    st.builds(lambda v: f"added:{v}", _added))


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                   HealthCheck.function_scoped_fixture])
@given(word=WORDS)
@example(word=f"cites:>{LONG}")
@example(word="added:>9999-12-31")
def test_random_numbers_and_dates_are_searched_or_one_line(shared_library: Library,
                                                           word: str) -> None:
    try:
        clean(word)
    except QueryError as exc:
        assert "\n" not in str(exc) and len(str(exc)) < 300
    results = shared_library.results(f"diffusion {word}")
    assert results.error is None or "\n" not in results.error
    list(results.ids())
    results.close()
    assert isinstance(shared_library.facets(word), dict)
    page = shared_library.search(word)
    assert page.error is None or "\n" not in page.error


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                  HealthCheck.function_scoped_fixture])
@given(word=WORDS)
def test_random_numbers_and_dates_on_the_command_line_exit_0_or_1(tmp_path: Path,
                                                                   word: str) -> None:
    status, _, err = cli(tmp_path / "lib", "search", word, "--limit", "3")
    assert status in (0, 1), err
    assert err.count("\n") == 1, err


@pytest.mark.parametrize("count", ['"²"', HUGE, "-3"],
                         ids=["superscript", "5000 digits", "negative"])
def test_a_hand_edited_count_in_watches_yaml_is_no_count(tmp_path: Path, count: str) -> None:
    """Before: ``watch`` ended in ``ValueError: invalid literal for int()`` (exit 70)."""
    library = tmp_path / "lib"
    assert cli(library, "watch", "add", "w1", "arxiv:cs.LG")[0] == 0
    path = library / "watches.yaml"
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace("    source: arxiv:cs.LG\n",
                                 f"    source: arxiv:cs.LG\n    new: {count}\n"),
                    encoding="utf-8")
    assert f"new: {count}" in path.read_text(encoding="utf-8")
    status, out, err = cli(library, "watch")
    assert (status, err) == (0, ""), err
    assert out.startswith("w1  arxiv:cs.LG")


# -- numbers in the files a user edits or imports -------------------------------------------
def test_a_setting_out_of_range_or_too_long_is_one_line_and_the_default(tmp_path: Path) -> None:
    """Before: a 400-digit ``debounce_ms`` was ``OverflowError`` and one of 5,000 digits
    ``ValueError`` (Python's 4,300-digit limit), both exit 70 on every command."""
    from paper_tui.config import load

    cases = {f"search: {{debounce_ms: {LONG}}}": "search.debounce_ms must be int, not "
                                                 "99999999999999999999… (300 characters); "
                                                 "using the default 0",
             f"search: {{debounce_ms: {HUGE}}}": "not valid YAML (99999999999999999999… "
                                                 "(5,000 characters) is too long a number); "
                                                 "using defaults",
             "fetch: {timeout_s: .nan}": "fetch.timeout_s must be int, not nan; using the "
                                         "default 30"}
    for text, problem in cases.items():
        path = tmp_path / "config.yaml"
        path.write_text(text + "\n", encoding="utf-8")
        config = load(path, user_file=tmp_path / "none.yaml")
        assert len(config.problems) == 1 and config.problems[0].endswith(problem), \
            config.problems
        assert config.problems[0].startswith(f"{path}:1")
        assert config.settings.search.debounce_ms == 0
        assert config.settings.fetch.timeout_s == 30
    status, _, err = cli(tmp_path / "lib", "--config", str(path), "search", "x")
    assert status == 0 and "fetch.timeout_s must be int, not nan" in err


def test_a_yaml_list_with_a_5000_digit_number_is_one_line(tmp_path: Path) -> None:
    listed = tmp_path / "list.yaml"
    listed.write_text(f"- title: A paper\n  year: {HUGE}\n  authors: [A B]\n",
                      encoding="utf-8")
    status, _, err = cli(tmp_path / "lib", "import", str(listed))
    assert status == 1
    assert f"{listed}:2: invalid YAML: 99999999999999999999… (5,000 characters) is too " \
           "long a number\n" in err


@pytest.mark.parametrize("version", ["²", HUGE], ids=["superscript", "5000 digits"])
def test_a_hand_edited_version_of_annotations_yaml_is_not_an_internal_error(
        tmp_path: Path, version: str) -> None:
    library = tmp_path / "lib"
    assert cli(library, "star", "neurips2026")[0] in (0, 1)
    path = library / "annotations.yaml"
    if not path.exists():
        path.write_text("version: 1\npapers: {}\n", encoding="utf-8")
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace("version: 1", f"version: {version}"), encoding="utf-8")
    status, _, err = cli(library, "tags")
    assert status in (0, 1) and "internal error" not in err, err
