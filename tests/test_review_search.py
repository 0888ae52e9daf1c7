"""Searching what the reviewers wrote and how their ratings moved: ``review:WORDS`` (the
text of a paper's reviews, meta-reviews and decisions), ``meta:WORDS`` (the meta-reviews
and decisions alone), ``rating_change:>0`` and ``search --sort rating-change``; against the
local server replaying real OpenReview shapes (``tests/data/reviews/README.md``)."""

from __future__ import annotations

import json
import math
import os
import shutil
import subprocess
from pathlib import Path

import pytest

import forked_cli
from fetch_routes import config_file, open_library
from http_replay import ReplayServer, Reply
from paper_tui import config as config_mod
from paper_tui.errors import QueryError
from paper_tui.holdings import reviews as kept
from paper_tui.index.schema import DEFAULT_FIELDS, SCHEMA_VERSION
from paper_tui.library import Library
from paper_tui.query.parse import clean
from paper_tui.venue.reviews import RatingPoint
from test_fetch_reviews import DATA, NEURIPS, V1_VENUE, body, by_forum, notes_path, serve_neurips

SOURCE = f"openreview:{NEURIPS}"
EXE = shutil.which("paper-tui")


def ids(lib: Library, query: str, sort: str = "relevance") -> list[str]:
    return [hit.paper.id for hit in lib.search(query, sort=sort, limit=None).hits]


def test_review_finds_what_only_a_review_says_and_a_plain_query_does_not(
        tmp_path: Path, http_replay: ReplayServer) -> None:
    serve_neurips(http_replay)
    with open_library(tmp_path / "lib", http_replay.url) as lib:
        lib.fetch([SOURCE], reviews=True)
        grok = by_forum(lib, "aVh9KRZdRk").id
        docs = by_forum(lib, "WEIzUBsDX6").id
        # "well-designed" is in Reviewer_rwBm's strengths, not in the paper's record
        assert ids(lib, "review:designed") == [grok]
        assert ids(lib, "designed") == []
        assert ids(lib, 'review:"attention heads"') == [grok]  # a phrase of its strengths
        assert ids(lib, "review:attention grok") == [grok]  # and a word of the title
        [hit] = lib.search("review:attention grok").hits
        assert hit.matched_in == ("title", "review")
        # the docs' review of 10: "Excellent paper, accept"
        assert ids(lib, "review:excellent") == [docs]
        assert ids(lib, "review:excel*") == [docs]  # a prefix of the review's own words
        assert sorted(ids(lib, "review:a*")) == sorted([grok, docs])
        assert ids(lib, "meta:congrat*") == [grok]
        assert ids(lib, "-review:designed") == [docs]
        # a comment of the thread is not a review: neither the authors' answer ("…the
        # color map of Figure 3-a clearer") nor the Senior Area Chairs' ("Thank you for
        # your review!") is searched
        assert ids(lib, "review:color OR review:map OR review:thank") == []


def test_meta_finds_the_meta_review_and_decision_not_a_review(
        tmp_path: Path, http_replay: ReplayServer) -> None:
    serve_neurips(http_replay)
    with open_library(tmp_path / "lib", http_replay.url) as lib:
        lib.fetch([SOURCE], reviews=True)
        grok = by_forum(lib, "aVh9KRZdRk").id
        # the meta-review: "The reviewers agree that the experiments are well designed."
        assert ids(lib, "meta:agree") == [grok]
        assert ids(lib, "review:agree") == [grok]  # review: has the meta-review's words too
        # the decision's comment: "Congratulations on your acceptance."
        assert ids(lib, "meta:congratulations") == [grok]
        # a review's own words: "attention heads" is in Reviewer_rwBm's strengths
        assert ids(lib, "meta:attention") == []
        assert ids(lib, "agree") == [] and ids(lib, "congratulations") == []


def test_an_index_from_before_the_reviews_is_rebuilt_with_them(
        tmp_path: Path, http_replay: ReplayServer) -> None:
    assert "review" not in DEFAULT_FIELDS and "meta" not in DEFAULT_FIELDS
    serve_neurips(http_replay)
    with open_library(tmp_path / "lib", http_replay.url) as lib:
        lib.fetch([SOURCE], reviews=True)
        grok = by_forum(lib, "aVh9KRZdRk").id
    meta_file = tmp_path / "lib" / "index" / "paper-tui-index.json"
    meta = json.loads(meta_file.read_text())
    assert meta["schema"] == SCHEMA_VERSION
    meta["schema"] = 15  # written before the reviews were indexed
    meta_file.write_text(json.dumps(meta))
    said: list[str] = []
    config = config_mod.load(config_file(tmp_path / "lib-config", http_replay.url))
    with Library.open(tmp_path / "lib", config=config, bundled=False, warn=said.append) as lib:
        assert any("rebuilding" in line for line in said)
        assert ids(lib, "review:designed") == [grok]


def test_a_refetch_whose_reviews_changed_indexes_them_again(
        tmp_path: Path, http_replay: ReplayServer) -> None:
    serve_neurips(http_replay)
    with open_library(tmp_path / "lib", http_replay.url) as lib:
        lib.fetch([SOURCE], reviews=True)
        grok = by_forum(lib, "aVh9KRZdRk").id
        assert ids(lib, "meta:rebuttal") == []
        # the meta-review is rewritten after the discussion; the list itself is the same
        page = json.loads(body("openreview-v2-neurips2024-offset0.json"))
        [meta] = [r for r in page["notes"][0]["details"]["replies"]
                  if r["id"] == "built-meta-review"]
        meta["content"]["metareview"]["value"] = "After the rebuttal the reviewers agree."
        http_replay.route(notes_path(NEURIPS, 0), Reply(body=json.dumps(page).encode()))
        assert lib.fetch([SOURCE], reviews=True).sources[0].status == "fetched"
        assert ids(lib, "meta:rebuttal") == [grok]
        assert ids(lib, "meta:designed") == []  # the old text is gone from the index
        assert ids(lib, "review:designed") == [grok]  # the review still says it


def test_rating_change_finds_the_papers_whose_ratings_moved(
        tmp_path: Path, http_replay: ReplayServer) -> None:
    serve_neurips(http_replay)
    with open_library(tmp_path / "lib", http_replay.url) as lib:
        lib.fetch([SOURCE], reviews=True)
        grok = by_forum(lib, "aVh9KRZdRk").id
        docs = by_forum(lib, "WEIzUBsDX6").id
        # one point each: no change is known yet
        assert ids(lib, "rating_change:>=-1000") == []
        assert not lib.index.has_rating_changes()
        # after the rebuttal the reviewer's 7 is an 8 (the list's pages changed)
        serve_neurips(http_replay, "offset0-after-rebuttal")
        assert lib.fetch([SOURCE], reviews=True).sources[0].status == "fetched"
        assert lib.reviews(grok).rating_change == 1.0
        assert ids(lib, "rating_change:>0") == [grok]
        assert ids(lib, "rating_change:1") == [grok]
        assert ids(lib, "rating_change:0.5..2") == [grok]
        assert ids(lib, "rating_change:<=-1") == []
        assert ids(lib, "rating_change:-0.5..0.5") == []
        assert ids(lib, "rating_change:>0 grok") == [grok]
        assert ids(lib, "-rating_change:>0") == [docs]
        assert lib.index.has_rating_changes()
        # an unchanged fetch moves nothing
        lib.fetch([SOURCE], reviews=True)
        assert ids(lib, "rating_change:>0") == [grok]
        # back to 7: the newest mean less the first is 0 (three points now)
        serve_neurips(http_replay)
        lib.fetch([SOURCE], reviews=True)
        assert [p.mean for p in lib.reviews(grok).history] == [7.0, 8.0, 7.0]
        assert ids(lib, "rating_change:>0") == []
        assert ids(lib, "rating_change:-0.5..0.5") == [grok]
        assert ids(lib, "rating_change:0") == [grok]
    # a rebuild reads the history again: the same numbers
    shutil.rmtree(tmp_path / "lib" / "index")
    with open_library(tmp_path / "lib", http_replay.url) as lib:
        lib.reindex_changed_sources()
        assert ids(lib, "rating_change:-0.5..0.5") == [grok]
        assert ids(lib, "review:designed") == [grok]


def test_a_changed_list_imported_again_is_indexed_with_its_change(tmp_path: Path) -> None:
    """Paper Copilot's lists carry ratings: a re-import of a changed file indexes the
    papers that moved with their change (the point is recorded after they are written)."""
    records = json.loads((Path(__file__).parent / "data" / "fetch"
                          / "paperlists-iclr2018.json").read_text("utf-8"))
    path = tmp_path / "iclr2018.json"
    path.write_text(json.dumps(records), "utf-8")
    with open_library(tmp_path / "lib", "http://127.0.0.1:9") as lib:
        lib.import_paths([path])
        assert ids(lib, "rating_change:>=-1000") == []
        records[0]["rating"] = "5;6;5"  # 4;5;5 before
        records[1]["rating"] = "1;1;1"
        path.write_text(json.dumps(records), "utf-8")
        lib.import_paths([path])
        rose = next(p.id for p in lib.papers() if p.title == records[0]["title"])
        fell = next(p.id for p in lib.papers() if p.title == records[1]["title"])
        assert ids(lib, "rating_change:>0") == [rose]
        assert ids(lib, "rating_change:<0") == [fell]
        assert lib.reviews(fell).rating_change == round(1 - 16 / 3, 3)  # 4;6;6 before
        assert ids(lib, "rating_change:<=-1") == [fell]
        assert ids(lib, "rating_change:-5..-4") == [fell]
        assert ids(lib, "rating_change:<=-5") == []
        assert ids(lib, "", sort="rating-change")[:2] == [rose, fell]


def test_sort_by_rating_change_biggest_rise_first_unknown_last(
        tmp_path: Path, http_replay: ReplayServer) -> None:
    records = json.loads((Path(__file__).parent / "data" / "fetch"
                          / "paperlists-iclr2018.json").read_text("utf-8"))
    path = tmp_path / "iclr2018.json"
    path.write_text(json.dumps(records), "utf-8")
    with open_library(tmp_path / "lib", http_replay.url) as lib:
        lib.import_paths([path])
        by_title = {p.title: p.id for p in lib.papers()}
        rise, small_fall, fall, first = (by_title[records[i]["title"]] for i in (0, 3, 4, 2))
        records[0]["rating"] = "9;9;9"  # 4;5;5 before: a big rise
        records[3]["rating"] = "6;6;6"  # 4;7;8: a small fall
        records[4]["rating"] = "1;1;1"  # 5;7;7: a big fall
        records[2]["rating"] = "1;1;1"  # no rating before: its first point, no change
        path.write_text(json.dumps(records), "utf-8")
        lib.import_paths([path])
        moved = [rise, small_fall, fall]
        assert [lib.reviews(pid).rating_change for pid in moved] == [
            round(27 / 3 - 14 / 3, 3), round(6 - 19 / 3, 3), round(1 - 19 / 3, 3)]
        assert lib.reviews(first).rating_change is None
        order = ids(lib, "", sort="rating-change")
        assert order[:3] == moved and set(order[3:]) == set(by_title.values()) - set(moved)
        assert ids(lib, "rating_change:>-1000", sort="rating-change") == moved


@pytest.mark.parametrize(("query", "said"), [
    ("rating_change:up", "rating_change:up is not a number: use rating_change:>0 or "
                         "rating_change:-0.5..0.5"),
    ("rating_change:>5000", "rating_change:>5000: 5000 is more than 1,000"),
    ("rating_change:<-5000", "rating_change:<-5000: -5000 is less than -1,000"),
    ("rating_change:1..-1", "rating_change range 1..-1 is backwards: write "
                            "rating_change:-1..1"),
    ("rating_change:..", "rating_change range needs a number on at least one side, e.g. "
                         "rating_change:-0.5..0.5"),
    ("rating_change:" + "9" * 5000, "rating_change:99999999999999999999… (5,000 characters) "
                                    "is more than 1,000"),
    ("review:", "review: needs something to search for after the colon"),
    ("meta: x", "meta: needs something to search for after the colon"),
], ids=lambda value: value[:24])
def test_bad_values_are_one_line(query: str, said: str) -> None:
    with pytest.raises(QueryError) as caught:
        clean(query)
    assert str(caught.value) == said and "\n" not in said


def test_the_change_is_what_the_history_will_be_once_recorded(tmp_path: Path) -> None:
    seven, eight = RatingPoint("a", (7.0,), (4.0,)), RatingPoint("b", (8.0,), (4.0,))
    assert kept.change_at_import([], (7.0,), (4.0,)) is None  # the first point
    assert kept.change_at_import([seven], (7.0,), (4.0,)) is None  # unchanged
    assert kept.change_at_import([seven], (8.0,), (4.0,)) == 1.0  # a point more
    assert kept.change_at_import([seven, eight], (8.0,), (4.0,)) == 1.0  # recorded
    assert kept.change_at_import([seven, eight], (), ()) == 1.0  # no ratings now: the history
    assert kept.change_at_import([seven, eight], (7.0,), (4.0,)) == 0.0
    root = tmp_path / "sources"
    root.mkdir()
    kept.record_ratings(root, "s", {"p": ((7.0,), (4.0,))}, "a")
    kept.record_ratings(root, "s", {"p": ((6.0, 5.0), (4.0, 3.0))}, "b")
    [history] = [kept.history_of(root, ["s"], "p")]
    assert math.isclose(kept.change_at_import(history, (6.0, 5.0), (4.0, 3.0)) or 0, -1.5)


# -- the command line ------------------------------------------------------------------------
@pytest.mark.skipif(EXE is None, reason="paper-tui is not installed")
def test_search_sort_rating_change_and_a_bad_value_on_the_command_line(
        tmp_path: Path, http_replay: ReplayServer) -> None:
    serve_neurips(http_replay)

    def run(*args: str) -> subprocess.CompletedProcess[str]:
        assert EXE is not None
        return forked_cli.run([EXE, "--library", str(tmp_path / "lib"), "--config",
                               str(config_file(tmp_path / "config", http_replay.url)), *args],
                              capture_output=True, text=True, timeout=120,
                              env=dict(os.environ), stdin=subprocess.DEVNULL)

    assert run("fetch", SOURCE, "--reviews").returncode == 0
    serve_neurips(http_replay, "offset0-after-rebuttal")
    assert run("fetch", SOURCE, "--reviews").returncode == 0
    found = run("search", "rating_change:>0", "--json")
    assert found.returncode == 0, found.stderr
    [hit] = json.loads(found.stdout)
    assert hit["title"].startswith("Learning to grok")
    listed = run("search", "", "--sort", "rating-change")
    assert listed.returncode == 0, listed.stderr
    rows = listed.stdout.splitlines()
    assert len(rows) == 2 and "grok" in rows[0]  # the rise first, the unmoved after
    assert "7.0 → 8.0 (+1.0 since " in rows[0] and "→" not in rows[1]  # the row says the move
    shown = run("search", "review:designed")
    assert shown.returncode == 0 and "grok" in shown.stdout and len(shown.stdout.splitlines()) == 1
    plain = run("search", "designed")
    assert plain.returncode == 0 and plain.stdout == ""
    bad = run("search", "rating_change:lots")
    assert bad.returncode == 1 and bad.stdout == ""
    assert bad.stderr.splitlines() == [
        "paper-tui: rating_change:lots is not a number: use rating_change:>0 or "
        "rating_change:-0.5..0.5"]


def test_api_v1_reviews_are_searched_too(tmp_path: Path, http_replay: ReplayServer) -> None:
    http_replay.route("/notes", Reply(body=json.dumps({"notes": [], "count": 0}).encode()))
    http_replay.route("/v1" + notes_path(V1_VENUE, 0),
                      Reply(body=(DATA / "openreview-v1-iclr2017.json").read_bytes()))
    with open_library(tmp_path / "lib", http_replay.url) as lib:
        [source] = lib.fetch([f"openreview:{V1_VENUE}"], reviews=True).sources
        assert source.status == "fetched", source.error
        compression = by_forum(lib, "rJxdQ3jeg").id
        # the first review's title: "Very interesting results"
        assert compression in ids(lib, 'review:"very interesting results"')
        assert ids(lib, "meta:interesting") == []  # ICLR 2017's pages: no meta-review


def test_the_index_reads_a_reviews_file_forward_and_keeps_only_what_it_passed(
        tmp_path: Path) -> None:
    from paper_tui.venue.reviews import Review

    def said(word: str) -> list[Review]:
        return [Review("review", "Reviewer_a", "2024-06-14", 6.0, 4.0, (),
                       (("summary", f"a {word} paper"),)),
                Review("meta-review", "Area_Chair_b", "2024-09-01", None, None, (),
                       (("metareview", f"the {word} meta"),))]

    root = tmp_path / "sources"
    root.mkdir()
    kept.write_reviews(root, "s", [(f"p{i}", f"f{i}", said(f"w{i}")) for i in range(50)])
    reader = kept._Reader(kept.reviews_file(root, "s"))
    assert reader.texts("p0") == ("a w0 paper\nthe w0 meta", "the w0 meta")
    assert reader.texts("elsewhere") == ("", "")  # not in the file: nothing read for it
    assert reader.texts("p1") == ("a w1 paper\nthe w1 meta", "the w1 meta")
    assert not reader._ahead  # in the file's order: nothing kept aside
    assert reader.texts("p10")[1] == "the w10 meta"
    assert len(reader._ahead) == 8  # p2 … p9, passed on the way
    assert reader.texts("p5")[1] == "the w5 meta" and len(reader._ahead) == 7
    assert reader.texts("p1")[1] == "the w1 meta"  # asked again: read again
    assert kept.digests_of(root, "s")["p3"] == kept.digest(("a w3 paper\nthe w3 meta",
                                                             "the w3 meta"))
    # a damaged file is read up to the damage
    path = kept.reviews_file(root, "s")
    path.write_bytes(path.read_bytes()[:len(path.read_bytes()) // 2])
    damaged = kept._Reader(path)
    assert damaged.texts("p0")[1] == "the w0 meta" and damaged.texts("p49") == ("", "")
