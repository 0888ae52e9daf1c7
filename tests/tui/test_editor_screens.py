"""Pilot tests for the tag editor, the note editor, the list picker and the confirm modal."""

from __future__ import annotations

from screen_host import Host, ids_of, reopened
from textual.widgets import OptionList, TextArea

from paper_tui.tui.screens.confirm import Confirm, Prompt
from paper_tui.tui.screens.list_picker import ListPicker
from paper_tui.tui.screens.note_editor import NoteEditor, quit_guarded
from paper_tui.tui.screens.tag_editor import TagEditor, fuzzy_tags, split_tags


def test_fuzzy_tags_and_split():
    counts = {"reinforcement-learning": 5, "robotics": 2, "to-cite": 9}
    assert fuzzy_tags("rl", counts, set())[0] == "reinforcement-learning"
    assert fuzzy_tags("", counts, set()) == ["to-cite", "reinforcement-learning", "robotics"]
    assert fuzzy_tags("", counts, {"to-cite"}) == ["reinforcement-learning", "robotics"]
    assert split_tags(" a, b c ,,") == ["a", "b c"]


async def test_tag_editor_adds_a_tag_and_it_is_on_disk(library, library_dir):
    pid = ids_of(library, 1)[0]
    app = Host(lambda: TagEditor(library, [pid]))
    async with app.run_test() as pilot:
        await pilot.press(*"robust", "enter")
        await pilot.pause()
    assert app.returned[0].added == ["robust"]
    library.annotations.flush()
    with reopened(library_dir) as again:
        assert list(again.annotations.get(pid).tags) == ["robust"]


async def test_tag_editor_completes_from_existing_tags(library):
    a, b = ids_of(library, 2)
    library.annotations.add_tags([a], ["reinforcement-learning"])
    app = Host(lambda: TagEditor(library, [b]))
    async with app.run_test() as pilot:
        await pilot.press("r", "n", "f")  # fuzzy: r..n..f
        suggestions = app.screen.query_one("#tag-suggestions", OptionList)
        assert suggestions.get_option_at_index(0).id == "reinforcement-learning"
        await pilot.press("tab", "enter")
        await pilot.pause()
    assert list(library.annotations.get(b).tags) == ["reinforcement-learning"]


async def test_tag_editor_escape_changes_nothing(library):
    pid = ids_of(library, 1)[0]
    library.annotations.add_tags([pid], ["keep"])
    app = Host(lambda: TagEditor(library, [pid]))
    async with app.run_test() as pilot:
        await pilot.press("ctrl+t", "d")  # stage removing "keep"
        await pilot.press("ctrl+t", *"new", "escape")
        await pilot.pause()
    assert app.returned == [None]
    assert list(library.annotations.get(pid).tags) == ["keep"]


async def test_tag_editor_removes_tags_on_a_selection(library, library_dir):
    ids = ids_of(library, 3)
    library.annotations.add_tags(ids, ["old", "stays"])
    app = Host(lambda: TagEditor(library, ids))
    async with app.run_test() as pilot:
        current = app.screen.query_one("#tag-current", OptionList)
        assert [o.id for o in current.options] == ["old", "stays"]
        await pilot.press("ctrl+t", "d")  # "old" is highlighted first
        await pilot.press("ctrl+t", *"bulk", "enter")
        await pilot.pause()
    change = app.returned[0]
    assert (change.added, change.removed) == (["bulk"], ["old"])
    library.annotations.flush()
    with reopened(library_dir) as again:
        for pid in ids:
            assert sorted(again.annotations.get(pid).tags) == ["bulk", "stays"]


async def test_note_editor_saves_with_ctrl_s(library, library_dir):
    pid = ids_of(library, 1)[0]
    app = Host(lambda: NoteEditor(library, pid))
    async with app.run_test() as pilot:
        app.screen.query_one(TextArea).insert("Read §3: the proof of\nLemma 2 — key: value")
        await pilot.press("ctrl+s")
        await pilot.pause()
    assert app.returned == [True]
    library.annotations.flush()
    with reopened(library_dir) as again:
        assert again.annotations.get(pid).note == "Read §3: the proof of\nLemma 2 — key: value"


async def test_note_editor_escape_asks_before_discarding(library):
    pid = ids_of(library, 1)[0]
    library.annotations.set_note(pid, "first")
    app = Host(lambda: NoteEditor(library, pid))
    async with app.run_test() as pilot:
        app.screen.query_one(TextArea).insert("draft ")
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, Confirm)
        await pilot.press("n")  # keep editing
        await pilot.pause()
        assert isinstance(app.screen, NoteEditor)
        assert app.screen.dirty
        await pilot.press("escape", "y")  # discard
        await pilot.pause()
    assert app.returned == [False]
    assert library.annotations.get(pid).note == "first"


async def test_note_editor_escape_without_changes_just_closes(library):
    pid = ids_of(library, 1)[0]
    app = Host(lambda: NoteEditor(library, pid))
    async with app.run_test() as pilot:
        await pilot.press("escape")
        await pilot.pause()
    assert app.returned == [False]


async def test_quitting_with_an_unsaved_note_asks_first(library):
    pid = ids_of(library, 1)[0]
    app = Host(lambda: NoteEditor(library, pid))
    async with app.run_test() as pilot:
        app.screen.query_one(TextArea).insert("unsaved thought")
        quit_guarded(app)
        await pilot.pause()
        assert isinstance(app.screen, Confirm)
        await pilot.press("n")
        await pilot.pause()
        assert app.is_running and isinstance(app.screen, NoteEditor)
        quit_guarded(app)
        await pilot.pause()
        await pilot.press("y")
        await pilot.pause()
        assert not app.is_running
    assert library.annotations.get(pid).note == ""


async def test_list_picker_makes_a_new_list_and_adds_to_an_old_one(library, library_dir):
    ids = ids_of(library, 3)
    app = Host(lambda: ListPicker(library, ids[:2]))
    async with app.run_test() as pilot:
        await pilot.press(*"to read", "enter")
        await pilot.pause()
    assert app.returned == ["to read"]
    library.create_list("survey")
    app = Host(lambda: ListPicker(library, [ids[2]]))
    async with app.run_test() as pilot:
        box = app.screen.query_one("#list-options", OptionList)
        assert [o.id for o in box.options] == ["survey", "to read"]
        await pilot.press(*"tr", "enter")  # the filter narrows to "to read"
        await pilot.pause()
    assert app.returned == ["to read"]
    library.annotations.flush()
    with reopened(library_dir) as again:
        assert list(again.reading_list("to read").ids) == ids
        assert list(again.reading_list("survey").ids) == []


async def test_list_picker_escape_adds_nothing(library):
    pid = ids_of(library, 1)[0]
    app = Host(lambda: ListPicker(library, [pid]))
    async with app.run_test() as pilot:
        await pilot.press(*"nope", "escape")
        await pilot.pause()
    assert app.returned == [None]
    assert list(library.reading_lists()) == []


async def test_prompt_checks_and_returns_text():
    app = Host(lambda: Prompt("Name", check=lambda t: "taken" if t == "a" else None))
    async with app.run_test() as pilot:
        await pilot.press("enter")  # empty: stays open
        await pilot.press("a", "enter")  # taken: stays open
        await pilot.pause()
        assert isinstance(app.screen, Prompt)
        await pilot.press("b", "enter")
        await pilot.pause()
    assert app.returned == ["ab"]
