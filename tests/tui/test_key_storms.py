"""The app survives any key sequence: seeded storms of random keys on every screen.

Each storm starts the app on a library with reading lists, tags and a note, walks to one
screen or dialog (the main screen, the reading lists, an opened list, each editor and
picker, the export dialog, a confirmation, a prompt, help, the facets panel, the command
palette), then sends random keys from a pool of every key bound anywhere in the app plus
letters, digits and the keys that move through lists, and now and then a paste of a long
text. Keys go in bursts through the terminal driver, as a real terminal hands them over
(a burst lands before the screen it opens has mounted), with pauses between some bursts.
A key that quits ends that app; the storm goes on in a new one. Any exception fails the
storm, naming its seed and the keys that led to it.

13 starts x 2 seeds x 160 keys: 4,160 keys, 2-4 minutes on 2 busy cores (marked slow:
``-m "not slow"`` leaves it out of a quick run).
"""

from __future__ import annotations

import random
import time
import traceback
from collections.abc import Iterator
from pathlib import Path

import pytest
from textual import events
from textual.app import App
from textual.binding import BindingsMap
from textual.command import CommandPalette
from textual.widgets import Input, OptionList, TextArea

from paper_tui.tui import textual_internals
from paper_tui.tui.app import PaperApp
from paper_tui.tui.screens.confirm import Confirm, Prompt
from paper_tui.tui.screens.export_dialog import ExportDialog
from paper_tui.tui.screens.help import HelpScreen
from paper_tui.tui.screens.list_picker import ListPicker
from paper_tui.tui.screens.lists_screen import ListsScreen, ReadingListScreen
from paper_tui.tui.screens.main import MainScreen
from paper_tui.tui.screens.note_editor import NoteEditor
from paper_tui.tui.screens.style_picker import StylePicker
from paper_tui.tui.screens.tag_editor import TagEditor
from paper_tui.tui.widgets.abstract import AbstractView
from paper_tui.tui.widgets.facets import FacetsPanel
from paper_tui.tui.widgets.results import ResultsList
from paper_tui.tui.widgets.search_box import SearchBox

BOUND_BY = (PaperApp, MainScreen, ListsScreen, ReadingListScreen, TagEditor, NoteEditor,
            ListPicker, StylePicker, ExportDialog, Confirm, Prompt, HelpScreen, ResultsList,
            AbstractView, SearchBox, FacetsPanel, OptionList, Input, TextArea, CommandPalette)
"""Every class whose keys the storms press: ours, and the Textual widgets we show."""

PASTE = "<paste>"
LONG_TEXT = ("attention diffusion (graph) \"policy\" title: year:2024 tag:x -not OR ~ "
             * 40)[:3000]
"""What a paste brings: words, operators and an open quote (about 3 KB; 100 KB is
:mod:`test_quit_while_searching`'s)."""

STARTS = {
    "main": [],
    "lists": ["L"],
    "opened list": ["L", "enter"],
    "tag editor": ["t"],
    "note editor": ["n", *"draft", "escape"],  # a dirty note: Esc asks first
    "list picker": ["a"],
    "style picker": ["C"],
    "export dialog": ["L", "x"],
    "confirm": ["L", "D"],
    "prompt": ["L", "r"],
    "help": ["question_mark"],
    "facets": ["f", "tab"],
    "palette": ["ctrl+p"],
}
"""Where each storm starts: the keys that get there from the main screen."""

SEEDS = (1, 2)
KEYS_PER_STORM = 160
MAX_BURST = 6


def bound_keys() -> set[str]:
    """Every key bound on the app's screens and widgets, Textual's own widgets included."""
    keys: set[str] = set()
    for cls in BOUND_BY:
        for klass in cls.__mro__:
            keys.update(BindingsMap(klass.__dict__.get("BINDINGS", [])).key_to_bindings)
    return keys


def key_pool() -> list[str]:
    letters = [chr(c) for c in range(ord("a"), ord("z") + 1)]
    extra = ["ctrl+p", "escape", "enter", "tab", "shift+tab", "pageup", "pagedown", "home",
             "end", "up", "down", "left", "right", "backspace", "delete", "space", PASTE]
    return sorted({*bound_keys(), *letters, *(c.upper() for c in letters),
                   *"0123456789", *extra})


def key_event(key: str) -> events.Key:
    """The event a terminal's driver posts for ``key`` (a printable one carries its
    character)."""
    named = {"space": " ", "question_mark": "?", "slash": "/", "asterisk": "*",
             "full_stop": ".", "comma": ",", "exclamation_mark": "!", "plus": "+",
             "minus": "-", "colon": ":", "number_sign": "#"}
    if len(key) == 1:
        return events.Key(key, key)
    return events.Key(key, named.get(key))


class Storm:
    """One seeded storm: the keys sent so far, and the app's first exception."""

    def __init__(self, seed: int, start: str) -> None:
        self.seed = seed
        self.start = start
        self.rng = random.Random(f"{start}/{seed}")
        self.sent: list[str] = []
        self.crashes: list[BaseException] = []
        self.apps = 0

    def watch(self, app: App) -> None:
        self.apps += 1
        textual_internals.report_crashes(app, self.crashes.append)

    def bursts(self, pool: list[str], count: int) -> Iterator[list[str]]:
        left = count
        while left > 0:
            burst = [self.rng.choice(pool) for _ in range(min(left, self.rng.randint(1,
                                                                                   MAX_BURST)))]
            left -= len(burst)
            yield burst

    def failure(self) -> str:
        where = "".join(traceback.format_exception(self.crashes[0])[-6:])
        return (f"storm {self.start!r} seed {self.seed}: {self.crashes[0]!r} after "
                f"{len(self.sent)} keys; the last: {self.sent[-12:]}\n{where}")


@pytest.fixture
def storm_library(make_app, tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """``make()``: the app on a library with two reading lists, tags and a note; no
    browser, no clipboard tool, exports written under ``tmp_path``."""
    for name in ("BROWSER", "DISPLAY", "WAYLAND_DISPLAY"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.chdir(tmp_path)
    state = {"seeded": False}

    def make() -> PaperApp:
        app = make_app()
        lib = app.library
        if not state["seeded"]:
            ids = [p.id for p in list(lib.papers())[:6]]
            for name, members in (("reading group", ids[:4]), ("to cite", ids[2:6])):
                lib.create_list(name)
                lib.add_to_list(name, members)
            lib.add_tags(ids[:3], ["rl", "to cite"])
            lib.set_note(ids[0], "a note")
            state["seeded"] = True
        return app

    return make


async def _send(app: App, keys: list[str]) -> None:
    """Hand ``keys`` to the app the way the terminal driver does, without waiting."""
    for key in keys:
        event = events.Paste(LONG_TEXT) if key == PASTE else key_event(key)
        event.set_sender(app)
        app.post_message(event)


async def run_storm(storm: Storm, make, pool: list[str], keys: int) -> None:
    """Press ``keys`` random keys from ``pool``, starting over in a new app when one quits."""
    bursts = storm.bursts(pool, keys)
    first = True
    while not storm.crashes:
        app = make()
        storm.watch(app)
        async with app.run_test(size=(100, 32)) as pilot:
            await pilot.pause()
            if first:
                await pilot.press(*STARTS[storm.start])
                await pilot.pause()
                first = False
            for burst in bursts:
                storm.sent.extend(burst)
                await _send(app, burst)
                if storm.rng.random() < 0.3:
                    await pilot.pause()
                else:
                    await pilot.pause(0)
                if storm.crashes or not app.is_running:
                    break
            else:
                await pilot.pause()
                return


@pytest.mark.parametrize("start", list(STARTS))
async def test_storms_of_random_keys_crash_nothing(start: str, storm_library) -> None:
    pool = key_pool()
    began = time.monotonic()
    for seed in SEEDS:
        storm = Storm(seed, start)
        try:
            await run_storm(storm, storm_library, pool, KEYS_PER_STORM)
        except Exception as exc:  # the app's exception, raised again by run_test
            storm.crashes.append(exc)
        assert not storm.crashes, storm.failure()
    print(f"{start}: {len(SEEDS) * KEYS_PER_STORM} keys in {time.monotonic() - began:.1f} s")
