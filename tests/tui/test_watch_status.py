"""The watches in the app: the palette's "Fetch watches" runs them in a worker against a
local HTTP server replaying a real Paper Copilot file, says its progress and outcome in
the status line, which then says ``28 new in your watches`` until a query looks at what
came in (``added:`` or ``watch:``); the results are searched again."""

from __future__ import annotations

import time

from http_replay import ReplayServer, Reply
from paper_tui.tui.widgets.status_line import status_text
from test_watches import PATH, records

BUNDLED = 38


def _fetch_config(url: str) -> dict[str, object]:
    return {"fetch": {"paperlists_url": url, "openreview_url": url, "arxiv_url": url,
                      "dblp_url": url, "arxiv_delay_s": 0, "timeout_s": 5, "retries": 0,
                      "retry_delay_s": 0, "max_wait_s": 0}}


async def _until(pilot, done, seconds: float = 30) -> None:
    deadline = time.monotonic() + seconds
    while not done() and time.monotonic() < deadline:
        await pilot.pause(0.05)
    assert done()


async def test_fetch_watches_from_the_palette_says_what_is_new(
        started, settle, http_replay: ReplayServer) -> None:
    http_replay.route(PATH, Reply(body=records(28)))
    async with started(**_fetch_config(http_replay.url)) as (app, pilot):
        app.library.add_watch("iclr", "paperlists:iclr2018", "title:adversarial")
        await pilot.press("ctrl+p", *"fetch watches")
        await pilot.pause(0.5)  # the palette's search
        await pilot.press("enter")
        await _until(pilot, lambda: "watches: starting" in app.said)
        await _until(pilot, lambda: not app.main.watch_fetch.running)
        await settle(pilot)
        assert app.said[-1] == 'watches: iclr: 28 new, 3 match "title:adversarial"'
        status = app.main.status_line.text.plain
        assert "28 new in your watches" in status
        assert status.startswith(f"{BUNDLED + 28} hits")  # searched again: they are in

        await pilot.press("slash", *"networks", "enter")  # not a look at what came in
        await settle(pilot)
        assert "28 new in your watches" in app.main.status_line.text.plain
        await pilot.press("slash", *(["backspace"] * len("networks")), *"watch:iclr",
                          "enter")
        await settle(pilot)
        status = app.main.status_line.text.plain
        assert status.startswith("3 hits") and "new in your watches" not in status


async def test_a_failed_watch_is_said_as_an_error_and_no_news(
        started, settle, http_replay: ReplayServer) -> None:
    http_replay.route("/iclr/iclr2099.json", Reply(status=404, body=b"404: Not Found"))
    async with started(**_fetch_config(http_replay.url)) as (app, pilot):
        app.library.add_watch("gone", "paperlists:iclr2099")
        app.main.action_fetch_watches()
        await _until(pilot, lambda: not app.main.watch_fetch.running)
        await settle(pilot)
        assert app.said[-1].startswith("watches: gone: ") and "404" in app.said[-1]
        assert "new in your watches" not in app.main.status_line.text.plain


async def test_without_watches_it_says_how_to_add_one(started) -> None:
    async with started() as (app, pilot):
        app.main.action_fetch_watches()
        await pilot.pause(0.05)
        assert app.said[-1] == "no watches yet: paper-tui watch add NAME SOURCE [--query Q]"
        assert not app.main.watch_fetch.running


def test_the_status_text_says_the_news_after_the_sort() -> None:
    text = status_text(66, False, 0, 66, "relevance", watch_news=1234).plain
    assert text == "66 hits  │  0 / 66 triaged  │  sort: relevance  │  1,234 new in your watches"
    assert "new in your watches" not in status_text(66, False, 0, 66, "relevance").plain
