"""Config layering: shipped defaults <- user file <- --config, bad keys fall back."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest
import yaml

from paper_tui import config, paths


def test_shipped_file_has_every_default() -> None:
    cfg = config.defaults()
    assert cfg.problems == []
    assert cfg["bundled_lists"] is True
    assert paths.default_config_file().name == "config.yaml"


def test_user_file_overrides_key_by_key(tmp_path: Path) -> None:
    user = tmp_path / "user.yaml"
    user.write_text("bundled_lists: false\n")
    cfg = config.load(user_file=user)
    assert cfg["bundled_lists"] is False
    assert cfg["library"] == ""


def test_explicit_file_wins_over_user_file(tmp_path: Path) -> None:
    user = tmp_path / "user.yaml"
    user.write_text("library: /from/user\n")
    explicit = tmp_path / "explicit.yaml"
    explicit.write_text("library: /from/explicit\n")
    assert config.load(explicit, user_file=user)["library"] == "/from/explicit"


def test_invalid_yaml_names_file_line_and_column(tmp_path: Path) -> None:
    user = tmp_path / "user.yaml"
    user.write_text("library: [unclosed\n")
    cfg = config.load(user_file=user)
    assert cfg["library"] == ""
    assert len(cfg.problems) == 1
    assert cfg.problems[0].startswith(f"{user}:2:1: not valid YAML")


def test_wrong_type_and_unknown_key(tmp_path: Path) -> None:
    user = tmp_path / "user.yaml"
    user.write_text("bundled_lists: 3\ncolour: blue\nsearch:\n  # a comment\n  bogus: 1\n"
                    "keymap:\n  star: [1]\n")
    cfg = config.load(user_file=user)
    assert cfg["bundled_lists"] is True
    assert cfg.problems == [  # each names its file, line and key
        f"{user}:1: bundled_lists must be bool, not 3; using the default True",
        f"{user}:2: unknown key 'colour'; ignored",
        f"{user}:5: unknown key 'search.bogus'; ignored",
        f"{user}:7: keymap.star must be a string of keys; ignored"]


def test_missing_explicit_file_is_reported(tmp_path: Path) -> None:
    cfg = config.load(tmp_path / "nope.yaml", user_file=tmp_path / "absent.yaml")
    assert cfg.problems == [f"{tmp_path / 'nope.yaml'}: no such config file; using defaults"]


def _keys(node: object, prefix: str = "") -> set[str]:
    """Dotted keys of a settings dataclass or a YAML mapping (the keymap is one key)."""
    if dataclasses.is_dataclass(node):
        items = [(config.key_of(f.name), getattr(node, f.name))  # import_: import
                 for f in dataclasses.fields(node)]
    elif isinstance(node, dict):
        items = list(node.items())
    else:
        return {prefix.rstrip(".")}
    return {key for name, value in items
            for key in ({f"{prefix}{name}"} if name == "keymap"
                        else _keys(value, f"{prefix}{name}."))}


def test_settings_are_every_documented_key() -> None:
    """Every key of the shipped config.yaml is a setting, and every setting a key there
    (where its default is, and only there)."""
    cfg = config.defaults()
    assert _keys(cfg.settings) == _keys(cfg.values)
    assert cfg.settings.search.sort == "relevance" and cfg.settings.keymap == {}


def test_settings_are_typed_once_and_frozen(tmp_path: Path) -> None:
    user = tmp_path / "user.yaml"
    user.write_text("citation_style: markdown\ntheme: nord\nkeymap: {star: '*'}\n"
                    "triage: {advance_after_triage: false}\n"
                    "search: {debounce_ms: 40, history_size: 7.0, sort: for-you}\n"
                    "sync: {every_minutes: 5}\n"
                    "fetch: {arxiv_url: 'http://127.0.0.1:9/', arxiv_delay_s: 0, retries: 1}\n")
    settings = config.load(user_file=user).settings
    assert settings == config.Settings(
        library="", bundled_lists=True, citation_style="markdown", theme="nord",
        keymap={"star": "*"}, triage=config.TriageSettings(advance_after_triage=False),
        search=config.SearchSettings(debounce_ms=40.0, history_size=7, sort="for-you",
                                     all_versions=False),
        sync=config.SyncSettings(every_minutes=5.0),
        fetch=config.FetchSettings(
            openreview_url="https://api2.openreview.net",
            openreview_v1_url="https://api.openreview.net",
            paperlists_url="https://raw.githubusercontent.com/papercopilot/paperlists/main",
            arxiv_url="http://127.0.0.1:9", dblp_url="https://dblp.org", arxiv_delay_s=0.0,
            timeout_s=30.0, retries=1, retry_delay_s=2.0, max_wait_s=300.0,
            deadline_s=900.0, min_bytes_per_s=1024.0))
    assert isinstance(settings.search.history_size, int)
    with pytest.raises(dataclasses.FrozenInstanceError):
        settings.theme = "paper-light"  # type: ignore[misc]
    with pytest.raises(TypeError):
        settings.keymap["star"] = "s"  # type: ignore[index]


def test_a_value_outside_its_choices_is_said_once_and_keeps_its_default(tmp_path: Path
                                                                        ) -> None:
    user = tmp_path / "user.yaml"
    user.write_text("citation_style: ''\nsearch: {sort: random, debounce_ms: -5}\n")
    cfg = config.load(user_file=user)
    assert cfg.settings.citation_style == "bibtex"
    assert cfg.settings.search.sort == "relevance"
    assert cfg.settings.search.debounce_ms == 0
    assert cfg.problems == [
        "config search.sort: must be one of relevance, year, title, rating, citations, "
        "consensus, rating-change, team, for-you, not 'random'; using relevance",
        "config: citation_style is empty; using bibtex"]
    cfg = config.load(user_file=tmp_path / "absent.yaml")
    assert cfg.settings.citation_style == "bibtex" and cfg.problems == []
    for sort in ("rating", "citations", "consensus"):  # the venue's numbers
        user.write_text(f"search: {{sort: {sort}}}\n")
        cfg = config.load(user_file=user)
        assert cfg.settings.search.sort == sort and cfg.problems == []


def _shown(default: object) -> str:
    """A default as the README's table writes it: as YAML would."""
    if isinstance(default, bool):
        return "true" if default else "false"
    if isinstance(default, tuple):
        return "[]" if not default else f"[{', '.join(map(str, default))}]"
    if isinstance(default, dict | type(config.Settings().keymap)):
        return "{}"
    return '""' if default == "" else str(default)


def readme_table() -> str:
    """The README's table of settings, made from their declarations."""
    rows = ["| key | default | what |", "|---|---|---|"]
    rows += [f"| `{s.key}` | `{_shown(s.default)}` | {s.doc} |" for s in config.SETTINGS]
    return "\n".join(rows) + "\n"


def test_every_setting_is_declared_once_with_its_meaning() -> None:
    """One declaration a key (:func:`config.setting`): the settings dataclasses' fields
    are the keys, each with a one-line doc; the open mappings are the keymap."""
    assert _keys(config.Settings()) == {s.key for s in config.SETTINGS}
    assert len({s.key for s in config.SETTINGS}) == len(config.SETTINGS)
    assert all(s.doc and "\n" not in s.doc and "|" not in s.doc for s in config.SETTINGS)
    assert {"keymap"} == config.OPEN_MAPPINGS


def test_the_shipped_file_and_the_readme_say_the_declared_defaults() -> None:
    shipped = yaml.safe_load(paths.default_config_file().read_text("utf-8"))
    assert shipped == config.default_values()
    readme = Path(__file__).parents[1].joinpath("README.md").read_text("utf-8")
    assert readme_table() in readme, "the README's config table, from the declarations:\n" \
        + readme_table()
