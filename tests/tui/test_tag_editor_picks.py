"""The tag editor keeps what was typed when a suggestion is picked, Enter applies from the
list of the paper's tags, and the message after tagging names the tags as saved."""

from __future__ import annotations

import pytest
from screen_host import Host, ids_of, reopened
from test_editing_keys import messages
from textual.widgets import OptionList

from paper_tui.tui.screens.tag_editor import TagChange, TagEditor


def _highlighted(app: Host) -> str:
    option = app.screen.query_one("#tag-suggestions", OptionList).highlighted_option
    assert option is not None
    return str(option.id)


@pytest.mark.parametrize(("typed", "tags"), [
    ("foo,", ("ML", "vision")),  # after a comma: the pick is one more tag
    ("foo, ba", ("bayes", "batch")),  # mid-word: the pick takes the word's place
])
async def test_a_picked_suggestion_keeps_the_tags_typed(library, typed: str,
                                                       tags: tuple[str, str]):
    a, b, c = ids_of(library, 3)
    library.annotations.add_tags([a, b], [tags[0]])
    library.annotations.add_tags([b], [tags[1]])
    app = Host(lambda: TagEditor(library, [c]))
    async with app.run_test() as pilot:
        await pilot.press(*typed, "down")
        picked = _highlighted(app)
        await pilot.press("enter")
        await pilot.pause()
    assert picked in tags
    assert app.returned[0].added == ["foo", picked]
    assert list(library.annotations.get(c).tags) == ["foo", picked]


async def test_enter_in_the_tags_here_list_applies(library, library_dir):
    pid = ids_of(library, 1)[0]
    library.annotations.add_tags([pid], ["old", "stays"])
    app = Host(lambda: TagEditor(library, [pid]))
    async with app.run_test() as pilot:
        await pilot.press(*"new", "ctrl+t", "d", "enter")  # "old" is highlighted first
        await pilot.pause()
        assert not isinstance(app.screen, TagEditor)
    change = app.returned[0]
    assert (change.added, change.removed) == (["new"], ["old"])
    library.annotations.flush()
    with reopened(library_dir) as again:
        assert list(again.annotations.get(pid).tags) == ["stays", "new"]


async def test_the_message_names_the_tags_as_saved(started):
    async with started() as (app, pilot):
        paper = app.results_screen.current_paper()
        await pilot.press("t")
        await pilot.pause()
        assert isinstance(app.screen, TagEditor)
        await pilot.press(*"  ML ,  reading   group, ml", "enter")
        await pilot.pause()
        assert list(app.library.annotation(paper.id).tags) == ["ML", "reading group"]
        assert "Tagged ML, reading group (1 paper)" in messages(app)


def test_the_summary_keeps_the_spelling_of_tags():
    change = TagChange(["a", "b"], added=["ML", "to cite"], removed=["RL"])
    assert change.summary() == "Tagged ML, to cite; untagged RL (2 papers)"
