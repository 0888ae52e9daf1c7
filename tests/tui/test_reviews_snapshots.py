"""Snapshots of the reviews view (80x24 and 160x48) and of the venue line with a rating
that moved, on a library fetched from the OpenReview pages of ``tests/data/reviews/``
(before and after the rebuttal). The fetch dates the history's points with the day it
ran; the points are dated 20 and 27 Nov in the library's file afterwards, so that the
picture does not change with the day the test runs."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from settling import settle_app
from textual.pilot import Pilot

from fetch_routes import open_library
from http_replay import ReplayServer
from paper_tui import config as config_mod
from paper_tui.tui.app import PaperApp
from test_fetch_reviews import NEURIPS, serve_neurips


@pytest.fixture
def reviewed_app(tmp_path: Path, http_replay: ReplayServer) -> Iterator[PaperApp]:
    root = tmp_path / "lib"
    serve_neurips(http_replay)
    with open_library(root, http_replay.url) as lib:
        lib.fetch([f"openreview:{NEURIPS}"], reviews=True)
        serve_neurips(http_replay, "offset0-after-rebuttal")
        lib.fetch([f"openreview:{NEURIPS}"], reviews=True)
    for path in (root / "sources").glob("*.ratings.json"):
        data = json.loads(path.read_text("utf-8"))
        for points in data["papers"].values():
            for point, day in zip(points, ("2026-11-20", "2026-11-27"), strict=False):
                point["date"] = f"{day}T08:00:00Z"
        path.write_text(json.dumps(data), "utf-8")
    config = config_mod.load(tmp_path / "lib-config" / "config.yaml")
    from paper_tui.library import Library

    lib = Library.open(root, config=config, bundled=False)
    yield PaperApp(lib, config)
    lib.close()


async def _grok(pilot: Pilot) -> None:
    await settle_app(pilot)
    pilot.app.main.set_query("grok")
    await settle_app(pilot)
    await settle_app(pilot)


async def _reviews(pilot: Pilot) -> None:
    await _grok(pilot)
    await pilot.press("enter", "w")
    await settle_app(pilot)
    await settle_app(pilot)


def test_the_venue_line_says_how_the_rating_moved(reviewed_app, snap_compare) -> None:  # type: ignore[no-untyped-def]
    assert snap_compare(reviewed_app, terminal_size=(160, 48), run_before=_grok)


def test_the_reviews_view_80x24(reviewed_app, snap_compare) -> None:  # type: ignore[no-untyped-def]
    assert snap_compare(reviewed_app, terminal_size=(80, 24), run_before=_reviews)


def test_the_reviews_view_160x48(reviewed_app, snap_compare) -> None:  # type: ignore[no-untyped-def]
    assert snap_compare(reviewed_app, terminal_size=(160, 48), run_before=_reviews)
