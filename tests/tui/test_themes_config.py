"""Themes from YAML (shipped, user, broken), the persisted choice, and config problems."""

from __future__ import annotations

from pathlib import Path

from paper_tui import paths
from paper_tui.tui import themes


def test_shipped_themes_load():
    found, problems = themes.load_themes([paths.shipped_themes_dir()])
    names = {t.name for t in found}
    assert {"paper-dark", "paper-light", "paper-high-contrast"} <= names
    assert problems == []


def test_a_broken_theme_file_is_skipped_with_a_message(tmp_path: Path):
    (tmp_path / "ok.yaml").write_text("name: mine\nprimary: '#123456'\n")
    (tmp_path / "bad-yaml.yaml").write_text("name: [oops\n")
    (tmp_path / "no-primary.yaml").write_text("name: x\n")
    (tmp_path / "bad-colour.yaml").write_text("name: y\nprimary: not-a-colour\n")
    (tmp_path / "unknown.yml").write_text("name: z\nprimary: red\nfoo: 1\n")
    (tmp_path / "notes.txt").write_text("ignored")
    found, problems = themes.load_themes([tmp_path])
    assert [t.name for t in found] == ["mine"]
    assert len(problems) == 4
    joined = "\n".join(problems)
    for name, why in (("bad-yaml.yaml", "not valid YAML"), ("no-primary.yaml", "'primary'"),
                      ("bad-colour.yaml", "not a colour"), ("unknown.yml", "'foo'")):
        assert name in joined and why in joined


def test_the_chosen_theme_is_saved_atomically_and_read_back():
    assert themes.saved_theme() is None
    themes.save_theme("paper-light")
    assert themes.saved_theme() == "paper-light"
    assert (paths.user_config_dir() / themes.STATE_FILE).read_text().count("paper-light") == 1


async def test_app_uses_user_themes_and_persists_the_picked_one(started, make_app, settle):
    user_dir = paths.user_themes_dir()
    user_dir.mkdir(parents=True)
    (user_dir / "sepia.yaml").write_text("name: sepia\nprimary: '#704214'\ndark: false\n")
    (user_dir / "broken.yaml").write_text(": : :\n")
    async with started(size=(80, 24), theme="sepia") as (app, pilot):
        assert app.theme == "sepia"
        assert any("broken.yaml" in p for p in app.problems)
        app.theme = "paper-high-contrast"
        await settle(pilot)
    assert themes.saved_theme() == "paper-high-contrast"
    again = make_app(theme="sepia")
    async with again.run_test(size=(80, 24)) as pilot:
        assert again.theme == "paper-high-contrast"


async def test_bad_config_values_fall_back_with_one_message_each(started):
    async with started(size=(80, 24), theme="no-such-theme",
                       search={"sort": "random", "debounce_ms": "soon"}) as (app, _pilot):
        assert app.theme == "paper-dark"
        assert app.main.search.sort == "relevance"
        problems = "\n".join(app.problems)
        assert "no-such-theme" in problems
        assert "search.sort" in problems
        assert "search.debounce_ms" in problems
        assert len(app.problems) == 3
