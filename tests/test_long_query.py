"""Long queries cost time in proportion to their length: issue 23's 100,000-character
word took half a minute and more, and now answers; a query with more words or symbols than
the language allows (query.MAX_WORDS, MAX_SYMBOLS) is refused at once, in one line saying
which. Behaviour only, no timing: the parser's steps are counted, bench/long_query.py
measures.

The parser skips the rest of a word where no pattern matched (index/plan.py) and leaves
out repeated words; property tests check that it reads every short query exactly as
Whoosh's own parser does."""

from __future__ import annotations

import re
import sys
from collections.abc import Callable, Iterator
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
from paper_tui.query.parse import clean

MAX_LENGTH, MAX_WORDS, MAX_SYMBOLS = 200_000, 1_000, 1_000
"""query.MAX_LENGTH, MAX_WORDS and MAX_SYMBOLS, as the README states them."""
TOO_MANY_WORDS = "the query has {:,} words: a query has at most 1,000"


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


def test_the_100000_character_word_of_the_finding_answers(tmp_path: Path) -> None:
    done = forked_cli.run([sys.executable, "-m", "paper_tui", "--library", str(tmp_path / "l"),
                           "search", "a" * 100_000], capture_output=True, text=True,
                          timeout=120)
    assert (done.returncode, done.stdout, done.stderr) == (0, "", "0 hits\n")


def test_100_kb_of_words_is_refused_in_one_line_and_nothing_else_breaks(
        shared_library: Library) -> None:
    words = abstract_words(shared_library, 100_000)
    count = len(words.split())
    page = shared_library.search(words)
    assert page.error == TOO_MANY_WORDS.format(count) and page.hits == []
    results = shared_library.results(words)
    assert results.error == page.error and results.suggestion is None
    assert shared_library.facets(words) == {}
    with pytest.raises(QueryError, match="at most 1,000"):
        clean(words)


@pytest.mark.parametrize(("query", "error"), ids=["characters", "fuzzy words", "field words",
                                                  "symbols"], argvalues=[
    ("a" * (MAX_LENGTH + 1), f"the query is {MAX_LENGTH + 1:,} characters long: a query is "
                             f"at most {MAX_LENGTH:,}"),
    ("a~2 " * (MAX_WORDS + 1), TOO_MANY_WORDS.format(MAX_WORDS + 1)),
    ("title:a " * (MAX_WORDS + 1), TOO_MANY_WORDS.format(MAX_WORDS + 1)),
    ("(" * 600 + "a" + ")" * 600, "the query has 1,200 symbols (characters other than "
                                  "letters, digits and spaces): a query has at most 1,000"),
])
def test_each_rule_names_itself_in_one_line(shared_library: Library, query: str,
                                            error: str) -> None:
    assert shared_library.search(query).error == error


def test_as_many_words_and_symbols_as_allowed_answer(shared_library: Library) -> None:
    """A word is what spaces separate: ``a~2`` and ``title:a`` are one each, ``(`` none."""
    for query in ("a~2 " * MAX_WORDS, "title:a " * MAX_WORDS, "( " * 500 + "a" + " )" * 500,
                  " ".join(f"w{i}" for i in range(MAX_WORDS))):
        assert shared_library.search(query, limit=5).error is None


def test_a_100_kb_word_and_a_100_kb_query_of_long_words_are_searched(
        shared_library: Library) -> None:
    assert shared_library.search("a" * 100_000).error is None
    long_words = " ".join(f"{i}{'x' * 99}" for i in range(MAX_WORDS))
    assert len(long_words) > 100_000
    page = shared_library.search(long_words)
    assert page.error is None and page.total == 0


def test_pasted_words_find_the_paper_they_come_from(shared_library: Library) -> None:
    """A pasted abstract, repeated up to the word limit: its paper matches every word."""
    paper = next(iter(shared_library.search("", limit=1).hits)).paper
    words = re.findall(r"[A-Za-z]{3,}", paper.abstract)
    query = " ".join(words * (MAX_WORDS // len(words)))
    page = shared_library.search(query, limit=5)
    assert page.error is None
    assert page.hits[0].paper.id == paper.id


@pytest.mark.parametrize("unit", ["[", " 'a", "-a ", "(a) ", '"a" ', "a~2 ", "é", "title:a "])
def test_long_runs_of_the_languages_characters_answer(shared_library: Library,
                                                      unit: str) -> None:
    """Each of these made the parser scan ahead at every character (or repeat a step per
    word); at the limits each answers, with hits or a query error, and never raises."""
    symbols = sum(1 for ch in unit if not (ch.isalnum() or ch.isspace()))
    query = unit * min(MAX_WORDS, MAX_SYMBOLS // max(symbols, 1), 100_000 // len(unit))
    page = shared_library.search(query, limit=5)
    assert page.error is None or "at most" not in page.error


# -- the cost is linear: the parser's steps and the terms it builds are counted -------------
def calls(work: Callable[[], object]) -> int:
    """How many Python and C functions ``work`` calls (every regex match is one)."""
    count = 0

    def profile(frame, event, arg) -> None:
        nonlocal count
        if event in ("call", "c_call"):
            count += 1

    sys.setprofile(profile)
    try:
        work()
    finally:
        sys.setprofile(None)
    return count


PARSER = plan.build_parser(query_schema())


def test_reading_one_long_word_takes_the_same_steps_at_any_length() -> None:
    """Whoosh tried each of its ~19 patterns at every letter (19 steps a character)."""
    short, long = (calls(lambda n=n: PARSER.parse("a" * n)) for n in (10_000, 100_000))
    assert long <= short + 100


@pytest.mark.parametrize("unit", ["ab ", "[", " 'a", "-a ", "(a) ", '"a" ', "a~2 ",
                                  "title:a ", "a* ", "é"])
def test_the_parsers_steps_grow_in_proportion_to_the_length(unit: str) -> None:
    n = 1_000 // len(unit)
    short, long = (calls(lambda k=k: PARSER.parse(unit * k)) for k in (n, 10 * n))
    assert long <= 11 * short


def test_a_repeated_word_is_read_once() -> None:
    """Whoosh built a term per field for each word, repeats too (a pasted text repeats its
    words), then normalised them away: 1,000 words of 10 cost 100 times 10 words."""
    ten = " ".join(f"w{i}" for i in range(10))
    PARSER.parse(ten)
    once, repeated = calls(lambda: PARSER.parse(ten)), calls(
        lambda: PARSER.parse(" ".join([ten] * 100)))
    assert repeated < 2 * once
    assert repr(PARSER.parse(" ".join([ten] * 100))) == repr(PARSER.parse(ten))


@pytest.mark.parametrize(("text", "kept"), [
    ("a b a c", "a b c"), ("a b A B", "a b"), ("KV-PRM x KV-PRM", "KV-PRM x"),
    ("a model's a model's", "a model's"), ("a b a b", "a b"), ("é É é", "é É"),
    # next to anything but such a word, a repeat stays (leaving it out might join or split
    # a phrase, a group, an operator's operands, a boost or a fuzzy word)
    ('a "b a" a', 'a "b a" a'), ("a (b a) a", "a (b a) a"), ("a OR a a", "a OR a a"),
    ("-a a a", "-a a a"), ("a^2 a a", "a^2 a a"), ("a~ a a", "a~ a a"),
    ("title:a a title:a", "title:a a title:a"),
    # where a quoted term or a range might span words, the query stays as it is
    ("a 'b a' a", "a 'b a' a"), ("a [a TO b] a", "a [a TO b] a"), ("a b a {", "a b a {"),
])
def test_repeats_left_out(text: str, kept: str) -> None:
    assert plan.repeats_left_out(text) == kept


# -- the bounded parser reads short queries as Whoosh's own does -------------------------
def whooshs_own_parser() -> qparser.QueryParser:
    """plan.build_parser's parser as Whoosh's own: its tagging loop (a pattern tried at
    every character) and its own patterns back in the two bounded places."""
    parser = plan.build_parser(query_schema())
    own = qparser.QueryParser(None, parser.schema, group=parser.group)
    bounded = {type(p): p for p in (qparser.SingleQuotePlugin(), qparser.RangePlugin())}
    own.plugins = [bounded.get(type(plugin), plugin) for plugin in parser.plugins]
    return own


BOUNDED, OWN = plan.build_parser(query_schema()), whooshs_own_parser()
PIECES = st.sampled_from([
    *"ab1_é ~*?:'\"()[]{}^+-.", " TO ", " to ", " AND ", " OR ", " NOT ", "title:", "year:",
    "tag:", "name", " a ", " A ", " a b ", "~2", "^2", "[2019 TO 2023]", "'a b'", '"a b"',
    "x" * 70 + ":"])


def parsed(parser: qparser.QueryParser, text: str) -> str:
    try:
        return repr(parser.parse(text))
    except Exception as exc:  # the same failure is the same reading
        return f"raises {type(exc).__name__}"


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(PIECES, min_size=1, max_size=16).map("".join))
@example("a b a c a")
@example("a b A B")
@example('a "b a" a')
@example("a (b a) a")
@example("a OR a a")
@example("-a a a")
@example("a^2 a a")
@example("a~ a a")
@example("a b a 'c a'")
def test_the_bounded_parser_reads_as_whooshs_own(text: str) -> None:
    assert parsed(BOUNDED, text) == parsed(OWN, text)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(PIECES, min_size=1, max_size=16).map("".join))
@example("xtitle:a")
@example("ab*c")
@example("a~2b")
def test_where_no_pattern_matches_at_a_letter_none_matches_in_the_rest_of_its_word(
        text: str) -> None:
    """What lets the parser skip the rest of a word (``LinearParser.tag``)."""
    taggers = BOUNDED.taggers()

    def matches(pos: int) -> bool:
        return any(tagger.match(BOUNDED, text, pos) is not None for tagger in taggers)

    for word in re.finditer(r"\w+", text):
        for pos in range(word.start(), word.end()):
            if not matches(pos):
                assert not any(matches(later) for later in range(pos + 1, word.end())), pos


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
