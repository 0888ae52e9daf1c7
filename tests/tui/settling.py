"""Waiting for the app to settle: its queries and workers done, what they posted shown."""

from __future__ import annotations

import asyncio
import time

from textual.pilot import Pilot

from paper_tui.tui.app import PaperApp

SETTLE_WITHIN = 60.0
"""Seconds a test waits for the app's queries to finish before it looks anyway."""


async def settle_app(pilot: Pilot) -> None:
    """Let the app's queries (on its query thread) and its workers finish, and what they
    posted reach the screen."""
    await pilot.pause()
    app = pilot.app
    if isinstance(app, PaperApp):
        deadline = time.monotonic() + SETTLE_WITHIN
        while app.main.queries.busy and time.monotonic() < deadline:
            await asyncio.sleep(0.01)
    await app.workers.wait_for_complete()
    await pilot.pause()
