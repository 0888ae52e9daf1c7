"""OpenReview notes: API v2 (``{"value": …}`` wrappers), API v1 (plain values), a bare
array of notes; decisions and tracks searchable, rejected and withdrawn flagged."""

from __future__ import annotations

import json
from pathlib import Path

from formats_helpers import DATA, read, without_extension
from paper_tui import config as config_mod
from paper_tui.errors import SourceNotice
from paper_tui.importers.openreview import decision_and_track
from paper_tui.library import Library


def test_api_v2_notes_field_by_field() -> None:
    fmt, papers, notices = read(DATA / "openreview-v2-iclr2018.json")
    assert fmt == "openreview"
    oral, poster, rejected, withdrawn = papers
    assert oral.title == "Spectral Normalization for Generative Adversarial Networks"
    assert oral.authors == ("Takeru Miyato", "Toshiki Kataoka", "Masanori Koyama",
                            "Yuichi Yoshida")
    assert oral.abstract.startswith("One of the challenges in the study of generative")
    assert (oral.venue, oral.year) == ("ICLR", 2018)
    assert oral.url == "https://openreview.net/forum?id=B1QRgziT-"
    assert oral.pdf == "https://openreview.net/pdf/B1QRgziT-.pdf"  # /pdf/… made absolute
    assert oral.tldr.startswith("We propose a novel weight normalization technique")
    assert oral.keywords == ("Generative Adversarial Networks", "Deep Generative Models",
                             "Unsupervised Learning", "oral")
    assert (oral.decision, oral.decision_text, oral.track) == ("oral", "ICLR 2018 Oral", "oral")
    assert (poster.decision, poster.track) == ("poster", "poster")
    assert "poster" in poster.keywords
    assert (rejected.decision, rejected.track, rejected.venue) == ("reject", "", "ICLR")
    assert rejected.keywords[-1] == "rejected"
    assert (withdrawn.decision, withdrawn.keywords[-1]) == ("withdrawn", "withdrawn")
    # Flagged, not mixed in silently: the import says how many, and how to find them.
    [notice] = notices
    assert isinstance(notice, SourceNotice)
    assert "1 rejected and 1 withdrawn" in notice.message
    assert "keyword:rejected" in notice.message


def test_api_v1_notes_with_plain_values() -> None:
    fmt, papers, errors = read(DATA / "openreview-v1-dblp.json")
    assert fmt == "openreview" and not errors
    icml, acl = papers
    assert icml.title == ("High-Performance Semi-Supervised Learning using Discriminatively "
                          "Constrained Generative Models")
    assert icml.authors == ("Gregory Druck", "Andrew McCallum")
    assert (icml.venue, icml.year) == ("ICML", 2010)  # from venue "ICML 2010"
    assert icml.url == "https://openreview.net/forum?id=BJ4cr2-O-B"
    assert icml.bibtex.startswith("@inproceedings{DBLP:conf/icml/DruckM10")
    assert acl.authors[-1] == "João Graça"
    assert (acl.venue, acl.year) == ("ACL (Tutorial Abstracts)", 2011)
    assert icml.decision == "" and icml.track == ""


def test_decisions_and_tracks_from_the_venue_texts() -> None:
    cases = {("ICLR 2024 spotlight", "ICLR.cc/2024/Conference"): ("spotlight", "spotlight"),
             ("ICLR 2024 poster", "ICLR.cc/2024/Conference"): ("poster", "poster"),
             ("ICLR 2024", "ICLR.cc/2024/Conference"): ("accept", ""),
             ("Submitted to ICLR 2024", "ICLR.cc/2024/Conference/Rejected_Submission"):
                 ("reject", ""),
             ("ICLR 2024 Conference Desk Rejected Submission", ""): ("desk-reject", ""),
             ("ICLR 2024 Conference Withdrawn Submission",
              "ICLR.cc/2024/Conference/Withdrawn_Submission"): ("withdrawn", ""),
             ("Submitted to ICLR 2025", "ICLR.cc/2025/Conference/Submission"): ("submitted", ""),
             ("Accept (Oral)", ""): ("oral", "oral"),
             ("ICLR 2023 notable top 5%", ""): ("oral", ""),
             ("NeurIPS 2023 Doctoral Consortium", ""): ("", "")}
    for texts, expected in cases.items():
        assert decision_and_track(*texts) == expected, texts


def test_a_bare_array_of_notes_and_sniffing_without_the_extension(tmp_path: Path) -> None:
    notes = json.loads((DATA / "openreview-v2-iclr2018.json").read_text())["notes"]
    bare = tmp_path / "notes"
    bare.write_text(json.dumps(notes))
    fmt, papers, _ = read(bare)
    assert fmt == "openreview" and len(papers) == 4
    assert read(without_extension("openreview-v1-dblp.json", tmp_path))[0] == "openreview"


def test_bad_notes_are_named_and_the_rest_imports() -> None:
    _, papers, errors = read(DATA / "bad-openreview.json")
    assert [p.title for p in papers] == ["A Fine Note"]
    assert [(e.record, e.message) for e in errors] == [
        (2, "not an OpenReview note (no content object)"),
        (3, "note has neither title nor abstract"),
        (4, "not an OpenReview note (no content object)")]
    assert str(errors[0]).endswith("bad-openreview.json (record 2): not an OpenReview note "
                                   "(no content object)")


def test_decision_and_track_are_searchable(tmp_path: Path) -> None:
    lib = Library.open(tmp_path / "lib", config=config_mod.defaults(), bundled=False)
    try:
        report = lib.import_paths([DATA / "openreview-v2-iclr2018.json"])
        assert report.papers == 4 and not report.errors and len(report.notices) == 1
        found = {q: [h.paper.title[:20] for h in lib.search(q).hits]
                 for q in ("keyword:oral", "poster", "keyword:rejected", "keyword:withdrawn",
                           "venue:ICLR -keyword:rejected -keyword:withdrawn")}
    finally:
        lib.close()
    assert found["keyword:oral"] == ["Spectral Normalizati"]
    assert found["poster"] == ["Learning to Count Ob"]
    assert found["keyword:rejected"] == ["Thinking like a mach"]
    assert found["keyword:withdrawn"] == ["Robust Task Clusteri"]
    assert sorted(found["venue:ICLR -keyword:rejected -keyword:withdrawn"]) == [
        "Learning to Count Ob", "Spectral Normalizati"]


def test_reviews_and_decision_from_the_replies_v1_and_v2() -> None:
    """Notes fetched with their replies: the Official_Review ratings and confidences (texts
    such as "6: Marginally above acceptance threshold" in v1, numbers in v2), the Decision
    reply; a comment's "rating" is not a review's."""
    _, [poster], errors = read(DATA / "openreview-v1-replies.json")
    assert not errors
    assert (poster.decision, poster.decision_text, poster.track) == (
        "poster", "Accept (Poster)", "poster")
    assert poster.ratings == (4.0, 6.0, 6.0) and poster.confidences == (4.0, 3.0, 3.0)
    assert (poster.rating, poster.rating_spread, poster.confidence) == (5.333, 0.943, 3.333)
    _, [oral], errors = read(DATA / "openreview-v2-replies.json")
    assert not errors
    assert (oral.decision, oral.decision_text, oral.area) == (
        "oral", "Accept (Oral)", "generative models")
    assert oral.ratings == (7.0, 7.0, 8.0) and oral.confidences == (4.0, 2.0, 3.0)
    assert (oral.rating, oral.rating_spread, oral.confidence) == (7.333, 0.471, 3.0)


def test_notes_without_replies_have_no_reviews() -> None:
    _, papers, _ = read(DATA / "openreview-v2-iclr2018.json")
    assert {(p.ratings, p.rating, p.confidence) for p in papers} == {((), None, None)}
