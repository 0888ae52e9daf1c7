"""What a fetch keeps under ``fetching/`` is derived, against a real HTTP server on
127.0.0.1: a damaged state is discarded with one line and the fetch starts over; a state
made for another base URL is not used; a resumed fetch whose first page changed since it
stopped starts over (a ``kill -9`` in a real process); a list that moved while it was
fetched is never imported (no papers dropped that the server still has)."""

from __future__ import annotations

import gzip
import json
import os
import signal
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

import forked_cli
from fetch_routes import (
    ACCEPTED,
    ICLR,
    config_file,
    data,
    open_library,
    openreview_path,
    serve_openreview,
)
from http_replay import ReplayServer, Reply
from paper_tui import config as config_mod
from paper_tui.library import Library
from test_fetch_cli import EXE, command, run

LIST = "/iclr/iclr2018.json"
SPEC = "paperlists:iclr2018"
STATE = Path("fetching/iclr2018.paperlists.json/state.json")


def notes(name: str) -> list[dict[str, object]]:
    found: list[dict[str, object]] = json.loads(data(name))["notes"]
    return found


ACCEPTED_NOTES = notes("openreview-iclr2018-offset0.json") + \
    notes("openreview-iclr2018-offset3.json")
ADDED_NOTES = notes("openreview-iclr2018-rejected.json")
"""Two more notes of the venue: added at the head of the list in its second version."""


def serve_pages(server: ReplayServer, version: list[dict[str, object]], *,
                slow_offset: int | None = None) -> None:
    """The list in pages of two notes (``offset`` 0, 2, 4, …), each saying its count;
    the page at ``slow_offset`` answers late the first time (a fetch to kill there)."""
    for offset in range(0, len(version), 2):
        reply = Reply(body=json.dumps({"notes": version[offset:offset + 2],
                                       "count": len(version)}).encode())
        late = [Reply(body=reply.body, delay_s=8)] if offset == slow_offset else []
        server.route(openreview_path(ICLR, offset), *late, reply)
    server.route(openreview_path(ICLR, len(version)),
                 Reply(body=json.dumps({"notes": [], "count": len(version)}).encode()))


@pytest.fixture
def warned(tmp_path: Path, http_replay: ReplayServer) -> Iterator[tuple[Library, list[str]]]:
    """A library that fetched the Paper Copilot list once, and the lines it warned."""
    http_replay.route(LIST, Reply(body=data("paperlists-iclr2018.json"), etag='"v1"'))
    lines: list[str] = []
    config = config_mod.load(config_file(tmp_path / "config", http_replay.url))
    with Library.open(tmp_path / "lib", config=config, bundled=False,
                      warn=lines.append) as lib:
        assert lib.fetch([SPEC]).sources[0].status == "fetched"
        assert lines == []
        yield lib, lines


def _junk_state(root: Path) -> None:
    (root / STATE).write_bytes(b"\x00\xff junk {")


def _not_a_date(root: Path) -> None:
    state = json.loads((root / STATE).read_text("utf-8"))
    (root / STATE).write_text(json.dumps({**state, "last_fetched": "2026-13-45"}), "utf-8")


def _page_outside(root: Path) -> None:
    state = json.loads((root / STATE).read_text("utf-8"))
    for page in state["pages"].values():
        page["file"] = "../../annotations.yaml"
    state["run"] = {"started": time.time(), "done": dict.fromkeys(state["pages"], True)}
    (root / STATE).write_text(json.dumps(state), "utf-8")


def _bad_run(root: Path) -> None:
    state = json.loads((root / STATE).read_text("utf-8"))
    (root / STATE).write_text(json.dumps({**state, "run": {"started": "soon", "done": []}}),
                              "utf-8")


def _state_a_directory(root: Path) -> None:
    (root / STATE).unlink()
    (root / STATE).mkdir()


def _folder_a_file(root: Path) -> None:
    folder = root / STATE.parent
    for page in folder.iterdir():
        page.unlink()
    folder.rmdir()
    folder.write_text("not a folder", "utf-8")


@pytest.mark.parametrize("damage", [_junk_state, _not_a_date, _page_outside, _bad_run,
                                    _state_a_directory, _folder_a_file])
def test_a_damaged_state_is_discarded_with_one_line(warned: tuple[Library, list[str]],
                                                    tmp_path: Path, damage: object,
                                                    http_replay: ReplayServer) -> None:
    lib, lines = warned
    damage(tmp_path / "lib")  # type: ignore[operator]
    [done] = lib.fetch([SPEC]).sources
    assert (done.status, done.papers, done.error) == ("fetched", 24, None)
    assert len(lines) == 1 and "\n" not in lines[0], lines
    assert lines[0].startswith(str(tmp_path / "lib" / STATE))
    assert "discarded" in lines[0]
    assert http_replay.requests[-1].header("If-None-Match") is None  # asked in full
    # and the state is whole again: the next fetch is a 304, with no line
    [again] = lib.fetch([SPEC]).sources
    assert again.status == "unchanged" and len(lines) == 1


@pytest.mark.skipif(EXE is None, reason="paper-tui is not installed")
def test_a_date_that_is_not_a_date_is_one_line_not_exit_70(tmp_path: Path,
                                                           http_replay: ReplayServer) -> None:
    http_replay.route(LIST, Reply(body=data("paperlists-iclr2018.json")))
    assert run(tmp_path, http_replay, "fetch", SPEC).returncode == 0
    _not_a_date(tmp_path / "lib")
    out = run(tmp_path, http_replay, "fetch", SPEC)
    assert out.returncode == 0, out.stderr
    assert len(out.stderr.splitlines()) == 1 and "not a date" in out.stderr
    assert out.stdout.splitlines() == [f"{SPEC}: 24 papers, 0 new (1 page)"]


def test_a_state_made_for_another_host_is_not_used(tmp_path: Path) -> None:
    """The config's ``paperlists_url`` moves to another server and the old one is gone:
    the re-fetch asks the new one (it asked the old host's page URLs, failing on every
    run)."""
    old, new = ReplayServer(), ReplayServer()
    try:
        for server in (old, new):
            server.route(LIST, Reply(body=data("paperlists-iclr2018.json"), etag='"v1"'))
        with open_library(tmp_path / "lib", old.url) as lib:
            assert lib.fetch([SPEC]).sources[0].status == "fetched"
        old.stop()
        with open_library(tmp_path / "lib", new.url) as lib:
            [done] = lib.fetch([SPEC]).sources
            assert (done.status, done.papers, done.error) == ("fetched", 24, None)
            assert [r.header("If-None-Match") for r in new.requests] == [None]
            assert lib.count() == 24
    finally:
        new.stop()


def _starred_and_ids(root: Path, server: ReplayServer) -> tuple[set[str], set[str]]:
    out = run(root, server, "list", "--json")
    assert out.returncode == 0, out.stderr
    papers = json.loads(out.stdout)
    return ({p["id"] for p in papers if p.get("starred")},
            {p["url"].rsplit("=", 1)[-1] for p in papers})


@pytest.mark.skipif(EXE is None, reason="paper-tui is not installed")
def test_a_resumed_fetch_of_a_list_that_changed_starts_over(tmp_path: Path,
                                                            http_replay: ReplayServer) -> None:
    """kill -9 a re-fetch after two pages; two notes are added at the head of the list;
    the next fetch takes the whole new list (it took the two old pages and the rest of the
    new one: a list of 6 with 2 twice, the starred paper gone)."""
    serve_pages(http_replay, ACCEPTED_NOTES)
    first = run(tmp_path, http_replay, "fetch", f"openreview:{ICLR}")
    assert first.stdout.splitlines() == [f"openreview:{ICLR}: 6 papers, 6 new (3 pages)"]
    out = run(tmp_path, http_replay, "list", "--json")
    last = next(p["id"] for p in json.loads(out.stdout) if p["url"].endswith(ACCEPTED[-1]))
    assert run(tmp_path, http_replay, "star", last).returncode == 0

    serve_pages(http_replay, ACCEPTED_NOTES, slow_offset=4)
    process = forked_cli.Process(command(tmp_path, http_replay, "fetch", f"openreview:{ICLR}"),
                                 stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                 stderr=subprocess.DEVNULL, env=dict(os.environ))
    third = openreview_path(ICLR, 4)
    deadline = time.monotonic() + 60
    while sum(r.path == third for r in http_replay.requests) < 2:
        assert time.monotonic() < deadline and process.poll() is None
        time.sleep(0.02)
    os.kill(process.pid, signal.SIGKILL)
    assert process.wait(timeout=30) == -signal.SIGKILL

    serve_pages(http_replay, ADDED_NOTES + ACCEPTED_NOTES)
    out = run(tmp_path, http_replay, "fetch", f"openreview:{ICLR}")
    assert out.returncode == 0, out.stderr
    assert out.stdout.splitlines() == [f"openreview:{ICLR}: 8 papers, 2 new (4 pages)"]
    starred, forums = _starred_and_ids(tmp_path, http_replay)
    assert starred == {last}
    assert forums == {n["id"] for n in ADDED_NOTES + ACCEPTED_NOTES}


def test_a_list_that_moved_while_it_was_fetched_is_not_imported(
        tmp_path: Path, http_replay: ReplayServer) -> None:
    """Notes are added at the head between page 1 and page 2: the pages hold two notes
    twice and two not at all. The library keeps the last whole list; the next fetch asks
    every page again and takes the new list whole."""
    serve_pages(http_replay, ACCEPTED_NOTES)
    with open_library(tmp_path / "lib", http_replay.url) as lib:
        assert lib.fetch([f"openreview:{ICLR}"]).sources[0].papers == 6
        before = sorted(p.id for p in lib.papers())
        serve_pages(http_replay, ADDED_NOTES + ACCEPTED_NOTES)
        http_replay.route(openreview_path(ICLR, 0), Reply(body=json.dumps(
            {"notes": ACCEPTED_NOTES[:2], "count": 6}).encode()))
        [moved] = lib.fetch([f"openreview:{ICLR}"]).sources
        assert moved.status == "failed" and moved.error is not None
        assert "changed while it was fetched" in moved.error
        assert sorted(p.id for p in lib.papers()) == before
        serve_pages(http_replay, ADDED_NOTES + ACCEPTED_NOTES)
        [whole] = lib.fetch([f"openreview:{ICLR}"]).sources
        assert (whole.status, whole.papers, len(whole.new_ids)) == ("fetched", 8, 2)
        assert lib.count() == 8


def test_a_kept_page_damaged_on_disk_is_asked_again(tmp_path: Path,
                                                    http_replay: ReplayServer) -> None:
    """Page 1 answers 304 but its kept copy is not a page any more: it is asked in full
    (the fetch failed on it, and on every fetch after)."""
    serve_openreview(http_replay, etag=True)
    with open_library(tmp_path / "lib", http_replay.url) as lib:
        assert lib.fetch([f"openreview:{ICLR}"]).sources[0].status == "fetched"
        for page in (tmp_path / "lib/fetching").glob("*/page-*.gz"):
            page.write_bytes(gzip.compress(b"junk"))
        changed = json.loads(data("openreview-iclr2018-offset3.json"))
        changed["notes"][0]["content"]["title"]["value"] = "A Title Corrected After Review"
        http_replay.route(openreview_path(ICLR, 3), Reply(body=json.dumps(changed).encode(),
                                                          etag='"or-3b"'))
        [done] = lib.fetch([f"openreview:{ICLR}"]).sources
        assert (done.status, done.papers, done.error) == ("fetched", 6, None)
        assert lib.search('title:"corrected after review"').total == 1
