"""A hostile library in the app: no escape sequence or control character from data reaches
the terminal, on any screen (``tui/inert_lines.py``). What is checked is what the app hands
the terminal driver: every frame, rendered to the bytes a terminal would get."""

from __future__ import annotations

import re
from pathlib import Path

from frame_log import FrameLog
from settling import settle_app as settle

from hostile_helpers import ACTIVE, PAYLOAD, hostile_library
from paper_tui import config as config_mod
from paper_tui.library import Library
from paper_tui.tui.screens.help import HelpScreen
from paper_tui.tui.screens.lists_screen import ListsScreen, ReadingListScreen

# What the app itself sends: CSI sequences (colours, cursor moves, modes) and OSC 8 links
# (their targets come from data: checked separately).
APPS_OWN = re.compile(r"\x1b\[[0-?]*[ -/]*[@-~]|\x1b]8;[^\x1b\x07]*(?:\x1b\\|\x07)")
LINK_TARGET = re.compile(r"\x1b]8;[^;]*;([^\x1b\x07]*)")


def terminal_output(app: FrameLog) -> str:
    """Everything the app's frames would write to a terminal."""
    return "".join(frame.render_segments(app.console) for frame in app.frames)


def assert_inert(output: str) -> None:
    assert PAYLOAD not in output, "a sequence's payload reached the terminal"
    assert "evil.example" not in output  # an OSC 8 hidden in a link
    for target in LINK_TARGET.findall(output):
        assert ACTIVE.search(target) is None, repr(target)
    left = APPS_OWN.sub("", output)
    found = ACTIVE.search(left)
    assert found is None, f"{found.group()!r} reached the terminal: " \
        f"{left[max(0, found.start() - 60):found.end() + 60]!r}"


async def test_every_screen_of_a_hostile_library_reaches_the_terminal_inert(tmp_path: Path):
    library = tmp_path / "library"
    hostile_library(library, tmp_path)
    config = config_mod.load(tmp_path / "config.yaml")
    lib = Library.open(library, config=config)
    app = FrameLog(lib, config)
    try:
        async with app.run_test(size=(140, 45)) as pilot:
            await settle(pilot)
            assert "2 hits" in app.main.status_line.text.plain
            for keys in (["f"],  # facets: venues, tags, the team-mate's name
                         ["j", "k"],  # both papers in the results and the abstract view
                         ["t"], ["escape"],  # the tag editor and the paper's tags
                         # the note editor holding the note; the TextArea splits lines at
                         # NEL too, so the note looks edited: Esc asks, y discards
                         ["n"], ["escape"], ["y"],
                         ["a"], ["escape"],  # the list picker with the list's name
                         ["C"], ["down"], ["escape"],  # the style picker's previews
                         ["s"],  # unstar: a confirmation naming the paper
                         ["/", *"hostile", "enter"]):  # search: matched words highlighted
                await pilot.press(*keys)
                await settle(pilot)
            await pilot.press("L")  # the reading lists: name and description
            await settle(pilot)
            assert isinstance(app.screen, ListsScreen)
            await pilot.press("enter")  # the list opened
            await settle(pilot)
            assert isinstance(app.screen, ReadingListScreen)
            await pilot.press("escape", "x")  # the export dialog: a file name from the name
            await settle(pilot)
            await pilot.press("escape", "escape", "escape", "?")
            await settle(pilot)
            assert isinstance(app.screen, HelpScreen)
            app.notify(lib.reading_lists()[0].name)  # a notification holding data
            await settle(pilot)
    finally:
        lib.close()
    output = terminal_output(app)
    assert "Hostile" in output and "paper title" in output and "Readinglist" in output
    assert_inert(output)
