"""A merge never empties your work: records leave your store only by your own action, a
team file that lacks them changes nothing, and lines added to a note on two sides both
land. Real libraries, real git, `paper-tui` processes."""

from __future__ import annotations

import time
from pathlib import Path

from paper_tui.store.annotations import SCHEMA
from paper_tui.store.file_store import YamlStore
from paper_tui.team import repo
from team_helpers import Member, Teammate, bare_repo, git


def _annotate(member: Member, ids: list[str]) -> dict[str, dict]:
    member.run("status", *ids[:3], "to-read")
    member.run("star", *ids[2:5])
    member.run("tag", ids[5], "kernels")
    member.run("note", ids[6], "--set", "check the proof")
    return {pid: _mine(member.show(pid)) for pid in ids[:7]}


def _mine(shown: dict) -> dict:
    return {k: shown[k] for k in ("status", "starred", "tags", "note")}


def test_a_file_emptied_by_a_team_mate_empties_nothing(tmp_path: Path) -> None:
    remote = bare_repo(tmp_path / "team.git")
    alice = Member(tmp_path / "alice", "alice")
    ids = alice.ids()
    before = _annotate(alice, ids)
    alice.sync(remote)
    eve = Teammate(remote, tmp_path / "eve")
    eve.push("empty", files={"people/alice.yaml": "version: 1\npapers: {}\n",
                             "lists.yaml": "version: 1\nlists: {}\n"})
    done = alice.sync()
    assert "from alice" not in done.stdout
    assert {pid: _mine(alice.show(pid)) for pid in before} == before
    # Her sync sends her work back: the file holds her 7 papers again.
    text = git(remote, "show", "main:people/alice.yaml").stdout
    assert repo.read(text, Path("alice.yaml"), repo.PEOPLE_SCHEMA).records.keys() == \
        before.keys()
    eve.push("gone", remove=("people/alice.yaml",))
    alice.sync()
    assert {pid: _mine(alice.show(pid)) for pid in before} == before


def test_a_paper_cleared_on_one_machine_is_cleared_on_the_other(tmp_path: Path) -> None:
    remote = bare_repo(tmp_path / "team.git")
    laptop, desktop = Member(tmp_path / "laptop", "alice"), Member(tmp_path / "desktop", "alice")
    p, q, r = laptop.ids()[:3]
    laptop.run("star", p)
    laptop.run("tag", q, "rl")
    laptop.run("status", r, "read")
    laptop.sync(remote)
    desktop.sync(remote)
    assert desktop.show(p)["starred"] and desktop.show(q)["tags"] == ["rl"]
    laptop.run("unstar", p)  # nothing left of p, nor of q: their records leave the store
    laptop.run("untag", q, "rl")
    laptop.sync()
    # The file keeps them as their time stamps alone: that is how the clearing travels.
    text = git(remote, "show", "main:people/alice.yaml").stdout
    cleared = repo.read(text, Path("alice.yaml"), repo.PEOPLE_SCHEMA).records
    assert set(cleared[p]) == set(cleared[q]) == {"updated"}
    assert desktop.sync().stdout.startswith("2 papers from alice (another machine)")
    assert not desktop.show(p)["starred"] and desktop.show(q)["tags"] == []
    assert desktop.show(r)["status"] == "read"
    bob = Member(tmp_path / "bob", "bob")
    bob.sync(remote)
    assert bob.show(p)["team"] == {} and "alice" in bob.show(r)["team"]
    assert laptop.sync().stdout.strip() == desktop.sync().stdout.strip() == \
        "nothing new; nothing to send"


def test_lines_added_to_a_note_on_two_machines_both_land(tmp_path: Path) -> None:
    remote = bare_repo(tmp_path / "team.git")
    laptop, desktop = Member(tmp_path / "laptop", "alice"), Member(tmp_path / "desktop", "alice")
    p = laptop.ids()[0]
    laptop.run("note", p, "--set", "N")
    laptop.sync(remote)
    desktop.sync(remote)
    # Offline on both: each adds a line.
    laptop.run("note", p, "--append", "from the laptop")
    time.sleep(1.1)
    desktop.run("note", p, "--append", "from the desktop")
    laptop.sync()
    desktop.sync()
    laptop.sync()
    for machine in (laptop, desktop):
        assert machine.show(p)["note"] == "N\nfrom the laptop\nfrom the desktop"
    # The desktop adds a line while its sync takes in one the laptop added: an unsaved
    # change in another process's store (the app's), saved after the sync wrote the file.
    laptop.run("note", p, "--append", "laptop again")
    laptop.sync()
    app = YamlStore(desktop.root / "annotations.yaml", SCHEMA)
    app.load()
    note = app.get(p)["note"]
    app.put(p, {**app.get(p), "note": f"{note}\ndesktop again"}, time.time())
    assert "1 paper from alice (another machine)" in desktop.sync().stdout
    app.save()
    want = "N\nfrom the laptop\nfrom the desktop\nlaptop again\ndesktop again"
    assert desktop.show(p)["note"] == want
    desktop.sync()
    laptop.sync()
    assert laptop.show(p)["note"] == want
