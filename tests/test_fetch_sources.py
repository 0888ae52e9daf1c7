"""``Library.fetch`` end to end for each source, against a real HTTP server on 127.0.0.1
replaying recorded responses (``tests/data/fetch/``): paging, ``--since``, ``--all``, the
file stored under the library and imported like any list."""

from __future__ import annotations

import datetime
import itertools
import json
from collections.abc import Sequence
from pathlib import Path

from fetch_routes import (
    ACCEPTED,
    ICLR,
    REJECTED,
    WITHDRAWN,
    arxiv_path,
    data,
    dblp_path,
    open_library,
    openreview_path,
    serve_arxiv,
    serve_dblp,
    serve_openreview,
)
from http_replay import ReplayServer, Reply
from paper_tui.library import Library
from paper_tui.model import Paper


def by_forum(lib: Library, ids: Sequence[str]) -> dict[str, Paper]:
    """Papers by their OpenReview forum id (from their link)."""
    papers = [lib.paper(pid) for pid in ids]
    return {p.url.rsplit("=", 1)[-1]: p for p in papers}


def test_openreview_pages_until_count(tmp_path: Path, http_replay: ReplayServer) -> None:
    serve_openreview(http_replay)
    with open_library(tmp_path / "lib", http_replay.url) as lib:
        report = lib.fetch([f"openreview:{ICLR}/"])  # a trailing slash is not the id
        [done] = report.sources
        assert (done.spec, done.status, done.papers, done.pages) == \
            (f"openreview:{ICLR}", "fetched", 6, 2)
        assert not report.failed and done.error is None
        assert done.requests == 2 and done.bytes > 0
        assert done.source_id == "openreview-iclr-cc-2018-conference-json"
        forums = by_forum(lib, done.new_ids)
        assert sorted(forums) == sorted(ACCEPTED)
        oral = forums[ACCEPTED[0]]
        assert (oral.venue, oral.year, oral.decision) == ("ICLR", 2018, "oral")
        assert forums[ACCEPTED[2]].decision == "poster"
    asked = [r.path for r in http_replay.requests]
    assert asked == [openreview_path(ICLR, 0), openreview_path(ICLR, 3)]
    stored = json.loads((tmp_path / "lib/fetched/openreview-iclr-cc-2018-conference.json")
                        .read_text("utf-8"))
    assert stored["count"] == 6 and [n["id"] for n in stored["notes"]] == list(ACCEPTED)


def test_openreview_all_adds_rejected_and_withdrawn(tmp_path: Path,
                                                    http_replay: ReplayServer) -> None:
    serve_openreview(http_replay, all_decisions=True)
    with open_library(tmp_path / "lib", http_replay.url) as lib:
        [done] = lib.fetch([f"openreview:{ICLR}"], all_decisions=True).sources
        assert (done.status, done.papers) == ("fetched", 9)
        forums = by_forum(lib, done.new_ids)
        assert forums[REJECTED[0]].decision == "reject"
        assert forums[WITHDRAWN[0]].decision == "withdrawn"
    asked = {r.path for r in http_replay.requests}
    for name in ("Submission", "Rejected_Submission", "Withdrawn_Submission",
                 "Desk_Rejected_Submission"):
        assert openreview_path(f"{ICLR}/{name}", 0) in asked


def test_a_venue_api_v2_has_nothing_of_is_asked_of_api_v1(tmp_path: Path,
                                                          http_replay: ReplayServer) -> None:
    """Two real API v1 notes (``formats/openreview-v1-dblp.json``: plain values, no
    ``count``) under their venue id; API v2 answers with no notes."""
    venue = "dblp.org/conf/ICML/2010"
    v1 = json.loads((Path(__file__).parent / "data/formats/openreview-v1-dblp.json")
                    .read_text("utf-8"))
    http_replay.route("/notes", Reply(body=data("openreview-empty.json")))
    http_replay.route("/v1" + openreview_path(venue, 0),
                      Reply(body=json.dumps({"notes": v1["notes"]}).encode()))
    with open_library(tmp_path / "lib", http_replay.url) as lib:
        [done] = lib.fetch([f"openreview:{venue}"]).sources
        assert (done.status, done.papers, done.pages) == ("fetched", 2, 2)
        titles = sorted(lib.paper(pid).title for pid in done.new_ids)
        assert titles[0].startswith("High-Performance Semi-Supervised Learning")
    assert [r.path for r in http_replay.requests] == [
        openreview_path(venue, 0), "/v1" + openreview_path(venue, 0)]


def test_openreview_unknown_venue_says_so(tmp_path: Path, http_replay: ReplayServer) -> None:
    http_replay.route("/notes", Reply(body=data("openreview-empty.json")))
    with open_library(tmp_path / "lib", http_replay.url) as lib:
        [done] = lib.fetch(["openreview:ICLR.cc/2031/Conference"]).sources
        assert done.status == "failed"
        assert done.error is not None and "no papers under venue id" in done.error
        assert "ICLR.cc/2031/Conference" in done.error and "\n" not in done.error
        assert lib.count() == 0
    assert not (tmp_path / "lib/fetched").exists() or \
        not any((tmp_path / "lib/fetched").iterdir())


def test_paperlists_stored_under_its_venue_and_year(tmp_path: Path,
                                                    http_replay: ReplayServer) -> None:
    http_replay.route("/iclr/iclr2018.json", Reply(body=data("paperlists-iclr2018.json")))
    with open_library(tmp_path / "lib", http_replay.url) as lib:
        [done] = lib.fetch(["paperlists:ICLR2018"]).sources
        assert (done.spec, done.status, done.papers) == ("paperlists:iclr2018", "fetched", 24)
        assert len(done.new_ids) == 24
        paper = lib.paper(done.new_ids[0])
        assert (paper.venue, paper.year) == ("ICLR", 2018)
    assert (tmp_path / "lib/fetched/iclr2018.paperlists.json").read_bytes() == \
        data("paperlists-iclr2018.json")


def test_arxiv_category_stops_at_since(tmp_path: Path, http_replay: ReplayServer) -> None:
    serve_arxiv(http_replay)
    with open_library(tmp_path / "lib", http_replay.url) as lib:
        [done] = lib.fetch(["arxiv:cs.SE"], since=datetime.date(2025, 1, 1)).sources
        # page 2 holds the first entry older than 2025-01-01: page 3 is never asked
        assert (done.status, done.papers, done.pages) == ("fetched", 19, 2)
        assert all(pid.startswith("arxiv-") for pid in done.new_ids)
    assert [r.path for r in http_replay.requests] == [arxiv_path("cs.SE", 0),
                                                     arxiv_path("cs.SE", 10)]


def test_arxiv_category_grows_and_defaults_to_its_last_fetch(
        tmp_path: Path, http_replay: ReplayServer) -> None:
    serve_arxiv(http_replay)
    with open_library(tmp_path / "lib", http_replay.url) as lib:
        [first] = lib.fetch(["arxiv:cs.SE"], since=datetime.date(2026, 1, 1)).sources
        assert first.papers == 3 and first.pages == 1
        [wider] = lib.fetch(["arxiv:cs.SE"], since=datetime.date(2000, 1, 1)).sources
        assert (wider.papers, len(wider.new_ids), wider.pages) == (25, 22, 3)
        # no --since: from the last fetch (today), which the newest page is older than
        [again] = lib.fetch(["arxiv:cs.SE"]).sources
        assert again.status in ("fetched", "unchanged") and again.pages == 1
        assert again.papers == 25 and again.new_ids == ()  # the earlier entries are kept
        assert lib.count() == 25


def test_arxiv_is_asked_at_its_pace(tmp_path: Path, http_replay: ReplayServer) -> None:
    serve_arxiv(http_replay)
    with open_library(tmp_path / "lib", http_replay.url, arxiv_delay_s=0.3) as lib:
        [done] = lib.fetch(["arxiv:cs.SE"], since=datetime.date(2000, 1, 1)).sources
        assert (done.status, done.pages) == ("fetched", 3)
    starts = [r.at for r in http_replay.requests]
    assert len(starts) == 3
    assert all(later - earlier >= 0.29 for earlier, later in itertools.pairwise(starts))


def test_arxiv_ids(tmp_path: Path, http_replay: ReplayServer) -> None:
    http_replay.route("/api/query?id_list=0808.05394%2C1707.08567&max_results=2",
                      Reply(body=(Path(__file__).parent / "data/formats/arxiv-api.atom")
                            .read_bytes()))
    with open_library(tmp_path / "lib", http_replay.url) as lib:
        [done] = lib.fetch(["arxiv:0808.05394v2, 1707.08567"]).sources
        # (the recorded answer holds one entry: arXiv has no 0808.05394)
        assert (done.spec, done.status, done.papers) == \
            ("arxiv:0808.05394,1707.08567", "fetched", 1)
        assert done.new_ids == ("arxiv-1707.08567",)


def test_arxiv_error_entry_is_one_line(tmp_path: Path, http_replay: ReplayServer) -> None:
    http_replay.route("/api/query", Reply(body=(Path(__file__).parent /
                                                "data/formats/arxiv-api-error.atom").read_bytes()))
    with open_library(tmp_path / "lib", http_replay.url) as lib:
        [done] = lib.fetch(["arxiv:1234.56789"]).sources
        assert done.status == "failed" and done.error is not None
        assert done.error.startswith("arxiv:1234.56789: arXiv says: ")
        assert lib.count() == 0


def test_dblp_volume_pages_and_leaves_out_front_matter(tmp_path: Path,
                                                       http_replay: ReplayServer) -> None:
    serve_dblp(http_replay)
    with open_library(tmp_path / "lib", http_replay.url) as lib:
        [done] = lib.fetch(["dblp:conf/iclr/2018"]).sources
        assert (done.spec, done.status, done.papers, done.pages) == \
            ("dblp:conf/iclr/iclr2018", "fetched", 6, 2)
        titles = {lib.paper(pid).title for pid in done.new_ids}
        assert "Spectral Normalization for Generative Adversarial Networks" in titles
        assert not any(t.endswith(".") or "Conference Track Proceedings" in t for t in titles)
        paper = lib.paper(done.new_ids[0])
        assert (paper.venue, paper.year, paper.abstract) == ("ICLR", 2018, "")
    assert [r.path for r in http_replay.requests] == [dblp_path("conf/iclr/iclr2018", 0),
                                                     dblp_path("conf/iclr/iclr2018", 4)]


def test_url_format_by_content_named_from_the_url(tmp_path: Path,
                                                  http_replay: ReplayServer) -> None:
    http_replay.route("/lists/iclr2018", Reply(body=data("paperlists-iclr2018.json")))
    with open_library(tmp_path / "lib", http_replay.url) as lib:
        url = f"{http_replay.url}/lists/iclr2018"
        [done] = lib.fetch([url]).sources
        assert (done.spec, done.status, done.papers) == (url, "fetched", 24)
        assert lib.paper(done.new_ids[0]).venue == "ICLR"  # from the URL's name
    assert (tmp_path / "lib/fetched/iclr2018.127-0-0-1").is_file()


def test_one_failing_source_does_not_stop_the_others(tmp_path: Path,
                                                     http_replay: ReplayServer) -> None:
    http_replay.route("/iclr/iclr2018.json", Reply(body=data("paperlists-iclr2018.json")))
    with open_library(tmp_path / "lib", http_replay.url) as lib:
        report = lib.fetch(["bogus:1", "paperlists:iclr2031", "paperlists:iclr2018"])
        assert [s.status for s in report.sources] == ["failed", "failed", "fetched"]
        assert report.failed
        bogus, missing, _ = report.sources
        assert bogus.source_id is None and bogus.error is not None
        assert "openreview:VENUE_ID" in bogus.error and "dblp:KEY" in bogus.error
        assert missing.error is not None and "404" in missing.error
        assert missing.error.startswith("paperlists:iclr2031: ")
        assert lib.count() == 24
        as_json = json.loads(json.dumps(report.as_json()))
        assert as_json["failed"] is True and len(as_json["sources"]) == 3
