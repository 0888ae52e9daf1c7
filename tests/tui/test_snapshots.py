"""Snapshots of the main screen (80x24, 160x48) and the help screen.

Deterministic: the bundled list in a fresh temp library, the shipped paper-dark theme, no
clock on screen, searches settled before the shot. Update with ``pytest --snapshot-update``
after checking the new SVGs by eye.
"""

from __future__ import annotations

from textual.pilot import Pilot


def test_main_screen_80x24(make_app, snap_compare, settle):
    assert snap_compare(make_app(), terminal_size=(80, 24), run_before=settle)


def test_main_screen_160x48_after_a_search(make_app, snap_compare, settle):
    async def search(pilot: Pilot) -> None:
        await settle(pilot)
        await pilot.press("slash", *"language model", "enter", "j")
        await settle(pilot)

    assert snap_compare(make_app(), terminal_size=(160, 48), run_before=search)


def test_help_screen(make_app, snap_compare, settle):
    async def help_open(pilot: Pilot) -> None:
        await settle(pilot)
        await pilot.press("question_mark")
        await pilot.pause()

    assert snap_compare(make_app(), terminal_size=(120, 40), run_before=help_open)
