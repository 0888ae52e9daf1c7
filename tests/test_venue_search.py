"""What the venue says, found, ordered and counted: ``decision:``, ``rating:``,
``confidence:``, ``reviews:``, ``cites:``, ``area:``, ``aff:``, ``country:``, ``has:``; the
sorts by rating, citations and consensus; their facets.

The papers are real records of Paper Copilot's paperlists (``venue_helpers.PAPERS``),
indexed for real. Every expected count is worked out here from those records, by plain
Python."""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from paper_tui import config as config_mod
from paper_tui.library import Library
from paper_tui.model import ACCEPTED, DECISIONS, Paper
from venue_helpers import PAPERS, reviewed, venue_paper


@pytest.fixture(scope="module")
def lib(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Library]:
    root = tmp_path_factory.mktemp("venue") / "library"
    library = Library.open(root, config=config_mod.defaults(), bundled=False)
    library.index.add(PAPERS)
    yield library
    library.close()


def found(lib: Library, query: str, sort: str = "relevance") -> list[str]:
    results = lib.results(query, sort=sort)
    assert results.error is None, results.error
    return [results.paper(i).title for i in range(len(results))]


def expected(test: Callable[[Paper], bool]) -> set[str]:
    return {p.title for p in PAPERS if test(p)}


def _in(value: float | None, low: float | None = None, high: float | None = None) -> bool:
    return value is not None and (low is None or value >= low) and \
        (high is None or value <= high)


def _words(text: str) -> set[str]:
    return set(text.casefold().replace(",", " ").split())


WORDS: list[tuple[str, Callable[[Paper], bool]]] = [
    ("decision:oral", lambda p: p.decision == "oral"),
    ("decision:Spotlight", lambda p: p.decision == "spotlight"),
    ("decision:reject", lambda p: p.decision == "reject"),
    ("decision:withdrawn", lambda p: p.decision == "withdrawn"),
    ("decision:workshop", lambda p: p.decision == "workshop"),
    ("decision:findings", lambda p: p.decision == "findings"),
    ("decision:accepted", lambda p: p.decision in ACCEPTED),
    ("rating:>=6", lambda p: _in(p.rating, 6)),
    ("rating:>6", lambda p: p.rating is not None and p.rating > 6),
    ("rating:<5", lambda p: p.rating is not None and p.rating < 5),
    ("rating:<=4", lambda p: _in(p.rating, None, 4)),
    ("rating:5.5..7", lambda p: _in(p.rating, 5.5, 7)),
    ("rating:6..", lambda p: _in(p.rating, 6)),
    ("rating:..5", lambda p: _in(p.rating, None, 5)),
    ("rating:4", lambda p: p.rating == 4),
    ("confidence:>=3.5", lambda p: _in(p.confidence, 3.5)),
    ("confidence:<3", lambda p: p.confidence is not None and p.confidence < 3),
    ("reviews:>=4", lambda p: len(p.ratings) >= 4),
    ("reviews:3", lambda p: len(p.ratings) == 3),
    ("reviews:..3", lambda p: 0 < len(p.ratings) <= 3),
    ("cites:>=100", lambda p: _in(p.citations, 100)),
    ("citations:<10", lambda p: p.citations is not None and p.citations < 10),
    ("cites:0", lambda p: p.citations == 0),
    ("cites:1..9", lambda p: _in(p.citations, 1, 9)),
    ('area:"vision and language"', lambda p: p.area == "Vision and Language"),
    ("area:fusion", lambda p: "fusion" in _words(p.area)),
    ("area:signal", lambda p: "signals" in _words(p.area)),  # words of the area: stemmed
    ("aff:tsinghua", lambda p: any("tsinghua" in _words(a) for au in p.affiliations
                                   for a in au)),
    ('aff:"university of tokyo"', lambda p: any("Tokyo" in a for au in p.affiliations
                                                for a in au)),
    ("aff:stanford", lambda p: any("Stanford" in a for au in p.affiliations for a in au)),
    ("country:china", lambda p: "China" in p.countries),
    ('country:"united states"', lambda p: "United States" in p.countries),
    ("country:Finland", lambda p: "Finland" in p.countries),
    ("has:code", lambda p: bool(p.code)),
    ("has:abstract", lambda p: bool(p.abstract)),
    ("has:award", lambda p: p.award is True),
    ("has:reviews", lambda p: p.rating is not None),
]


@pytest.mark.parametrize(("query", "test"), WORDS, ids=[q for q, _ in WORDS])
def test_each_word_finds_what_the_records_say(lib: Library, query: str,
                                               test: Callable[[Paper], bool]) -> None:
    want = expected(test)
    assert want, "every word must find something in the sample"
    assert set(found(lib, query)) == want


def test_an_unknown_value_is_in_no_range_and_never_reads_as_zero(lib: Library) -> None:
    unrated = expected(lambda p: p.rating is None)
    uncited = expected(lambda p: p.citations is None)
    assert unrated and uncited
    assert not unrated & (set(found(lib, "rating:<5")) | set(found(lib, "rating:..100")))
    assert not uncited & (set(found(lib, "cites:0")) | set(found(lib, "cites:<1000000")))
    assert not unrated & set(found(lib, "reviews:<10"))
    # a paper known to have no citation is cited 0 times
    assert found(lib, "cites:0") == [p.title for p in PAPERS if p.citations == 0]
    # outside a range is everything else, the unknown too
    assert set(found(lib, "NOT rating:>=6")) == expected(lambda p: not _in(p.rating, 6))


def test_the_words_combine_with_text_negation_and_each_other(lib: Library) -> None:
    def check(query: str, test: Callable[[Paper], bool]) -> None:
        want = expected(test)
        assert want, query
        assert set(found(lib, query)) == want, query

    check("decision:oral has:code", lambda p: p.decision == "oral" and bool(p.code))
    check("decision:oral -has:code", lambda p: p.decision == "oral" and not p.code)
    check("NOT decision:reject rating:>=6",
          lambda p: p.decision != "reject" and _in(p.rating, 6))
    check("decision:accepted AND NOT decision:poster", lambda p: p.decision in ACCEPTED
          and p.decision != "poster")
    check("rating:>=6 adversarial",
          lambda p: _in(p.rating, 6) and "adversarial" in p.title.casefold())
    check("generative -decision:accepted",
          lambda p: "generat" in (p.title + p.abstract).casefold()
          and p.decision not in ACCEPTED)
    check("(rating:>=7 OR cites:>=1000)",
          lambda p: _in(p.rating, 7) or _in(p.citations, 1000))
    check("(year:2018 OR year:2024) has:reviews",
          lambda p: p.year in (2018, 2024) and p.rating is not None)
    check("country:china decision:poster reviews:>=4",
          lambda p: "China" in p.countries and p.decision == "poster"
          and len(p.ratings) >= 4)
    check('aff:tsinghua area:"vision and language"',
          lambda p: p.area == "Vision and Language")
    check("venue:acl has:award -has:code",
          lambda p: p.venue == "ACL" and p.award is True and not p.code)


def test_the_words_combine_with_the_readers_annotations(lib: Library) -> None:
    orals = [p.id for p in PAPERS if p.decision == "oral"]
    lib.add_tags(orals[:2], ["to-cite"])
    lib.set_status(orals[:1], "read")
    try:
        assert set(found(lib, "tag:to-cite rating:>=7.3")) == expected(
            lambda p: p.id in orals[:2] and _in(p.rating, 7.3))
        assert set(found(lib, "decision:oral -tag:to-cite")) == expected(
            lambda p: p.id in orals[2:])
        assert set(found(lib, "decision:oral status:new")) == expected(
            lambda p: p.id in orals[1:])
    finally:
        lib.remove_tags(orals[:2], ["to-cite"])
        lib.set_status(orals[:1], "new")


@pytest.mark.parametrize(("query", "message"), [
    ("rating:high", "rating:high is not a number: use rating:>=6 or rating:5..7"),
    ("diffusion rating:>=six", "rating:>=six is not a number: use rating:>=6 or "
                               "rating:5..7"),
    ("reviews:3.5", "reviews:3.5 is not a whole number: use reviews:>=4 or reviews:3..5"),
    ("cites:many", "cites:many is not a number: use cites:>=100 or cites:10..500"),
    ("rating:7..5", "rating range 7..5 is backwards: write rating:5..7"),
    ("confidence:..", "confidence range needs a number on at least one side, e.g. "
                      "confidence:3..5"),
    ("decision:maybe", "decision:maybe is not a decision: use one of "
                       f"{', '.join(DECISIONS)}, accepted"),
    ("has:slides", "has:slides is unknown: use has:code, has:abstract, has:award or "
                   "has:reviews"),
    ("(cites:)", "cites: needs something to search for after the colon"),
])
def test_a_bad_value_is_the_query_languages_one_line(lib: Library, query: str,
                                                      message: str) -> None:
    results = lib.results(query)
    assert results.error == message and len(results) == 0
    assert lib.facets(query) == {}


def test_a_words_value_in_a_phrase_is_just_text(lib: Library) -> None:
    assert found(lib, '"rating:high"') == []  # a phrase, not a bad rating


def test_year_and_starred_close_a_parenthesis(lib: Library) -> None:
    # was: "year:2018) is not a year", the parenthesis read as part of the value
    assert set(found(lib, "(year:2018 OR year:2022)")) == expected(
        lambda p: p.year in (2018, 2022))
    assert found(lib, "(starred:yes)") == []


# -- sorts -----------------------------------------------------------------------------
def _key(sort: str, p: Paper) -> float | None:
    if sort == "rating":
        return p.rating
    if sort == "citations":
        return None if p.citations is None else float(p.citations)
    if p.rating is None or p.rating_spread is None:
        return None
    return p.rating - p.rating_spread


@pytest.mark.parametrize("sort", ["rating", "citations", "consensus"])
def test_a_sort_by_a_number_puts_the_best_first_and_the_unknown_last(
        lib: Library, sort: str) -> None:
    listed = found(lib, "")  # the list order: venue, newest year, title
    shown = found(lib, "", sort=sort)
    by_title = {p.title: p for p in PAPERS}
    keys = [_key(sort, by_title[t]) for t in shown]
    known = [k for k in keys if k is not None]
    assert known and len(known) < len(keys)
    assert keys[:len(known)] == known and all(k is None for k in keys[len(known):])
    assert known == sorted(known, reverse=True)
    # ties (and the unknown) keep the list order
    expect = sorted(listed, key=lambda t: (-(k if (k := _key(sort, by_title[t])) is not None
                                             else -math.inf), listed.index(t)))
    assert shown == expect


def test_ties_are_broken_by_relevance_then_the_list_order(tmp_path: Path) -> None:
    six = reviewed((6, 6), (3, 3))
    papers = [
        venue_paper("Beta: diffusion", "ICLR", 2018, "Sampling.", **six),
        venue_paper("Alpha: diffusion diffusion models", "ICLR", 2018, "Diffusion models "
               "and diffusion.", **six),
        venue_paper("Gamma: diffusion models", "ICLR", 2018, "Diffusion.", **six),
        venue_paper("Delta: diffusion", "ICLR", 2018, "Unrated.", citations=5),
        venue_paper("Epsilon: best diffusion", "ICLR", 2018, "Sampling.",
               **reviewed((8, 8), (3, 3))),
    ]
    with Library.open(tmp_path / "lib", config=config_mod.defaults(), bundled=False) as lib:
        lib.index.add(papers)
        relevance = lib.results("diffusion models")
        score = {relevance.paper(i).title.split(":")[0]: relevance.score(i)
                 for i in range(len(relevance))}
        tied = sorted(("Alpha", "Beta", "Gamma"), key=lambda t: -score[t])
        assert len({score[t] for t in tied}) == 3  # the relevance order is no accident
        assert [t.split(":")[0] for t in found(lib, "diffusion models", sort="rating")] \
            == ["Epsilon", *tied, "Delta"]
        # no words to rank by: the list order (venue, newest year, title)
        assert [t.split(":")[0] for t in found(lib, "", sort="rating")] == \
            ["Epsilon", "Alpha", "Beta", "Gamma", "Delta"]
        assert [t.split(":")[0] for t in found(lib, "", sort="citations")] == \
            ["Delta", "Alpha", "Beta", "Epsilon", "Gamma"]
        assert lib.results("diffusion", sort="rating").score(0) is None  # relevance's alone


def test_the_sorts_are_everywhere_a_sort_is_named() -> None:
    from paper_tui import vocabulary
    from paper_tui.index import SORTS as INDEX_SORTS

    for sort in ("rating", "citations", "consensus"):
        assert sort in vocabulary.SORTS and sort in INDEX_SORTS
    assert vocabulary.SORTS[-1] == vocabulary.FOR_YOU


# -- facets ----------------------------------------------------------------------------
def _counts(values: list[str]) -> dict[str, int]:
    out: dict[str, int] = {}
    for v in values:
        out[v] = out.get(v, 0) + 1
    return out


@pytest.mark.parametrize("query", ["", "generative", "rating:>=5", "venue:acl"])
def test_facets_count_the_venues_words_among_the_hits(lib: Library, query: str) -> None:
    hits = set(found(lib, query))
    papers = [p for p in PAPERS if p.title in hits]
    facets = lib.facets(query)
    assert facets["decision"] == _counts([p.decision for p in papers if p.decision])
    assert facets["area"] == _counts([p.area for p in papers if p.area])
    assert facets["country"] == _counts([c for p in papers for c in p.countries])
    assert facets["aff"] == _counts([a for p in papers
                                     for a in dict.fromkeys(a for au in p.affiliations
                                                            for a in au)])
    has = {"code": sum(bool(p.code) for p in papers),
           "award": sum(p.award is True for p in papers),
           "reviews": sum(p.rating is not None for p in papers)}
    assert facets["has"] == {k: n for k, n in has.items() if n}
    for name in ("decision", "area", "country", "aff", "has"):  # most first
        counts = list(facets[name].values())
        assert counts == sorted(counts, reverse=True)


def test_the_facet_tables_kept_beside_the_index_are_read_or_made_again(
        lib: Library, tmp_path: Path) -> None:
    import shutil

    want = lib.facets("generative")
    kept = sorted((lib.root / "index").glob("facets-*.bin"))
    assert [p.name.split("-")[1] for p in kept] == ["aff", "area", "country"]
    copy = tmp_path / "copy"
    shutil.copytree(lib.root, copy, ignore=shutil.ignore_patterns("*.lock"))
    for damage in (b"", b"not json", b'{"labels": ["x"], "docs": [99999], "values": [0]}'):
        for path in (copy / "index").glob("facets-*.bin"):
            path.write_bytes(damage)
        with Library.open(copy, config=config_mod.defaults(), bundled=False) as again:
            assert again.facets("generative") == want
        assert all(p.read_bytes() != damage for p in (copy / "index").glob("facets-*.bin"))


def test_a_facet_value_narrows_to_its_papers(lib: Library) -> None:
    for name, field in (("decision", "decision"), ("country", "country"),
                        ("area", "area"), ("aff", "aff"), ("has", "has")):
        for value, n in lib.facets("")[name].items():
            quoted = f'"{value}"' if " " in value else value
            assert len(found(lib, f"{field}:{quoted}")) >= n, (name, value)


# -- the grammar, at random ----------------------------------------------------------------
_BOUNDS = sorted({round(p.rating, 2) for p in PAPERS if p.rating is not None}
                 | {0.0, 4.0, 5.5, 6.0, 10.0})


@settings(max_examples=150, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.sampled_from(["rating", "confidence", "cites", "reviews"]),
       st.sampled_from([">=", ">", "<=", "<", "=", "..", "a..", "..b"]),
       st.sampled_from(_BOUNDS), st.sampled_from(_BOUNDS), st.booleans())
def test_a_numeric_word_is_the_range_it_says(lib: Library, field: str, op: str, a: float,
                                             b: float, negated: bool) -> None:
    whole = field in ("cites", "reviews")
    if whole:
        a, b = float(int(a * 37)), float(int(b * 37 / 10))  # whole numbers, citations wide
    low, high = min(a, b), max(a, b)

    def text(x: float) -> str:
        return str(int(x)) if whole else f"{x:g}"

    value = {">=": f">={text(a)}", ">": f">{text(a)}", "<=": f"<={text(a)}",
             "<": f"<{text(a)}", "=": text(a), "..": f"{text(low)}..{text(high)}",
             "a..": f"{text(a)}..", "..b": f"..{text(b)}"}[op]
    query = f"{'NOT ' if negated else ''}{field}:{value}"

    def number(p: Paper) -> float | None:
        return {"rating": p.rating, "confidence": p.confidence,
                "cites": None if p.citations is None else float(p.citations),
                "reviews": float(len(p.ratings)) if p.ratings else None}[field]

    def inside(x: float | None) -> bool:
        if x is None:
            return False
        return {">=": x >= a, ">": x > a, "<=": x <= a, "<": x < a, "=": x == a,
                "..": low <= x <= high, "a..": x >= a, "..b": x <= b}[op]

    want = expected(lambda p: inside(number(p)) != negated)
    assert set(found(lib, query)) == want, query


def test_the_index_written_before_these_fields_is_rebuilt(tmp_path: Path) -> None:
    import json

    from paper_tui.index import SCHEMA_VERSION

    said: list[str] = []
    root = tmp_path / "library"
    Library.open(root, config=config_mod.defaults(), bundled=False).close()
    meta = root / "index" / "paper-tui-index.json"
    old = json.loads(meta.read_text())
    old["schema"] = SCHEMA_VERSION - 1
    meta.write_text(json.dumps(old))
    Library.open(root, config=config_mod.defaults(), bundled=False, warn=said.append).close()
    assert len(said) == 1 and "rebuilding it from the sources" in said[0]
    assert json.loads(meta.read_text())["schema"] == SCHEMA_VERSION >= 13  # 13: these fields


@settings(max_examples=300, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.sampled_from(["rating", "confidence", "reviews", "cites", "citations", "decision",
                        "has", "area", "aff", "country"]),
       st.text(alphabet=st.sampled_from(list('0123456789.<>=-:"()*~ abcdeorlsAND')),
               max_size=12),
       st.sampled_from(["", "diffusion ", "NOT ", "-", "("]))
def test_any_value_is_a_result_or_one_line(lib: Library, word: str, value: str,
                                           before: str) -> None:
    results = lib.results(f"{before}{word}:{value}")
    if results.error is not None:
        assert "\n" not in results.error and len(results) == 0
    else:
        assert len(results) <= len(PAPERS)
