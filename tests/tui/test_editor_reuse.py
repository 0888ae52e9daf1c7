"""The app builds its tag and note editors once and reuses them: each open must still
start clean, on the paper asked for; and the search box stays usable for long queries."""

from __future__ import annotations

from textual.widgets import Input, Label, OptionList, TextArea

from paper_tui.tui.screens.confirm import Confirm
from paper_tui.tui.screens.note_editor import NoteEditor
from paper_tui.tui.screens.tag_editor import TagEditor
from paper_tui.tui.widgets.search_box import SearchBox


async def test_the_tag_editor_is_reused_and_starts_clean(started):
    async with started() as (app, pilot):
        await pilot.pause(0.4)  # the editors are built just after the first paint
        first = app.results_screen.current_paper()
        await pilot.press("t", *"rl", "enter")
        await pilot.pause()
        await pilot.press("t", *"half typed", "escape")  # Esc: nothing staged survives
        await pilot.pause()
        await pilot.press("j", "t")
        await pilot.pause()
        editor = app.screen
        second = app.results_screen.current_paper()
        assert isinstance(editor, TagEditor) and editor is app.get_screen("tag-editor")
        assert editor.focused is editor.query_one("#tag-input", Input)
        assert editor.query_one("#tag-input", Input).value == ""
        assert second.label in str(editor.query_one("#tag-title", Label).render())
        assert editor.query_one("#tag-current", OptionList).option_count == 0
        suggestions = editor.query_one("#tag-suggestions", OptionList)
        assert suggestions.get_option_at_index(0).id == "rl"  # the tag added a moment ago
        await pilot.press("tab", "enter")  # complete the suggestion, add it
        await pilot.pause()
    assert list(app.library.annotation(first.id).tags) == ["rl"]
    assert list(app.library.annotation(second.id).tags) == ["rl"]


async def test_the_note_editor_is_reused_and_still_guards_unsaved_text(started):
    async with started() as (app, pilot):
        first = app.results_screen.current_paper()
        await pilot.press("n")
        await pilot.pause()
        app.screen.query_one(TextArea).insert("kept")
        await pilot.press("ctrl+s", "j", "n")
        await pilot.pause()
        editor = app.screen
        assert isinstance(editor, NoteEditor) and editor.paper_id != first.id
        assert editor.text == "" and not editor.dirty
        assert editor.focused is editor.query_one(TextArea)
        editor.query_one(TextArea).insert("draft")
        await pilot.press("escape")  # unsaved text: asks first
        await pilot.pause()
        assert isinstance(app.screen, Confirm)
        await pilot.press("y")
        await pilot.pause()
        await pilot.press("k", "n")
        await pilot.pause()
        assert app.screen is editor and editor.paper_id == first.id
        assert editor.text == "kept" and not editor.dirty
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is app.screen_stack[0]
    assert app.library.annotation(first.id).note == "kept"


async def test_a_long_query_scrolls_the_search_box(started, settle):
    async with started(size=(80, 24)) as (app, pilot):
        await pilot.press("slash", *("graph " * 20).strip())
        await settle(pilot)
        box = app.query_one(SearchBox)
        assert box.value == ("graph " * 20).strip()
        assert box.scroll_offset.x > 0  # the cursor's end of the text is in view
        assert app.results_screen.results_list.results.query == box.value
        assert not app.main.search.searching
