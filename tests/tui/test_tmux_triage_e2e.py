"""End to end: the installed ``paper-tui`` in a real terminal (tmux), driven by keys."""

from __future__ import annotations

import os
import shutil
import subprocess
import time
import uuid
from pathlib import Path

import pytest
import yaml

pytestmark = pytest.mark.skipif(shutil.which("tmux") is None or
                                shutil.which("paper-tui") is None,
                                reason="needs tmux and an installed paper-tui")


class Tmux:
    def __init__(self, env: dict[str, str]) -> None:
        self.name = f"paper-tui-test-{uuid.uuid4().hex[:8]}"
        self.env = env

    def run(self, *args: str) -> str:
        return subprocess.run(["tmux", *args], capture_output=True, text=True, check=False,
                              env=self.env).stdout

    def screen(self) -> str:
        return self.run("capture-pane", "-p", "-t", self.name)

    def wait_for(self, text: str, gone: str = "", timeout: float = 20.0) -> str:
        """Wait until ``text`` is on screen (and ``gone`` is not)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            screen = self.screen()
            if text in screen and not (gone and gone in screen):
                return screen
            time.sleep(0.05)
        raise AssertionError(f"{text!r} never appeared on screen:\n{self.screen()}")

    def keys(self, *keys: str) -> None:
        for key in keys:
            self.run("send-keys", "-t", self.name, key)
            time.sleep(0.05)


    @classmethod
    def start_paper_tui(cls, tmp_path: Path, library: Path, *, after: str = "") -> Tmux:
        """The installed ``paper-tui`` on ``library`` in a new detached 120x40 session;
        ``after``: a shell command run once it has exited."""
        env = {**os.environ, "TMUX_TMPDIR": str(tmp_path), "TERM": "xterm-256color"}
        env.pop("TMUX", None)
        tmux = cls(env)
        tmux.run("new-session", "-d", "-s", tmux.name, "-x", "120", "-y", "40",
                 f"paper-tui --library {library}; {after or 'true'}; sleep 30")
        return tmux

    def quit_app(self) -> None:
        """Press ``q`` and wait (a little) for the app to leave the screen."""
        self.keys("q")
        deadline = time.monotonic() + 10
        while "hits" in self.screen() and time.monotonic() < deadline:
            time.sleep(0.05)


def test_search_triage_star_quit_and_the_yaml_on_disk(tmp_path: Path):
    library = tmp_path / "library"
    tmux = Tmux.start_paper_tui(tmp_path, library)
    try:
        tmux.wait_for(" hits")
        tmux.keys("/")
        tmux.run("send-keys", "-t", tmux.name, "-l", "diffusion")
        tmux.wait_for(" hits", gone="38 hits")  # the bundled list has 38 papers
        tmux.keys("Enter")
        tmux.wait_for("s Star")  # in the results (the search box's footer has no triage keys)
        tmux.keys("i")      # first hit: to read, cursor moves on
        tmux.keys("s")      # second hit: starred
        tmux.wait_for("starred")
        tmux.quit_app()
    finally:
        tmux.run("kill-session", "-t", tmux.name)
    data = yaml.safe_load((library / "annotations.yaml").read_text())
    statuses = [r.get("status") for r in _records(data)]
    stars = [r.get("starred") for r in _records(data)]
    assert statuses.count("to-read") == 1
    assert stars.count(True) == 1


def _records(data) -> list[dict]:
    """Every per-paper record (a mapping holding ``status`` or ``starred``) in the file."""
    found = []
    if isinstance(data, dict):
        if "status" in data or "starred" in data:
            found.append(data)
        else:
            for value in data.values():
                found += _records(value)
    return found
