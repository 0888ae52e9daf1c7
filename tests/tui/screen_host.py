"""A tiny host app for the screens tested alone: pushes one screen and records what it returns."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from textual.app import App, ComposeResult
from textual.screen import Screen
from textual.widgets import Label

from paper_tui import config as config_mod
from paper_tui.library import Library


class Host(App[None]):
    def __init__(self, make_screen: Callable[[], Screen]) -> None:
        super().__init__()
        self.make_screen = make_screen
        self.returned: list[Any] = []

    def compose(self) -> ComposeResult:
        yield Label("host")

    def on_mount(self) -> None:
        self.push_screen(self.make_screen(), self.returned.append)


def reopened(library_dir: Path) -> Library:
    """The library as a fresh process sees it: everything read back from disk."""
    return Library.open(library_dir, config=config_mod.defaults(), bundled=False)


def ids_of(lib: Library, n: int) -> list[str]:
    return [p.id for p in list(lib.papers())[:n]]
