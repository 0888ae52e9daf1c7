"""What the venue says, end to end: the samples of the real paperlists files
(``tests/data/venue/``, see ``tests/data/SOURCES.md``) imported through ``paper-tui import``,
then found, ordered and counted through ``paper-tui search`` and the library's facets.

Every expected count is worked out here from the JSON records themselves, by plain Python:
the decisions named by hand, the means and spreads from the ``;``-separated scores, the rest
from the raw strings."""

from __future__ import annotations

import json
import math
import re
import sys
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

import forked_cli
from built_once import built_once, copy_of
from paper_tui import config as config_mod
from paper_tui.library import Library

VENUE = Path(__file__).parent / "data" / "venue"
SAMPLES = sorted(VENUE.glob("*.json"))
RECORDS = [record for path in SAMPLES for record in json.loads(path.read_text())]
STATUS = {"Oral": "oral", "Spotlight": "spotlight", "Poster": "poster", "Reject": "reject",
          "Withdraw": "withdrawn", "Workshop": "workshop", "Findings": "findings",
          "Long": "accept", "Short": "accept", "Active": "submitted", None: ""}
"""The decisions as a reader of these files would name them, written out by hand."""
ACCEPTED_HERE = {"oral", "spotlight", "poster", "accept", "findings"}

Record = dict


def decision(r: Record) -> str:
    return STATUS[r.get("status")]


def scores(r: Record, key: str) -> list[float]:
    text = r.get(key) or ""
    return [float(x) for x in text.split(";")] if text.strip() else []


def mean(values: list[float]) -> float | None:
    return sum(values) / len(values) if values else None


def rating(r: Record) -> float | None:
    return mean(scores(r, "rating"))


def consensus(r: Record) -> float | None:
    values = scores(r, "rating")
    if not values:
        return None
    m = sum(values) / len(values)
    return m - math.sqrt(sum((v - m) ** 2 for v in values) / len(values))


def citations(r: Record) -> int | None:
    value = r.get("gs_citation")
    return value if isinstance(value, int) and value >= 0 else None


def area(r: Record) -> str:
    """The area without paperlists' ``[Content]``-like prefix, lower case."""
    return re.sub(r"^\[[^]]*\]\s*", "", r.get("primary_area") or "").casefold()


def countries(r: Record) -> set[str]:
    return {c.strip() for c in (r.get("aff_country_unique") or "").split(";") if c.strip()}


def has_word(text: str, word: str) -> bool:
    return re.search(rf"\b{word}\b", text, re.IGNORECASE) is not None


def known_at_least(value: float | None, low: float) -> bool:
    return value is not None and value >= low


WORDS: list[tuple[str, Callable[[Record], bool]]] = [
    ("decision:oral", lambda r: decision(r) == "oral"),
    ("decision:spotlight", lambda r: decision(r) == "spotlight"),
    ("decision:poster", lambda r: decision(r) == "poster"),
    ("decision:accept", lambda r: decision(r) == "accept"),
    ("decision:reject", lambda r: decision(r) == "reject"),
    ("decision:withdrawn", lambda r: decision(r) == "withdrawn"),
    ("decision:findings", lambda r: decision(r) == "findings"),
    ("decision:submitted", lambda r: decision(r) == "submitted"),
    ("decision:accepted", lambda r: decision(r) in ACCEPTED_HERE),
    ("rating:>=6", lambda r: known_at_least(rating(r), 6)),
    ("rating:<5", lambda r: (m := rating(r)) is not None and m < 5),
    ("rating:5.5..7", lambda r: (m := rating(r)) is not None and 5.5 <= m <= 7),
    ("confidence:>=3.5", lambda r: known_at_least(mean(scores(r, "confidence")), 3.5)),
    ("reviews:>=4", lambda r: len(scores(r, "rating")) >= 4),
    ("reviews:3", lambda r: len(scores(r, "rating")) == 3),
    ("cites:>=100", lambda r: known_at_least(citations(r), 100)),
    ("cites:<10", lambda r: (c := citations(r)) is not None and c < 10),
    ('area:"vision and language"', lambda r: "vision and language" in area(r)),
    ('area:"computer vision"', lambda r: "computer vision" in area(r)),
    ("aff:google", lambda r: has_word(r.get("aff") or "", "google")),
    ("aff:peking", lambda r: has_word(r.get("aff") or "", "peking")),
    ("country:china", lambda r: "China" in countries(r)),
    ('country:"united states"', lambda r: "United States" in countries(r)),
    ("has:code", lambda r: bool((r.get("github") or "").strip())),
    ("has:abstract", lambda r: bool((r.get("abstract") or "").strip())),
    ("has:award", lambda r: r.get("award") is True),
    ("has:reviews", lambda r: bool(scores(r, "rating"))),
    # with each other, with negation, with text and OR
    ("decision:accepted has:code",
     lambda r: decision(r) in ACCEPTED_HERE and bool((r.get("github") or "").strip())),
    ("rating:>=6 -has:code",
     lambda r: known_at_least(rating(r), 6) and not (r.get("github") or "").strip()),
    ("NOT decision:reject has:reviews",
     lambda r: decision(r) != "reject" and bool(scores(r, "rating"))),
    ("decision:oral OR decision:spotlight", lambda r: decision(r) in ("oral", "spotlight")),
    ("country:china -country:\"united states\" cites:>=10",
     lambda r: "China" in countries(r) and "United States" not in countries(r)
     and known_at_least(citations(r), 10)),
    ("title:adversarial decision:accepted",
     lambda r: has_word(r["title"], "adversarial") and decision(r) in ACCEPTED_HERE),
]


@pytest.fixture(scope="module")
def imported(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """A configuration (no bundled lists) and a library of the samples, imported through
    ``paper-tui import``."""
    def build(base: Path) -> None:
        config = base / "config.yaml"
        config.write_text("bundled_lists: false\n")
        out = forked_cli.run([sys.executable, "-m", "paper_tui", "--config", str(config),
                              "--library", str(base / "library"), "import",
                              *map(str, SAMPLES)], capture_output=True, text=True,
                             timeout=300)
        assert out.returncode == 0, out.stderr
        assert out.stdout.startswith(f"{len(RECORDS)} papers from {len(SAMPLES)} file(s)")

    base = copy_of(tmp_path_factory, built_once(tmp_path_factory, "venue-e2e", build),
                   "venue-e2e")
    return base / "config.yaml", base / "library"


@pytest.fixture(scope="module")
def cli(imported: tuple[Path, Path]) -> Callable[..., str]:
    """``paper-tui`` on the imported library: its standard output."""
    config, library = imported

    def run(*args: str) -> str:
        out = forked_cli.run([sys.executable, "-m", "paper_tui", "--config", str(config),
                              "--library", str(library), *args],
                             capture_output=True, text=True, timeout=120)
        assert out.returncode == 0, out.stderr
        return out.stdout

    return run


@pytest.fixture(scope="module")
def lib(imported: tuple[Path, Path]) -> Iterator[Library]:
    library = Library.open(imported[1], config=config_mod.defaults(), bundled=False)
    yield library
    library.close()


def titles(cli: Callable[..., str], query: str, *options: str) -> list[dict]:
    return json.loads(cli("search", query, "--json", "--all-versions", "--limit", "1000",
                          *options))


def _title(text: str) -> str:
    return " ".join(text.split())


def test_every_record_imported(cli: Callable[..., str]) -> None:
    assert Counter(h["title"] for h in titles(cli, "")) == \
        Counter(_title(r["title"]) for r in RECORDS)


def test_words_through_the_command_line(cli: Callable[..., str]) -> None:
    query = "decision:accepted has:code"
    want = Counter(_title(r["title"]) for r in RECORDS if dict(WORDS)[query](r))
    assert Counter(h["title"] for h in titles(cli, query)) == want


@pytest.mark.parametrize(("query", "test"), WORDS, ids=[q for q, _ in WORDS])
def test_word_finds_what_the_records_say(lib: Library, query: str,
                                         test: Callable[[Record], bool]) -> None:
    want = Counter(_title(r["title"]) for r in RECORDS if test(r))
    assert want, f"{query}: the samples should hold at least one such paper"
    results = lib.results(query, all_versions=True)
    assert results.error is None, results.error
    assert Counter(results.paper(i).title for i in range(len(results))) == want


@pytest.mark.parametrize(("sort", "value"), [("rating", rating), ("citations", citations),
                                             ("consensus", consensus)])
def test_sort_best_first_unknown_last(cli: Callable[..., str], sort: str,
                                      value: Callable[[Record], float | None]) -> None:
    by_title: dict[str, float | None] = {}
    for r in RECORDS:
        by_title.setdefault(_title(r["title"]), value(r))
    hits = titles(cli, "", "--sort", sort)
    assert len(hits) == len(RECORDS)
    values = [by_title[h["title"]] for h in hits]
    known = [v for v in values if v is not None]
    assert values[:len(known)] == known, "every unknown value after every known one"
    assert known == sorted(known, reverse=True)
    assert len(known) == sum(value(r) is not None for r in RECORDS)


def test_sort_within_a_query(cli: Callable[..., str]) -> None:
    hits = titles(cli, "decision:accepted", "--sort", "rating")
    want = sorted((rating(r) for r in RECORDS
                   if decision(r) in ACCEPTED_HERE and rating(r) is not None), reverse=True)
    got = [h["rating"] for h in hits]
    assert got[:len(want)] == pytest.approx(want, abs=1e-3)
    assert all(v is None for v in got[len(want):])


def test_a_bad_value_is_one_line(tmp_path: Path) -> None:
    out = forked_cli.run([sys.executable, "-m", "paper_tui", "--library", str(tmp_path / "l"),
                          "search", "reviews:many"], capture_output=True,
                         text=True, timeout=120)
    assert out.returncode == 1
    assert out.stderr.count("\n") == 1 and "reviews:many is not a number" in out.stderr


@pytest.mark.parametrize("query", ["has:reviews", "country:china", "has:code"])
def test_facets_count_what_the_records_say(lib: Library, query: str) -> None:
    test = dict(WORDS)[query]
    records = [r for r in RECORDS if test(r)]
    facets = lib.facets(query)
    assert facets["decision"] == dict(Counter(decision(r) for r in records if decision(r)))
    assert facets["country"] == dict(Counter(c for r in records for c in countries(r)))
    has = Counter({"code": sum(bool((r.get("github") or "").strip()) for r in records),
                   "reviews": sum(bool(scores(r, "rating")) for r in records),
                   "award": sum(r.get("award") is True for r in records)})
    assert facets["has"] == {k: v for k, v in has.items() if v}
    areas = Counter(re.sub(r"^\[[^]]*\]\s*", "", r.get("primary_area") or "")
                    for r in records)
    areas.pop("", None)
    assert facets["area"] == dict(areas)
    # most first, ties by name
    for name in ("decision", "country", "area"):
        assert list(facets[name].items()) == sorted(facets[name].items(),
                                                    key=lambda kv: (-kv[1], kv[0]))
