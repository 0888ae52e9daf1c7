"""Team sync as people run it: `paper-tui` processes, libraries, bare git remotes."""

from __future__ import annotations

import json
import os
import threading
import time
from pathlib import Path

from paper_tui import config as config_mod
from paper_tui.library import Library
from team_helpers import TEST_DATA, Member, bare_repo, git, no_conflict_markers


def _members(tmp_path: Path, *names: str) -> tuple[Path, list[Member]]:
    remote = bare_repo(tmp_path / "team.git")
    return remote, [Member(tmp_path / name, name) for name in names]


def test_two_members_share_triage_and_each_keeps_their_own(tmp_path: Path) -> None:
    remote, (alice, bob) = _members(tmp_path, "alice", "bob")
    a, b, c = alice.ids()[:3]
    alice.run("status", a, b, "to-read")
    alice.run("star", c)
    alice.run("tag", a, "causal")
    alice.run("note", a, "--set", "read section 3")
    first = alice.sync(remote).stdout.strip()
    assert first == "nothing new; sent 3 changes"
    log = git(alice.team, "log", "--format=%an|%s").stdout.splitlines()
    assert log == ["alice|alice: 2 to-read, 1 starred, 1 tagged, 1 note"]

    assert bob.sync(remote).stdout.strip() == "3 papers from alice; nothing to send"
    seen = bob.show(a)
    assert seen["status"] == "new" and seen["tags"] == [] and not seen["starred"]
    assert seen["team"] == {"alice": {"status": "to-read", "starred": False,
                                      "tags": ["causal"], "note": "read section 3"}}
    assert bob.show(c)["team"]["alice"]["starred"] is True

    bob.run("status", a, "skipped")
    assert bob.sync().stdout.strip() == "nothing new; sent 1 change"
    assert alice.sync().stdout.strip() == "1 paper from bob; nothing to send"
    mine = alice.show(a)
    assert mine["status"] == "to-read"  # Bob's skip is his, not Alice's
    assert mine["team"] == {"bob": {"status": "skipped", "starred": False, "tags": [],
                                    "note": ""}}
    assert alice.sync().stdout.strip() == "nothing new; nothing to send"
    # The files read like a changelog: one block per paper, the title beside the id.
    text = (bob.team / "people" / "alice.yaml").read_text()
    title = alice.show(a)["title"]
    assert f'  "{a}":  # {title}\n    status: to-read\n' in text


def test_taking_in_a_team_mates_work_reads_the_repo_in_few_git_runs(tmp_path: Path) -> None:
    """Each git run costs a process: a sync that merges a team-mate's changes reads every
    team file it compares in one ``cat-file --batch`` (it ran a ``cat-file blob`` per file
    and side: four here), finds the changed files in the trees it lists anyway (it ran two
    ``diff``) and asks for HEAD again only after moving it (at the start, after the merge,
    after its commit)."""
    remote, (alice, bob) = _members(tmp_path, "alice", "bob")
    alice.sync(remote)
    bob.sync(remote)
    a, b = bob.ids()[:2]
    bob.run("star", a)
    bob.run("tag", b, "causal")
    bob.sync()
    alice.run("status", a, "to-read")
    trace = tmp_path / "git-trace.txt"
    done = alice.run("sync", env={**os.environ, "GIT_TRACE": str(trace)})
    assert done.stdout.strip() == "2 papers from bob; sent 1 change"
    runs = [line.split("built-in: git ", 1)[1] for line in trace.read_text().splitlines()
            if "built-in: git " in line]
    assert [r for r in runs if r.startswith("cat-file")] == ["cat-file --batch"]
    assert not [r for r in runs if r.startswith("diff --name-only")]
    assert len([r for r in runs if r.startswith("rev-parse --verify --quiet 'HEAD")]) == 3
    assert alice.show(a)["team"]["bob"]["starred"] is True
    assert alice.show(b)["team"]["bob"]["tags"] == ["causal"]


def test_three_members_and_shared_lists(tmp_path: Path) -> None:
    remote, members = _members(tmp_path, "alice", "bob", "carol")
    alice, bob, carol = members
    ids = alice.ids()
    for n, member in enumerate(members):
        member.run("star", ids[n])
        member.sync(remote)
    carol.run("lists", "add", "reading group", ids[5], ids[6])
    carol.sync()
    for member in (alice, bob):
        out = member.sync().stdout.strip()
        assert "1 list from carol" in out
        assert member.lists() == {"reading group": [ids[5], ids[6]]}
    bob.run("lists", "add", "reading group", ids[7])
    alice.run("lists", "remove", "reading group", ids[5])
    bob.sync()
    alice.sync()
    bob.sync()
    carol.sync()
    for member in members:  # a union, and Alice's removal honoured
        assert member.lists() == {"reading group": [ids[6], ids[7]]}
        for n, other in enumerate(members):
            team = member.show(ids[n])["team"]
            assert (other.name in team) == (other is not member)
    assert no_conflict_markers(alice.team)


def test_one_person_on_two_machines_merges_field_by_field(tmp_path: Path) -> None:
    remote = bare_repo(tmp_path / "team.git")
    laptop, desktop = Member(tmp_path / "laptop", "alice"), Member(tmp_path / "desktop", "alice")
    p, q = laptop.ids()[:2]
    laptop.run("tag", p, "old", "keep")
    laptop.run("note", p, "--set", "first thoughts")
    laptop.sync(remote)
    assert desktop.sync(remote).stdout.strip() == \
        "1 paper from alice (another machine); nothing to send"
    assert desktop.show(p)["tags"] == ["old", "keep"]
    # Offline on both, the same papers:
    laptop.run("tag", p, "from-laptop")
    laptop.run("status", p, "read")
    laptop.run("note", p, "--set", "laptop: the proof is wrong")
    laptop.run("star", q)
    time.sleep(1.1)  # time stamps have a resolution of one second
    desktop.run("untag", p, "old")
    desktop.run("tag", p, "from-desktop")
    desktop.run("note", p, "--set", "desktop: check the appendix")
    desktop.run("status", q, "skipped")
    time.sleep(1.1)
    desktop.run("status", p, "skipped")  # the latest status change
    laptop.sync()
    desktop.sync()
    laptop.sync()
    for machine in (laptop, desktop):
        seen = machine.show(p)
        assert seen["tags"] == ["keep", "from-laptop", "from-desktop"]
        assert seen["status"] == "skipped"
        assert seen["note"] == "laptop: the proof is wrong\n\ndesktop: check the appendix"
        assert seen["team"] == {}  # one person: never their own "teammate"
        other = machine.show(q)
        assert other["starred"] is True and other["status"] == "skipped"
        assert no_conflict_markers(machine.team)
    assert laptop.sync().stdout.strip() == "nothing new; nothing to send"


def test_a_member_joining_late_gets_everything(tmp_path: Path) -> None:
    remote, (alice, bob, carol) = _members(tmp_path, "alice", "bob", "carol")
    extra = alice.run("import", str(TEST_DATA / "sample.bib"), check=False).stdout
    assert "2 new" in extra  # and one bad record, reported again where the list goes
    ids = alice.ids()
    bib_ids = sorted(set(ids) - set(carol.ids()))
    assert bib_ids
    alice.run("star", bib_ids[0])
    alice.run("lists", "add", "bib picks", *bib_ids[:2])
    out = alice.sync(remote).stdout.strip()
    assert out == "nothing new; sent 3 changes"
    assert git(alice.team, "log", "-1", "--format=%s").stdout.strip() == \
        'alice: 1 starred, new list "bib picks" +2, shared sample.bib'
    shared = bob.ids()[0]
    bob.run("tag", shared, "baseline")
    assert f"paper list sample.bib ({len(bib_ids)} new papers)" in bob.sync(remote).stdout
    assert (alice.team / "sources" / "sample.bib").read_bytes() == \
        (TEST_DATA / "sample.bib").read_bytes()

    joined = carol.sync(remote).stdout.strip()
    assert "1 paper from alice" in joined and "1 paper from bob" in joined
    assert "1 list from alice" in joined
    assert f"paper list sample.bib ({len(bib_ids)} new papers)" in joined
    assert sorted(carol.ids()) == sorted(ids)  # the same stable ids
    assert carol.lists() == {"bib picks": bib_ids[:2]}
    assert carol.show(bib_ids[0])["team"]["alice"]["starred"] is True
    assert carol.show(shared)["team"]["bob"]["tags"] == ["baseline"]
    # Nobody sends the paper list back.
    assert carol.sync().stdout.strip() == "nothing new; nothing to send"
    assert bob.sync().stdout.strip() == "nothing new; nothing to send"


def test_the_merge_driver_merges_a_plain_git_pull(tmp_path: Path) -> None:
    remote = bare_repo(tmp_path / "team.git")
    laptop, desktop = Member(tmp_path / "laptop", "alice"), Member(tmp_path / "desktop", "alice")
    p = laptop.ids()[0]
    laptop.run("tag", p, "a")
    laptop.sync(remote)
    desktop.sync(remote)
    laptop.run("tag", p, "from-laptop")
    laptop.sync()
    time.sleep(1.1)
    desktop.run("tag", p, "from-desktop")
    desktop.run("untag", p, "a")
    desktop.sync()  # merges the laptop's tag with its own change, pushes
    laptop.run("tag", p, "again")
    laptop.sync()
    # Now both machines change the file by hand, commit, and the desktop runs `git pull`.
    desktop_file = desktop.team / "people" / "alice.yaml"
    laptop_file = laptop.team / "people" / "alice.yaml"
    text = laptop_file.read_text().replace("    - again\n", "    - again\n    - by-hand\n")
    laptop_file.write_text(text)
    git(laptop.team, "commit", "-qam", "laptop by hand")
    git(laptop.team, "push", "-q", "origin", "HEAD:main")
    text = desktop_file.read_text().replace("    - from-desktop\n",
                                            "    - from-desktop\n    - desk-hand\n")
    desktop_file.write_text(text)
    git(desktop.team, "commit", "-qam", "desktop by hand")
    pulled = git(desktop.team, "pull", "--no-rebase", "--no-edit", "-q", "origin", "main")
    assert "CONFLICT" not in pulled.stdout + pulled.stderr
    merged = desktop_file.read_text()
    assert no_conflict_markers(desktop.team)
    for tag in ("from-laptop", "from-desktop", "again", "by-hand", "desk-hand"):
        assert f"    - {tag}\n" in merged
    assert "    - a\n" not in merged
    # The next sync takes the pulled merge into the desktop's library.
    desktop.sync()
    assert set(desktop.show(p)["tags"]) == {"from-laptop", "from-desktop", "again", "by-hand",
                                            "desk-hand"}


def test_by_name_finds_what_each_member_annotated(tmp_path: Path) -> None:
    remote, (alice, bob) = _members(tmp_path, "alice", "bob")
    a, b, c = alice.ids()[:3]
    alice.run("star", a)
    alice.run("tag", b, "kernels")
    alice.sync(remote)
    bob.sync(remote)
    bob.run("status", c, "skipped")

    def found(member: Member, query: str) -> set[str]:
        out = member.run("search", query, "--json", "--limit", "100").stdout
        return {row["id"] for row in json.loads(out)}

    assert found(bob, "by:alice") == {a, b}
    assert found(bob, "by:Alice") == {a, b}  # names as typed in any case
    assert found(bob, "by:bob") == {c}  # yours, from your own store, before any sync
    assert found(bob, "by:alice -tag:kernels") == {a, b}  # Bob has tagged nothing
    assert found(bob, "by:carol") == set()
    lib = Library.open(bob.root, config=config_mod.defaults())
    try:
        assert lib.facets("")["by"] == {"alice": 2, "bob": 1}
    finally:
        lib.close()


def test_the_apps_team_view_holds_while_its_sync_runs_and_reads_the_news_at_the_end(
        tmp_path: Path) -> None:
    """The app's draws never start a reload of the members' files half-way through its own
    sync (the worker reads them once, after the sync's process ends)."""
    remote, (alice, bob) = _members(tmp_path, "alice", "bob")
    a = alice.ids()[0]
    alice.run("star", a)
    alice.sync(remote)
    bob.sync(remote)
    lib = Library.open(bob.root, config=config_mod.defaults())
    try:
        lib.team.reload()
        assert lib.team.annotators(a, fresh=False)["alice"].tags == ()
        alice.run("tag", a, "kernels")
        alice.sync()
        with lib.team.syncing():
            bob.sync()  # rewrites people/alice.yaml
            for _ in range(5):  # draws meanwhile: what was last read, no reload started
                assert lib.team.annotators(a, fresh=False)["alice"].tags == ()
                time.sleep(0.1)
        assert lib.team.annotators(a, fresh=False)["alice"].tags == ("kernels",)
    finally:
        lib.close()


def test_another_processes_sync_reaches_the_apps_team_view_without_a_thread_of_its_own(
        tmp_path: Path) -> None:
    """The team layer starts no thread: the annotation service's watcher, which looks at
    the library's files every half second, reads a member's file that changed on disk once
    a draw has shown the team."""
    remote, (alice, bob) = _members(tmp_path, "alice", "bob")
    a = alice.ids()[0]
    alice.run("star", a)
    alice.sync(remote)
    bob.sync(remote)
    lib = Library.open(bob.root, config=config_mod.defaults())
    try:
        lib.team.reload()
        lib.annotations.get(a)  # the annotation service and its watcher start
        assert lib.team.annotators(a, fresh=False)["alice"].tags == ()  # a draw
        threads = {t.ident for t in threading.enumerate()}
        alice.run("tag", a, "kernels")
        alice.sync()
        bob.sync()  # another process rewrites people/alice.yaml
        deadline = time.monotonic() + 30
        while (lib.team.annotators(a, fresh=False)["alice"].tags != ("kernels",)
               and time.monotonic() < deadline):
            assert {t.ident for t in threading.enumerate()} <= threads
            time.sleep(0.05)
        assert lib.team.annotators(a, fresh=False)["alice"].tags == ("kernels",)
    finally:
        lib.close()


def test_a_commit_says_what_changed_in_lists_and_citation_keys(tmp_path: Path) -> None:
    """Not ``bob: tidied``: each reading list by name with the papers it gained and lost,
    and the citation keys given out."""
    remote, (bob,) = _members(tmp_path, "bob")
    a, b, c = bob.ids()[:3]
    bob.run("lists", "add", "to read", a)
    bob.sync(remote)
    bob.run("lists", "add", "to read", b, c)
    bob.run("lists", "remove", "to read", a)
    bob.run("cite", a)
    bob.sync()
    assert git(bob.team, "log", "-1", "--format=%s").stdout.strip() == \
        'bob: list "to read" +2 -1, 1 citation key'
