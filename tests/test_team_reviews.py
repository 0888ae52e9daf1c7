"""A shared list's reviews and rating history travel with it through team sync: real
`paper-tui` processes, real libraries, a bare git remote, OpenReview's pages replayed by a
local server (``tests/data/reviews/``). The newer fetch's reviews win; two rating
histories merge into the union of their points."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

from fetch_routes import config_file
from http_replay import ReplayServer
from paper_tui.holdings import reviews as kept
from paper_tui.team import reviews as team_reviews
from paper_tui.venue.reviews import RatingPoint
from team_helpers import Member, Teammate, bare_repo, git, no_conflict_markers
from test_fetch_reviews import NEURIPS, serve_neurips

SOURCE = f"openreview:{NEURIPS}"
SID = "openreview-neurips-cc-2024-conference-json"


def _fetch(member: Member, server: ReplayServer) -> None:
    cfg = config_file(member.root.parent / f"{member.name}-{member.root.name}-cfg", server.url)
    member.run("--config", str(cfg), "fetch", SOURCE, "--reviews")


def _grok(member: Member) -> str:
    [line] = [x for x in member.run("list").stdout.splitlines() if "grok" in x]
    return line.split()[0]


def test_the_reviews_and_the_rating_history_go_with_the_list(
        tmp_path: Path, http_replay: ReplayServer) -> None:
    remote = bare_repo(tmp_path / "team.git")
    alice, bob = Member(tmp_path / "alice", "alice"), Member(tmp_path / "bob", "bob")
    serve_neurips(http_replay)
    _fetch(alice, http_replay)
    sent = alice.sync(remote).stdout.strip()
    assert sent.endswith("; sent 2 changes")  # the list, and its reviews
    tree = git(remote, "ls-tree", "-r", "--name-only", "main").stdout.split()
    assert f"reviews/{SID}.reviews.jsonl.gz" in tree and f"reviews/{SID}.ratings.json" in tree
    log = git(alice.team, "log", "-1", "--format=%s").stdout.strip()
    assert log == f"alice: shared openreview-neurips-cc-2024-conference.json, the reviews of {SID}"

    said = bob.sync(remote).stdout.strip()
    assert f"the reviews of {SID}" in said
    grok = _grok(bob)
    seen = bob.show(grok)
    assert [r["author"] for r in seen["reviews"]][:1] == ["Reviewer_rwBm"]
    assert [p["ratings"] for p in seen["rating_history"]] == [[7.0]]
    assert bob.sync().stdout.strip() == "nothing new; nothing to send"

    # the rebuttal: Alice fetches again, the 7 is an 8; Bob's library follows
    serve_neurips(http_replay, "offset0-after-rebuttal")
    _fetch(alice, http_replay)
    alice.sync()
    assert f"the reviews of {SID}" in bob.sync().stdout
    seen = bob.show(grok)
    assert seen["reviews"][0]["rating"] == 8.0
    assert [p["ratings"] for p in seen["rating_history"]] == [[7.0], [8.0]]
    assert seen["rating_change"] == 1.0
    # the reading group hears of the move
    digest = json.loads(bob.run("team", "digest", "--json").stdout)
    [move] = digest["rating_moves"]
    assert (move["id"], move["change"], move["from"], move["to"]) == (grok, 1.0, 7.0, 8.0)
    assert move["title"].startswith("Learning to grok")
    md = bob.run("team", "digest").stdout
    assert "## Rating moves (1)\n\n- +1.0 Learning to grok: Emergence of in-context " in md
    assert "(7.0 → 8.0)" in md
    # both libraries hold the same bytes as the repo
    for name in (f"{SID}.reviews.jsonl.gz", f"{SID}.ratings.json"):
        in_repo = (bob.team / "reviews" / name).read_bytes()
        assert (bob.root / "sources" / name).read_bytes() == in_repo
        assert (alice.root / "sources" / name).read_bytes() == in_repo


def _history(data: bytes) -> dict[str, list[tuple[str, tuple[float, ...]]]]:
    return {pid: [(p.date, p.ratings) for p in points]
            for pid, points in kept.parse_history(data).items()}


def test_histories_merge_by_date_and_the_newer_fetch_wins(
        tmp_path: Path, http_replay: ReplayServer) -> None:
    """Alice and a team-mate change the same files at once: git's merge (the driver) keeps
    both histories' points and the newer fetch's reviews, in the repo and in her library."""
    remote = bare_repo(tmp_path / "team.git")
    alice = Member(tmp_path / "alice", "alice")
    serve_neurips(http_replay)
    _fetch(alice, http_replay)
    alice.sync(remote)
    grok = _grok(alice)
    mate = Teammate(remote, tmp_path / "mate")
    ratings = f"reviews/{SID}.ratings.json"
    reviews = f"reviews/{SID}.reviews.jsonl.gz"
    theirs = kept.parse_history((mate.path / ratings).read_bytes())
    [first] = theirs[grok]
    # a point another machine recorded before Alice's, and an older fetch of the reviews
    earlier = RatingPoint("2024-06-01T00:00:00Z", (6.0,), (4.0,))
    theirs[grok] = [earlier, first]
    old = gzip.compress(b'{"id": "x", "forum": "x", "reviews": []}\n', mtime=1_000_000)
    mate.push("another machine", files={ratings: kept.history_text(theirs), reviews: old})
    # meanwhile Alice's fetch after the rebuttal
    serve_neurips(http_replay, "offset0-after-rebuttal")
    _fetch(alice, http_replay)
    ours = (alice.root / "sources" / f"{SID}.reviews.jsonl.gz").read_bytes()
    alice.sync()
    merged = _history((alice.root / "sources" / f"{SID}.ratings.json").read_bytes())
    assert [r for _, r in merged[grok]] == [(6.0,), (7.0,), (8.0,)]
    assert merged[grok][0][0] == "2024-06-01T00:00:00Z"
    assert (alice.team / ratings).read_bytes() == \
        (alice.root / "sources" / f"{SID}.ratings.json").read_bytes()
    assert (alice.root / "sources" / f"{SID}.reviews.jsonl.gz").read_bytes() == ours
    git(mate.path, "pull", "-q", "--no-rebase", "origin", "main")
    assert (mate.path / reviews).read_bytes() == ours  # Alice's fetch is the newer
    assert _history((mate.path / ratings).read_bytes()) == merged
    assert no_conflict_markers(alice.team)
    # a newer fetch of the team-mate's wins in Alice's library
    newer = gzip.compress(json.dumps({"id": grok, "forum": "aVh9KRZdRk", "reviews": [
        {"kind": "review", "author": "Reviewer_new", "date": "2024-08-01",
         "rating": 9}]}).encode() + b"\n", mtime=int(kept.fetched_at(ours)) + 60)
    mate.push("a newer fetch", files={reviews: newer})
    alice.sync()
    assert (alice.root / "sources" / f"{SID}.reviews.jsonl.gz").read_bytes() == newer
    assert [r["author"] for r in alice.show(grok)["reviews"]] == ["Reviewer_new"]


def test_the_merge_is_the_same_either_way_and_refuses_what_is_no_gzip() -> None:
    a = kept.history_text({"p": [RatingPoint("2024-01-01T00:00:00Z", (5.0,)),
                                 RatingPoint("2024-02-01T00:00:00Z", (6.0,))]}).encode()
    b = kept.history_text({"p": [RatingPoint("2024-01-15T00:00:00Z", (6.0,))],
                           "q": [RatingPoint("2024-01-01T00:00:00Z", (3.0,))]}).encode()
    rel = f"reviews/{SID}.ratings.json"
    both = team_reviews.merged(rel, a, b)
    assert both == team_reviews.merged(rel, b, a)
    assert both is not None
    # 5 -> 6 (Jan 15) -> 6 (Feb 1, no change: not a point)
    assert _history(both) == {"p": [("2024-01-01T00:00:00Z", (5.0,)),
                                    ("2024-01-15T00:00:00Z", (6.0,))],
                              "q": [("2024-01-01T00:00:00Z", (3.0,))]}
    assert team_reviews.merged(rel, a, b"not json") == a  # adds no point, takes none away
    rel = f"reviews/{SID}.reviews.jsonl.gz"
    real = gzip.compress(b"{}\n", mtime=5)
    assert team_reviews.merged(rel, real, b"<html>not gzip") == real
    assert team_reviews.merged(rel, b"junk", None) is None
    assert not team_reviews.is_team_path("reviews/x/y.ratings.json")
    assert not team_reviews.is_team_path("reviews/.hidden.ratings.json")


def test_two_fetches_of_one_second_are_told_apart(tmp_path: Path) -> None:
    kept.write_reviews(tmp_path, "s", [], fetched=1_733_300_000.25)
    first = kept.reviews_file(tmp_path, "s").read_bytes()
    kept.write_reviews(tmp_path, "s", [], fetched=1_733_300_000.75)
    second = kept.reviews_file(tmp_path, "s").read_bytes()
    assert (kept.fetched_at(first), kept.fetched_at(second)) == (1_733_300_000.25,
                                                                1_733_300_000.75)
    rel = f"reviews/{SID}.reviews.jsonl.gz"
    assert team_reviews.merged(rel, first, second) == second
    assert team_reviews.merged(rel, second, first) == second
    assert gzip.decompress(second) == b""  # the name is the header's, not the content's
