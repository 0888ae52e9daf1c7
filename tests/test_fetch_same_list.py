"""One source per list, against a real HTTP server on 127.0.0.1: a URL of a Paper Copilot
file and ``paperlists:NAMEYEAR`` are one source, whichever comes first; a list whose
content another source holds updates that source (and its next fetches too); each says
so."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from fetch_routes import ICLR, data, open_library, openreview_path, serve_openreview
from http_replay import ReplayServer, Reply
from test_fetch_cli import EXE, run

LIST = "/iclr/iclr2018.json"
MIRROR = "/mirror/iclr2018.json"
SPEC = "paperlists:iclr2018"


@pytest.fixture
def served(http_replay: ReplayServer) -> ReplayServer:
    for path in (LIST, MIRROR):
        http_replay.route(path, Reply(body=data("paperlists-iclr2018.json"), etag='"v1"'))
    return http_replay


def test_a_url_of_a_paperlists_file_is_that_source(tmp_path: Path, served: ReplayServer) -> None:
    url = served.url + LIST
    with open_library(tmp_path / "lib", served.url) as lib:
        [first] = lib.fetch([url]).sources
        assert (first.spec, first.status, first.papers, first.same_as) == \
            (url, "fetched", 24, SPEC)
        [second] = lib.fetch([SPEC]).sources
        assert (second.status, second.same_as, second.source_id) == \
            ("unchanged", None, first.source_id)
        assert list(lib.sources.manifest) == [first.source_id]
        # the other way round: a later URL fetch of it is the same source as well
        [third] = lib.fetch([url.replace("http://", "HTTP://")]).sources
        assert (third.status, third.same_as) == ("unchanged", SPEC)
        assert list(lib.sources.manifest) == [first.source_id]


def test_the_same_content_updates_that_source(tmp_path: Path, served: ReplayServer) -> None:
    mirror = served.url + MIRROR
    with open_library(tmp_path / "lib", served.url) as lib:
        [listed] = lib.fetch([SPEC]).sources
        [same] = lib.fetch([mirror]).sources
        assert (same.status, same.papers, same.new_ids, same.same_as, same.source_id) == \
            ("fetched", 24, (), listed.source_id, listed.source_id)
        assert list(lib.sources.manifest) == [listed.source_id]
        fewer = json.loads(data("paperlists-iclr2018.json"))[:20]
        served.route(MIRROR, Reply(body=json.dumps(fewer).encode(), etag='"v2"'))
        [newer] = lib.fetch([mirror]).sources  # no longer the same bytes: the same source
        assert (newer.status, newer.papers, newer.source_id) == \
            ("fetched", 20, listed.source_id)
        assert list(lib.sources.manifest) == [listed.source_id] and lib.count() == 20


def test_a_list_imported_from_a_file_is_not_fetched_twice(tmp_path: Path,
                                                         served: ReplayServer) -> None:
    own = tmp_path / "mine" / "iclr2018.json"
    own.parent.mkdir()
    own.write_bytes(data("paperlists-iclr2018.json"))
    with open_library(tmp_path / "lib", served.url) as lib:
        [sid] = lib.import_paths([own]).sources
        [same] = lib.fetch([served.url + MIRROR]).sources
        assert (same.status, same.papers, same.same_as) == ("unchanged", 24, sid)
        assert list(lib.sources.manifest) == [sid]
        assert own.read_bytes() == data("paperlists-iclr2018.json")


def test_an_openreview_api_url_is_the_venue_s_source(tmp_path: Path,
                                                     http_replay: ReplayServer) -> None:
    serve_openreview(http_replay)
    url = http_replay.url + openreview_path(ICLR, 0).replace("&offset=0", "")
    with open_library(tmp_path / "lib", http_replay.url) as lib:
        [done] = lib.fetch([url]).sources
        assert (done.status, done.papers, done.same_as) == ("fetched", 6, f"openreview:{ICLR}")


@pytest.mark.skipif(EXE is None, reason="paper-tui is not installed")
def test_the_line_says_which_source_it_is(tmp_path: Path, served: ReplayServer) -> None:
    url = served.url + LIST
    out = run(tmp_path, served, "fetch", url, SPEC)
    assert out.returncode == 0, out.stderr
    assert out.stdout.splitlines() == [
        f"{url}: 24 papers, 24 new (1 page; the same list as {SPEC})",
        f"{SPEC}: unchanged (24 papers)"]
