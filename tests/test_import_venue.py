"""What the venue says, imported from samples of the real paperlists files
(``tests/data/venue/``, see ``tests/data/SOURCES.md``): every field checked against what the
test computes from the JSON itself, every odd value the files hold, every record a paper."""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path

import pytest

from paper_tui import config as config_mod
from paper_tui.importers import import_file
from paper_tui.library import Library
from paper_tui.model import Paper
from paper_tui.venue import signals as venue_signals

VENUE = Path(__file__).parent / "data" / "venue"
SAMPLES = sorted(p.name for p in VENUE.glob("*.json"))
# The decisions as a reader of these files would name them, written out by hand.
STATUS = {"Oral": "oral", "Spotlight": "spotlight", "Poster": "poster", "Reject": "reject",
          "Withdraw": "withdrawn", "Workshop": "workshop", "Findings": "findings",
          "Long": "accept", "Short": "accept", "Active": "submitted", None: ""}


def papers_and_records(name: str) -> tuple[list[Paper], list[dict]]:
    _, _, found = import_file(VENUE / name)
    papers = list(found)
    assert all(isinstance(p, Paper) for p in papers), papers  # nothing skipped, no error
    return papers, json.loads((VENUE / name).read_text())  # type: ignore[return-value]


@pytest.mark.parametrize("name", SAMPLES)
def test_every_record_is_a_paper_with_the_venue_decision(name: str) -> None:
    papers, records = papers_and_records(name)
    assert len(papers) == len(records)
    assert [p.decision for p in papers] == [STATUS[r.get("status")] for r in records]
    assert [p.decision_text for p in papers] == [r.get("status", "") for r in records]
    assert [p.title for p in papers] == [" ".join(r["title"].split()) for r in records]


def _scores(text: str) -> tuple[float, ...]:
    return tuple(float(x) for x in text.split(";")) if text else ()


@pytest.mark.parametrize("name", ["iclr2018.json", "acmmm2024.json", "corl2022.json"])
def test_reviews(name: str) -> None:
    papers, records = papers_and_records(name)
    for paper, record in zip(papers, records, strict=True):
        ratings = _scores(record["rating"])
        assert paper.ratings == ratings
        assert paper.confidences == _scores(record["confidence"])
        if ratings:
            mean = sum(ratings) / len(ratings)
            spread = (sum((r - mean) ** 2 for r in ratings) / len(ratings)) ** 0.5
            assert paper.rating == pytest.approx(mean, abs=1e-3)
            assert paper.rating == pytest.approx(record["rating_avg"], abs=1e-3)
            assert paper.rating_spread == pytest.approx(spread, abs=1e-3)
        else:  # no reviews: rating_avg is 0 in the file, and unknown here, never 0
            assert record["rating_avg"] == 0
            assert (paper.rating, paper.rating_spread) == (None, None)
        if not record["confidence"]:  # corl2022: "" and confidence_avg 0
            assert paper.confidence is None
    if name == "iclr2018.json":
        assert any(not p.ratings and p.decision == "withdrawn" for p in papers)


def test_areas_without_their_prefix() -> None:
    papers, records = papers_and_records("acmmm2024.json")
    assert [p.area for p in papers] == [re.sub(r"^\[\w+\] ", "", r["primary_area"])
                                        for r in records]
    assert Counter(p.area for p in papers)["Vision and Language"] >= 1
    ijcai, records = papers_and_records("ijcai2022.json")
    assert [p.area for p in ijcai] == [r["primary_area"] for r in records]
    assert "" in {p.area for p in ijcai}  # an empty area stays unknown


def test_awards_and_what_has_no_award_field() -> None:
    acl, records = papers_and_records("acl2022.json")
    assert [p.award for p in acl] == [r["award"] for r in records]
    assert sum(p.award is True for p in acl) == 4
    iclr, _ = papers_and_records("iclr2018.json")
    assert {p.award for p in iclr} == {None}  # the file does not say: unknown, not False


@pytest.mark.parametrize("name", SAMPLES)
def test_citations_unknown_for_minus_one_and_dated(name: str) -> None:
    papers, records = papers_and_records(name)
    for paper, record in zip(papers, records, strict=True):
        cited = record.get("gs_citation")
        expected = cited if isinstance(cited, int) and cited >= 0 else None
        assert paper.citations == expected
        assert bool(paper.citations_date) == (expected is not None)
    assert len({p.citations_date for p in papers if p.citations_date}) <= 1


def test_code_links_cleaned() -> None:
    iclr, _ = papers_and_records("iclr2018.json")
    codes = {p.code for p in iclr}
    assert "https://github.com/Cyanogenoid/vqa-counting" in codes  # out of a Markdown link
    assert all(c == "" or c.startswith("https://") for c in codes)
    acl, _ = papers_and_records("acl2022.json")
    assert "https://github.com/xinsu626/SourceFreeDomainAdaptation8352" in {p.code for p in acl}
    icml, records = papers_and_records("icml2019.json")
    assert "https://www.github.com/google/compare_gan" in {p.code for p in icml}
    assert "https://www.tensorflow.org/hub" in {p.project for p in icml}
    assert sum(bool(p.project) for p in icml) == sum(bool(r.get("project")) for r in records)


@pytest.mark.parametrize("name", SAMPLES)
def test_affiliations_per_author_and_countries(name: str) -> None:
    papers, records = papers_and_records(name)
    for paper, record in zip(papers, records, strict=True):
        per_author = [tuple(dict.fromkeys(a.strip() for a in part.split("+") if a.strip()))
                      for part in record.get("aff", "").split(";")]
        assert paper.affiliations == (tuple(per_author) if any(per_author) else ())
        countries = [c.strip() for c in record.get("aff_country_unique", "").split(";")]
        assert paper.countries == tuple(dict.fromkeys(c for c in countries if c))
    if name == "acl2022.json":
        assert any(len(names) > 1 for p in papers for names in p.affiliations)  # "A + B"
    if name == "acmmm2024.json":
        assert any(r.get("aff_country_unique") == "China;" for r in records)
        assert ("China",) in {p.countries for p in papers}
    if name == "iclr2018.json":  # every aff is ";;"-like: no affiliation at all
        assert {p.affiliations for p in papers} == {()}


def test_papers_without_an_abstract_are_papers(tmp_path: Path) -> None:
    nips, records = papers_and_records("nips2017.json")
    bare = [p for p in nips if not p.abstract]
    assert len(bare) == sum(not r.get("abstract") for r in records) == 4
    assert all(p.title and not p.title_generated and p.display_abstract == "" for p in bare)
    acmmm, _ = papers_and_records("acmmm2024.json")  # the whole file has no abstracts
    assert len(acmmm) == 24 and not any(p.abstract for p in acmmm)
    with Library.open(tmp_path / "lib", config=config_mod.defaults(), bundled=False) as lib:
        report = lib.import_paths([VENUE])
        assert not report.errors and not report.skipped
        assert report.papers == sum(len(json.loads((VENUE / n).read_text())) for n in SAMPLES)
        [bayesian] = [p for p in bare if p.title == "Bayesian GANs"]
        assert [h.paper.id for h in lib.search('title:"Bayesian GANs"').hits] == [bayesian.id]
        # A title-only record of a paper the file also lists with its abstract: one row,
        # the fuller record shown (versions of one paper).
        shap = "A unified approach to interpreting model predictions"
        assert [h.paper.abstract != "" for h in lib.search(f'title:"{shap}"').hits] == [True]
        assert lib.search("vision").hits  # acmmm titles, searchable without abstracts


# -- tables and JSON Lines: our names (as the CSV export writes them) and paperlists' -------

TABLES = Path(__file__).parent / "data" / "venue-tables"


def _table(name: str) -> dict[str, Paper]:
    _, _, found = import_file(TABLES / name)
    papers = list(found)
    assert all(isinstance(p, Paper) for p in papers), papers  # nothing skipped, no error
    return {p.title: p for p in papers}


def test_a_csv_with_our_column_names() -> None:
    rows = _table("ours.csv")
    full = rows["Reviewed and cited"]
    assert (full.decision, full.decision_text) == ("oral", "ICLR 2024 Oral")
    assert (full.ratings, full.rating, full.rating_spread) == ((6.0, 8.0, 8.0), 7.333, 0.943)
    assert (full.confidences, full.confidence) == ((4.0, 3.0, 4.0), 3.667)
    assert (full.area, full.award) == ("Vision and Language", True)
    assert (full.citations, full.citations_date) == (120, "2024-05-01")
    assert (full.code, full.project) == ("https://github.com/ann/rc", "https://ann.example/rc")
    assert full.affiliations == (("MIT", "Google"), ("Tsinghua University",))
    assert full.countries == ("United States", "China")
    mean = rows["Only the mean"]  # a mean and spread without the scores; -1 citations
    assert (mean.ratings, mean.rating, mean.rating_spread) == ((), 5.5, 0.5)
    assert (mean.decision, mean.award, mean.citations, mean.abstract) == \
        ("reject", False, None, "")
    unknown = rows["Nothing known"]
    assert (unknown.decision, unknown.rating, unknown.confidence, unknown.award,
            unknown.citations, unknown.citations_date, unknown.code, unknown.affiliations) == \
        ("", None, None, None, None, "", "", ())
    odd = rows["Odd values"]  # a 0 and a word among the scores, "[0 0]" as the mean
    assert (odd.ratings, odd.rating, odd.rating_spread) == ((7.0,), 7.0, 0.0)
    assert (odd.decision, odd.decision_text) == ("submitted", "Submitted to ICLR 2024")
    assert odd.award is True  # an award's name
    assert (odd.citations, odd.code, odd.affiliations, odd.countries) == (None, "", (), ())


def test_a_tsv_and_json_lines_with_paperlists_names() -> None:
    today = venue_signals.today()
    tsv, jsonl = _table("paperlists.tsv"), _table("paperlists.jsonl")
    for paper in (tsv["Spectral Things"], jsonl["Spectral Things"]):
        assert (paper.ratings, paper.rating, paper.rating_spread) == \
            ((5.0, 6.0, 6.0, 6.0), 5.75, 0.433)
        assert (paper.confidences, paper.confidence) == ((4.0, 4.0, 3.0, 4.0), 3.75)
        assert paper.affiliations == (("MIT", "Google"), ("Tsinghua University",))
        assert paper.countries == ("United States", "China")
        assert (paper.code, paper.award) == ("https://github.com/ann/st", True)
    assert tsv["Spectral Things"].area == "Multimedia Applications"
    assert (tsv["Spectral Things"].decision, tsv["Spectral Things"].citations) == \
        ("withdrawn", None)
    active = tsv["No Reviews"]  # rating_avg "[0, 0]", confidence_avg 0: no reviews
    assert (active.decision, active.decision_text) == ("submitted", "Active")
    assert (active.rating, active.rating_spread, active.confidence) == (None, None, None)
    assert (active.citations, active.citations_date, active.countries) == (7, today, ("China",))
    poster = jsonl["Spectral Things"]
    assert (poster.decision, poster.citations, poster.citations_date) == ("poster", 42, today)
    assert poster.project == "https://ann.example/st"
    bare = jsonl["No Abstract, Odd Values"]
    assert (bare.decision, bare.decision_text, bare.abstract) == \
        ("desk-reject", "Desk Reject", "")
    assert (bare.rating, bare.citations, bare.affiliations, bare.countries) == \
        (None, None, (), ())
