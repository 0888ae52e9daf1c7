"""Shared fixtures. No test touches the real home directory or ../shared."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

import forked_cli
from http_replay import ReplayServer
from paper_tui import config as config_mod
from paper_tui import paths
from paper_tui.library import Library
from slow_tests import SLOW

TESTS = Path(__file__).parent
TEST_DATA = TESTS / "data"


def _slow_rank(item: pytest.Item) -> int:
    """The test's place in ``SLOW`` (len(SLOW) when it is not there)."""
    module = item.path.relative_to(TESTS).as_posix()
    function = item.originalname if isinstance(item, pytest.Function) else item.name
    for rank, name in enumerate(SLOW):
        if name in (module, f"{module}::{function}"):
            return rank
    return len(SLOW)


def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
    """``-n auto``: two workers per core. A test spends about 40% of its time waiting (on
    the commands, git and tmux it starts, on the app's frames), so one worker per core left
    the cores idle that long (a full run: 751 s of CPU in 648 s on 2 cores)."""
    return min(2 * (os.cpu_count() or 1), 8)  # each worker holds a fork server and apps


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark the tests of ``slow_tests.SLOW`` and run them first, longest first (a stable
    sort: the rest keep their order)."""
    ranks = {item.nodeid: _slow_rank(item) for item in items}
    for item in items:
        if ranks[item.nodeid] < len(SLOW):
            item.add_marker(pytest.mark.slow)
    items.sort(key=lambda item: ranks[item.nodeid])


@pytest.fixture(scope="session", autouse=True)
def _fork_server_ended() -> Iterator[None]:
    """The session's end ends this process's fork server and the commands it still runs
    (:mod:`forked_cli`; not left to ``atexit``, which a worker killed never reaches)."""
    yield
    forked_cli.stop_server()


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


@pytest.fixture(scope="session")
def bundled_library(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The bundled list imported and indexed once per session (and per xdist worker);
    tests get a copy, never this one."""
    root = tmp_path_factory.mktemp("bundled") / "library"
    Library.open(root, config=config_mod.defaults()).close()
    return root


@pytest.fixture(scope="session")
def bundled_ids(bundled_library: Path, tmp_path_factory: pytest.TempPathFactory) -> list[str]:
    """The ids of the bundled list's papers, in the library's order (read from a copy)."""
    root = tmp_path_factory.mktemp("bundled-ids") / "library"
    shutil.copytree(bundled_library, root)
    with Library.open(root, config=config_mod.defaults()) as lib:
        return [p.id for p in lib.papers()]


@pytest.fixture
def lib_dir(bundled_library: Path, library_dir: Path) -> Path:
    """A fresh library directory holding the bundled list, for a command to open itself."""
    shutil.copytree(bundled_library, library_dir)
    return library_dir


@pytest.fixture
def library(bundled_library: Path, library_dir: Path) -> Iterator[Library]:
    """A fresh library holding the bundled NeurIPS 2026 list (38 papers): a copy of the
    session's, which is what opening a new library would import (~0.05 s instead of ~0.7)."""
    shutil.copytree(bundled_library, library_dir)
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


@pytest.fixture
def http_replay() -> Iterator[ReplayServer]:
    """A real HTTP server on 127.0.0.1 replaying recorded responses (:mod:`http_replay`)."""
    server = ReplayServer()
    yield server
    server.stop()
