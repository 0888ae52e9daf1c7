"""What the venue says, read from messy values: every odd value the real lists hold becomes
a clean value or "unknown" (never a crash, never 0 for unknown). Property tests feed the
readers anything JSON or a CSV cell can hold."""

from __future__ import annotations

import math

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from paper_tui import vocabulary
from paper_tui.model import DECISIONS, Paper
from paper_tui.venue import signals as vs
from paper_tui.venue import text as venue_text

# -- decisions ------------------------------------------------------------------------------


@pytest.mark.parametrize(("texts", "expected"), [
    (("Oral",), "oral"), (("Spotlight",), "spotlight"), (("Poster",), "poster"),
    (("Reject",), "reject"), (("Withdraw",), "withdrawn"), (("Workshop",), "workshop"),
    (("Poster Workshop",), "workshop"), (("Findings",), "findings"), (("Long",), "accept"),
    (("Short",), "accept"), (("Main",), "accept"), (("Technical",), "accept"),
    (("Industry",), "accept"), (("System Demonstrations",), "accept"),
    (("Oral Workshop",), "workshop"), (("Active",), "submitted"),
    (("Accept (Oral)",), "oral"), (("Accept (poster)",), "poster"),
    (("ICLR 2025 Oral",), "oral"), (("ICLR 2024 spotlight",), "spotlight"),
    (("Submitted to ICLR 2025", "ICLR.cc/2025/Conference/Submission"), "submitted"),
    (("Submitted to ICLR 2024", "ICLR.cc/2024/Conference/Rejected_Submission"), "reject"),
    (("ICLR 2024 Conference Withdrawn Submission",
      "ICLR.cc/2024/Conference/Withdrawn_Submission"), "withdrawn"),
    (("ICLR 2024 Conference Desk Rejected Submission",
      "ICLR.cc/2024/Conference/Desk_Rejected_Submission"), "desk-reject"),
    (("ICLR 2024", "ICLR.cc/2024/Conference"), "accept"),
    (("ICLR 2023 notable top 5%",), "oral"), (("ICLR 2023 notable top 25%",), "spotlight"),
    (("NeurIPS 2023 Doctoral Consortium",), ""),  # "doctoral" is not "oral"
    (("ICML 2010", "dblp.org/conf/ICML/2010"), ""),
    (("",), ""), ((None,), ""), ((["Oral"],), ""), ((0,), ""), ((True,), ""),
])
def test_decision_words(texts: tuple[object, ...], expected: str) -> None:
    assert vs.decision(*texts) == expected


def test_decision_text_keeps_the_source_words_cleaned() -> None:
    assert vs.decision_text("  Poster \n Workshop ") == "Poster Workshop"
    assert vs.decision_text(None) == "" and vs.decision_text(["Oral"]) == ""


# -- reviews ----------------------------------------------------------------------------------


def test_per_review_scores() -> None:
    assert vs.scores("5;6;6;6") == (5.0, 6.0, 6.0, 6.0)
    assert vs.scores([5, "6", 7.5]) == (5.0, 6.0, 7.5)
    assert vs.scores("6: Marginally above acceptance threshold;3: Clear rejection") == (6.0, 3.0)
    assert vs.scores("") == () and vs.scores(None) == () and vs.scores(";;") == ()
    assert vs.scores("5;n/a;-1;0;nan;inf;1e300") == (5.0,)  # none, 0, < 0, not finite, huge


@pytest.mark.parametrize(("value", "expected"), [
    (6.0, (6.0, None)), ("6.0", (6.0, None)), ("[5.75, 0.43]", (5.75, 0.43)),
    ([5.75, 0.433], (5.75, 0.433)), ("[0, 0]", (None, None)), (0, (None, None)),
    ("0", (None, None)), ("", (None, None)), (None, (None, None)), (-1, (None, None)),
    (float("nan"), (None, None)), (True, (None, None)), ("3.6666666666666665", (3.667, None)),
])
def test_a_source_mean_and_spread(value: object, expected: tuple) -> None:
    assert vs.mean_and_spread(value) == expected


def test_reviews_mean_and_spread_from_the_scores_else_the_source() -> None:
    assert vs.reviews("5;6;6;6", 5.75) == vs.Reviews((5.0, 6.0, 6.0, 6.0), 5.75, 0.433)
    assert vs.reviews("", "[5.75, 0.43]") == vs.Reviews((), 5.75, 0.43)
    assert vs.reviews("", 0) == vs.NO_REVIEWS  # corl2022: confidence "" and average 0


def test_records_with_paperlists_names_and_with_ours() -> None:
    ours = vs.from_record({"ratings": [6, 7], "rating": 6.5, "confidences": "4;4",
                           "confidence": 4.0})
    assert (ours.ratings, ours.rating, ours.rating_spread) == ((6.0, 7.0), 6.5, 0.5)
    assert (ours.confidences, ours.confidence) == ((4.0, 4.0), 4.0)
    only_mean = vs.from_record({"rating": "6.25", "rating_spread": "0.5", "confidence": 3})
    assert (only_mean.ratings, only_mean.rating, only_mean.rating_spread) == ((), 6.25, 0.5)
    assert only_mean.confidence == 3.0
    theirs = vs.from_record({"rating": "6", "rating_avg": 6.0, "confidence": "",
                             "confidence_avg": 0})
    assert (theirs.ratings, theirs.rating, theirs.confidence) == ((6.0,), 6.0, None)


# -- area, award, citations, links, affiliations, countries ---------------------------------------


@pytest.mark.parametrize(("value", "expected"), [
    ("[Content] Vision and Language", "Vision and Language"),
    ("[Experience] Multimedia Applications", "Multimedia Applications"),
    ("Machine Learning", "Machine Learning"), ("machine_vision", "machine vision"),
    ("", ""), (None, ""), (["[A] x", "y"], "x; y"), (3, "3"),
])
def test_area(value: object, expected: str) -> None:
    assert vs.area(value) == expected


@pytest.mark.parametrize(("value", "expected"), [
    (True, True), (False, False), ("true", True), ("False", False), ("yes", True), ("", None),
    (None, None), ("Best Paper", True), (1, True), (0, False), (7, None), ([True], None),
])
def test_award(value: object, expected: bool | None) -> None:
    assert vs.award(value) is expected


@pytest.mark.parametrize(("value", "expected"), [
    (312, 312), ("312", 312), (12.0, 12), ("1,234", 1234), (0, 0), (-1, None), ("-1", None),
    ("", None), (None, None), (2.5, None), (True, None), (float("inf"), None), ("many", None),
])
def test_citations(value: object, expected: int | None) -> None:
    assert vs.citations(value) == expected


@pytest.mark.parametrize(("value", "expected"), [
    ("https://github.com/x/y", "https://github.com/x/y"),
    ("github.com/xinsu626/SourceFreeDomainAdaptation8352",
     "https://github.com/xinsu626/SourceFreeDomainAdaptation8352"),
    ("www.github.com/google/compare_gan", "https://www.github.com/google/compare_gan"),
    ("[![github](/images/github_icon.svg) Cyanogenoid/vqa-counting]"
     "(https://github.com/Cyanogenoid/vqa-counting)", "https://github.com/Cyanogenoid/vqa-counting"),
    ("see https://a.org/x.", "https://a.org/x"), ("", ""), (None, ""), ("n/a", ""),
    ("javascript:alert(1)", ""), ("file:///etc/passwd", ""), (["", "http://b.org"], "http://b.org"),
])
def test_links(value: object, expected: str) -> None:
    assert vs.link(value) == expected


def test_affiliations_per_author() -> None:
    assert vs.affiliations("A + B; C") == (("A", "B"), ("C",))
    assert vs.affiliations("SJTU; SJTU+NIO; ") == (("SJTU",), ("SJTU", "NIO"), ())
    assert vs.affiliations("Univ. of California, Berkeley;MIT") == (
        ("Univ. of California, Berkeley",), ("MIT",))
    assert vs.affiliations(";;;") == () and vs.affiliations("") == ()
    assert vs.affiliations([["A", "B"], [], "C + D"]) == (("A", "B"), (), ("C", "D"))
    assert vs.affiliations(None) == () and vs.affiliations(5) == ()


def test_countries_each_once() -> None:
    assert vs.countries("China;") == ("China",)
    assert vs.countries("China;United States;China") == ("China", "United States")
    assert vs.countries(["Germany", "", None]) == ("Germany",)
    assert vs.countries("") == () and vs.countries(None) == ()


def test_citations_are_dated_only_when_known() -> None:
    assert vs.from_record({"gs_citation": 12}, "2026-12-01").citations_date == "2026-12-01"
    assert vs.from_record({"gs_citation": -1}, "2026-12-01").citations_date == ""
    assert vs.from_record({"citations": 3, "citations_date": "2025-01-02"},
                          "2026-12-01").citations_date == "2025-01-02"
    assert vs.citations_date("2025-02-30") == ""


# -- properties: any value, no crash, never 0 or a non-finite number for unknown ----------------

_SCALARS = st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=40)
_VALUES = st.recursive(_SCALARS, lambda inner: st.lists(inner, max_size=4)
                       | st.dictionaries(st.text(max_size=8), inner, max_size=3), max_leaves=8)
_NUMERIC_TEXT = st.lists(st.one_of(st.floats(allow_nan=True), st.integers(-3, 12),
                                   st.text("0123456789.-e[], ;:", max_size=6)),
                         max_size=6).map(lambda parts: ";".join(map(str, parts)))
# The machine is shared: generation may be slow, a run is never timed.
_RELAXED = settings(suppress_health_check=[HealthCheck.too_slow], deadline=None)
_FIELDS = ("status", "decision", "decision_text", "rating", "ratings", "rating_avg",
           "rating_spread", "confidence", "confidences", "confidence_avg", "primary_area",
           "area", "award", "gs_citation", "citations", "citations_date", "github", "code",
           "project", "aff", "affiliations", "aff_country_unique", "countries")


@_RELAXED
@given(st.dictionaries(st.sampled_from(_FIELDS), _VALUES | _NUMERIC_TEXT, max_size=12))
def test_any_record_reads_cleanly(record: dict) -> None:
    signals = vs.from_record(record, "2026-12-01")
    assert signals.decision in ("", *DECISIONS)
    for number in (*signals.ratings, *signals.confidences):
        assert math.isfinite(number) and number > 0
    for mean in (signals.rating, signals.confidence):
        assert mean is None or (math.isfinite(mean) and mean > 0)
    assert signals.rating_spread is None or (math.isfinite(signals.rating_spread)
                                             and signals.rating_spread >= 0)
    assert signals.citations is None or signals.citations >= 0
    assert bool(signals.citations_date) == (signals.citations is not None)
    for url in (signals.code, signals.project):
        assert url == "" or url.startswith(("http://", "https://"))
    assert all(name and name == name.strip() for names in signals.affiliations
               for name in names)
    assert all(country and country == country.strip() for country in signals.countries)
    assert "\n" not in signals.decision_text + signals.area


@_RELAXED
@given(_NUMERIC_TEXT)
def test_scores_mean_lies_between_the_scores(text: str) -> None:
    found = vs.reviews(text)
    if found.each:
        assert found.mean is not None and found.spread is not None
        slack = 1e-3 * max(1.0, max(found.each))
        assert min(found.each) - slack <= found.mean <= max(found.each) + slack
    else:
        assert found == vs.NO_REVIEWS


@_RELAXED
@given(st.lists(st.lists(st.text(alphabet=st.characters(blacklist_characters=";+\r\n",
                                                       blacklist_categories=("Cs",)),
                                 max_size=12), max_size=3), min_size=1, max_size=5))
def test_affiliations_read_back_from_the_text_they_are_written_as(per_author: list) -> None:
    cleaned = tuple(tuple(dict.fromkeys(n for n in (" ".join(a.split()).strip(" ,")
                                                    for a in names) if n))
                    for names in per_author)
    text = "; ".join(" + ".join(names) for names in cleaned)
    assert vs.affiliations(text) == (cleaned if any(cleaned) else ())


def test_a_huge_or_deeply_nested_value_is_unknown_not_a_crash() -> None:
    huge = "x" * (vs.MAX_VALUE + 1)
    signals = vs.from_record({"status": huge, "aff": huge, "rating": "6;" * vs.MAX_VALUE,
                              "github": ["https://github.com/a/b"] * (vs.MAX_VALUE + 1)})
    assert signals == vs.NO_SIGNALS
    nested: list = ["https://x.org"]
    for _ in range(5000):
        nested = [nested]
    assert vs.link(nested) == "" and vs.area(nested) == ""


def test_unpaired_surrogates_are_not_text() -> None:
    """JSON's "\\ud800" escapes decode to lone surrogates, which no file can hold."""
    lone = "Oral \udfff"
    signals = vs.from_record({"status": lone, "primary_area": lone, "github": lone,
                              "aff": f"A; {lone} + B", "aff_country_unique": f"{lone};China"})
    assert (signals.decision, signals.decision_text, signals.area, signals.code) == ("", "", "",
                                                                                     "")
    assert signals.affiliations == (("A",), ()) and signals.countries == ("China",)


@pytest.mark.parametrize(("decision", "said", "label"), [
    ("accept", "Technical", "Accepted (Technical)"), ("accept", "Long", "Accepted (Long)"),
    ("accept", "Accept (Oral)", "Accept (Oral)"), ("poster", "Poster Workshop",
                                                   "Poster Workshop"),
    ("oral", "", "Oral"), ("desk-reject", "", "Desk rejected"), ("", "Hmm", "Hmm"),
    ("", "", "")])
def test_one_decision_label_for_the_app_show_and_exports(decision: str, said: str,
                                                         label: str) -> None:
    paper = Paper(id="p", title="t", abstract="", decision=decision, decision_text=said)
    assert vocabulary.decision_label(paper) == venue_text.decision_label(paper) == label
    assert vocabulary.venue_words(paper)[:1] == ([label] if label else [])
