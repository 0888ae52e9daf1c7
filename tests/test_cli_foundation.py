"""The installed ``paper-tui`` command, run as a real subprocess from another directory."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

DATA = Path(__file__).parent / "data"
EXE = shutil.which("paper-tui")
pytestmark = pytest.mark.skipif(EXE is None, reason="paper-tui is not installed")


def run(*args: str, cwd: Path, env: dict[str, str] | None = None, timeout: float = 120,
        ) -> subprocess.CompletedProcess[str]:
    assert EXE is not None
    return subprocess.run([EXE, *args], cwd=cwd, capture_output=True, text=True,
                          timeout=timeout, env={**os.environ, **(env or {})},
                          stdin=subprocess.DEVNULL)


def test_fresh_library_lists_the_bundled_papers(tmp_path: Path) -> None:
    out = run("--library", str(tmp_path / "lib"), "list", "--json", cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    papers = json.loads(out.stdout)
    assert len(papers) == 38
    assert {(p["venue"], p["year"]) for p in papers} == {("NeurIPS", 2026)}
    for key in ("id", "title", "name", "authors", "abstract", "venue", "year", "url",
                "keywords", "bibtex", "source"):
        assert key in papers[0]


def test_paper_tui_home_is_the_default_library(tmp_path: Path) -> None:
    home = tmp_path / "home-lib"
    out = run("list", cwd=tmp_path, env={"PAPER_TUI_HOME": str(home)})
    assert out.returncode == 0, out.stderr
    assert len(out.stdout.splitlines()) == 38
    assert (home / "sources" / "manifest.json").exists()


def test_import_reports_bad_files_and_keeps_the_rest(tmp_path: Path) -> None:
    folder = tmp_path / "in"
    folder.mkdir()
    shutil.copy(DATA / "sample.csv", folder)
    shutil.copy(DATA / "nips2018-sample.json", folder / "nips2018.json")
    (folder / "broken.jsonl").write_bytes(b"\x00\x00binary")
    lib = str(tmp_path / "lib")
    out = run("--library", lib, "import", str(folder), cwd=tmp_path)
    assert out.returncode == 1
    assert "Traceback" not in out.stderr
    assert "broken.jsonl: binary file" in out.stderr
    # The sample repeats one record verbatim: identical records are one paper; its record
    # without an abstract is a paper too.
    assert "25 papers from 2 file(s): 25 new" in out.stdout
    # Re-import: nothing new, nothing lost.
    again = run("--library", lib, "import", str(folder / "sample.csv"), cwd=tmp_path)
    assert again.returncode == 0 and "0 new" in again.stdout
    listed = run("--library", lib, "list", cwd=tmp_path)
    assert len(listed.stdout.splitlines()) == 25  # a first import: no bundled demo list


def test_search_and_show(tmp_path: Path) -> None:
    lib = str(tmp_path / "lib")
    out = run("--library", lib, "search", "Koopman", "--json", cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    hits = json.loads(out.stdout)
    assert hits and "Koopman" in hits[0]["abstract"]
    shown = run("--library", lib, "show", hits[0]["id"][:15], cwd=tmp_path)
    assert shown.returncode == 0 and hits[0]["id"] in shown.stdout
    missing = run("--library", lib, "show", "nope", cwd=tmp_path)
    assert missing.returncode == 1
    assert missing.stderr.strip() == "paper-tui: no paper with id 'nope'"


def test_bad_config_key_is_named_and_defaults_kept(tmp_path: Path) -> None:
    cfg = tmp_path / "config.yaml"
    cfg.write_text("bundled_lists: maybe\nno_such_key: 1\n")
    out = run("--library", str(tmp_path / "lib"), "--config", str(cfg), "list", cwd=tmp_path)
    assert out.returncode == 0
    assert "bundled_lists must be bool" in out.stderr
    assert "unknown key 'no_such_key'" in out.stderr
    assert len(out.stdout.splitlines()) == 38


def test_commands_started_at_once_on_a_new_library(tmp_path: Path) -> None:
    """Four processes racing to create, fill and read one new library all succeed."""
    assert EXE is not None
    lib = str(tmp_path / "lib")
    procs = [subprocess.Popen([EXE, "--library", lib, "list"], cwd=tmp_path, text=True,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              stdin=subprocess.DEVNULL) for _ in range(4)]
    outputs = [proc.communicate(timeout=120) for proc in procs]
    assert [proc.returncode for proc in procs] == [0, 0, 0, 0], outputs
    assert all(len(out.splitlines()) == 38 for out, _ in outputs)
    manifest = json.loads((tmp_path / "lib" / "sources" / "manifest.json").read_text())
    assert len(manifest["sources"]) == 2


def test_config_command_names_the_files(tmp_path: Path) -> None:
    cfg = tmp_path / "mine.yaml"
    cfg.write_text("citation_style: plain\n")
    out = run("--library", str(tmp_path / "lib"), "--config", str(cfg), "config", "--json",
              cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    info = json.loads(out.stdout)
    assert info["library"] == str(tmp_path / "lib")
    assert info["read"] == [str(cfg)]
    assert info["user_config"].endswith("paper-tui/config.yaml")
    assert Path(info["defaults"]).is_file()
    # every declared setting with its value in force (the file's, else the default)
    from paper_tui import config

    assert list(info["settings"]) == [s.key for s in config.SETTINGS]
    assert info["settings"]["citation_style"] == "plain"
    assert info["settings"]["import.max_unpacked_gb"] == 16
    assert info["settings"]["search.sort"] == "relevance"
    assert not (tmp_path / "lib").exists()  # showing the config opens no library
