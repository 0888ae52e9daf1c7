"""TUI fixtures: a real library in tmp, the app built on it with a config file of the test's."""

from __future__ import annotations

import shutil
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
import yaml
from textual.pilot import Pilot

from paper_tui import config as config_mod
from paper_tui.library import Library
from paper_tui.tui.app import PaperApp

MakeApp = Callable[..., PaperApp]


@pytest.fixture(scope="session")
def bundled_library(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The bundled list imported and indexed once per session (tests get a copy)."""
    root = tmp_path_factory.mktemp("bundled") / "library"
    Library.open(root, config=config_mod.defaults()).close()
    return root


@pytest.fixture
def make_app(bundled_library: Path, library_dir: Path, tmp_path: Path) -> Iterator[MakeApp]:
    """``make_app(**config_overrides)``: the app on a fresh library of the bundled list.

    Overrides go through a real config file, the same path a user's file takes."""
    opened: list[Library] = []
    shutil.copytree(bundled_library, library_dir)

    def make(**overrides) -> PaperApp:
        explicit = None
        if overrides:
            explicit = tmp_path / f"config-{len(opened)}.yaml"
            explicit.write_text(yaml.safe_dump(overrides))
        cfg = config_mod.load(explicit)
        lib = Library.open(library_dir, config=cfg)
        opened.append(lib)
        return PaperApp(lib, cfg)

    yield make
    for lib in opened:
        lib.close()


async def _settle(pilot: Pilot) -> None:
    await pilot.pause()
    await pilot.app.workers.wait_for_complete()
    await pilot.pause()


@pytest.fixture
def settle() -> Callable[[Pilot], object]:
    """``await settle(pilot)``: let pending searches finish and reach the screen."""
    return _settle
