"""``fetch openreview:VENUE --reviews``: every paper's reviews, meta-review, decision and
comments in the same paged requests as the list (``details=replies``), kept beside the
source; ``show --reviews`` and ``show --json``; the rating history a fetch records when
the ratings moved. Against a real HTTP server on 127.0.0.1 replaying real OpenReview
shapes (``tests/data/reviews/README.md`` says where each came from)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import urllib.parse
from pathlib import Path

import pytest

import forked_cli
from fetch_routes import ICLR, config_file, open_library, serve_openreview
from http_replay import ReplayServer, Reply
from paper_tui.holdings import reviews as kept
from paper_tui.venue import reviews as venue_reviews

DATA = Path(__file__).parent / "data" / "reviews"
NEURIPS = "NeurIPS.cc/2024/Conference"
V1_VENUE = "ICLR.cc/2017/conference"
EXE = shutil.which("paper-tui")


def body(name: str) -> bytes:
    return (DATA / name).read_bytes()


def notes_path(venueid: str, offset: int, replies: bool = True) -> str:
    params: dict[str, str | int] = {"content.venueid": venueid, "limit": 1000, "offset": offset}
    if replies:
        params["details"] = "replies"
    return f"/notes?{urllib.parse.urlencode(params)}"


def serve_neurips(server: ReplayServer, first_page: str = "offset0") -> None:
    """Two pages of one paper each (``count: 2``), asked with ``details=replies``."""
    server.route(notes_path(NEURIPS, 0),
                 Reply(body=body(f"openreview-v2-neurips2024-{first_page}.json")))
    server.route(notes_path(NEURIPS, 1),
                 Reply(body=body("openreview-v2-neurips2024-offset1.json")))


def by_forum(lib, forum: str):  # type: ignore[no-untyped-def]
    return next(p for p in lib.papers() if p.url.endswith(f"?id={forum}"))


def test_reviews_come_on_the_pages_of_the_list(tmp_path: Path,
                                                http_replay: ReplayServer) -> None:
    serve_neurips(http_replay)
    with open_library(tmp_path / "lib", http_replay.url) as lib:
        report = lib.fetch([f"openreview:{NEURIPS}"], reviews=True)
        [source] = report.sources
        assert source.status == "fetched", source.error
        assert source.papers == 2 and source.pages == 2
        # one request per page of papers, each with its replies: never one per paper
        assert [r.path for r in http_replay.requests] == [notes_path(NEURIPS, 0),
                                                          notes_path(NEURIPS, 1)]
        assert source.requests == source.pages == 2
        grok = by_forum(lib, "aVh9KRZdRk")
        assert grok.ratings == (7.0,) and grok.confidences == (4.0,)
        found = lib.reviews(grok.id)
        assert found.reviews is not None
        assert [r.kind for r in found.reviews] == ["review", "comment", "meta-review",
                                                   "decision"]
        review = found.reviews[0]
        assert (review.author, review.date, review.rating, review.confidence) == (
            "Reviewer_rwBm", "2024-06-14", 7.0, 4.0)
        assert review.scores == (("soundness", "3"), ("presentation", "4"),
                                 ("contribution", "3"))
        assert [name for name, _ in review.fields] == [
            "summary", "strengths", "weaknesses", "questions", "limitations"]
        assert found.meta_review is not None and found.meta_review.author == "Area_Chair_Xy12"
        # the docs' note: a review of 10 and the Senior Area Chairs' answer to it
        docs = lib.reviews(by_forum(lib, "WEIzUBsDX6").id).reviews
        assert docs is not None
        assert [(r.kind, r.author, r.rating) for r in docs] == [
            ("review", "Reviewer_Nxce", 10.0), ("comment", "Senior_Area_Chairs", None)]
        assert docs[1].replyto == docs[0].id
        sid = grok.source
        assert kept.reviews_file(lib.sources.root, sid).is_file()
    assert [p.mean for p in found.history] == [7.0]  # a first fetch: the first point
    assert found.rating_change is None


def test_ratings_that_moved_make_a_history_an_unchanged_fetch_adds_none(
        tmp_path: Path, http_replay: ReplayServer) -> None:
    serve_neurips(http_replay)
    source = f"openreview:{NEURIPS}"
    with open_library(tmp_path / "lib", http_replay.url) as lib:
        lib.fetch([source], reviews=True)
        grok = by_forum(lib, "aVh9KRZdRk").id
        docs = by_forum(lib, "WEIzUBsDX6").id
        # the same pages again: no point is added
        assert lib.fetch([source], reviews=True).sources[0].status in ("fetched", "unchanged")
        assert len(lib.reviews(grok).history) == 1
        # after the rebuttal the reviewer's 7 is an 8
        serve_neurips(http_replay, "offset0-after-rebuttal")
        assert lib.fetch([source], reviews=True).sources[0].status == "fetched"
        moved = lib.reviews(grok)
        assert [p.ratings for p in moved.history] == [(7.0,), (8.0,)]
        assert moved.rating_change == 1.0
        assert moved.reviews is not None and moved.reviews[0].rating == 8.0  # replaced
        assert [p.ratings for p in lib.reviews(docs).history] == [(10.0,)]  # unmoved
        lib.fetch([source], reviews=True)
        assert len(lib.reviews(grok).history) == 2
    assert venue_reviews.change_text(moved.history).startswith("7.0 → 8.0 (+1.0 since ")


def test_api_v1_notes_with_their_replies(tmp_path: Path, http_replay: ReplayServer) -> None:
    http_replay.route("/notes", Reply(body=json.dumps({"notes": [], "count": 0}).encode()))
    http_replay.route("/v1" + notes_path(V1_VENUE, 0),
                      Reply(body=body("openreview-v1-iclr2017.json")))
    with open_library(tmp_path / "lib", http_replay.url) as lib:
        [source] = lib.fetch([f"openreview:{V1_VENUE}"], reviews=True).sources
        assert source.status == "fetched", source.error
        compression = by_forum(lib, "rJxdQ3jeg")
        assert compression.ratings == (7.0, 8.0, 9.0)  # "7: Good paper, accept", …
        found = lib.reviews(compression.id).reviews
        assert found is not None
        assert [(r.kind, r.author, r.rating, r.confidence) for r in found] == [
            ("review", "AnonReviewer1", 7.0, 4.0), ("review", "AnonReviewer2", 8.0, 4.0),
            ("review", "AnonReviewer3", 9.0, 4.0)]
        assert found[0].fields[0] == ("title", "Very interesting results")
    assert all("details=replies" in r.path for r in http_replay.requests)


def test_a_venue_without_reviews_says_so_and_its_list_comes(
        tmp_path: Path, http_replay: ReplayServer) -> None:
    for offset in (0, 3):  # ICLR 2018's recorded pages: notes without their replies
        http_replay.route(notes_path(ICLR, offset),
                          Reply(body=(Path(__file__).parent / "data" / "fetch"
                                      / f"openreview-iclr2018-offset{offset}.json").read_bytes()))
    said: list[str] = []
    with open_library(tmp_path / "lib", http_replay.url) as lib:
        lib.warn = said.append
        [source] = lib.fetch([f"openreview:{ICLR}"], reviews=True).sources
        assert source.status == "fetched" and source.papers == 6
        assert len(said) == 1 and "publishes no reviews" in said[0]
        some = next(iter(lib.papers()))
        assert lib.reviews(some.id).reviews in (None, ())


def test_without_reviews_nothing_more_is_asked(tmp_path: Path,
                                               http_replay: ReplayServer) -> None:
    serve_openreview(http_replay)
    with open_library(tmp_path / "lib", http_replay.url) as lib:
        lib.fetch([f"openreview:{ICLR}"])
        assert not any("details" in r.path for r in http_replay.requests)
        assert all(lib.reviews(p.id).reviews is None for p in lib.papers())


def test_the_reviews_go_with_their_source(tmp_path: Path, http_replay: ReplayServer) -> None:
    serve_neurips(http_replay)
    with open_library(tmp_path / "lib", http_replay.url) as lib:
        lib.fetch([f"openreview:{NEURIPS}"], reviews=True)
        sid = by_forum(lib, "aVh9KRZdRk").source
        root = lib.sources.root
        assert kept.ratings_file(root, sid).is_file()
        lib.remove_sources([sid])
        assert not kept.reviews_file(root, sid).exists()
        assert not kept.ratings_file(root, sid).exists()


# -- a venue whose pages come without the replies: each such paper's forum ---------------
def forum_path(forum: str) -> str:
    return f"/notes?{urllib.parse.urlencode({'forum': forum})}"


def without_replies(name: str) -> tuple[bytes, dict[str, bytes]]:
    """A recorded page as a venue that does not serve ``details=replies`` answers it (its
    notes without ``details``), and each note's forum as ``GET /notes?forum=ID`` answers
    it: the paper's note first, then its replies (the same recorded notes)."""
    page = json.loads(body(name))
    forums = {}
    for note in page["notes"]:
        replies = note.pop("details")["replies"]
        forums[note["id"]] = json.dumps({"notes": [note, *replies],
                                         "count": 1 + len(replies)}).encode()
    return json.dumps(page).encode(), forums


def serve_without_replies(server: ReplayServer, bare: tuple[int, ...] = (0, 1),
                          first_page: str = "offset0", etag: str | None = None) -> None:
    """The two NeurIPS pages, those of ``bare`` without their replies (whose forums are
    then served)."""
    for offset, name in ((0, f"openreview-v2-neurips2024-{first_page}.json"),
                         (1, "openreview-v2-neurips2024-offset1.json")):
        if offset not in bare:
            server.route(notes_path(NEURIPS, offset), Reply(body=body(name)))
            continue
        page, forums = without_replies(name)
        server.route(notes_path(NEURIPS, offset), Reply(body=page, etag=etag and f'"p{offset}"'))
        for forum, answer in forums.items():
            server.route(forum_path(forum), Reply(body=answer, etag=etag and f'"{etag}{forum}"'))


def test_pages_without_replies_ask_each_forum_once(tmp_path: Path,
                                                   http_replay: ReplayServer) -> None:
    serve_without_replies(http_replay)
    with open_library(tmp_path / "lib", http_replay.url) as lib:
        [source] = lib.fetch([f"openreview:{NEURIPS}"], reviews=True).sources
        assert source.status == "fetched", source.error
        assert (source.papers, source.pages, source.forums, source.requests) == (2, 2, 2, 4)
        # the pages, then one request per paper whose replies were missing
        assert [r.path for r in http_replay.requests] == [
            notes_path(NEURIPS, 0), notes_path(NEURIPS, 1), forum_path("aVh9KRZdRk"),
            forum_path("WEIzUBsDX6")]
        grok = by_forum(lib, "aVh9KRZdRk")
        assert grok.ratings == (7.0,) and grok.confidences == (4.0,)  # through the list
        found = lib.reviews(grok.id).reviews
        assert found is not None
        assert [(r.kind, r.author) for r in found] == [
            ("review", "Reviewer_rwBm"), ("comment", "Authors"),
            ("meta-review", "Area_Chair_Xy12"), ("decision", "Program_Chairs")]
        docs = lib.reviews(by_forum(lib, "WEIzUBsDX6").id).reviews
        assert docs is not None and [r.rating for r in docs] == [10.0, None]
        assert docs[1].replyto == docs[0].id
    assert source.as_json()["forums"] == 2


def test_only_the_papers_whose_replies_were_missing_ask_their_forum(
        tmp_path: Path, http_replay: ReplayServer) -> None:
    serve_without_replies(http_replay, bare=(1,))
    with open_library(tmp_path / "lib", http_replay.url) as lib:
        [source] = lib.fetch([f"openreview:{NEURIPS}"], reviews=True).sources
        assert (source.status, source.pages, source.forums) == ("fetched", 2, 1)
        assert [r.path for r in http_replay.requests] == [
            notes_path(NEURIPS, 0), notes_path(NEURIPS, 1), forum_path("WEIzUBsDX6")]
        assert lib.reviews(by_forum(lib, "WEIzUBsDX6").id).reviews
        assert lib.reviews(by_forum(lib, "aVh9KRZdRk").id).reviews


def test_pages_with_their_replies_ask_no_forum(tmp_path: Path,
                                               http_replay: ReplayServer) -> None:
    serve_neurips(http_replay)
    with open_library(tmp_path / "lib", http_replay.url) as lib:
        [source] = lib.fetch([f"openreview:{NEURIPS}"], reviews=True).sources
        assert (source.pages, source.forums, source.requests) == (2, 0, 2)
    assert not any("forum=" in r.path for r in http_replay.requests)


def test_a_rating_moved_in_a_forum_is_found_though_the_pages_did_not_change(
        tmp_path: Path, http_replay: ReplayServer) -> None:
    """The forums are kept and asked conditionally with the pages: a re-fetch whose pages
    are all unchanged but one forum's review moved imports the move."""
    serve_without_replies(http_replay, etag="a")
    source = f"openreview:{NEURIPS}"
    with open_library(tmp_path / "lib", http_replay.url) as lib:
        lib.fetch([source], reviews=True)
        grok = by_forum(lib, "aVh9KRZdRk").id
        again = lib.fetch([source], reviews=True).sources[0]
        assert (again.status, again.pages, again.forums) == ("unchanged", 2, 2)
        serve_without_replies(http_replay, first_page="offset0-after-rebuttal", etag="b")
        moved = lib.fetch([source], reviews=True).sources[0]
        assert (moved.status, moved.forums) == ("fetched", 2), moved.error
        assert [p.ratings for p in lib.reviews(grok).history] == [(7.0,), (8.0,)]
        found = lib.reviews(grok).reviews
        assert found is not None and found[0].rating == 8.0


def test_a_fetch_cut_off_in_the_forums_resumes_after_those_that_came(
        tmp_path: Path, http_replay: ReplayServer) -> None:
    serve_without_replies(http_replay)
    _, forums = without_replies("openreview-v2-neurips2024-offset1.json")
    http_replay.route(forum_path("WEIzUBsDX6"), Reply(status=500))
    source = f"openreview:{NEURIPS}"
    with open_library(tmp_path / "lib", http_replay.url) as lib:
        [failed] = lib.fetch([source], reviews=True).sources
        assert failed.status == "failed" and "HTTP 500" in (failed.error or "")
        http_replay.route(forum_path("WEIzUBsDX6"), Reply(body=forums["WEIzUBsDX6"]))
        http_replay.requests.clear()
        [done] = lib.fetch([source], reviews=True).sources
        assert done.status == "fetched", done.error
        # the first page asked again (has the list changed?), the rest resumed but the
        # forum that failed
        assert [r.path for r in http_replay.requests] == [notes_path(NEURIPS, 0),
                                                          forum_path("WEIzUBsDX6")]
        assert lib.reviews(by_forum(lib, "WEIzUBsDX6").id).reviews
        assert lib.reviews(by_forum(lib, "aVh9KRZdRk").id).reviews


def test_a_venue_whose_forums_have_no_replies_is_asked_a_few_and_said(
        tmp_path: Path, http_replay: ReplayServer) -> None:
    for offset in (0, 3):  # ICLR 2018's six papers, without their replies
        http_replay.route(notes_path(ICLR, offset),
                          Reply(body=(Path(__file__).parent / "data" / "fetch"
                                      / f"openreview-iclr2018-offset{offset}.json").read_bytes()))
    http_replay.route("/notes", Reply(body=json.dumps({"notes": [], "count": 0}).encode()))
    said: list[str] = []
    with open_library(tmp_path / "lib", http_replay.url) as lib:
        lib.warn = said.append
        [source] = lib.fetch([f"openreview:{ICLR}"], reviews=True).sources
        assert (source.status, source.papers, source.forums) == ("fetched", 6, 3)
    assert len([r for r in http_replay.requests if "forum=" in r.path]) == 3
    assert len(said) == 1 and "publishes no reviews" in said[0]
    assert "the first 3 forums have no reply either" in said[0]


def test_scores_read_as_numbers() -> None:
    assert venue_reviews.score(6) == 6.0
    assert venue_reviews.score("6: marginally above the acceptance threshold") == 6.0
    assert venue_reviews.score("6") == 6.0 and venue_reviews.score(" 5.5 ") == 5.5
    assert venue_reviews.score("3 good") == 3.0
    for bad in ("good", "", None, True, float("nan"), -1, "9" * 5000, 10 ** 400, [6]):
        assert venue_reviews.score(bad) is None


# -- the command line ------------------------------------------------------------------------
@pytest.mark.skipif(EXE is None, reason="paper-tui is not installed")
def test_show_reviews_and_json(tmp_path: Path, http_replay: ReplayServer) -> None:
    serve_neurips(http_replay)

    def run(*args: str) -> subprocess.CompletedProcess[str]:
        assert EXE is not None
        return forked_cli.run([EXE, "--library", str(tmp_path / "lib"), "--config",
                               str(config_file(tmp_path / "config", http_replay.url)), *args],
                              capture_output=True, text=True, timeout=120,
                              env=dict(os.environ), stdin=subprocess.DEVNULL)

    fetched = run("fetch", f"openreview:{NEURIPS}", "--reviews")
    assert fetched.returncode == 0, fetched.stderr
    assert fetched.stdout.splitlines() == [f"openreview:{NEURIPS}: 2 papers, 2 new (2 pages)"]
    serve_neurips(http_replay, "offset0-after-rebuttal")
    assert run("fetch", f"openreview:{NEURIPS}", "--reviews").returncode == 0
    [line] = [x for x in run("list").stdout.splitlines() if "grok" in x]
    paper_id = line.split()[0]
    shown = run("show", paper_id, "--reviews")
    assert shown.returncode == 0, shown.stderr
    text = shown.stdout
    assert "Accept (oral) · rating 8.0 ± 0.0 (8; confidence 4.0) · 7.0 → 8.0 (+1.0 since " \
        in text
    order = [text.index(word) for word in ("Meta-review by Area_Chair_Xy12",
                                           "Decision by Program_Chairs",
                                           "Review by Reviewer_rwBm, 2024-06-14",
                                           "Comment by Authors")]
    assert order == sorted(order)
    assert "rating 8 · confidence 4 · soundness 3 · presentation 4 · contribution 3" in text
    assert "    Comment by Authors" not in text and "  Comment by Authors" in text  # a reply
    data = json.loads(run("show", paper_id, "--json").stdout)
    assert [r["kind"] for r in data["reviews"]] == ["review", "comment", "meta-review",
                                                    "decision"]
    first = data["reviews"][0]
    assert {k: first[k] for k in ("author", "date", "rating", "confidence")} == {
        "author": "Reviewer_rwBm", "date": "2024-06-14", "rating": 8.0, "confidence": 4.0}
    assert first["scores"] == {"soundness": "3", "presentation": "4", "contribution": "3"}
    assert list(first["fields"]) == ["summary", "strengths", "weaknesses", "questions",
                                     "limitations"]
    assert data["meta_review"]["fields"]["metareview"].startswith("The reviewers agree")
    assert [p["ratings"] for p in data["rating_history"]] == [[7.0], [8.0]]
    assert data["rating_change"] == 1.0


def test_a_changed_list_imported_again_adds_a_point(tmp_path: Path) -> None:
    """Paper Copilot's lists carry ratings too: a re-import of a changed file records the
    papers that moved, and indexes their new ratings."""
    records = json.loads((Path(__file__).parent / "data" / "fetch"
                          / "paperlists-iclr2018.json").read_text("utf-8"))
    path = tmp_path / "iclr2018.json"
    path.write_text(json.dumps(records), "utf-8")
    with open_library(tmp_path / "lib", "http://127.0.0.1:9") as lib:
        lib.import_paths([path])
        first = next(p for p in lib.papers() if p.title.startswith("Robust Task Clustering"))
        assert [p.ratings for p in lib.reviews(first.id).history] == [(4.0, 5.0, 5.0)]
        records[0]["rating"] = "5;6;5"
        path.write_text(json.dumps(records), "utf-8")
        lib.import_paths([path])
        moved = lib.reviews(first.id)
        assert [p.ratings for p in moved.history] == [(4.0, 5.0, 5.0), (5.0, 6.0, 5.0)]
        assert moved.rating_change == round(16 / 3 - 14 / 3, 3)
        assert lib.paper(first.id).ratings == (5.0, 6.0, 5.0)  # indexed again
        others = [p for p in lib.papers() if p.id != first.id and p.ratings]
        assert others and all(len(lib.reviews(p.id).history) == 1 for p in others)


@pytest.mark.skipif(EXE is None, reason="paper-tui is not installed")
def test_the_fetch_line_says_the_forum_requests(tmp_path: Path,
                                                http_replay: ReplayServer) -> None:
    serve_without_replies(http_replay)
    assert EXE is not None
    fetched = forked_cli.run([EXE, "--library", str(tmp_path / "lib"), "--config",
                              str(config_file(tmp_path / "config", http_replay.url)), "fetch",
                              f"openreview:{NEURIPS}", "--reviews"],
                             capture_output=True, text=True, timeout=120,
                             env=dict(os.environ), stdin=subprocess.DEVNULL)
    assert fetched.returncode == 0, fetched.stderr
    assert fetched.stdout.splitlines() == [
        f"openreview:{NEURIPS}: 2 papers, 2 new (2 pages, 2 forum requests for replies)"]


@pytest.mark.skipif(EXE is None, reason="paper-tui is not installed")
def test_review_text_is_inert_when_shown_and_verbatim_in_json(
        tmp_path: Path, http_replay: ReplayServer) -> None:
    serve_neurips(http_replay)
    hostile = "look\x1b[2J\x1b]8;;http://evil.example\x07here\x1b]8;;\x07\u202eright"
    with open_library(tmp_path / "lib", http_replay.url) as lib:
        lib.fetch([f"openreview:{NEURIPS}"], reviews=True)
        grok = by_forum(lib, "aVh9KRZdRk")
        review = venue_reviews.Review("review", "Reviewer_\x1b[31mX", "2024-06-14", 7.0, 4.0,
                                      (("soundness", "3\x1b[0m"),), (("summary", hostile),))
        kept.write_reviews(lib.sources.root, grok.source, [(grok.id, "aVh9KRZdRk", [review])])
    cmd = [str(EXE), "--library", str(tmp_path / "lib"), "--config",
           str(config_file(tmp_path / "config", http_replay.url)), "show", grok.id]
    shown = forked_cli.run([*cmd, "--reviews"], capture_output=True, text=True, timeout=120,
                           env=dict(os.environ), stdin=subprocess.DEVNULL)
    assert shown.returncode == 0, shown.stderr
    assert "\x1b" not in shown.stdout and "\u202e" not in shown.stdout
    assert "lookhere" in shown.stdout.replace(" ", "")
    data = json.loads(forked_cli.run([*cmd, "--json"], capture_output=True, text=True,
                                     timeout=120, env=dict(os.environ),
                                     stdin=subprocess.DEVNULL).stdout)
    assert data["reviews"][0]["fields"]["summary"] == hostile  # JSON keeps it, escaped


# -- a watch that carries --reviews ----------------------------------------------------------
def test_a_watch_carries_reviews_and_follows_the_rebuttal(tmp_path: Path,
                                                          http_replay: ReplayServer) -> None:
    serve_neurips(http_replay)
    with open_library(tmp_path / "lib", http_replay.url) as lib:
        watch = lib.add_watch("neurips", f"openreview:{NEURIPS}", reviews=True)
        assert watch.reviews and lib.watches()[0].reviews  # kept in watches.yaml
        [run] = lib.fetch_watches().outcomes
        assert run.fetch.status == "fetched" and run.new == 2
        assert all("details=replies" in r.path for r in http_replay.requests)
        grok = by_forum(lib, "aVh9KRZdRk").id
        assert lib.reviews(grok).reviews
        serve_neurips(http_replay, "offset0-after-rebuttal")
        [run] = lib.fetch_watches().outcomes
        assert run.fetch.status == "fetched" and run.new == 0
        assert [p.ratings for p in lib.reviews(grok).history] == [(7.0,), (8.0,)]
    assert "reviews: true" in (tmp_path / "lib" / "watches.yaml").read_text("utf-8")


def test_a_watch_without_reviews_asks_none_and_reviews_need_openreview(
        tmp_path: Path, http_replay: ReplayServer) -> None:
    serve_openreview(http_replay)
    with open_library(tmp_path / "lib", http_replay.url) as lib:
        lib.add_watch("iclr", f"openreview:{ICLR}")
        [run] = lib.fetch_watches().outcomes
        assert run.fetch.status == "fetched", run.fetch.error
        assert not any("details" in r.path for r in http_replay.requests)
        with pytest.raises(Exception, match="only an OpenReview venue"):
            lib.add_watch("lg", "arxiv:cs.LG", reviews=True)
    assert "reviews" not in (tmp_path / "lib" / "watches.yaml").read_text("utf-8")


@pytest.mark.skipif(EXE is None, reason="paper-tui is not installed")
def test_watch_add_reviews_on_the_command_line(tmp_path: Path,
                                               http_replay: ReplayServer) -> None:
    serve_neurips(http_replay)
    assert EXE is not None
    base = [EXE, "--library", str(tmp_path / "lib"), "--config",
            str(config_file(tmp_path / "config", http_replay.url))]

    def run(*args: str) -> subprocess.CompletedProcess[str]:
        return forked_cli.run([*base, *args], capture_output=True, text=True, timeout=120,
                              env=dict(os.environ), stdin=subprocess.DEVNULL)

    added = run("watch", "add", "neurips", f"openreview:{NEURIPS}", "--reviews")
    assert added.returncode == 0, added.stderr
    assert added.stdout.startswith(f"watching openreview:{NEURIPS} as neurips with its reviews")
    assert f"neurips  openreview:{NEURIPS}  --reviews  not run yet" in run("watch").stdout
    assert json.loads(run("watch", "--json").stdout)[0]["reviews"] is True
    assert run("fetch", "--watches").stdout.strip() == "neurips: 2 new"
    assert any("details=replies" in r.path for r in http_replay.requests)
