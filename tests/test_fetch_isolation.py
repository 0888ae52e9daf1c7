"""One failing source never stops the others: ``fetch A B`` with a bug in A's fetch (an
exception nobody expected, raised where a source module's fetch runs) prints A's one line,
logs the traceback as the app's crash log does, fetches B and exits 1, never 70."""

from __future__ import annotations

import types
from pathlib import Path

import pytest

from fetch_routes import ICLR, config_file, serve_openreview
from http_replay import ReplayServer
from paper_tui import paths
from paper_tui.cli import main
from paper_tui.fetch import runner


def _a_bug(*_: object) -> None:
    raise ZeroDivisionError("a bug in one source")


def test_a_bug_in_one_source_is_its_line_and_the_others_run(
        tmp_path: Path, http_replay: ReplayServer, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setitem(runner.SOURCES, "paperlists", types.SimpleNamespace(fetch=_a_bug))
    serve_openreview(http_replay)
    config = config_file(tmp_path / "config", http_replay.url)
    status = main(["--library", str(tmp_path / "lib"), "--config", str(config), "fetch",
                   "paperlists:iclr2018", f"openreview:{ICLR}"])
    out, err = capsys.readouterr()
    assert status == 1
    assert out.splitlines() == [f"openreview:{ICLR}: 6 papers, 6 new (2 pages)"]
    [line] = err.splitlines()
    assert line.startswith("paper-tui: paperlists:iclr2018: internal error: "
                           "ZeroDivisionError: a bug in one source (details in ")
    [log] = paths.crash_log_dir().glob("crash-*.log")
    assert str(log) in line
    text = log.read_text("utf-8")
    assert "Traceback" in text and "_a_bug" in text
    assert "Traceback" not in err
