"""Long queries cost time in proportion to their length, and a query longer than the
language allows (query.MAX_LENGTH) is refused at once: issue 23's 100,000-character word
took half a minute and more. Behaviour only, no timing: bench/long_query.py measures.

The parser's patterns are bounded (index/plan.py); property tests check that the bounded
parser reads every short query exactly as Whoosh's own patterns do."""

from __future__ import annotations

import re
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from whoosh import qparser

import forked_cli
from paper_tui.errors import QueryError
from paper_tui.index import plan
from paper_tui.index.schema import query_schema
from paper_tui.library import Library
from paper_tui.query import clean

MAX_LENGTH = 10_000
"""query.MAX_LENGTH, as the README states it."""
REFUSED = "the query is {:,} characters long: a query is at most 10,000"


@pytest.fixture(scope="module")
def shared_library(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Library]:
    from paper_tui import config as config_mod

    lib = Library.open(tmp_path_factory.mktemp("lib") / "library", config=config_mod.defaults())
    yield lib
    lib.close()


def abstract_words(lib: Library, size: int) -> str:
    """``size`` characters or fewer of whole words, from the library's abstracts."""
    text = " ".join(re.findall(r"[A-Za-z]{3,}", " ".join(
        hit.paper.abstract for hit in lib.search("", limit=None).hits)))
    while len(text) < size:
        text = f"{text} {text}"
    return text[:size].rsplit(" ", 1)[0]


def test_the_100000_character_word_of_the_finding_is_refused_in_one_line(
        tmp_path: Path) -> None:
    done = forked_cli.run([sys.executable, "-m", "paper_tui", "--library", str(tmp_path / "l"),
                           "search", "a" * 100_000], capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 1 and done.stdout == ""
    assert done.stderr == f"paper-tui: {REFUSED.format(100_000)}\n"


def test_100_kb_of_words_is_refused_and_nothing_else_breaks(shared_library: Library) -> None:
    words = abstract_words(shared_library, 100_000)
    page = shared_library.search(words)
    assert page.error == REFUSED.format(len(words)) and page.hits == []
    results = shared_library.results(words)
    assert results.error == page.error and results.suggestion is None
    assert shared_library.facets(words) == {}
    with pytest.raises(QueryError, match="at most 10,000"):
        clean(words)


def test_a_word_as_long_as_allowed_is_searched(shared_library: Library) -> None:
    page = shared_library.search("a" * MAX_LENGTH)
    assert page.error is None and page.total == 0


def test_words_as_long_as_allowed_find_the_paper_they_come_from(
        shared_library: Library) -> None:
    """A pasted abstract, repeated up to the limit: its paper matches every word."""
    paper = next(iter(shared_library.search("", limit=1).hits)).paper
    words = " ".join(re.findall(r"[A-Za-z]{3,}", paper.abstract))
    query = (words + " ") * (MAX_LENGTH // (len(words) + 1))
    assert len(query) <= MAX_LENGTH
    page = shared_library.search(query, limit=5)
    assert page.error is None
    assert page.hits[0].paper.id == paper.id


@pytest.mark.parametrize("unit", ["[", " 'a", "-a ", "(a) ", '"a" ', "a~2 ", "é", "title:a "])
def test_long_runs_of_the_languages_characters_answer(shared_library: Library,
                                                      unit: str) -> None:
    """Each of these made the parser scan ahead at every character (or repeat a step per
    word); at the limit each answers, with hits or a query error, and never raises."""
    query = unit * (MAX_LENGTH // len(unit))
    page = shared_library.search(query, limit=5)
    assert page.error is None or "at most" not in page.error


# -- the bounded parser reads short queries as Whoosh's own does -------------------------
def whooshs_own_parser() -> qparser.QueryParser:
    """plan.build_parser's parser with Whoosh's own patterns back in the three places."""
    parser = plan.build_parser(query_schema())
    own = {type(p): p for p in (qparser.FieldsPlugin(), qparser.SingleQuotePlugin(),
                                qparser.RangePlugin())}
    parser.plugins = [own.get(type(plugin), plugin) for plugin in parser.plugins]
    return parser


BOUNDED, OWN = plan.build_parser(query_schema()), whooshs_own_parser()
PIECES = st.sampled_from([
    *"ab1_é ~*?:'\"()[]{}^+-.", " TO ", " to ", " AND ", " OR ", " NOT ", "title:", "year:",
    "tag:", "name", "~2", "^2", "[2019 TO 2023]", "'a b'", '"a b"', "x" * 70 + ":"])


def parsed(parser: qparser.QueryParser, text: str) -> str:
    try:
        return repr(parser.parse(text))
    except Exception as exc:  # the same failure is the same reading
        return f"raises {type(exc).__name__}"


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(PIECES, min_size=1, max_size=16).map("".join))
def test_the_bounded_parser_reads_as_whooshs_own(text: str) -> None:
    assert parsed(BOUNDED, text) == parsed(OWN, text)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.one_of(st.lists(PIECES, max_size=30).map("".join),
                 st.text(max_size=60)))
@example("a(^2)")  # what it found once (below)
def test_any_query_answers_or_says_what_is_wrong(shared_library: Library, text: str) -> None:
    page = shared_library.search(text, limit=3)
    assert page.error is None or (page.error and "\n" not in page.error)


def test_a_boost_alone_in_parentheses_is_not_a_bug(shared_library: Library) -> None:
    """Found by the property test above: Whoosh gives ``^2`` in ``a (^2)`` no field; the search
    failed with KeyError (exit 70). It matches nothing now: the rest of the query counts."""
    alone = shared_library.search("model", limit=None).total
    assert shared_library.search("model (^2)", limit=None).total == alone
    assert shared_library.search("model(^2)").error is None
