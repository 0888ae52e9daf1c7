"""Shared fixtures. No test touches the real home directory or ../shared."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from paper_tui import config as config_mod
from paper_tui import paths
from paper_tui.library import Library

TEST_DATA = Path(__file__).parent / "data"


@pytest.fixture(autouse=True)
def isolated_home(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
                  ) -> Path:
    """Point every per-user location (data, config, cache) into a temp dir."""
    home = tmp_path_factory.mktemp("home")
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("XDG_DATA_HOME", str(home / ".local/share"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(home / ".config"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(home / ".cache"))
    monkeypatch.setenv("XDG_STATE_HOME", str(home / ".local/state"))
    monkeypatch.delenv("PAPER_TUI_HOME", raising=False)
    return home


@pytest.fixture
def bundled_dir() -> Path:
    return paths.bundled_data_dir()


@pytest.fixture
def library_dir(tmp_path: Path) -> Path:
    return tmp_path / "library"


@pytest.fixture
def library(library_dir: Path) -> Iterator[Library]:
    """A fresh library holding the bundled NeurIPS 2026 list (38 papers)."""
    lib = Library.open(library_dir, config=config_mod.defaults())
    yield lib
    lib.close()


@pytest.fixture
def copy_data(tmp_path: Path):
    """Copy a file from tests/data into tmp_path (so a test may modify or move it)."""

    def copy(name: str, dest_name: str | None = None) -> Path:
        dest = tmp_path / "input" / (dest_name or name)
        dest.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(TEST_DATA / name, dest)
        return dest

    return copy
