"""The store's files when something else stands in their place: a FIFO, a directory or a
device (also behind a symlink) is refused with one line naming it, never read (a FIFO
would hang every command, /dev/zero never end), never replaced; the rest of the command
works, read-only. A symlink to a regular file is followed, read and written through."""

from __future__ import annotations

import json
import os
import shutil
import stat
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

import forked_cli

TIMEOUT = 60
"""Far longer than any command takes: a command that waits on a FIFO never ends."""


@pytest.fixture
def paper(bundled_ids: list[str]) -> str:
    return bundled_ids[0]


def run(lib_dir: Path, *args: str) -> subprocess.CompletedProcess:
    return forked_cli.run([sys.executable, "-m", "paper_tui", "--library", str(lib_dir), *args],
                          capture_output=True, text=True, timeout=TIMEOUT)


def fifo(path: Path) -> None:
    os.mkfifo(path)


def directory(path: Path) -> None:
    path.mkdir()


def link_to_dev_zero(path: Path) -> None:
    path.symlink_to("/dev/zero")


def link_to_a_fifo(path: Path) -> None:
    os.mkfifo(path.with_name("elsewhere"))
    path.symlink_to("elsewhere")


ODD = {"a FIFO": (fifo, "a FIFO"), "a directory": (directory, "a directory"),
       "a link to /dev/zero": (link_to_dev_zero, "a character device"),
       "a link to a FIFO": (link_to_a_fifo, "a FIFO")}


@pytest.mark.parametrize("odd", ODD)
def test_annotations_that_are_not_a_file_are_one_line_and_read_only(
        lib_dir: Path, paper: str, odd: str) -> None:
    make, kind = ODD[odd]
    path = lib_dir / "annotations.yaml"
    make(path)
    before = os.lstat(path)
    tagged = run(lib_dir, "tag", paper, "x")
    assert tagged.returncode == 1
    assert tagged.stderr.splitlines() == [
        f"paper-tui: {path}: cannot read ({kind}, not a regular file); annotations are "
        "read-only until the file is fixed (no backup yet)"]
    for command in (["show", paper, "--json"], ["list"], ["search", "model"], ["tags"]):
        done = run(lib_dir, *command)  # the rest works, and exits 0: nothing was asked of it
        assert done.returncode == 0, (command, done.stderr)
        assert "Traceback" not in done.stderr
    assert json.loads(run(lib_dir, "show", paper, "--json").stdout)["tags"] == []
    after = os.lstat(path)
    assert (stat.S_IFMT(after.st_mode), after.st_ino) == (stat.S_IFMT(before.st_mode),
                                                          before.st_ino)
    # The reading lists are another file: they still work.
    assert run(lib_dir, "lists", "add", "kept", paper).returncode == 0


def test_reading_lists_that_are_a_fifo_leave_annotations_working(lib_dir: Path,
                                                                 paper: str) -> None:
    path = lib_dir / "reading-lists.yaml"
    os.mkfifo(path)
    added = run(lib_dir, "lists", "add", "later", paper)
    assert added.returncode == 1
    assert added.stderr.splitlines() == [
        f"paper-tui: {path}: cannot read (a FIFO, not a regular file); reading lists are "
        "read-only until the file is fixed (no backup yet)"]
    assert run(lib_dir, "tag", paper, "kept").returncode == 0
    assert stat.S_ISFIFO(path.stat().st_mode)


def test_a_fixed_file_is_read_again(lib_dir: Path, paper: str) -> None:
    """The FIFO replaced by a real file: the next command reads it and may change it."""
    path = lib_dir / "annotations.yaml"
    os.mkfifo(path)
    assert run(lib_dir, "tag", paper, "x").returncode == 1
    path.unlink()
    done = run(lib_dir, "tag", paper, "x")
    assert done.returncode == 0, done.stderr
    assert yaml.safe_load(path.read_text())["papers"][paper]["tags"] == ["x"]


def test_annotations_behind_a_symlink_are_written_through_it(lib_dir: Path, tmp_path: Path,
                                                             paper: str) -> None:
    synced = tmp_path / "synced"
    synced.mkdir()
    target = synced / "my-annotations.yaml"
    assert run(lib_dir, "tag", paper, "first").returncode == 0
    shutil.move(lib_dir / "annotations.yaml", target)
    (lib_dir / "annotations.yaml").symlink_to(target)
    for tag in ("second", "third"):
        done = run(lib_dir, "tag", paper, tag)
        assert done.returncode == 0, done.stderr
    assert (lib_dir / "annotations.yaml").is_symlink()
    assert yaml.safe_load(target.read_text())["papers"][paper]["tags"] == [
        "first", "second", "third"]
    shown = run(lib_dir, "show", paper)
    assert "first, second, third" in shown.stdout


@pytest.mark.parametrize("name", [".annotations.yaml.cache", "annotations.yaml.bak"])
def test_a_fifo_for_the_cache_or_the_backup_never_hangs(lib_dir: Path, paper: str,
                                                         name: str) -> None:
    """The parse cache is read at every start and the backup when the file is broken."""
    assert run(lib_dir, "tag", paper, "x").returncode == 0
    (lib_dir / name).unlink(missing_ok=True)
    os.mkfifo(lib_dir / name)
    if name.endswith(".bak"):
        (lib_dir / "annotations.yaml").write_text("papers: [broken\n")
    done = run(lib_dir, "show", paper, "--json")
    assert done.returncode == 0, done.stderr

