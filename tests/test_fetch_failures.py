"""What goes wrong on the network, against a real HTTP server on 127.0.0.1: each failure is
one line naming the SOURCE, and the library stays exactly as it was (the previous fetch of
that source kept); what the client rides out (a 429 with Retry-After, a 500 then success,
a redirect, gzip) ends in the list imported; a re-fetch of an unchanged list transfers
nothing; annotations are never touched."""

from __future__ import annotations

import json
import socket
from pathlib import Path

import pytest

from fetch_routes import ACCEPTED, ICLR, data, open_library, openreview_path, serve_openreview
from http_replay import ReplayServer, Reply
from paper_tui.library import Library

LIST = "/iclr/iclr2018.json"
SPEC = "paperlists:iclr2018"


def state(lib: Library, root: Path) -> tuple[object, ...]:
    """What a failed fetch must leave as it was: the papers, the manifest, the fetched files."""
    fetched = root / "fetched"
    files = {p.name: p.read_bytes() for p in sorted(fetched.iterdir())} \
        if fetched.exists() else {}
    manifest = (root / "sources/manifest.json").read_text("utf-8") \
        if (root / "sources/manifest.json").exists() else ""
    return lib.count(), sorted(p.id for p in lib.papers()), manifest, files


@pytest.fixture
def fetched_once(tmp_path: Path, http_replay: ReplayServer):
    """A library that fetched the Paper Copilot list once (served with an ETag)."""
    http_replay.route(LIST, Reply(body=data("paperlists-iclr2018.json"), etag='"v1"'))
    lib = open_library(tmp_path / "lib", http_replay.url)
    [done] = lib.fetch([SPEC]).sources
    assert done.status == "fetched" and done.papers == 24
    yield lib
    lib.close()


def refetch_fails(lib: Library, root: Path, reply: Reply | None, server: ReplayServer,
                  words: str) -> str:
    before = state(lib, root)
    if reply is not None:
        server.route(LIST, reply)
    [done] = lib.fetch([SPEC]).sources
    assert done.status == "failed" and done.error is not None
    assert done.error.startswith(f"{SPEC}: ") and "\n" not in done.error
    assert words in done.error, done.error
    assert state(lib, root) == before
    return done.error


def test_unchanged_list_transfers_nothing(fetched_once: Library, tmp_path: Path,
                                          http_replay: ReplayServer) -> None:
    before = state(fetched_once, tmp_path / "lib")
    [done] = fetched_once.fetch([SPEC]).sources
    assert (done.status, done.papers, done.bytes, done.requests) == ("unchanged", 24, 0, 1)
    assert http_replay.requests[-1].header("If-None-Match") == '"v1"'
    assert state(fetched_once, tmp_path / "lib") == before


def test_changed_list_replaces_the_source(fetched_once: Library, tmp_path: Path,
                                          http_replay: ReplayServer) -> None:
    fewer = json.loads(data("paperlists-iclr2018.json"))[:20]
    http_replay.route(LIST, Reply(body=json.dumps(fewer).encode(), etag='"v2"'))
    [done] = fetched_once.fetch([SPEC]).sources
    assert (done.status, done.papers, done.new_ids) == ("fetched", 20, ())
    assert fetched_once.count() == 20


def test_annotations_untouched_by_a_refetch(fetched_once: Library, tmp_path: Path,
                                            http_replay: ReplayServer) -> None:
    pid = next(iter(fetched_once.papers())).id
    fetched_once.set_status([pid], "to-read")
    fetched_once.add_tags([pid], ["kept"])
    fetched_once.flush()
    annotations = (tmp_path / "lib/annotations.yaml").read_text("utf-8")
    http_replay.route(LIST, Reply(body=data("paperlists-iclr2018.json") + b"\n", etag='"v2"'))
    [done] = fetched_once.fetch([SPEC]).sources
    assert done.status == "fetched" and done.new_ids == ()
    fetched_once.flush()
    assert (tmp_path / "lib/annotations.yaml").read_text("utf-8") == annotations
    assert fetched_once.annotation(pid).status == "to-read"
    assert fetched_once.search("tag:kept").total == 1


def test_dry_run_counts_and_imports_nothing(tmp_path: Path, http_replay: ReplayServer) -> None:
    serve_openreview(http_replay)
    with open_library(tmp_path / "lib", http_replay.url) as lib:
        [done] = lib.fetch([f"openreview:{ICLR}"], dry_run=True).sources
        assert (done.status, done.papers, len(done.new_ids), done.pages) == ("dry-run", 6, 6, 2)
        assert lib.count() == 0
        assert not (tmp_path / "lib/fetched").exists()
        # nothing kept either: a real fetch afterwards asks every page again, in full
        [real] = lib.fetch([f"openreview:{ICLR}"]).sources
        assert (real.status, real.papers, real.requests) == ("fetched", 6, 2)


@pytest.mark.parametrize(("reply", "words"), [
    (Reply(status=404, body=b"no such file"), "404"),
    (Reply(body=b'[{"title": "A"}, {"title": '), "not JSON"),
    (Reply(body=b"<html><body>Rate limited</body></html>"), "not JSON"),
    (Reply(body=b'{"notes": []}'), "not a Paper Copilot list"),
    (Reply(body=data("paperlists-iclr2018.json"), cut_at=5000), "LIST"),
])
def test_bad_answers_leave_the_library_as_it_was(fetched_once: Library, tmp_path: Path,
                                                 http_replay: ReplayServer, reply: Reply,
                                                 words: str) -> None:
    if words == "LIST":
        refetch_fails(fetched_once, tmp_path / "lib", reply, http_replay, http_replay.url)
    else:
        refetch_fails(fetched_once, tmp_path / "lib", reply, http_replay, words)


def test_bad_atom_is_one_line(tmp_path: Path, http_replay: ReplayServer) -> None:
    http_replay.route("/api/query", Reply(body=b"<feed xmlns='http://www.w3.org/2005/Atom'>"
                                               b"<entry><id>http://arxiv.org/abs/2401.0"))
    with open_library(tmp_path / "lib", http_replay.url) as lib:
        [done] = lib.fetch(["arxiv:cs.LG"]).sources
        assert done.status == "failed" and done.error is not None
        assert done.error.startswith("arxiv:cs.LG: the page is not Atom XML")
        assert lib.count() == 0


def test_timeout_is_one_line(tmp_path: Path, http_replay: ReplayServer) -> None:
    http_replay.route(LIST, Reply(body=data("paperlists-iclr2018.json")))
    with open_library(tmp_path / "lib", http_replay.url, timeout_s=0.2, retries=0) as lib:
        assert lib.fetch([SPEC]).sources[0].status == "fetched"
        refetch_fails(lib, tmp_path / "lib",
                      Reply(body=data("paperlists-iclr2018.json"), delay_s=1.0), http_replay,
                      "time")


def test_offline_is_one_line(tmp_path: Path) -> None:
    with socket.socket() as sock:  # a port nobody listens on
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    with open_library(tmp_path / "lib", f"http://127.0.0.1:{port}") as lib:
        report = lib.fetch([SPEC, f"openreview:{ICLR}"])
        for done, spec in zip(report.sources, (SPEC, f"openreview:{ICLR}"), strict=True):
            assert done.status == "failed" and done.error is not None
            assert done.error.startswith(f"{spec}: ") and "\n" not in done.error
            assert "connect" in done.error
        assert lib.count() == 0


def test_rides_out_429_500_redirect_and_gzip(tmp_path: Path, http_replay: ReplayServer) -> None:
    http_replay.route(openreview_path(ICLR, 0), Reply.retry_after(0.01),
                      Reply(status=500, body=b"oops"),
                      Reply.gzipped(data("openreview-iclr2018-offset0.json")))
    http_replay.route(openreview_path(ICLR, 3), Reply.redirect("/moved/page2"))
    http_replay.route("/moved/page2", Reply(body=data("openreview-iclr2018-offset3.json")))
    waits: list[str] = []
    with open_library(tmp_path / "lib", http_replay.url) as lib:
        [done] = lib.fetch([f"openreview:{ICLR}"],
                           progress=lambda stage, *_: waits.append(stage)).sources
        assert (done.status, done.papers, done.pages) == ("fetched", 6, 2)
        assert done.requests == 5  # 429, 500, the page; the redirect and its target
        assert lib.count() == len(ACCEPTED)
    assert any("waiting" in stage and "429" in stage for stage in waits), waits


def test_a_list_shorter_than_its_count_is_cut_off(tmp_path: Path,
                                                  http_replay: ReplayServer) -> None:
    page = data("openreview-iclr2018-offset0.json")
    http_replay.route(openreview_path(ICLR, 0), Reply(body=page))
    nothing = data("openreview-empty.json").replace(b'"count": 0', b'"count": 6')
    http_replay.route(openreview_path(ICLR, 3), Reply(body=nothing))
    with open_library(tmp_path / "lib", http_replay.url) as lib:
        [done] = lib.fetch([f"openreview:{ICLR}"]).sources
        assert done.status == "failed" and done.error is not None
        assert done.error == (f"openreview:{ICLR}: the list was cut off: 3 of 6 notes of "
                              f"{ICLR} came")
        assert lib.count() == 0


def test_a_paged_refetch_asks_each_page_once(tmp_path: Path, http_replay: ReplayServer) -> None:
    """Unchanged: one conditional request a page. Page 2 changed: page 1's 304 and page 2's
    new answer are not asked again to read the list."""
    serve_openreview(http_replay, etag=True)
    with open_library(tmp_path / "lib", http_replay.url) as lib:
        assert lib.fetch([f"openreview:{ICLR}"]).sources[0].status == "fetched"
        [same] = lib.fetch([f"openreview:{ICLR}"]).sources
        assert (same.status, same.requests, same.bytes, same.pages) == ("unchanged", 2, 0, 2)
        assert all(r.header("If-None-Match") for r in http_replay.requests[2:])
        page = json.loads(data("openreview-iclr2018-offset3.json"))
        page["notes"][0]["content"]["title"]["value"] = "A Title Corrected After Review"
        http_replay.route(openreview_path(ICLR, 3), Reply(body=json.dumps(page).encode(),
                                                          etag='"or-3b"'))
        [changed] = lib.fetch([f"openreview:{ICLR}"]).sources
        assert (changed.status, changed.papers, changed.requests) == ("fetched", 6, 2)
        assert [r.header("If-None-Match") for r in http_replay.requests[4:]] == \
            ['"or-0"', '"or-3"']
        assert lib.search('title:"corrected after review"').total == 1
