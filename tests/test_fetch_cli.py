"""``paper-tui fetch`` as a user sees it, in real processes against a real HTTP server on
127.0.0.1: one line per source, one line on stderr and exit 1 for a source that failed,
``--json``, ``--dry-run``, a progress line only on a terminal, a ``kill -9`` mid-fetch
followed by a fetch that resumes; and no other command loads ``paper_tui.fetch``."""

from __future__ import annotations

import json
import os
import pty
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

import forked_cli
from fetch_routes import ICLR, config_file, data, openreview_path, serve_openreview
from http_replay import ReplayServer, Reply

EXE = shutil.which("paper-tui")
pytestmark = pytest.mark.skipif(EXE is None, reason="paper-tui is not installed")
OPENREVIEW = f"openreview:{ICLR}"


def command(root: Path, server: ReplayServer, *args: str) -> list[str]:
    assert EXE is not None
    return [EXE, "--library", str(root / "lib"), "--config",
            str(config_file(root / "config", server.url)), *args]


def run(root: Path, server: ReplayServer, *args: str) -> subprocess.CompletedProcess[str]:
    return forked_cli.run(command(root, server, *args), capture_output=True, text=True,
                          timeout=120, env=dict(os.environ), stdin=subprocess.DEVNULL)


def test_one_line_per_source_and_unchanged(tmp_path: Path, http_replay: ReplayServer) -> None:
    serve_openreview(http_replay, etag=True)
    http_replay.route("/iclr/iclr2018.json", Reply(body=data("paperlists-iclr2018.json"),
                                                   last_modified="Tue, 01 Dec 2026 10:00:00 GMT"))
    out = run(tmp_path, http_replay, "fetch", OPENREVIEW, "paperlists:iclr2018")
    assert out.returncode == 0, out.stderr
    # 4 of the 6 are among Paper Copilot's 24 (the same id from both lists)
    assert out.stdout.splitlines() == [f"{OPENREVIEW}: 6 papers, 6 new (2 pages)",
                                       "paperlists:iclr2018: 24 papers, 20 new (1 page)"]
    assert out.stderr == ""  # piped: no progress line
    again = run(tmp_path, http_replay, "fetch", OPENREVIEW, "paperlists:iclr2018")
    assert again.returncode == 0, again.stderr
    assert again.stdout.splitlines() == [f"{OPENREVIEW}: unchanged (6 papers)",
                                         "paperlists:iclr2018: unchanged (24 papers)"]
    assert len(run(tmp_path, http_replay, "list").stdout.splitlines()) == 26


def test_a_failed_source_is_one_line_and_exit_1(tmp_path: Path,
                                                http_replay: ReplayServer) -> None:
    http_replay.route("/iclr/iclr2018.json", Reply(body=data("paperlists-iclr2018.json")))
    out = run(tmp_path, http_replay, "fetch", "paperlists:iclr2031", "paperlists:iclr2018",
              "semantic:xyz")
    assert out.returncode == 1
    assert out.stdout.splitlines() == ["paperlists:iclr2018: 24 papers, 24 new (1 page)"]
    errors = out.stderr.splitlines()
    assert len(errors) == 2, out.stderr
    assert errors[0].startswith("paper-tui: paperlists:iclr2031: ") and "404" in errors[0]
    assert errors[1].startswith("paper-tui: semantic:xyz: not a source: use openreview:")
    assert "Traceback" not in out.stderr


def test_json_summary(tmp_path: Path, http_replay: ReplayServer) -> None:
    serve_openreview(http_replay)
    out = run(tmp_path, http_replay, "fetch", "--json", OPENREVIEW, "paperlists:iclr2031")
    assert out.returncode == 1
    summary = json.loads(out.stdout)
    assert summary["failed"] is True
    done, failed = summary["sources"]
    assert {k: done[k] for k in ("spec", "status", "papers", "pages", "requests", "error")} == \
        {"spec": OPENREVIEW, "status": "fetched", "papers": 6, "pages": 2, "requests": 2,
         "error": None}
    assert len(done["new_ids"]) == 6 and done["bytes"] > 0
    assert done["source_id"] == "openreview-iclr-cc-2018-conference-json"
    assert failed["status"] == "failed" and "404" in failed["error"]
    assert out.stderr.startswith("paper-tui: paperlists:iclr2031: ")


def test_dry_run_imports_nothing(tmp_path: Path, http_replay: ReplayServer) -> None:
    serve_openreview(http_replay)
    out = run(tmp_path, http_replay, "fetch", "--dry-run", OPENREVIEW)
    assert out.returncode == 0, out.stderr
    assert out.stdout.splitlines() == [
        f"{OPENREVIEW}: 6 papers, 6 new (2 pages; dry run: nothing imported)"]
    assert run(tmp_path, http_replay, "list").stdout == ""


def test_a_bad_since_is_argparse_s_line(tmp_path: Path, http_replay: ReplayServer) -> None:
    out = run(tmp_path, http_replay, "fetch", "arxiv:cs.LG", "--since", "yesterday")
    assert out.returncode == 2 and "'yesterday' is not a date" in out.stderr
    assert http_replay.requests == []


def test_progress_line_on_a_terminal(tmp_path: Path, http_replay: ReplayServer) -> None:
    serve_openreview(http_replay)
    main, child = pty.openpty()
    with open(child, "wb", buffering=0) as terminal:
        process = forked_cli.Process(command(tmp_path, http_replay, "fetch", OPENREVIEW),
                                     stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                     stderr=terminal, env=dict(os.environ))
        out, _ = process.communicate(timeout=120)
    drawn = b""
    os.set_blocking(main, False)
    try:
        while chunk := os.read(main, 65536):
            drawn += chunk
    except (BlockingIOError, OSError):
        pass
    os.close(main)
    assert process.returncode == 0
    assert out.decode().strip() == f"{OPENREVIEW}: 6 papers, 6 new (2 pages)"
    assert f"{OPENREVIEW} page 2".encode() in drawn and b"6/6" in drawn


def test_kill_9_mid_fetch_then_a_fetch_that_resumes(tmp_path: Path,
                                                    http_replay: ReplayServer) -> None:
    """Page 1 arrives, page 2 hangs, the process is killed; the next fetch takes page 1
    from what the first kept (asking it again conditionally: a 304 says the list is the
    same) and asks only page 2 in full."""
    first, second = openreview_path(ICLR, 0), openreview_path(ICLR, 3)
    http_replay.route(first, Reply(body=data("openreview-iclr2018-offset0.json"),
                                   etag='"p1"'))
    http_replay.route(second, Reply(body=data("openreview-iclr2018-offset3.json"), delay_s=8),
                      Reply(body=data("openreview-iclr2018-offset3.json")))
    process = forked_cli.Process(command(tmp_path, http_replay, "fetch", OPENREVIEW),
                                 stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                 stderr=subprocess.DEVNULL, env=dict(os.environ))
    deadline = time.monotonic() + 60
    while not any(r.path == second for r in http_replay.requests):
        assert time.monotonic() < deadline and process.poll() is None
        time.sleep(0.02)
    os.kill(process.pid, signal.SIGKILL)
    assert process.wait(timeout=30) == -signal.SIGKILL
    assert run(tmp_path, http_replay, "list").stdout == ""  # nothing half-imported
    out = run(tmp_path, http_replay, "fetch", OPENREVIEW)
    assert out.returncode == 0, out.stderr
    assert out.stdout.splitlines() == [f"{OPENREVIEW}: 6 papers, 6 new (2 pages)"]
    asked = [r.path for r in http_replay.requests]
    assert asked.count(first) == 2 and asked.count(second) == 2
    again = [r for r in http_replay.requests if r.path == first][1]
    assert again.header("If-None-Match") == '"p1"'
    assert len(run(tmp_path, http_replay, "list").stdout.splitlines()) == 6


def test_no_command_but_fetch_loads_the_fetch_package() -> None:
    from paper_tui.cli import COMMANDS

    code = ("import sys\nfrom paper_tui.cli import build_parser\n"
            "for name in sys.argv[1:]:\n    build_parser([name])\n"
            "import paper_tui.library, paper_tui.library.facade, paper_tui.tui.app\n"
            "print(sorted(m for m in sys.modules if m.startswith(('paper_tui.fetch', "
            "'paper_tui.library.fetching'))))")
    others = [c for c in COMMANDS if c != "fetch"]
    out = subprocess.run([sys.executable, "-c", code, *others], capture_output=True,
                         text=True, check=True)
    assert out.stdout.strip() == "[]"
    fetch = subprocess.run([sys.executable, "-c", code, "fetch"], capture_output=True,
                           text=True, check=True)
    assert fetch.stdout.strip() == "[]"  # parsing its arguments loads nothing of it either


def test_a_search_process_loads_no_fetch_module(tmp_path: Path) -> None:
    code = ("import runpy, sys\n"
            f"sys.argv = ['paper-tui', '--library', {str(tmp_path / 'lib')!r}, 'search', 'x']\n"
            "try:\n    runpy.run_module('paper_tui', run_name='__main__')\n"
            "except SystemExit:\n    pass\n"
            "print(sorted(m for m in sys.modules if m.startswith(('paper_tui.fetch', "
            "'paper_tui.library.fetching'))), file=sys.stderr)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True)
    assert out.stderr.strip().splitlines()[-1] == "[]"
