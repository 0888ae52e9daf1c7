"""Snapshots of every screen and dialog: the main screen (80x24, 160x48, the facets panel
open, the light and high-contrast themes), help, the reading lists, an opened list, the
tag and note editors, the list and style pickers, the export dialog, a confirmation; and
the rows and the abstract view of papers the venue says much about; the status line's news
after a fetch of the watches.

Deterministic: the bundled list in a fresh temp library, the shipped paper-dark theme, no
clock on screen, searches settled before the shot. Update with ``pytest --snapshot-update``
after checking the new SVGs by eye (as PNG: ``rsvg-convert FILE.svg -o FILE.png``).
"""

from __future__ import annotations

from textual.pilot import Pilot
from textual.widgets import TextArea

from venue_helpers import CORL, PAPERS


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


# -- every other screen and dialog, on a library with reading lists, tags and a note ----

SIZE = (120, 36)


def _with_lists(app) -> None:
    """Two reading lists (one described), tags on three papers, a note on the first."""
    lib = app.library
    ids = [p.id for p in list(lib.papers())[:5]]
    lib.create_list("survey", "papers for the related-work section")
    lib.add_to_list("survey", ids[:3])
    lib.create_list("later")
    lib.add_to_list("later", ids[3:])
    lib.add_tags(ids[:3], ["rl", "to cite"])
    lib.add_tags(ids[:1], ["benchmark"])
    lib.set_note(ids[0], "Compare with the baseline in section 4.")


def _snap(make_app, snap_compare, settle, keys: list[str], size=SIZE, blinked=False,
          **config) -> bool:
    """The app (with :func:`_with_lists`) after ``keys``, settled. ``blinked``: the
    editors drawn once in the hidden half of the cursor's blink first (what a loaded
    machine does: settling takes longer than the blink's half second)."""
    app = make_app(**config)
    _with_lists(app)

    async def run_before(pilot: Pilot) -> None:
        await settle(pilot)
        for key in keys:
            await pilot.press(key)
            await settle(pilot)
        if blinked:
            for box in pilot.app.screen.query(TextArea):
                box._cursor_visible = False  # the blink timer's hidden half
            await pilot.pause()
        for box in pilot.app.screen.query("Input, TextArea"):
            box.cursor_blink = False  # the cursor shown, whenever the shot is taken
            if isinstance(box, TextArea):
                # Textual's TextArea keys its cached lines by the cursor only while it
                # blinks: a line drawn in the blink's hidden half would be shown again,
                # without the cursor. Drawn afresh instead.
                box.notify_style_update()
        await pilot.pause()

    return snap_compare(app, terminal_size=size, run_before=run_before)


def test_reading_lists_screen(make_app, snap_compare, settle):
    assert _snap(make_app, snap_compare, settle, ["L"])


def test_an_opened_reading_list(make_app, snap_compare, settle):
    assert _snap(make_app, snap_compare, settle, ["L", "enter"])


def test_tag_editor(make_app, snap_compare, settle):
    assert _snap(make_app, snap_compare, settle, ["t"])


def test_note_editor(make_app, snap_compare, settle):
    assert _snap(make_app, snap_compare, settle, ["n"])


def test_note_editor_shot_after_the_cursor_blinked(make_app, snap_compare, settle):
    """The same picture as :func:`test_note_editor` (its cursor cell differed under load)."""
    assert _snap(make_app, snap_compare, settle, ["n"], blinked=True)


def test_list_picker(make_app, snap_compare, settle):
    assert _snap(make_app, snap_compare, settle, ["a"])


def test_style_picker(make_app, snap_compare, settle):
    assert _snap(make_app, snap_compare, settle, ["C"])


def test_export_dialog(make_app, snap_compare, settle, monkeypatch):
    monkeypatch.chdir("/")  # the dialog names the folder files are written in
    assert _snap(make_app, snap_compare, settle, ["L", "x"])


def test_confirm(make_app, snap_compare, settle):
    assert _snap(make_app, snap_compare, settle, ["L", "D"])


def test_facets_panel_open(make_app, snap_compare, settle):
    assert _snap(make_app, snap_compare, settle, ["f"])


def test_light_theme(make_app, snap_compare, settle):
    assert _snap(make_app, snap_compare, settle, ["j"], theme="paper-light")


def test_high_contrast_theme(make_app, snap_compare, settle):
    assert _snap(make_app, snap_compare, settle, ["j"], theme="paper-high-contrast")


def test_an_opened_reading_list_80x24(make_app, snap_compare, settle):
    assert _snap(make_app, snap_compare, settle, ["L", "enter"], size=(80, 24))


def test_what_the_venue_says_in_the_rows_and_the_abstract_view(make_app, snap_compare,
                                                               settle):
    async def orals_by_rating(pilot: Pilot) -> None:
        await settle(pilot)
        pilot.app.library.index.add(PAPERS)
        await pilot.press("slash", *"decision:oral", "enter")
        await settle(pilot)
        while pilot.app.results_screen.current_paper() != CORL:
            await pilot.press("j")
        await settle(pilot)

    assert snap_compare(make_app(search={"sort": "rating"}), terminal_size=(120, 36),
                        run_before=orals_by_rating)


def test_main_screen_says_what_the_watches_brought(make_app, snap_compare, settle):
    """After "Fetch watches": the status line's news, until a query looks at it."""
    async def news(pilot: Pilot) -> None:
        await settle(pilot)
        pilot.app.main.watch_news(12)
        await settle(pilot)

    assert snap_compare(make_app(), terminal_size=SIZE, run_before=news)
