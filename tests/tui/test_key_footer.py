"""The key footer shows the keys in force, and rebuilds only when they change."""

from __future__ import annotations

from textual.widgets._footer import FooterKey

from paper_tui.tui.widgets.footer import KeyFooter


def _keys(app) -> list[FooterKey]:
    return list(app.screen.query_one(KeyFooter).query(FooterKey))


def _shown(app) -> list[tuple[str, str]]:
    return [(key.key, key.description) for key in _keys(app)]


async def test_the_footer_follows_the_focus_and_is_kept_when_nothing_changed(started):
    async with started() as (app, pilot):
        main_keys = _shown(app)
        assert ("s", "Star") in main_keys
        widgets = _keys(app)
        app.screen.refresh_bindings()  # the bindings may have changed: they did not
        await pilot.pause()
        assert _keys(app) == widgets and all(a is b for a, b in zip(_keys(app), widgets,
                                                                     strict=True))
        await pilot.press("slash")  # into the search box: its keys, not triage's
        await pilot.pause()
        in_search = _shown(app)
        assert in_search != main_keys and ("s", "Star") not in in_search
        await pilot.press("escape")
        await pilot.pause()
        assert _shown(app) == main_keys


async def test_a_remapped_key_is_the_one_in_the_footer(started):
    async with started(keymap={"star": "S"}) as (app, _pilot):
        assert ("S", "Star") in _shown(app) and ("s", "Star") not in _shown(app)
