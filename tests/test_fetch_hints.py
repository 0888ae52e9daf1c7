"""``fetch URL --venue NAME --year N``, as ``import`` has, in real processes against a real
HTTP server on 127.0.0.1: a list whose name and content give no venue or year says so in
one line (and how to set them); given, they are the papers' and stay for the source's next
fetches."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from fetch_routes import data
from http_replay import ReplayServer, Reply
from test_fetch_cli import EXE, run

pytestmark = pytest.mark.skipif(EXE is None, reason="paper-tui is not installed")
NAMELESS = "/files/download.json"


def venues(root: Path, server: ReplayServer) -> set[tuple[str, int | None]]:
    out = run(root, server, "list", "--json")
    assert out.returncode == 0, out.stderr
    return {(p.get("venue", ""), p.get("year")) for p in json.loads(out.stdout)}


def test_a_list_that_names_no_venue_or_year_says_so(tmp_path: Path,
                                                   http_replay: ReplayServer) -> None:
    http_replay.route(NAMELESS, Reply(body=data("paperlists-iclr2018.json")))
    url = http_replay.url + NAMELESS
    out = run(tmp_path, http_replay, "fetch", url)
    assert out.returncode == 0, out.stderr
    assert out.stdout.splitlines() == [f"{url}: 24 papers, 24 new (1 page)"]
    [line] = out.stderr.splitlines()
    assert line == (f"paper-tui: {url}: its papers have no venue and no year (neither the "
                    "file's name nor its content says): give --venue NAME --year N, as in "
                    f"`paper-tui fetch {url} --venue NAME --year N`")
    assert venues(tmp_path, http_replay) == {("", None)}


def test_venue_and_year_given_are_kept_for_the_next_fetches(tmp_path: Path,
                                                            http_replay: ReplayServer) -> None:
    http_replay.route(NAMELESS, Reply(body=data("paperlists-iclr2018.json")))
    url = http_replay.url + NAMELESS
    out = run(tmp_path, http_replay, "fetch", url, "--venue", "ICLR", "--year", "2018")
    assert out.returncode == 0 and out.stderr == "", out.stderr
    assert venues(tmp_path, http_replay) == {("ICLR", 2018)}
    fewer = json.loads(data("paperlists-iclr2018.json"))[:20]
    http_replay.route(NAMELESS, Reply(body=json.dumps(fewer).encode()))
    again = run(tmp_path, http_replay, "fetch", url)  # a plain re-fetch, as a watch's
    assert again.returncode == 0 and again.stderr == "", again.stderr
    assert again.stdout.splitlines() == [f"{url}: 20 papers, 0 new (1 page)"]
    assert venues(tmp_path, http_replay) == {("ICLR", 2018)}
    year = run(tmp_path, http_replay, "fetch", url, "--year", "2019")  # the venue stays
    assert year.returncode == 0 and year.stderr == "", year.stderr
    assert venues(tmp_path, http_replay) == {("ICLR", 2019)}


def test_a_named_list_says_nothing(tmp_path: Path, http_replay: ReplayServer) -> None:
    http_replay.route("/files/iclr2018.json", Reply(body=data("paperlists-iclr2018.json")))
    out = run(tmp_path, http_replay, "fetch", http_replay.url + "/files/iclr2018.json")
    assert out.returncode == 0 and out.stderr == "", out.stderr
    assert venues(tmp_path, http_replay) == {("ICLR", 2018)}


def test_a_bad_year_is_argparse_s_line(tmp_path: Path, http_replay: ReplayServer) -> None:
    out = run(tmp_path, http_replay, "fetch", http_replay.url + NAMELESS, "--year", "18")
    assert out.returncode == 2 and "'18' is not a year" in out.stderr
    assert http_replay.requests == []


@pytest.mark.parametrize("etag", [None, '"v1"'], ids=["same-bytes", "not-modified"])
def test_venue_and_year_given_to_an_unchanged_list_are_applied(
        tmp_path: Path, http_replay: ReplayServer, etag: str | None) -> None:
    """A first fetch without them, then the suggested command: the list has not changed
    (the same bytes, or a 304), and the papers still get the venue and year (it said
    "unchanged" and kept none of them)."""
    http_replay.route(NAMELESS, Reply(body=data("paperlists-iclr2018.json"), etag=etag))
    url = http_replay.url + NAMELESS
    assert run(tmp_path, http_replay, "fetch", url).returncode == 0
    again = run(tmp_path, http_replay, "fetch", url, "--venue", "ICLR", "--year", "2018")
    assert again.returncode == 0 and again.stderr == "", again.stderr
    assert venues(tmp_path, http_replay) == {("ICLR", 2018)}
    plain = run(tmp_path, http_replay, "fetch", url)  # the hints kept: nothing new
    assert plain.stdout.splitlines() == [
        f"{url}: unchanged (24 papers)" if etag else f"{url}: 24 papers, 0 new (1 page)"]
    assert venues(tmp_path, http_replay) == {("ICLR", 2018)}
