"""The command palette closes cleanly while its search is still running.

Textual 8.2's palette gathers commands in a worker that can outlive the palette's list:
the list is removed before the palette's own workers are cancelled, so a search that
delivers its next batch in between found no list (``NoMatches: CommandList``) and the
app died on quit. A provider slow to shut down holds that window open for the test."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

from textual.command import Hit, Provider

from paper_tui import config as config_mod
from paper_tui.tui.app import PaperApp


class SlowProvider(Provider):
    """Commands that keep coming, and a shutdown that takes its time (a provider doing
    I/O): the palette's list is gone while hits still arrive."""

    async def search(self, query: str) -> AsyncIterator[Hit]:
        if not query.endswith("!"):
            return
        await asyncio.sleep(0.4)  # an empty list until these come
        for n in range(100):
            yield Hit(1.0, f"slow command {n}", lambda: None)
            await asyncio.sleep(0.05)

    async def shutdown(self) -> None:
        await asyncio.sleep(0.8)


class SlowPaletteApp(PaperApp):
    COMMANDS = PaperApp.COMMANDS | {SlowProvider}


async def _palette_searching(pilot) -> None:
    """Open the palette on a query nothing matches (its list hidden), then type the one
    character that makes the slow provider answer: hits are on their way."""
    await pilot.pause()
    await pilot.press("ctrl+p", "z", "q")
    await pilot.pause(0.3)
    await pilot.press("!")
    await pilot.pause(0.1)


async def test_quitting_with_the_palette_searching_ends_cleanly(library):
    app = SlowPaletteApp(library, config_mod.defaults())
    async with app.run_test(size=(100, 32)) as pilot:
        await _palette_searching(pilot)
    assert app.return_code in (0, None)


async def test_escape_with_the_palette_searching_keeps_the_app_running(library):
    app = SlowPaletteApp(library, config_mod.defaults())
    async with app.run_test(size=(100, 32)) as pilot:
        await _palette_searching(pilot)
        await pilot.press("escape")
        await pilot.pause(1.2)
        assert app.is_running
        await pilot.press("j")
