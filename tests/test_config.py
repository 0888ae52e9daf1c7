"""Config layering: shipped defaults <- user file <- --config, bad keys fall back."""

from __future__ import annotations

from pathlib import Path

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
    user.write_text("bundled_lists: 3\ncolour: blue\n")
    cfg = config.load(user_file=user)
    assert cfg["bundled_lists"] is True
    assert any("bundled_lists must be bool" in p for p in cfg.problems)
    assert any("unknown key 'colour'" in p for p in cfg.problems)


def test_missing_explicit_file_is_reported(tmp_path: Path) -> None:
    cfg = config.load(tmp_path / "nope.yaml", user_file=tmp_path / "absent.yaml")
    assert cfg.problems == [f"{tmp_path / 'nope.yaml'}: no such config file; using defaults"]
