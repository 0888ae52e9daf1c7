"""A bug reaches the user as one line and a crash log, never as a traceback; exit 70."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

# A command module the CLI loads like its own (cli.COMMANDS names each command's module),
# whose handler has a bug: what any unexpected exception in a command looks like.
BUGGY = '''
def register(sub):
    sub.add_parser("boom").set_defaults(handler=lambda args, ctx: {}["missing key"])
'''
RUN = """
import sys
from paper_tui import cli
cli.__path__.append(sys.argv[1])
cli.COMMANDS["boom"] = "boom"
raise SystemExit(cli.main(["--library", sys.argv[2], "boom"]))
"""


def test_an_unexpected_error_is_one_line_and_a_crash_log(tmp_path: Path) -> None:
    (tmp_path / "boom.py").write_text(BUGGY)
    state = tmp_path / "state"
    env = {**os.environ, "XDG_STATE_HOME": str(state), "HOME": str(tmp_path)}
    done = subprocess.run([sys.executable, "-c", RUN, str(tmp_path), str(tmp_path / "lib")],
                          capture_output=True, text=True, env=env, timeout=120)
    assert done.returncode == 70
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in done.stderr
    assert lines[0].startswith("paper-tui: internal error: KeyError: 'missing key' (details in ")
    log = Path(lines[0].rsplit("details in ", 1)[1].rstrip(")"))
    assert log.is_file() and log.is_relative_to(tmp_path)
    text = log.read_text()
    assert "Traceback (most recent call last)" in text and "KeyError: 'missing key'" in text
    assert "command: paper-tui --library" in text


def test_a_users_error_stays_one_line_with_exit_1(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, "-m", "paper_tui", "--library", str(tmp_path / "l"),
                           "show", "no-such-paper"], capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 1
    assert done.stderr.strip() == "paper-tui: no paper with id 'no-such-paper'"
