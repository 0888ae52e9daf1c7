"""Team sync when git says no: one clear line, exit 1, nothing local lost, and the next
sync picks up where it stopped. Real remotes that really refuse."""

from __future__ import annotations

import http.server
import os
import shutil
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

import forked_cli
from team_helpers import Member, Teammate, bare_repo, git, no_conflict_markers


def _fails(done: subprocess.CompletedProcess, *words: str) -> str:
    """The one line a failed sync printed (checked: exit 1, no traceback)."""
    assert done.returncode == 1, (done.stdout, done.stderr)
    assert "Traceback" not in done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    for word in words:
        assert word in lines[0], lines[0]
    return lines[0]


@pytest.fixture
def pair(tmp_path: Path) -> tuple[Path, Member, Member]:
    remote = bare_repo(tmp_path / "team.git")
    alice, bob = Member(tmp_path / "alice", "alice"), Member(tmp_path / "bob", "bob")
    alice.run("star", alice.ids()[0])
    alice.sync(remote)
    bob.sync(remote)
    return remote, alice, bob


def test_an_unreachable_remote_loses_nothing_and_sync_resumes(tmp_path: Path) -> None:
    alice = Member(tmp_path / "alice", "alice")
    pid = alice.ids()[0]
    alice.run("tag", pid, "offline")
    missing = tmp_path / "no" / "such.git"
    line = _fails(alice.sync(missing, check=False), "cannot reach the team remote",
                  str(missing), "does not appear to be a git repository")
    assert "next sync" in line
    assert alice.show(pid)["tags"] == ["offline"]
    alice.run("tag", pid, "more")
    remote = bare_repo(tmp_path / "team.git")
    assert alice.sync(remote).stdout.strip() == "nothing new; sent 1 change"
    bob = Member(tmp_path / "bob", "bob")
    bob.sync(remote)
    assert bob.show(pid)["team"]["alice"]["tags"] == ["offline", "more"]


class _Refusing(http.server.BaseHTTPRequestHandler):
    """A git host over HTTP that wants a login nobody has."""

    def do_GET(self) -> None:
        self.send_response(401)
        self.send_header("WWW-Authenticate", 'Basic realm="team"')
        self.send_header("Content-Length", "0")
        self.end_headers()

    do_POST = do_GET

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture
def refusing_host() -> Iterator[str]:
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Refusing)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}/lab/team.git"
    server.shutdown()


def test_auth_refused_says_so_and_never_prompts(tmp_path: Path, refusing_host: str) -> None:
    alice = Member(tmp_path / "alice", "alice")
    pid = alice.ids()[0]
    alice.run("status", pid, "read")
    done = forked_cli.run([sys.executable, "-m", "paper_tui", "--library", str(alice.root),
                           "sync", "--remote", refusing_host, "--as", "alice"],
                          capture_output=True, text=True, timeout=120,
                          stdin=subprocess.DEVNULL)
    _fails(done, "refused access", refusing_host, "credentials")
    assert alice.show(pid)["status"] == "read"
    # The remote and the name are remembered: fixing the URL is enough.
    _fails(alice.sync(check=False), "refused access")


def test_a_push_the_remote_declines_is_sent_by_the_next_sync(pair) -> None:
    remote, alice, bob = pair
    hook = remote / "hooks" / "pre-receive"
    hook.write_text("#!/bin/sh\necho 'the lab repo is read-only today' >&2\nexit 1\n")
    hook.chmod(0o755)
    pid = alice.ids()[1]
    alice.run("tag", pid, "queued")
    _fails(alice.sync(check=False), "read-only today")
    alice.run("star", pid)
    hook.unlink()
    assert alice.sync().stdout.strip() == "nothing new; sent 2 changes"
    bob.sync()
    assert bob.show(pid)["team"]["alice"] == {"status": "new", "starred": True,
                                              "tags": ["queued"], "note": ""}


def test_a_remote_with_another_history_is_refused_then_joined_afresh(pair, tmp_path: Path
                                                                     ) -> None:
    _, _, bob = pair
    other = bare_repo(tmp_path / "other.git")
    carol = Member(tmp_path / "carol", "carol")
    carol.run("star", carol.ids()[2])
    carol.sync(other)
    pid = bob.ids()[3]
    bob.run("tag", pid, "mine")
    line = _fails(bob.sync(other, check=False), "different history", "nothing was merged")
    assert "move" in line and str(bob.team) in line
    assert bob.show(pid)["tags"] == ["mine"]
    shutil.move(bob.team, tmp_path / "bob-old-team")
    assert bob.sync(other).stdout.strip() == "1 paper from carol; sent 1 change"
    carol.sync()
    assert carol.show(pid)["team"]["bob"]["tags"] == ["mine"]


def test_a_conflict_left_in_the_repo_stops_sync_until_it_is_resolved(pair) -> None:
    _, alice, bob = pair
    team = alice.team
    git(team, "checkout", "-q", "-b", "side")
    (team / "notes.txt").write_text("side\n")
    git(team, "add", "notes.txt")
    git(team, "commit", "-qm", "side")
    git(team, "checkout", "-q", "main")
    (team / "notes.txt").write_text("main\n")
    git(team, "add", "notes.txt")
    git(team, "commit", "-qm", "main")
    assert git(team, "merge", "side", check=False).returncode == 1  # the hand-made conflict
    pid = alice.ids()[4]
    alice.run("tag", pid, "waiting")
    _fails(alice.sync(check=False), "conflicts in notes.txt", "merge --abort",
           "nothing local changed")
    assert alice.show(pid)["tags"] == ["waiting"]
    git(team, "merge", "--abort")
    assert alice.sync().stdout.strip() == "nothing new; sent 1 change"
    bob.sync()
    assert bob.show(pid)["team"]["alice"]["tags"] == ["waiting"]


def test_a_file_broken_by_hand_in_the_repo_is_named_and_never_merged_into(pair) -> None:
    _, alice, bob = pair
    # Someone commits conflict markers into Bob's file on the remote.
    theirs = bob.team / "people" / "bob.yaml"
    theirs.write_text(theirs.read_text() + "<<<<<<< HEAD\n=======\n>>>>>>> other\n")
    git(bob.team, "commit", "-qam", "oops")
    git(bob.team, "push", "-q", "origin", "HEAD:main")
    pid = alice.ids()[5]
    alice.run("star", pid)
    done = alice.sync()
    assert "people/bob.yaml" in done.stderr and "not shown until fixed" in done.stderr
    assert done.stdout.strip() == "nothing new; sent 1 change"
    assert alice.show(pid)["starred"] is True
    # Alice's own file broken by hand on another machine: her sync stops, naming it.
    laptop = Member(alice.root.parent / "alice-laptop", "alice")
    laptop.sync(alice.team.parent.parent / "team.git")
    own = laptop.team / "people" / "alice.yaml"
    own.write_text(own.read_text().replace("    starred: true\n", "    starred: [\n", 1))
    git(laptop.team, "commit", "-qam", "broken by hand")
    git(laptop.team, "push", "-q", "origin", "HEAD:main")
    _fails(alice.sync(check=False), "people/alice.yaml")
    assert alice.show(pid)["starred"] is True
    assert no_conflict_markers(alice.team / "people" / "alice.yaml")


def test_a_file_fixed_upstream_after_a_sync_stopped_on_it_is_read_fixed(pair) -> None:
    remote, alice, bob = pair
    pid = alice.ids()[1]
    alice.run("lists", "add", "X", pid)
    alice.sync()
    bob.sync()
    carol = Teammate(remote, alice.root.parent / "carol-git")
    good = (carol.path / "lists.yaml").read_text()
    carol.push("break", {"lists.yaml": 'version: 1\nlists:\n  "X": [\n'})
    _fails(bob.sync(check=False), "lists.yaml")  # stops on it: the repo's HEAD holds it
    carol.push("fix", {"lists.yaml": good})
    bob.run("lists", "add", "X", bob.ids()[2])
    done = bob.sync()  # read as fixed, and bob's change goes out
    assert done.returncode == 0 and done.stderr == "", done.stderr
    alice.sync()
    assert alice.lists()["X"] == bob.lists()["X"] == [pid, bob.ids()[2]]


def test_a_members_file_fixed_since_the_last_sync_is_read_without_a_word(pair) -> None:
    remote, alice, bob = pair
    pid = bob.ids()[3]
    bob.run("status", pid, "read")
    bob.sync()
    alice.sync()
    carol = Teammate(remote, alice.root.parent / "carol-git")
    rel = "people/bob.yaml"
    good = (carol.path / rel).read_text()
    carol.push("break", {rel: good.replace("status: read", "status: reading")})
    assert "bob's triage is not shown until fixed" in alice.sync().stderr
    carol.push("fix", {rel: good.replace("status: read", "status: skipped")})
    done = alice.sync()  # the broken copy is in the past: nothing to say of it
    assert (done.stderr, done.stdout) == ("", "1 paper from bob; nothing to send\n")
    assert alice.show(pid)["team"]["bob"]["status"] == "skipped"


def test_without_git_sync_says_so(tmp_path: Path) -> None:
    empty = tmp_path / "bin"
    empty.mkdir()
    alice = Member(tmp_path / "alice", "alice", env={**os.environ, "PATH": str(empty)})
    pid = alice.ids()[0]
    alice.run("star", pid)
    _fails(alice.sync(bare_repo(tmp_path / "team.git"), check=False), "git is not installed")
    assert alice.show(pid)["starred"] is True


def test_two_syncs_at_once_are_serialised(pair) -> None:
    _, alice, _ = pair
    pid = alice.ids()[6]
    alice.run("tag", pid, "once")
    cmd = [sys.executable, "-m", "paper_tui", "--library", str(alice.root), "sync"]
    procs = [forked_cli.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
             for _ in range(2)]
    outs = [p.communicate(timeout=120) for p in procs]
    assert [p.returncode for p in procs] == [0, 0], outs
    assert sorted(out for out, _ in outs) == ["nothing new; nothing to send\n",
                                              "nothing new; sent 1 change\n"]
    log = git(alice.team, "log", "--format=%s").stdout.splitlines()
    assert log.count("alice: 1 tagged") == 1


def test_sync_and_tag_at_once_lose_nothing(tmp_path: Path) -> None:
    remote = bare_repo(tmp_path / "team.git")
    desk, laptop = Member(tmp_path / "desk", "bob"), Member(tmp_path / "laptop", "bob")
    pid = desk.ids()[0]
    desk.sync(remote)
    laptop.sync(remote)
    base = [sys.executable, "-m", "paper_tui", "--library", str(desk.root)]
    for i in range(4):
        laptop.run("tag", pid, f"laptop-{i}")
        laptop.sync()
        procs = [forked_cli.Popen([*base, "sync"], stdout=subprocess.PIPE,
                                  stderr=subprocess.PIPE, text=True)]
        time.sleep(0.05 * i)
        procs.append(forked_cli.Popen([*base, "tag", pid, f"desk-{i}"],
                                      stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True))
        for proc in procs:
            out, err = proc.communicate(timeout=120)
            assert proc.returncode == 0, (out, err)
    desk.sync()
    laptop.sync()
    want = {f"{who}-{i}" for who in ("laptop", "desk") for i in range(4)}
    assert set(desk.show(pid)["tags"]) == want
    assert set(laptop.show(pid)["tags"]) == want
