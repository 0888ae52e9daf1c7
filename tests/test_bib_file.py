"""A reading list's linked ``.bib`` (``paper-tui lists bib NAME FILE``): rewritten after
every change of the list — at a command's end, within a second in a running app, at a
sync's end — with stable keys and entries by key, read back by bibtexparser each time;
rewritten atomically (``kill -9`` mid-write leaves the old file or the new one)."""

from __future__ import annotations

import os
import random
import resource
import signal
import stat
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import bibtexparser
import pytest

from paper_tui import config as config_mod
from paper_tui.citations.bib_file import bib_text
from paper_tui.library import Library
from team_helpers import Member, bare_repo

MEMORY = 1 << 30
"""Address space a command may use here: the old code read a linked /dev/zero until it
had 1.7 GB."""


def _limited() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY, MEMORY))


def limited(member: Member, *args: str) -> subprocess.CompletedProcess:
    """``paper-tui ARGS`` in a process of its own, its memory capped, with a deadline (a
    linked FIFO held the old code for ever)."""
    return subprocess.run([sys.executable, "-m", "paper_tui", "--library", str(member.root),
                           *args], capture_output=True, text=True, timeout=120,
                          preexec_fn=_limited, env=member.env, stdin=subprocess.DEVNULL)


def entries(path: Path) -> list[tuple[str, str]]:
    """(key, title) of each entry, in the file's order, as bibtexparser reads them."""
    parsed = bibtexparser.loads(path.read_text("utf-8"))
    return [(entry["ID"], entry["title"]) for entry in parsed.entries]


def test_the_bib_follows_the_list_through_every_command(tmp_path: Path, library: Library
                                                        ) -> None:
    ids = [p.id for p in library.papers()][:4]
    library.close()
    ada = Member(library.root, "ada")
    bib = tmp_path / "thesis" / "refs.bib"
    bib.parent.mkdir()
    ada.run("lists", "add", "reading group", ids[0], ids[1])
    done = ada.run("lists", "bib", "reading group", str(bib))
    assert done.stdout.strip() == f"“reading group” keeps {bib} up to date"
    first = entries(bib)
    assert len(first) == 2 and [k for k, _ in first] == sorted(k for k, _ in first)
    ada.run("lists", "add", "reading group", ids[2], ids[3])
    grown = entries(bib)
    assert len(grown) == 4 and set(first) <= set(grown)  # the old keys never change
    assert [k for k, _ in grown] == sorted((k for k, _ in grown), key=str.casefold)
    before = bib.read_text("utf-8")
    ada.run("lists", "move", "reading group", ids[3], "1")
    assert bib.read_text("utf-8") == before  # entries by key: a move changes nothing
    ada.run("lists", "remove", "reading group", ids[0])
    after = entries(bib)
    assert len(after) == 3 and set(after) < set(grown)
    ada.run("lists", "rename", "reading group", "thesis")
    assert ada.run("lists", "bib").stdout.strip() == f"thesis  {bib}"
    ada.run("lists", "add", "thesis", ids[0])
    assert set(entries(bib)) == set(grown) and "“thesis”" in bib.read_text("utf-8")
    ada.run("lists", "bib", "thesis", "--unlink")
    ada.run("lists", "remove", "thesis", ids[1])
    assert set(entries(bib)) == set(grown)  # no longer followed: left as it was
    assert ada.run("lists", "bib").stdout == ""


def test_bad_links_are_one_line_and_change_nothing(tmp_path: Path, library: Library) -> None:
    paper_id = next(library.papers()).id
    library.close()
    ada = Member(library.root, "ada")
    ada.run("lists", "add", "l", paper_id)
    for target, said in ((tmp_path, "is a directory"),
                         (tmp_path / "a-file" / "refs.bib", "cannot write the .bib")):
        (tmp_path / "a-file").touch()
        done = ada.run("lists", "bib", "l", str(target), check=False)
        assert done.returncode == 1 and done.stderr.count("\n") == 1, done.stderr
        assert said in done.stderr and "Traceback" not in done.stderr
    assert ada.run("lists", "bib").stdout == ""
    done = ada.run("lists", "bib", "nope", str(tmp_path / "x.bib"), check=False)
    assert (done.returncode, done.stderr) == (1, "paper-tui: no reading list named 'nope'\n")


def test_a_running_library_rewrites_the_bib_within_a_second(tmp_path: Path,
                                                            library_dir: Path) -> None:
    """What the app does: its annotation saver looks at the links after each pass."""
    lib = Library.open(library_dir, config=config_mod.defaults())
    try:
        ids = [p.id for p in lib.papers()][:3]
        lib.create_list("live")
        lib.add_to_list("live", ids[:1])
        bib = tmp_path / "live.bib"
        lib.link_bib("live", bib)
        assert len(entries(bib)) == 1
        lib.add_to_list("live", ids[1:])
        changed = time.monotonic()
        while len(entries(bib)) != 3 and time.monotonic() - changed < 5:
            time.sleep(0.05)
        took = time.monotonic() - changed
        assert len(entries(bib)) == 3, "the linked .bib was not rewritten"
        assert took < 3  # within a second on a quiet machine; slack for a loaded one
    finally:
        lib.close()


def test_a_sync_that_brings_a_list_change_rewrites_the_bib(tmp_path: Path,
                                                          bundled_dir: Path) -> None:
    remote = bare_repo(tmp_path / "team.git")
    alice, bob = Member(tmp_path / "alice", "alice"), Member(tmp_path / "bob", "bob")
    ids = alice.ids()[:3]
    alice.run("lists", "add", "group", ids[0])
    bib = tmp_path / "group.bib"
    alice.run("lists", "bib", "group", str(bib))
    alice.sync(remote)
    bob.sync(remote)
    bob.run("lists", "add", "group", ids[1], ids[2])
    bob.sync()
    assert len(entries(bib)) == 1
    alice.sync()
    assert len(entries(bib)) == 3


WRITER = """
import sys
from pathlib import Path
from paper_tui.citations.bib_file import write_if_changed
path, old, new = Path(sys.argv[1]), Path(sys.argv[2]).read_text(), Path(sys.argv[3]).read_text()
print("ready", flush=True)
while True:
    for text in (new, old):
        write_if_changed(path, text)
"""


def test_kill_9_mid_write_leaves_the_old_file_or_the_new(tmp_path: Path,
                                                         library: Library) -> None:
    papers = list(library.papers())
    keys = library.citation_keys(papers)
    library.close()
    texts = [bib_text("big", papers[:n], keys) * 40 for n in (20, 38)]  # ~0.5 MB each
    sources = [tmp_path / "old.txt", tmp_path / "new.txt"]
    for source, text in zip(sources, texts, strict=True):
        source.write_text(text, "utf-8")
    bib = tmp_path / "out" / "refs.bib"
    bib.parent.mkdir()
    bib.write_text(texts[0], "utf-8")
    rng = random.Random(27)
    for _ in range(12):
        writer = subprocess.Popen([sys.executable, "-c", WRITER, str(bib), *map(str, sources)],
                                  stdout=subprocess.PIPE, text=True)
        assert writer.stdout is not None and writer.stdout.readline().strip() == "ready"
        time.sleep(rng.uniform(0.01, 0.3))
        os.kill(writer.pid, signal.SIGKILL)
        writer.wait()
        assert bib.read_text("utf-8") in texts
    assert entries(bib)  # once: bibtexparser takes seconds over half a megabyte
    leftovers = [p for p in bib.parent.iterdir() if p.name != "refs.bib"]
    assert all(p.name.startswith(".refs.bib.") and p.suffix == ".tmp" for p in leftovers)


def test_names_in_the_head_stay_comments() -> None:
    # a list name or a listed id from a team's repo holding a line break must not put
    # an entry of its own into the file
    text = bib_text("ours\n@misc{injected, title = {x}}", [], {},
                    missing=["gone\n@misc{also, title = {y}}"])
    assert bibtexparser.loads(text).entries == []
    assert all(line.startswith("% ") for line in text.splitlines() if line)


def _fifo(path: Path) -> Path:
    os.mkfifo(path)
    return path


def test_a_device_or_fifo_is_never_linked_nor_read(tmp_path: Path, library: Library) -> None:
    paper_id = next(library.papers()).id
    library.close()
    ada = Member(library.root, "ada")
    ada.run("lists", "add", "l", paper_id)
    for target, kind in ((Path("/dev/zero"), "a character device"),
                         (Path("/dev/full"), "a character device"),
                         (_fifo(tmp_path / "pipe.bib"), "a FIFO")):
        done = limited(ada, "lists", "bib", "l", str(target))
        assert (done.returncode, done.stderr) == (
            1, f"paper-tui: {target}: {kind}, not a regular file; give a .bib file's name\n")
        assert ada.run("lists", "bib").stdout == ""  # the link not saved
    assert stat.S_ISFIFO((tmp_path / "pipe.bib").stat().st_mode)


def _to_dev_zero(path: Path) -> None:
    path.unlink()
    path.symlink_to("/dev/zero")


def _to_fifo(path: Path) -> None:
    path.unlink()
    os.mkfifo(path)


def _to_directory(path: Path) -> None:
    path.unlink()
    path.mkdir()


@pytest.mark.parametrize(("damage", "kind"), [(_to_dev_zero, "a character device"),
                                              (_to_fifo, "a FIFO"),
                                              (_to_directory, "a directory")])
def test_a_broken_link_fails_only_the_command_that_changed_the_list(
        tmp_path: Path, library: Library, damage: Callable[[Path], None], kind: str) -> None:
    ids = [p.id for p in library.papers()][:2]
    library.close()
    ada = Member(library.root, "ada")
    bib = tmp_path / "refs.bib"
    ada.run("lists", "add", "l", ids[0])
    ada.run("lists", "bib", "l", str(bib))
    damage(bib)
    for command in (["list"], ["search", "learning"], ["tag", ids[0], "later"],
                    ["lists", "show", "l"]):
        done = limited(ada, *command)
        assert done.returncode == 0 and "paper-tui" not in done.stderr, (command, done.stderr)
    assert f"l  {bib}  (cannot be written: {kind}, not a regular file)" in \
        limited(ada, "lists", "bib").stdout
    done = limited(ada, "lists", "add", "l", ids[1])
    assert done.returncode == 1
    assert done.stderr == (f"paper-tui: {bib}: cannot write the .bib of list 'l' ({kind}, "
                           "not a regular file)\n")
    assert ids[1] in ada.run("lists", "show", "l").stdout  # the change itself is kept


def test_a_folder_gone_fails_only_the_command_that_changed_the_list(
        tmp_path: Path, library: Library) -> None:
    ids = [p.id for p in library.papers()][:2]
    library.close()
    ada = Member(library.root, "ada")
    folder = tmp_path / "thesis"
    folder.mkdir()
    ada.run("lists", "add", "l", ids[0])
    ada.run("lists", "bib", "l", str(folder / "refs.bib"))
    (folder / "refs.bib").unlink()
    folder.rmdir()
    folder.write_text("a file where the folder was\n")
    assert (limited(ada, "list").returncode, limited(ada, "list").stderr) == (0, "")
    done = limited(ada, "lists", "add", "l", ids[1])
    assert done.returncode == 1 and done.stderr.count("\n") == 1
    assert "cannot write the .bib of list 'l' (File exists)" in done.stderr
    assert ids[1] in ada.run("lists", "show", "l").stdout


def test_a_newline_in_the_file_name_is_printed_escaped(tmp_path: Path, library: Library
                                                       ) -> None:
    paper_id = next(library.papers()).id
    library.close()
    ada = Member(library.root, "ada")
    ada.run("lists", "add", "l", paper_id)
    bib = tmp_path / "refs\nfake line.bib"
    done = ada.run("lists", "bib", "l", str(bib))
    assert done.stdout == f"“l” keeps {tmp_path}/refs\\nfake line.bib up to date\n"
    assert ada.run("lists", "bib").stdout == f"l  {tmp_path}/refs\\nfake line.bib\n"
    assert entries(bib)
