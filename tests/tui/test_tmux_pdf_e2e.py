"""End to end: ``o`` and ``P`` in the installed ``paper-tui`` in a real terminal (tmux),
with a stand-in viewer (``pdf.viewer`` in the test's config) that records the path it was
given: a held PDF opened at once, another downloaded from 127.0.0.1 first, the app still
answering keys meanwhile (the viewer runs detached)."""

from __future__ import annotations

import json
import os
import stat
import time
from pathlib import Path

import pytest
from test_tmux_triage_e2e import Tmux, pytestmark  # noqa: F401  (the same skip)

from http_replay import ReplayServer, Reply
from paper_tui import config as config_mod
from paper_tui.library import Library
from pdf_helpers import NAACL, PDF_HEADERS, write_config, write_list


@pytest.fixture(autouse=True)
def _direct(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("http_proxy", "https_proxy", "all_proxy", "no_proxy", "PDF_VIEWER"):
        monkeypatch.delenv(name, raising=False)
        monkeypatch.delenv(name.upper(), raising=False)


def _wait_file(path: Path, lines: int, timeout: float = 20.0) -> list[str]:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if path.exists() and len(found := path.read_text().splitlines()) >= lines:
            return found
        time.sleep(0.05)
    raise AssertionError(f"{path}: never {lines} lines")


def test_o_opens_the_held_pdf_and_P_downloads_one_first(tmp_path: Path,
                                                        http_replay: ReplayServer) -> None:
    http_replay.route("/naacl.pdf", Reply(body=NAACL.read_bytes(), headers=PDF_HEADERS))
    record = tmp_path / "viewed.txt"
    viewer = tmp_path / "viewer.sh"
    viewer.write_text(f'#!/bin/sh\nprintf "%s\\n" "$1" >> {record}\n')
    viewer.chmod(viewer.stat().st_mode | stat.S_IEXEC)
    config_file = write_config(tmp_path / "config", viewer=str(viewer))
    library = tmp_path / "library"
    lib = Library.open(library, config=config_mod.load(config_file), bundled=False)
    try:
        lib.import_paths([write_list(tmp_path / "papers.jsonl", {
            "Aardvark held": None, "Zebra served": f"{http_replay.url}/naacl.pdf"})])
        ids = {p.title: p.id for p in lib.papers()}
        lib.pdf_add(ids["Aardvark held"], NAACL)
        held = str(lib.pdf_path(ids["Aardvark held"]))
    finally:
        lib.close()

    env = {**os.environ, "TMUX_TMPDIR": str(tmp_path), "TERM": "xterm-256color"}
    env.pop("TMUX", None)
    tmux = Tmux(env)
    tmux.run("new-session", "-d", "-s", tmux.name, "-x", "120", "-y", "40",
             f"paper-tui --library {library} --config {config_file}; sleep 30")
    try:
        tmux.wait_for("2 hits")
        tmux.keys("/")
        tmux.run("send-keys", "-t", tmux.name, "-l", "aardvark")
        tmux.wait_for("1 hit ")
        tmux.keys("Enter")
        tmux.wait_for("¶ Aardvark held")  # the row's PDF mark
        tmux.keys("o")
        assert _wait_file(record, 1) == [held]
        tmux.wait_for("opening the PDF in viewer.sh")
        tmux.keys("/", "C-u", "Enter")
        tmux.wait_for("2 hits")
        tmux.keys("j", "P")
        found = _wait_file(record, 2)
        assert found[1].endswith(".pdf") and found[1] != held
        assert Path(found[1]).read_bytes() == NAACL.read_bytes()
        assert len(http_replay.requests) == 1
        tmux.wait_for("¶ Zebra served")
        tmux.keys("s")  # the app still answers
        tmux.wait_for("starred")
        tmux.quit_app()
    finally:
        tmux.run("kill-session", "-t", tmux.name)
    assert json.loads((library / "pdfs" / "index.json").read_text())["papers"][
        ids["Aardvark held"]]["opened"] is not None
