"""The fork server the tests run paper-tui commands through gives what a new interpreter
would: a process of its own, the caller's arguments, environment, directory and streams,
the exit status, and nothing of the test's own state."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

import forked_cli
from paper_tui import vocabulary

PAPER_TUI = [sys.executable, "-m", "paper_tui"]


def test_a_command_runs_with_the_callers_arguments_environment_and_directory(
        tmp_path: Path) -> None:
    env = {**os.environ, "PAPER_TUI_HOME": str(tmp_path / "home-lib")}
    done = forked_cli.run([*PAPER_TUI, "config", "--json"], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["library"] == str(tmp_path / "home-lib")
    done = forked_cli.run([*PAPER_TUI, "export", "--query", "calm", "-o", "out.md"],
                          cwd=tmp_path, env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert "CALM" in (tmp_path / "out.md").read_text("utf-8")


def test_exit_status_stdin_and_both_outputs(tmp_path: Path) -> None:
    done = forked_cli.run([*PAPER_TUI, "--library", str(tmp_path / "l"), "show", "nothing"],
                          capture_output=True, text=True, timeout=60)
    assert (done.returncode, done.stdout) == (1, "")
    assert done.stderr == "paper-tui: no paper with id 'nothing'\n"


def test_the_tests_own_changes_never_reach_the_command(tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(vocabulary, "count", lambda n, noun, plural=None: "patched")
    done = forked_cli.run([*PAPER_TUI, "--library", str(tmp_path / "l"), "lists"],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and "patched" not in done.stdout + done.stderr


def test_a_command_is_a_process_of_its_own_that_a_signal_ends(tmp_path: Path) -> None:
    proc = forked_cli.Popen([*PAPER_TUI, "--library", str(tmp_path / "l"), "note",
                             "neurips2026-bb4e82d1d9"], stdin=subprocess.DEVNULL,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            env={**os.environ, "VISUAL": "sh -c 'sleep 30'"})  # its editor waits
    assert proc.pid not in (os.getpid(), os.getppid())
    with pytest.raises(subprocess.TimeoutExpired):
        proc.wait(1)
    assert proc.poll() is None
    proc.kill()
    assert proc.wait(60) == -signal.SIGKILL


LEAVING = """
import sys, threading, atexit
sys.path.insert(0, {tests!r})
late = []
threading.Thread(target=lambda: (__import__("time").sleep(0.2), late.append(1))).start()
atexit.register(lambda: print("atexit saw", len(late), file=sys.stderr))
sys.stdout.write({text!r})
{exit}
"""


@pytest.mark.parametrize("ending", ["pass", "sys.exit(3)", "sys.exit('bye')"])
@pytest.mark.parametrize("stdout", ["pipe", "closed pipe", "/dev/full"])
def test_leaving_is_the_interpreters_shutdown_as_a_command_sees_it(
        ending: str, stdout: str) -> None:
    """A forked child ends through ``forked_cli._leave``, not the interpreter's shutdown:
    the same status, output and error as a real interpreter's, standard output unwritable
    included (an ignored exception and status 120)."""
    outcomes = []
    env = {name: value for name, value in os.environ.items() if name != "PYTHONUNBUFFERED"}
    for leave in (ending, f"import forked_cli\ntry:\n    {ending}\n"
                          "except SystemExit as done:\n    forked_cli._leave(done.code)\n"
                          "forked_cli._leave(None)"):
        code = LEAVING.format(tests=str(Path(__file__).parent), text="x" * 100,
                              exit=leave)
        read, write = os.pipe()
        if stdout == "closed pipe":
            os.close(read)
        target = open("/dev/full", "w") if stdout == "/dev/full" else write  # noqa: SIM115
        try:
            proc = subprocess.Popen([sys.executable, "-c", code], stdout=target, env=env,
                                    stderr=subprocess.PIPE, text=True)
            if stdout == "pipe":
                os.close(write)
                with os.fdopen(read) as out:
                    written = len(out.read())
            else:
                written = None
            err = proc.communicate(timeout=60)[1]
        finally:
            if stdout == "/dev/full":
                target.close()
            if stdout != "pipe":
                os.close(write)
        lines = err.splitlines()
        outcomes.append((proc.returncode, written, lines[:1], lines[-1:]))
    assert outcomes[0] == outcomes[1]
