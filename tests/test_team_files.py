"""Files in the team work tree are read and written without following a link out of it, a
FIFO or device is refused without blocking, and a file over the cap is not read (its
member is not shown, the others are)."""

from __future__ import annotations

import os
import threading
from pathlib import Path

import pytest

from paper_tui.team import files, repo
from paper_tui.team.layer import Team
from paper_tui.team.people_file import TeamRecord

P = repo.PEOPLE_SCHEMA


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    root = tmp_path / "team"
    (root / "people").mkdir(parents=True)
    return root


def test_reads_regular_files_only_and_never_through_a_link(tree: Path, tmp_path: Path) -> None:
    secret = tmp_path / "secret.txt"
    secret.write_text("mine")
    (tree / "people" / "bob.yaml").write_text("bob")
    assert files.read_bytes(tree, "people/bob.yaml", 10) == b"bob"
    assert files.read_bytes(tree, "people/nobody.yaml", 10) is None
    (tree / "people" / "eve.yaml").symlink_to(secret)
    (tree / "sources").symlink_to(tmp_path)  # a folder that is a link: never passed
    for rel in ("people/eve.yaml", "sources/secret.txt"):
        with pytest.raises(files.TeamFileError, match="symbolic link"):
            files.read_bytes(tree, rel, 10)
        assert not files.is_regular(tree, rel)
    with pytest.raises(files.TeamFileError, match="more than"):
        files.read_bytes(tree, "people/bob.yaml", 2)
    with pytest.raises(files.TeamFileError, match="not a path inside"):
        files.read_bytes(tree, "people/../../secret.txt", 10)
    assert files.names(tree, "people") == ["bob.yaml"]
    assert files.names(tree, "sources") == []


def test_a_fifo_or_device_is_refused_without_blocking(tree: Path) -> None:
    os.mkfifo(tree / "people" / "fifo.yaml")
    os.symlink("/dev/zero", tree / "people" / "zero.yaml")
    done = threading.Event()

    def read() -> None:
        with pytest.raises(files.TeamFileError, match="not a regular file"):
            files.read_bytes(tree, "people/fifo.yaml", 10)
        done.set()

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    reader.join(10)
    assert done.is_set()  # no writer ever opens the FIFO: a blocking open would wait
    with pytest.raises(files.TeamFileError, match="symbolic link"):
        files.read_bytes(tree, "people/zero.yaml", 10)


def test_writes_replace_a_link_and_never_follow_it(tree: Path, tmp_path: Path) -> None:
    victim = tmp_path / "bashrc"
    victim.write_text("precious")
    (tree / ".gitattributes").symlink_to(victim)
    files.write_text(tree, ".gitattributes", "ours\n")
    assert victim.read_text() == "precious"
    assert not (tree / ".gitattributes").is_symlink()
    assert (tree / ".gitattributes").read_text() == "ours\n"
    files.write_text(tree, "sources/new.bib", "@misc{x}\n")  # folders are made
    assert (tree / "sources" / "new.bib").read_text() == "@misc{x}\n"
    (tree / "lists").symlink_to(tmp_path)
    with pytest.raises(files.TeamFileError, match="symbolic link"):
        files.write_text(tree, "lists/x.yaml", "no")
    assert not (tmp_path / "x.yaml").exists()
    assert [p.name for p in tree.iterdir() if p.name.endswith(".tmp")] == []


def test_a_member_file_over_the_byte_cap_is_not_read(tmp_path: Path) -> None:
    people = tmp_path / "team" / "people"
    people.mkdir(parents=True)
    record = repo.write(P, {"p": {"starred": True}}, {})
    (people / "bob.yaml").write_text(record)
    with (people / "eve.yaml").open("w") as fh:
        fh.write(record)
        fh.write("#" * (repo.MAX_BYTES + 1) + "\n")  # a comment: valid YAML, too big
    team = Team(tmp_path)
    assert team.annotators("p") == {"bob": TeamRecord(starred=True)}
    assert "eve.yaml" in team.problems["eve"] and "MB" in team.problems["eve"]
    assert "not shown" in team.problems["eve"]
