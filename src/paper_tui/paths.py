"""Where things live: the library directory, the user's config and themes, shipped data."""

from __future__ import annotations

import os
from pathlib import Path

import platformdirs

APP = "paper-tui"
_PACKAGE = Path(__file__).resolve().parent
_REPO = _PACKAGE.parent.parent  # src/paper_tui -> repo root, when running from a checkout


def _shipped(name: str) -> Path:
    """A file that lives at the repo's top level and ships inside the wheel as package data."""
    inside = _PACKAGE / "_shipped" / name
    return inside if inside.exists() else _REPO / name


def bundled_data_dir() -> Path:
    """The bundled NeurIPS 2026 list."""
    return _shipped("data") / "neurips-2026"


def default_config_file() -> Path:
    """The documented ``config.yaml`` with every key at its default."""
    return _shipped("config.yaml")


def shipped_themes_dir() -> Path:
    return _shipped("themes")


def library_dir(explicit: str | os.PathLike[str] | None = None) -> Path:
    """``--library`` wins, then ``PAPER_TUI_HOME``, then the config's ``library``, then the
    platform's user data directory."""
    if explicit:
        return Path(explicit).expanduser()
    env = os.environ.get("PAPER_TUI_HOME")
    if env:
        return Path(env).expanduser()
    return Path(platformdirs.user_data_dir(APP))


def user_config_dir() -> Path:
    return Path(platformdirs.user_config_dir(APP))


def user_config_file() -> Path:
    return user_config_dir() / "config.yaml"


def user_themes_dir() -> Path:
    return user_config_dir() / "themes"


def user_cache_dir() -> Path:
    """Caches that belong to no library (the CSL styles' titles): delete at any time."""
    return Path(platformdirs.user_cache_dir(APP))


def crash_log_dir() -> Path:
    """Where tracebacks of unexpected errors go (the platform's per-user log dir)."""
    return Path(platformdirs.user_log_dir(APP))
