"""End to end: a hostile library in a real terminal (tmux with ``set-clipboard on`` and
``allow-rename on``, so it obeys OSC 52 and title sequences). After browsing it in the app
and running show, list, search, cite and export in the same pane, the pane's title and the
window's name are what they were and tmux holds no paste buffer; then the CLI's own OSC 52
(``cite --copy`` with no clipboard tool) still puts an inert citation there."""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import time
from pathlib import Path

import pytest

from hostile_helpers import LIST, PAYLOAD, hostile_library
from paper_tui import citations
from paper_tui import config as config_mod
from paper_tui.library import Library

EXE = shutil.which("paper-tui")
pytestmark = pytest.mark.skipif(shutil.which("tmux") is None or EXE is None,
                                reason="needs tmux and an installed paper-tui")


def ansi_c(text: str) -> str:
    """``text`` as a bash ``$'…'`` word in plain ASCII (typed into the pane's shell, an ESC
    would be a keypress)."""
    return "$'" + "".join(ch if ch.isascii() and ch.isprintable() and ch not in "'\\"
                          else f"\\x{ord(ch):02x}" if ord(ch) < 0x80
                          else f"\\u{ord(ch):04x}" for ch in text) + "'"


class Pane:
    """A tmux server of its own (socket and config in tmp) with one shell pane."""

    def __init__(self, tmp_path: Path) -> None:
        conf = tmp_path / "tmux.conf"
        conf.write_text("set -g set-clipboard on\nset -g allow-rename on\n"
                        "set -g automatic-rename off\n", "utf-8")
        self.base = ["tmux", "-S", str(tmp_path / "tmux.sock"), "-f", str(conf)]
        self.env = {k: v for k, v in os.environ.items()
                    if k not in ("TMUX", "DISPLAY", "WAYLAND_DISPLAY")}
        self.env["TERM"] = "xterm-256color"
        self.tmux("new-session", "-d", "-s", "inert", "-x", "120", "-y", "40",
                  "bash --norc --noprofile")
        self.tmux("rename-window", "-t", "inert", "before")

    def tmux(self, *args: str) -> str:
        return subprocess.run([*self.base, *args], capture_output=True, text=True,
                              check=False, env=self.env, timeout=30).stdout

    def type(self, text: str, *keys: str) -> None:
        self.tmux("send-keys", "-t", "inert", "-l", text)
        for key in keys:
            self.tmux("send-keys", "-t", "inert", key)
            time.sleep(0.05)

    def keys(self, *keys: str) -> None:
        for key in keys:
            self.tmux("send-keys", "-t", "inert", key)
            time.sleep(0.15)

    def screen(self) -> str:
        return self.tmux("capture-pane", "-p", "-t", "inert")

    def wait_for(self, text: str, gone: str = "", timeout: float = 30.0) -> str:
        """Wait until ``text`` is on screen (and ``gone`` is not)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            screen = self.screen()
            if text in screen and not (gone and gone in screen):
                return screen
            time.sleep(0.05)
        raise AssertionError(f"{text!r} never appeared on screen (or {gone!r} never left):\n"
                             f"{self.screen()}")

    def command(self, line: str, timeout: float = 60.0) -> None:
        """Run ``line`` in the pane's shell and wait until it has finished."""
        signal = shlex.join([*self.base, "wait-for", "-S", "done"])
        self.type(f"{line}; {signal}", "Enter")
        subprocess.run([*self.base, "wait-for", "done"], check=True, timeout=timeout,
                       env=self.env)

    def quit_app(self) -> None:
        """Press ``q`` until the app has left the screen (a dialog may take the first)."""
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            self.keys("q")
            for _ in range(40):
                if "hits" not in self.screen():
                    self.command("true")  # the shell runs commands again
                    return
                time.sleep(0.05)
        raise AssertionError(f"the app did not quit:\n{self.screen()}")

    def title_and_name(self) -> tuple[str, str]:
        out = self.tmux("display-message", "-p", "-t", "inert", "#{pane_title}\t#{window_name}")
        title, _, name = out.rstrip("\n").partition("\t")
        return title, name

    def buffers(self) -> str:
        return self.tmux("list-buffers")

    def close(self) -> None:
        self.tmux("kill-server")


def test_hostile_text_never_retitles_the_pane_nor_fills_the_clipboard(tmp_path: Path):
    library = tmp_path / "library"
    first, second = hostile_library(library, tmp_path)
    app = shlex.join([str(EXE), "--library", str(library)])
    pane = Pane(tmp_path)
    try:
        before = pane.title_and_name()
        assert before[1] == "before" and pane.buffers() == ""
        # the list's name in a shell variable: typed, it would be on screen
        pane.command(f"L={ansi_c(LIST)}; clear")
        pane.tmux("clear-history", "-t", "inert")
        seen = ""
        pane.type(app, "Enter")
        seen += pane.wait_for("2 hits")
        # Each key waits for what it shows (or hides) before the next is pressed: a key
        # that reaches the app together with the Escape before it is read as Alt+key, as
        # any terminal program reads it (CI once saw "escape, escape, ?" become
        # "escape, Alt+?", 0.15 s apart on a loaded machine).
        for key, shows, hides in (
                ("j", "example.org/2x", ""), ("k", "example.org/1x", ""),
                ("enter", "Back to results", ""), ("escape", "hits", "Back to results"),
                ("f", "Narrow", ""), ("escape", "Abstract", "Narrow"),  # facets, back
                ("t", "Tags of", ""), ("escape", "hits", "Tags of"),
                ("a", "Add this paper", ""), ("escape", "hits", "Add this paper"),
                ("L", "Enter opens", ""), ("enter", "J/K move", ""),
                ("escape", "Enter opens", "J/K move"), ("escape", "hits", "Enter opens"),
                ("?", "Keys", ""), ("escape", "hits", "Keys")):
            pane.keys(key)
            seen += pane.wait_for(shows, gone=hides)
        pane.quit_app()
        paper_tui = f"{shlex.quote(str(EXE))} --library {shlex.quote(str(library))}"
        for line in ("list", f"show {first}", "search hostile", f"cite {first} {second}",
                     f"cite -f plain {first}", f"cite -f markdown {first}",
                     'lists show "$L"',
                     *(f'export --list "$L" -f {fmt}' for fmt in ("markdown", "csv", "org",
                                                                  "ris", "bibtex"))):
            pane.command(f"clear; {paper_tui} {line}")
            seen += pane.screen()
        for fmt in ("yaml", "json"):  # the data, escaped: the payloads show, inert
            pane.command(f'clear; {paper_tui} export --list "$L" -f {fmt}')
        assert pane.title_and_name() == before
        assert pane.buffers() == ""
        assert PAYLOAD not in seen

        # the CLI's own OSC 52 still works (no clipboard tool: DISPLAY is unset here)
        pane.command(f"{paper_tui} cite -f plain --copy {first}")
        buffer = pane.tmux("show-buffer")
        assert pane.title_and_name() == before
    finally:
        pane.close()
    lib = Library.open(library, config=config_mod.load(tmp_path / "config.yaml"))
    try:
        assert buffer == citations.cite([lib.paper(first)], "plain")
    finally:
        lib.close()
    assert buffer.startswith("Eve Mallory and Bob Ng. 2026. Hostile")
    assert PAYLOAD not in buffer
