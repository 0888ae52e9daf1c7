"""Snapshots of the main screen (80x24, 160x48), the help screen, and the abstract view of
a paper the venue says much about.

Deterministic: the bundled list in a fresh temp library, the shipped paper-dark theme, no
clock on screen, searches settled before the shot. Update with ``pytest --snapshot-update``
after checking the new SVGs by eye.
"""

from __future__ import annotations

from textual.pilot import Pilot

from venue_helpers import CORL, PAPERS


async def _settled(pilot: Pilot) -> None:
    await pilot.pause()
    await pilot.app.workers.wait_for_complete()
    await pilot.pause()


def test_main_screen_80x24(make_app, snap_compare):
    assert snap_compare(make_app(), terminal_size=(80, 24), run_before=_settled)


def test_main_screen_160x48_after_a_search(make_app, snap_compare):
    async def search(pilot: Pilot) -> None:
        await _settled(pilot)
        await pilot.press("slash", *"language model", "enter", "j")
        await _settled(pilot)

    assert snap_compare(make_app(), terminal_size=(160, 48), run_before=search)


def test_help_screen(make_app, snap_compare):
    async def help_open(pilot: Pilot) -> None:
        await _settled(pilot)
        await pilot.press("question_mark")
        await pilot.pause()

    assert snap_compare(make_app(), terminal_size=(120, 40), run_before=help_open)


def test_what_the_venue_says_in_the_rows_and_the_abstract_view(make_app, snap_compare):
    async def orals_by_rating(pilot: Pilot) -> None:
        await _settled(pilot)
        pilot.app.library.index.add(PAPERS)
        await pilot.press("slash", *"decision:oral", "enter")
        await _settled(pilot)
        while pilot.app.results_screen.current_paper() != CORL:
            await pilot.press("j")
        await _settled(pilot)

    assert snap_compare(make_app(search={"sort": "rating"}), terminal_size=(120, 36),
                        run_before=orals_by_rating)
