"""Themes: YAML files registered with Textual, and the theme the reader last chose.

A theme file names a Textual :class:`~textual.theme.Theme` field by field::

    name: paper-dark
    dark: true
    primary: "#5FA8D3"
    background: "#15181E"
    variables: {block-cursor-text-style: bold}

Shipped themes live in ``themes/`` (``paths.shipped_themes_dir()``); the user's in
``paths.user_themes_dir()`` add to them (a user file with a shipped name replaces it). A file
that does not parse, lacks ``name``/``primary`` or holds a colour Textual cannot read is
skipped with one message naming it.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import fields
from pathlib import Path

import yaml
from textual.color import Color, ColorParseError
from textual.theme import Theme

from paper_tui import paths
from paper_tui.config import SafeLoader
from paper_tui.trust import atomic

_COLOR_FIELDS = ("primary", "secondary", "warning", "error", "success", "accent",
                 "foreground", "background", "surface", "panel", "boost")
_FIELDS = {f.name for f in fields(Theme)}
STATE_FILE = "state.yaml"


def load_theme_file(path: Path) -> Theme:
    """One theme file -> a Theme; ValueError with a one-line reason when it is unusable."""
    try:
        data = yaml.load(path.read_text("utf-8"), Loader=SafeLoader)
    except OSError as exc:
        raise ValueError(f"cannot read ({exc.strerror})") from None
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f"line {mark.line + 1}: " if mark else ""
        raise ValueError(f"{where}not valid YAML") from None
    if not isinstance(data, dict):
        raise ValueError("expected a mapping of theme fields")
    unknown = sorted(set(data) - _FIELDS)
    if unknown:
        raise ValueError(f"unknown field {unknown[0]!r}")
    for key in ("name", "primary"):
        if not isinstance(data.get(key), str) or not data[key].strip():
            raise ValueError(f"{key!r} is required")
    for key in _COLOR_FIELDS:
        if data.get(key) is not None:
            try:
                Color.parse(str(data[key]))
            except ColorParseError:
                raise ValueError(f"{key}: {data[key]!r} is not a colour") from None
    variables = data.get("variables") or {}
    if not isinstance(variables, dict):
        raise ValueError("'variables' must be a mapping")
    data["variables"] = {str(k): str(v) for k, v in variables.items()}
    return Theme(**data)


def load_themes(directories: Iterable[Path]) -> tuple[list[Theme], list[str]]:
    """Every usable ``*.yaml``/``*.yml`` theme in ``directories``, and a message per bad file."""
    themes: dict[str, Theme] = {}
    problems: list[str] = []
    for directory in directories:
        if not directory.is_dir():
            continue
        for path in sorted(directory.iterdir()):
            if path.suffix not in (".yaml", ".yml"):
                continue
            try:
                theme = load_theme_file(path)
            except ValueError as exc:
                problems.append(f"theme {path}: {exc}; skipped")
                continue
            themes[theme.name] = theme
    return list(themes.values()), problems


def theme_dirs() -> list[Path]:
    return [paths.shipped_themes_dir(), paths.user_themes_dir()]


def _state_file() -> Path:
    return paths.user_config_dir() / STATE_FILE


def _saved_state() -> dict:
    """The app's state file as a mapping (empty when it is missing or unreadable)."""
    try:
        data = yaml.load(_state_file().read_text("utf-8"), Loader=SafeLoader)
    except (OSError, yaml.YAMLError):
        return {}
    return data if isinstance(data, dict) else {}


def saved_theme() -> str | None:
    """The theme the reader last picked in the app (it wins over the config's ``theme``)."""
    value = _saved_state().get("theme")
    return value if isinstance(value, str) else None


def save_theme(name: str) -> None:
    """Remember the chosen theme (atomically, in the user's config directory)."""
    state = _saved_state()
    state["theme"] = name
    atomic.write_text(_state_file(), "# paper-tui remembers the app's state here; safe to delete.\n"
                      + yaml.safe_dump(state, sort_keys=True))
