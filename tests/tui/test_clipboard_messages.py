"""``c`` in the app says one outcome of the copy: copied with the tool (a real xclip on a
real X server, Xvfb), or sent through the terminal with OSC 52 and what tmux needs."""

from __future__ import annotations

import pytest

from paper_tui import citations
from test_clipboard import HAVE_X_TOOLS, read_clipboard, xvfb  # noqa: F401 (a fixture)


def notifications(app) -> list[str]:
    return [n.message for n in app._notifications]


async def _cite(app, pilot) -> None:
    await pilot.press("c")
    await app.workers.wait_for_complete()
    await pilot.pause()


async def test_without_a_clipboard_c_says_sent_through_the_terminal_only(
        started, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.delenv("DISPLAY", raising=False)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    async with started() as (app, pilot):
        paper = app.main.current_paper()
        await _cite(app, pilot)
        said = notifications(app)
        assert len(said) == 1, said
        assert said[0] == ("Sent bibtex citation through the terminal (OSC 52); if nothing "
                           "arrives, tmux needs `set -g set-clipboard on`")
        assert app.clipboard == citations.cite([paper], "bibtex")  # what OSC 52 carried


@pytest.mark.skipif(not HAVE_X_TOOLS, reason="Xvfb or xclip not installed")
@pytest.mark.usefixtures("xvfb")
async def test_with_xclip_c_says_copied_with_xclip_only(started):
    async with started() as (app, pilot):
        paper = app.main.current_paper()
        await _cite(app, pilot)
        said = notifications(app)
        assert said == ["Copied bibtex citation to the clipboard with xclip"]
        expected = citations.cite([paper], "bibtex")
        assert read_clipboard(expected) == expected
