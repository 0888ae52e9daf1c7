"""A bug in the app reaches the user as one line and a crash log, never as a traceback:
the installed Python, a real terminal (tmux), a key whose action has a bug."""

from __future__ import annotations

import shutil
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest

pytestmark = pytest.mark.skipif(shutil.which("tmux") is None, reason="needs tmux")

# The app as `paper-tui` runs it, with one key's action broken the way a bug breaks it.
BUGGY_APP = """
import sys
from paper_tui.tui.screens import main as screen
screen.MainScreen.action_pick_sort = lambda self: {}["a bug in the sort key"]
from paper_tui.cli import main
status = main(["--library", sys.argv[1]])
print(f"EXIT={status}", flush=True)
"""


def test_a_bug_in_the_app_is_one_line_and_a_crash_log(tmp_path: Path, isolated_home,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TMUX_TMPDIR", str(tmp_path))  # a tmux server of this test's own
    monkeypatch.delenv("TMUX", raising=False)
    (tmp_path / "app.py").write_text(BUGGY_APP)
    session = f"paper-tui-crash-{uuid.uuid4().hex[:8]}"
    state = tmp_path / "state"
    command = (f"cd {tmp_path} && XDG_STATE_HOME={state} {sys.executable} app.py "
               f"{tmp_path / 'lib'} 2>&1 | tee out.txt; sleep 30")
    subprocess.run(["tmux", "new-session", "-d", "-s", session, "-x", "120", "-y", "40",
                    command], check=True)
    try:
        out = tmp_path / "out.txt"
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            screen = subprocess.run(["tmux", "capture-pane", "-p", "-t", session],
                                    capture_output=True, text=True).stdout
            if "hits" in screen:
                break
            time.sleep(0.1)
        subprocess.run(["tmux", "send-keys", "-t", session, "S"], check=True)
        while time.monotonic() < deadline and "EXIT=" not in out.read_text(errors="replace"):
            time.sleep(0.1)
        text = out.read_text(errors="replace")
    finally:
        subprocess.run(["tmux", "kill-server"], capture_output=True)
    assert "EXIT=70" in text
    assert "Traceback" not in text and "a bug in the sort key" in text
    line = next(x for x in text.splitlines() if "internal error" in x)
    assert "paper-tui: internal error: KeyError" in line and "(details in " in line
    logs = list((state / "paper-tui" / "log").glob("crash-*.log"))
    assert len(logs) == 1 and "Traceback" in logs[0].read_text()
