"""No process of the suite outlives it (issue 38, item 11): a pytest session run here, in
a process of its own, starts a paper-tui command through :mod:`forked_cli` that is still
running when the session ends — at its end, or killed (SIGTERM, as a CI's timeout does,
and a worker killed outright under xdist). Afterwards no process carrying the session's
mark in its environment is left: not the fork server, not the command."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

TESTS = Path(__file__).parent
SRC = TESTS.parent / "src"

INNER = '''
import os, subprocess, sys, time
from pathlib import Path
import forked_cli

def test_a_command_still_running_at_the_end(tmp_path):
    proc = forked_cli.Popen(
        [sys.executable, "-m", "paper_tui", "--library", str(tmp_path / "lib"), "fetch",
         os.environ["STALLED_URL"]], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    Path(os.environ["STARTED"]).write_text(str(proc.pid))
    if os.environ.get("HOLD"):
        time.sleep(300)
'''


@pytest.fixture
def stalled_url() -> Iterator[str]:
    """A server on 127.0.0.1 that takes connections and never answers (the kernel's
    backlog accepts them): a fetch of it runs until its own timeout."""
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen(16)
        yield f"http://127.0.0.1:{listener.getsockname()[1]}/iclr2018.json"


def _marked(mark: str) -> list[str]:
    """The processes whose environment holds ``mark`` (their command lines)."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            environ = (entry / "environ").read_bytes()
            if mark.encode() in environ.split(b"\0"):
                found.append((entry / "cmdline").read_bytes().replace(b"\0", b" ").decode(
                    errors="replace") or entry.name)
        except OSError:  # gone meanwhile, or not ours to read
            continue
    return found


def _settled(mark: str) -> list[str]:
    """The marked processes once the ones ending have ended (a generous wait, not a
    measure: a leak stays)."""
    deadline = time.monotonic() + 20
    left = _marked(mark)
    while left and time.monotonic() < deadline:
        time.sleep(0.2)
        left = _marked(mark)
    return left


@pytest.mark.parametrize("end", ["finished", "terminated", "worker-killed"])
def test_no_process_of_a_session_outlives_it(tmp_path: Path, stalled_url: str,
                                             end: str) -> None:
    (tmp_path / "test_inner.py").write_text(INNER)
    mark = f"PAPER_TUI_SUITE_MARK={uuid.uuid4().hex}"
    started = tmp_path / "started"
    env = {**os.environ, mark.split("=")[0]: mark.split("=")[1], "STALLED_URL": stalled_url,
           "STARTED": str(started), "PYTHONPATH": os.pathsep.join([str(TESTS), str(SRC)])}
    if end != "finished":
        env["HOLD"] = "1"
    workers = ["-n", "0"] if end == "finished" else ["-n", "1"]
    session = subprocess.Popen(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *workers,
         "--rootdir", str(tmp_path), "-c", os.devnull, "test_inner.py"],
        cwd=tmp_path, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
        start_new_session=True)
    try:
        if end == "finished":
            out, _ = session.communicate(timeout=120)
            assert session.returncode == 0, out
        else:
            deadline = time.monotonic() + 120
            while not started.exists() and session.poll() is None \
                    and time.monotonic() < deadline:
                time.sleep(0.1)
            assert started.exists(), session.communicate(timeout=60)[0]
            if end == "terminated":
                session.terminate()
            else:  # the worker dies outright; the session then ends as xdist makes it
                command = int(started.read_text())
                worker = _worker_of(command, mark)
                os.kill(worker, signal.SIGKILL)
                session.terminate()
            session.communicate(timeout=120)
    finally:
        if session.poll() is None:
            os.killpg(session.pid, signal.SIGKILL)
            session.wait()
    assert started.exists()
    assert _settled(mark) == []


def _worker_of(command: int, mark: str) -> int:
    """The xdist worker that started ``command``: the parent of the fork server that is
    the command's parent."""
    server = int(Path(f"/proc/{command}/stat").read_text().rsplit(")", 1)[1].split()[1])
    return int(Path(f"/proc/{server}/stat").read_text().rsplit(")", 1)[1].split()[1])
