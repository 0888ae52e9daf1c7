"""The team repo is untrusted input: what a hostile team-mate can commit and push (links
out of the repo, devices, names that climb out, poisoned paper lists, huge files) never
reads or writes outside it, never hangs or exhausts a member's machine, and costs at most
one line while the rest of the sync and of `show` goes on. Real libraries, real git, a
real bare remote, `paper-tui` processes."""

from __future__ import annotations

import gzip
import json
import os
import resource
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pytest

import forked_cli
from team_helpers import TEST_DATA, Member, Teammate, bare_repo, git

MEMORY = 3 << 30  # address space a hostile file may make a command want, before it fails


def _limited() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY, MEMORY))


def limited(member: Member, *args: str, timeout: float = 120
            ) -> subprocess.CompletedProcess:
    """``paper-tui ARGS`` with its memory capped and a deadline (the old code read a link to
    /dev/zero until memory ran out, or waited on /dev/stdin for ever): its stdin a pipe held
    open, as a terminal would be."""
    stdin, held = os.pipe()
    proc = subprocess.Popen([sys.executable, "-m", "paper_tui", "--library", str(member.root),
                             *args], stdin=stdin, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, preexec_fn=_limited)
    os.close(stdin)
    try:
        out, err = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.communicate()
        pytest.fail(f"paper-tui {' '.join(args)} still ran after {timeout} s")
    finally:
        os.close(held)
    return subprocess.CompletedProcess(proc.args, proc.returncode, out, err)


def _lines(done: subprocess.CompletedProcess) -> list[str]:
    assert "Traceback" not in done.stderr
    return [line for line in done.stderr.splitlines() if line]


@pytest.fixture
def team(tmp_path: Path) -> tuple[Path, Member, Teammate]:
    """Alice in a team whose remote Eve also pushes to, with plain git."""
    remote = bare_repo(tmp_path / "team.git")
    alice = Member(tmp_path / "alice", "alice")
    alice.run("star", alice.ids()[0])
    alice.sync(remote)
    return remote, alice, Teammate(remote, tmp_path / "eve")


def _history(remote: Path) -> str:
    """Every text the remote's history ever held."""
    return git(remote, "log", "--all", "-p", "--format=%H %s").stdout


def test_a_link_to_a_private_file_is_never_imported_nor_sent(team, tmp_path: Path) -> None:
    remote, alice, eve = team
    diary = tmp_path / "home" / "diary.txt"
    diary.parent.mkdir()
    diary.write_text("Diary 2026\n\nSECRET-hunter2 is what I wrote in my diary about the lab "
                     "meeting and the people who were in it that day.\n")
    eve.push("a paper list", links={"sources/x.txt": str(diary)})
    before = alice.ids()
    done = alice.sync()
    alice.sync()
    assert "SECRET" not in _history(remote)
    assert alice.ids() == before
    assert "SECRET" not in alice.run("search", "hunter2").stdout
    assert not (alice.team / "sources" / "x.txt").is_symlink()
    lines = _lines(done)
    assert len(lines) == 1 and "sources/x.txt" in lines[0] and "symbolic link" in lines[0]


@pytest.mark.parametrize("device", ["/dev/zero", "/dev/stdin"])
def test_a_member_file_linked_to_a_device_is_refused_without_reading(team, device: str
                                                                     ) -> None:
    _, alice, eve = team
    pid = alice.ids()[1]
    eve.push("eve's triage", links={"people/eve.yaml": device})
    assert limited(alice, "sync").returncode == 0
    shown = limited(alice, "show", pid, "--json")
    assert shown.returncode == 0, shown.stderr
    assert json.loads(shown.stdout)["team"] == {}
    found = limited(alice, "search", "by:eve", "--json")
    assert found.returncode == 0, found.stderr
    assert json.loads(found.stdout) == []


def test_a_link_is_never_written_through(team, tmp_path: Path) -> None:
    remote, alice, eve = team
    victims = {name: tmp_path / name for name in ("bashrc", "notes.bib")}
    for path in victims.values():
        path.write_text("precious\n")
    eve.push("tidy", links={".gitattributes": str(victims["bashrc"]),
                            "sources/mine.bib": str(victims["notes.bib"])})
    came = alice.sync()  # the links come in
    mine = tmp_path / "downloads" / "mine.bib"
    mine.parent.mkdir()
    shutil.copy(TEST_DATA / "sample.bib", mine)
    alice.run("import", str(mine), check=False)  # a bad record in it: exit 1
    alice.sync()  # writes both names: .gitattributes, and the list it shares
    for path in victims.values():
        assert path.read_text() == "precious\n"
    assert "shared mine.bib" in git(remote, "log", "-1", "--format=%s", "main").stdout
    tree = git(remote, "ls-tree", "main", ".gitattributes", "sources/mine.bib").stdout
    assert [line.split()[0] for line in tree.splitlines()] == ["100644", "100644"]
    (line,) = _lines(came)
    assert "sources/mine.bib" in line and "symbolic link" in line


def test_names_that_are_not_plain_are_no_one(team, tmp_path: Path) -> None:
    _, alice, eve = team
    pid = alice.ids()[2]
    record = f'version: 1\npapers:\n  "{pid}":\n    starred: true\n'
    eve.push("odd names", files={"people/Eve Bad.yaml": record, "people/UPPER.yaml": record,
                                 "people/sub/x.yaml": record, "people/eve.yaml": record})
    done = alice.sync()
    odd = [line for line in _lines(done) if "not a member's file" in line]
    assert len(odd) == 3, done.stderr
    assert alice.show(pid)["team"] == {"eve": {"status": "new", "starred": True, "tags": [],
                                               "note": ""}}
    # A name in team.json that would climb out of the library is refused where it is read.
    state = alice.root / "team.json"
    data = json.loads(state.read_text())
    state.write_text(json.dumps({**data, "name": "../../../outside"}))
    failed = alice.sync(check=False)
    assert failed.returncode == 1
    (line,) = _lines(failed)
    assert "team.json" in line and "'name'" in line
    assert not list(tmp_path.glob("outside*")) and not list(alice.root.glob("outside*"))
    assert alice.run("list").returncode == 0


def test_a_list_that_is_not_a_paper_list_is_quarantined_until_it_changes(team) -> None:
    _, alice, eve = team
    eve.push("my notes", files={"sources/notes.json": "{ this is not json"})
    first = _lines(alice.sync())
    assert len(first) == 1 and "sources/notes.json" in first[0] and "invalid JSON" in first[0]
    again = _lines(alice.sync())  # said again, not imported again
    assert len(again) == 1 and "sources/notes.json" in again[0] and "skipped" in again[0]
    eve.push("fixed", files={"sources/notes.json":
                             (TEST_DATA / "nips2018-sample.json").read_text()})
    fixed = alice.sync()
    assert _lines(fixed) == []
    assert "paper list notes.json (" in fixed.stdout
    eve.push("another", files={"sources/bad.json": "[1, 2"})
    assert len(_lines(alice.sync())) == 1
    eve.push("gone", remove=("sources/bad.json",))
    assert _lines(alice.sync()) == []
    assert json.loads((alice.root / "team.json").read_text())["quarantined"] == {}


def test_a_list_that_breaks_the_importer_never_stops_the_sync(team) -> None:
    """A 100,000-deep JSON array made the importer raise (RecursionError): every sync
    after it exited 70 with a traceback, even once it had left the remote."""
    _, alice, eve = team
    eve.push("deep", files={"sources/deep.json": "[" * 100_000 + "]" * 100_000})
    pid = alice.ids()[3]
    alice.run("tag", pid, "mine")
    done = alice.sync()
    (line,) = _lines(done)
    assert "sources/deep.json" in line
    assert done.stdout.strip() == "nothing new; sent 1 change"
    eve.push("gone", remove=("sources/deep.json",))
    assert _lines(alice.sync()) == []


def test_a_sync_killed_while_importing_quarantines_that_list(team) -> None:
    _, alice, eve = team
    name = "papers-ml-1000.jsonl.gz"
    eve.push("a big list", files={f"sources/{name}": (TEST_DATA / name).read_bytes()})
    proc = forked_cli.Popen([sys.executable, "-m", "paper_tui", "--library", str(alice.root),
                             "sync", "--steps"], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    assert proc.stderr is not None
    for line in proc.stderr:
        if line.strip() == f"step: importing {name}":
            proc.send_signal(signal.SIGKILL)  # as the kernel's out-of-memory killer would
            break
    proc.communicate()
    assert proc.returncode == -signal.SIGKILL
    done = alice.sync()
    (line,) = _lines(done)
    assert f"sources/{name}" in line and "stopped" in line
    assert len(alice.ids()) == 38
    assert "skipped" in _lines(alice.sync())[0]
    # By hand, it imports.
    alice.run("import", str(alice.team / "sources" / name))
    assert len(alice.ids()) == 38 + 1000


def _gzip_bomb(path: Path, gigabytes: int = 10) -> None:
    """``gigabytes`` GB of zeros in about gigabytes MB: one 100 MB member, repeated."""
    member = gzip.compress(bytes(100 << 20), compresslevel=9)
    with path.open("wb") as fh:
        for _ in range(gigabytes * 10):
            fh.write(member)


def test_a_gzip_bomb_is_quarantined_and_forgotten_once_removed(team, tmp_path: Path) -> None:
    _, alice, eve = team
    bomb = tmp_path / "bomb.jsonl.gz"
    _gzip_bomb(bomb)
    eve.push("a big list", files={"sources/bomb.jsonl.gz": bomb.read_bytes()})
    pid = alice.ids()[4]
    alice.run("star", pid)
    done = limited(alice, "sync", timeout=300)
    assert done.returncode == 0, done.stderr
    (line,) = _lines(done)
    assert "sources/bomb.jsonl.gz" in line
    assert "sent 1 change" in done.stdout
    again = limited(alice, "sync", timeout=120)
    assert again.returncode == 0 and "skipped" in _lines(again)[0]
    eve.push("gone", remove=("sources/bomb.jsonl.gz",))
    clean = limited(alice, "sync", timeout=120)
    assert clean.returncode == 0 and _lines(clean) == []


def test_a_huge_member_file_is_not_shown_and_the_rest_is(team, tmp_path: Path) -> None:
    remote, alice, eve = team
    pid = alice.ids()[5]
    bob = Member(tmp_path / "bob", "bob")
    bob.run("star", pid)
    bob.sync(remote)
    huge = [f'version: 1\npapers:\n  "{pid}":\n    starred: true\n']
    huge += [f'  "x-{i:07d}":\n    status: read\n' for i in range(1_000_000)]
    eve.push("everything", files={"people/eve.yaml": "".join(huge)})
    done = alice.sync()
    (line,) = _lines(done)
    assert "people/eve.yaml" in line and "200,000" in line and "not shown" in line
    assert "1 paper from bob" in done.stdout
    shown = alice.run("show", pid, "--json")
    assert json.loads(shown.stdout)["team"] == {"bob": {"status": "new", "starred": True,
                                                        "tags": [], "note": ""}}
    (line,) = _lines(shown)
    assert "eve.yaml" in line and "not shown" in line


def test_a_broken_team_json_is_one_line_and_other_commands_work(team) -> None:
    _, alice, _ = team
    state = alice.root / "team.json"
    state.write_text(json.dumps({**json.loads(state.read_text()), "unsent": "many"}))
    assert alice.run("list").stdout
    failed = alice.sync(check=False)
    assert failed.returncode == 1
    (line,) = _lines(failed)
    assert "team.json" in line and "'unsent'" in line and "'many'" in line
