"""Writing a file that is not a regular one (paper_tui.trust.atomic, and `export -o`): a device or
a FIFO is written through by atomic's default, a symlink's target is written and the link
stays, only a regular file is replaced atomically; a new file gets the umask's mode, an old
one keeps its own. An ``-o`` file (``export``, ``team digest``) is a regular file or
nothing: a device, FIFO or directory is refused in one line before the library is even
opened. Real device nodes (a copy of /dev/null and /dev/full made with mknod when we are
root), a real FIFO with a reader process, real symlinks."""

from __future__ import annotations

import errno
import os
import stat
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

import forked_cli
from paper_tui.trust import atomic

NULL, FULL = os.makedev(1, 3), os.makedev(1, 7)
"""Linux's device numbers of /dev/null and /dev/full."""


def device(path: Path, number: int) -> Path:
    """A character device node at ``path`` (needs root: skipped otherwise)."""
    try:
        os.mknod(path, stat.S_IFCHR | 0o666, number)
    except PermissionError:
        pytest.skip("making a device node needs root")
    return path


@pytest.fixture
def umask() -> Iterator[None]:
    """Restore the process's umask after a test that sets it."""
    old = os.umask(0o022)
    yield
    os.umask(old)


def export(lib_dir: Path, output: Path | str) -> subprocess.CompletedProcess:
    return forked_cli.run([sys.executable, "-m", "paper_tui", "--library", str(lib_dir),
                           "export", "--query", "", "-o", str(output)],
                          capture_output=True, text=True, timeout=60)


# -- devices -------------------------------------------------------------------------------
def test_a_device_is_written_through_not_replaced(tmp_path: Path) -> None:
    null = device(tmp_path / "null", NULL)
    atomic.write_text(null, "anything\n")
    assert stat.S_ISCHR(null.stat().st_mode) and null.stat().st_rdev == NULL
    assert sorted(p.name for p in tmp_path.iterdir()) == ["null"]  # no temp file left


def test_a_full_device_fails_with_enospc_and_stays(tmp_path: Path) -> None:
    full = device(tmp_path / "full", FULL)
    with pytest.raises(OSError) as raised:
        atomic.write_text(full, "anything\n")
    assert raised.value.errno == errno.ENOSPC
    assert stat.S_ISCHR(full.stat().st_mode) and full.stat().st_rdev == FULL


def refused(done: subprocess.CompletedProcess, output: Path | str, what: str) -> None:
    """One line naming the file, exit 1."""
    assert done.returncode == 1, done.stderr
    assert done.stderr == f"paper-tui: {output}: cannot write ({what}, not a regular file)\n"


def test_export_to_a_device_node_is_refused_and_keeps_it(lib_dir: Path, tmp_path: Path
                                                         ) -> None:
    null = device(tmp_path / "null", NULL)
    refused(export(lib_dir, null), null, "a character device")
    assert stat.S_ISCHR(null.stat().st_mode) and null.stat().st_rdev == NULL


@pytest.mark.parametrize("name", ["/dev/null", "/dev/full", "/dev/zero"])
def test_export_to_a_real_device_is_refused_before_the_library_opens(tmp_path: Path,
                                                                     name: str) -> None:
    lib_dir = tmp_path / "library"
    refused(export(lib_dir, name), name, "a character device")
    assert not lib_dir.exists()  # nothing opened, imported or computed first
    assert stat.S_ISCHR(os.stat(name).st_mode)


# -- FIFOs ---------------------------------------------------------------------------------
def test_a_fifo_is_written_through_to_its_reader(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    reader = subprocess.Popen(["cat", str(fifo)], stdout=subprocess.PIPE)
    try:
        atomic.write_bytes(fifo, b"through the pipe\n" * 10_000)  # more than a pipe holds
        out, _ = reader.communicate(timeout=30)
    finally:
        reader.kill()
    assert out == b"through the pipe\n" * 10_000
    assert stat.S_ISFIFO(fifo.stat().st_mode)


def test_export_into_a_fifo_is_refused_without_waiting(lib_dir: Path, tmp_path: Path
                                                       ) -> None:
    fifo = tmp_path / "pipe.md"
    os.mkfifo(fifo)
    refused(export(lib_dir, fifo), fifo, "a FIFO")  # no reader: it would wait for one
    assert stat.S_ISFIFO(fifo.stat().st_mode)


def test_team_digest_into_a_fifo_is_refused(lib_dir: Path, tmp_path: Path) -> None:
    fifo = tmp_path / "digest.md"
    os.mkfifo(fifo)
    done = forked_cli.run([sys.executable, "-m", "paper_tui", "--library", str(lib_dir),
                           "team", "digest", "-o", str(fifo)],
                          capture_output=True, text=True, timeout=60)
    refused(done, fifo, "a FIFO")


def test_regular_only_refuses_a_fifo_before_opening_it(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    with pytest.raises(atomic.NotARegularFileError, match="a FIFO"):
        atomic.write_text(fifo, "x", regular_only=True)  # opening it would wait
    assert stat.S_ISFIFO(fifo.stat().st_mode) and list(tmp_path.iterdir()) == [fifo]


# -- symlinks ------------------------------------------------------------------------------
def test_a_symlink_is_written_through_and_stays_a_link(tmp_path: Path) -> None:
    (tmp_path / "elsewhere").mkdir()
    target = tmp_path / "elsewhere" / "notes.md"
    target.write_text("old\n")
    target.chmod(0o640)
    link = tmp_path / "notes.md"
    link.symlink_to(target)
    atomic.write_text(link, "new\n")
    assert link.is_symlink() and os.readlink(link) == str(target)
    assert target.read_text() == "new\n"
    assert stat.S_IMODE(target.stat().st_mode) == 0o640
    assert sorted(p.name for p in tmp_path.iterdir()) == ["elsewhere", "notes.md"]


def test_a_dangling_symlink_creates_its_target(tmp_path: Path) -> None:
    link = tmp_path / "out.md"
    link.symlink_to("made.md")  # relative, as `ln -s made.md out.md`
    atomic.write_text(link, "made\n")
    assert link.is_symlink() and (tmp_path / "made.md").read_text() == "made\n"


def test_export_through_a_symlink_keeps_it(lib_dir: Path, tmp_path: Path) -> None:
    target = tmp_path / "real.md"
    target.write_text("old\n")
    link = tmp_path / "link.md"
    link.symlink_to(target.name)
    done = export(lib_dir, link)
    assert done.returncode == 0, done.stderr
    assert link.is_symlink() and target.read_text().startswith("# All papers")


def test_a_backup_of_a_linked_file_sits_beside_the_link(tmp_path: Path) -> None:
    (tmp_path / "synced").mkdir()
    target = tmp_path / "synced" / "annotations.yaml"
    target.write_text("version: 1\n")
    link = tmp_path / "annotations.yaml"
    link.symlink_to(target)
    atomic.write_text(link, "version: 2\n", backup=True)
    assert (tmp_path / "annotations.yaml.bak").read_text() == "version: 1\n"
    assert link.is_symlink() and target.read_text() == "version: 2\n"


# -- what is refused -----------------------------------------------------------------------
def test_a_directory_is_refused_and_left_alone(tmp_path: Path) -> None:
    folder = tmp_path / "folder"
    folder.mkdir()
    with pytest.raises(IsADirectoryError):
        atomic.write_text(folder, "x")
    assert folder.is_dir() and list(tmp_path.iterdir()) == [folder]


def test_export_onto_a_directory_is_one_line_exit_1(lib_dir: Path, tmp_path: Path) -> None:
    refused(export(lib_dir, tmp_path), tmp_path, "a directory")


def test_a_control_character_in_the_output_name_is_printed_escaped(lib_dir: Path,
                                                                   tmp_path: Path) -> None:
    name = tmp_path / "a\nb\x1b[31m\u202ec.md"
    done = export(lib_dir, name)
    assert done.returncode == 0, done.stderr
    escaped = f"{tmp_path}/a\\nb\\x1b[31m\\u202ec.md"
    assert done.stderr == f"wrote 38 papers to {escaped}\n"
    assert name.read_text("utf-8").startswith("# All papers")


# -- modes ---------------------------------------------------------------------------------
@pytest.mark.parametrize(("mask", "mode"), [(0o022, 0o644), (0o077, 0o600), (0o002, 0o664)])
def test_a_new_file_gets_the_umasks_mode(tmp_path: Path, umask: None, mask: int,
                                         mode: int) -> None:
    os.umask(mask)
    path = tmp_path / "new.md"
    atomic.write_text(path, "x")
    assert stat.S_IMODE(path.stat().st_mode) == mode


def test_a_replaced_file_keeps_its_mode(tmp_path: Path, umask: None) -> None:
    path = tmp_path / "shared.md"
    path.write_text("old")
    path.chmod(0o664)
    os.umask(0o077)
    atomic.write_text(path, "new")
    assert path.read_text() == "new" and stat.S_IMODE(path.stat().st_mode) == 0o664


def test_export_creates_a_file_with_the_umasks_mode(lib_dir: Path, tmp_path: Path,
                                                     umask: None) -> None:
    os.umask(0o022)  # the child inherits it
    done = export(lib_dir, tmp_path / "out.md")
    assert done.returncode == 0, done.stderr
    assert stat.S_IMODE((tmp_path / "out.md").stat().st_mode) == 0o644


# -- reading -------------------------------------------------------------------------------
def test_reading_a_fifo_with_no_writer_does_not_wait(tmp_path: Path) -> None:
    fifo = tmp_path / "annotations.yaml"
    os.mkfifo(fifo)
    start = time.monotonic()
    with pytest.raises(atomic.NotARegularFileError) as raised:
        atomic.read_regular(fifo)
    assert raised.value.strerror == "a FIFO, not a regular file"
    assert time.monotonic() - start < 10  # it did not wait for a writer (which never comes)


@pytest.mark.parametrize(("make", "kind"), [
    (lambda p: p.mkdir(), "a directory"),
    (lambda p: p.symlink_to("/dev/zero"), "a character device"),  # it would never end
])
def test_reading_refuses_what_is_not_a_regular_file(tmp_path: Path, make, kind: str) -> None:
    path = tmp_path / "annotations.yaml"
    make(path)
    with pytest.raises(atomic.NotARegularFileError) as raised:
        atomic.read_regular(path)
    assert raised.value.strerror == f"{kind}, not a regular file"


def test_reading_a_regular_file_gives_its_bytes_and_identity(tmp_path: Path) -> None:
    path = tmp_path / "f"
    path.write_bytes(b"data")
    assert atomic.read_regular(path) == (b"data", atomic.identity(path))
