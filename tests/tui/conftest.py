"""TUI fixtures: a real library in tmp, the app built on it with a config file of the test's."""

from __future__ import annotations

import shutil
from collections.abc import AsyncIterator, Callable, Iterator
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from pathlib import Path

import pytest
import yaml
from frame_log import FrameLog
from settling import settle_app
from textual.pilot import Pilot

from paper_tui import config as config_mod
from paper_tui.library import Library
from paper_tui.tui.app import PaperApp

MakeApp = Callable[..., PaperApp]
Started = Callable[..., AbstractAsyncContextManager[tuple[PaperApp, Pilot]]]


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


@pytest.fixture
def settle() -> Callable[[Pilot], object]:
    """``await settle(pilot)``: let pending searches finish and reach the screen."""
    return settle_app


@pytest.fixture
def started(make_app: MakeApp) -> Started:
    """``async with started(size=(w, h), logged=False, **config) as (app, pilot)``: the app
    of ``make_app(**config)`` running headless at ``size`` (120x40 unless told), its first
    search on screen. ``logged``: the app keeps every frame it draws (:class:`FrameLog`)."""

    @asynccontextmanager
    async def start(size: tuple[int, int] = (120, 40), logged: bool = False,
                    **config) -> AsyncIterator[tuple[PaperApp, Pilot]]:
        app = make_app(**config)
        if logged:
            app = FrameLog(app.library, app.config)
        async with app.run_test(size=size) as pilot:
            await settle_app(pilot)
            yield app, pilot

    return start
