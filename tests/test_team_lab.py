"""A lab triages a conference together, as people run it: `paper-tui` processes on their
own libraries, syncing through a bare git remote. The split, `team status`, the team's
query words and the digest are checked against counts worked out here from the members'
files in the team repo."""

from __future__ import annotations

import gzip
import json
import re
from collections import Counter
from pathlib import Path

import pytest
import yaml

from paper_tui import config as config_mod
from paper_tui.library import Library
from team_helpers import TEST_DATA, Member, Teammate, bare_repo, git, no_conflict_markers

QUERY = "year:..2025"
"""The conference's papers: the imported list (the bundled NeurIPS 2026 list is not)."""
KEEPING = {"to-read", "read"}


def _write_list(path: Path, start: int, stop: int) -> Path:
    """Papers ``start:stop`` of the 1,000-paper sample as a JSON-lines list."""
    with gzip.open(TEST_DATA / "papers-ml-1000.jsonl.gz", "rt", encoding="utf-8") as fh:
        lines = fh.read().splitlines()[start:stop]
    assert all(json.loads(line)["year"] <= 2025 for line in lines)
    path.write_text("\n".join(lines) + "\n", "utf-8")
    return path


def _lab(tmp_path: Path, *names: str, papers: int = 300) -> tuple[Path, list[Member]]:
    """A team remote; the first member imports the conference and shares it; every member
    syncs once."""
    remote = bare_repo(tmp_path / "team.git")
    members = [Member(tmp_path / name, name) for name in names]
    members[0].run("import", str(_write_list(tmp_path / "conf.jsonl", 0, papers)))
    for member in members:
        member.sync(remote)
    return remote, members


def _ids(member: Member, query: str) -> set[str]:
    out = member.run("search", query, "--json", "--limit", "100000").stdout
    return {hit["id"] for hit in json.loads(out)}


def _yaml(path: Path) -> dict:
    return (yaml.safe_load(path.read_text("utf-8")) or {}).get("papers") or {}


def _assignments(member: Member) -> dict[str, str]:
    """Paper id -> member, from the team repo's file."""
    path = member.team / "assignments.yaml"
    return {pid: r["member"] for pid, r in _yaml(path).items() if r.get("member")}


def _verdicts(member: Member) -> dict[str, dict[str, str]]:
    """Member -> paper id -> ``kept`` or ``skipped``, from the people files (the issue's
    rule: kept = to-read, read, starred or tagged; a star keeps whatever the status; a tag
    on a skipped paper does not)."""
    out: dict[str, dict[str, str]] = {}
    for path in sorted((member.team / "people").glob("*.yaml")):
        said = {}
        for pid, r in _yaml(path).items():
            status = r.get("status", "new")
            if r.get("starred") or status in KEEPING:
                said[pid] = "kept"
            elif status == "skipped":
                said[pid] = "skipped"
            elif r.get("tags"):
                said[pid] = "kept"
        out[path.stem] = said
    return out


def _expected(member: Member, papers: set[str]) -> dict:
    """``team status --json``'s counts, worked out from the files."""
    shares = _assignments(member)
    verdicts = _verdicts(member)
    names = sorted(set(verdicts) | set(shares.values()))
    kept = Counter(pid for said in verdicts.values() for pid, v in said.items()
                   if v == "kept" and pid in papers)
    skipped = {pid for said in verdicts.values() for pid, v in said.items() if v == "skipped"}
    touched = {pid for said in verdicts.values() for pid in said}
    rows = {}
    for name in names:
        said = verdicts.get(name, {})
        share = {pid for pid, m in shares.items() if m == name and pid in papers}
        rows[name] = {
            "assigned": len(share), "triaged": len(share & said.keys()),
            "kept": sum(1 for pid, v in said.items() if v == "kept" and pid in papers),
            "skipped": sum(1 for pid, v in said.items() if v == "skipped" and pid in papers)}
    return {"members": rows, "untouched": len(papers - touched),
            "picks": sum(1 for n in kept.values() if n >= 2),
            "disputed": len(set(kept) & skipped & papers)}


def _status(member: Member, query: str = QUERY) -> dict:
    return json.loads(member.run("team", "status", query, "--json").stdout)


def _counts(status: dict) -> dict:
    keys = ("assigned", "triaged", "kept", "skipped")
    return {"members": {name: {k: row[k] for k in keys}
                        for name, row in status["members"].items()},
            "untouched": status["untouched"], "picks": status["picks"],
            "disputed": status["disputed"]}


def _balanced(sizes: list[int]) -> bool:
    """Each share within 1% + 1 paper of the others."""
    return max(sizes) - min(sizes) <= max(sizes) // 100 + 1


def test_three_members_split_a_conference_triage_and_see_the_same_coverage(
        tmp_path: Path) -> None:
    _, members = _lab(tmp_path, "alice", "bob", "carol")
    alice, bob, carol = members
    papers = _ids(alice, QUERY)
    assert len(papers) == 300

    out = alice.run("team", "split", QUERY, "--among", "alice,bob,carol")
    assert out.stdout.splitlines() == ["assigned 300 papers: alice 100, bob 100, carol 100",
                                       "shares now: alice 100, bob 100, carol 100"]
    assert git(alice.team, "log", "-1", "--format=%an|%s").stdout.strip() == \
        "alice|alice: split alice, bob, carol: alice 100, bob 100, carol 100 (by area)"
    # The file reads like the people files: one block per paper, the title beside its id.
    text = (alice.team / "assignments.yaml").read_text("utf-8")
    some = sorted(papers)[0]
    title = alice.show(some)["title"]
    assert f'  "{some}":  # {title}\n    member: ' in text

    shares: dict[str, set[str]] = {}
    for member in (bob, carol):  # told of their share at their next sync
        assert "100 papers assigned to you (search assigned:me)" in member.sync().stdout
    for member in members:
        shares[member.name] = _ids(member, "assigned:me")
        assert len(shares[member.name]) == 100
        assert shares[member.name] == {pid for pid, m in _assignments(member).items()
                                       if m == member.name}
    assert set().union(*shares.values()) == papers

    # Each triages part of their share on their own machine, and a little of the others'.
    a, b, c = (sorted(shares[name]) for name in ("alice", "bob", "carol"))
    alice.run("status", *a[:30], "to-read")
    alice.run("status", *a[30:50], "skipped")
    alice.run("star", *a[50:55])
    for pid in b[:2]:
        alice.run("tag", pid, "reading-group")
    bob.run("status", *b[:40], "to-read")
    bob.run("status", *a[:5], "read")  # picks: Alice kept them too
    bob.run("status", *a[5:8], "skipped")  # disputed
    bob.run("status", a[30], "to-read")  # disputed the other way round
    carol.run("status", *c[:10], "skipped")
    for pid in c[10:15]:
        carol.run("tag", pid, "maybe")
    carol.run("star", *a[:2])  # kept by all three
    carol.run("status", c[15], "skipped")
    carol.run("star", c[15])  # a star keeps what was skipped
    for member in (*members, alice, bob):
        member.sync()

    expected = _expected(carol, papers)
    assert expected["members"]["alice"] == {"assigned": 100, "triaged": 55, "kept": 37,
                                            "skipped": 20}
    assert expected["picks"] == 5 + 2 and expected["disputed"] == 4
    for member in members:  # every machine says the same, each from its own files
        status = _status(member)
        assert _counts(status) == expected, member.name
        assert status["members"][member.name]["you"] is True
        assert all(row["last_sync"] and row["state"] == "member"
                   for row in status["members"].values())
        assert status["members"]["bob"]["last_change"] is not None
    assert _counts(_status(alice, "")) == _expected(alice, _ids(alice, ""))

    # The query words agree with the files, alone, combined and negated.
    verdicts = _verdicts(alice)
    kept_by = {name: {pid for pid, v in said.items() if v == "kept"}
               for name, said in verdicts.items()}
    kept = Counter(pid for ids in kept_by.values() for pid in ids)
    skipped = {pid for said in verdicts.values() for pid, v in said.items() if v == "skipped"}
    touched = {pid for said in verdicts.values() for pid in said}
    everything = _ids(alice, "")
    with Library.open(alice.root, config=config_mod.defaults()) as lib:
        def ids(query: str) -> set[str]:
            results = lib.results(query)
            try:
                assert results.error is None, (query, results.error)
                return set(results.ids())
            finally:
                results.close()

        for name in ("alice", "bob", "carol"):
            assert ids(f"assigned:{name}") == shares[name]
            assert ids(f"kept-by:{name}") == kept_by[name]
        assert ids("assigned:me") == shares["alice"]
        assert ids("kept-by:me") == kept_by["alice"]
        assert ids("assigned:none") == everything - papers
        for n in (1, 2, 3):
            assert ids(f"kept:{n}") == {pid for pid, k in kept.items() if k >= n}
        assert ids("kept:4") == set()
        assert ids("disputed") == set(kept) & skipped
        assert ids("untouched") == everything - touched
        assert ids(f"{QUERY} untouched") == papers - touched
        assert ids("NOT untouched") == touched
        assert ids("assigned:bob -untouched") == shares["bob"] & touched
        assert ids("kept:2 OR disputed") == {p for p, k in kept.items() if k >= 2} | (
            set(kept) & skipped)
        assert ids("NOT kept-by:alice assigned:alice") == shares["alice"] - kept_by["alice"]
        assert ids("status:to-read kept-by:bob") == set(a[:5])  # Alice's own word too
        word = lib.paper(a[0]).title.split()[0]
        assert ids(f"assigned:alice {word}") == ids(word) & shares["alice"]
        # ... and in the facets panel
        facets = lib.facets(QUERY)
        assert facets["assigned"] == {"alice": 100, "bob": 100, "carol": 100}
        assert facets["kept"] == {str(n): len({p for p, k in kept.items() if k >= n} & papers)
                                  for n in (1, 2, 3)}
        assert facets["kept-by"] == {name: len(ids_ & papers)
                                     for name, ids_ in sorted(kept_by.items(),
                                                              key=lambda kv: -len(kv[1]))}
        assert facets["team"] == {"untouched": len(papers - touched),
                                  "disputed": len(set(kept) & skipped)}
        # The team sort: most kept first, then most starred.
        order = [hit.paper.id for hit in lib.search("kept:1", sort="team", limit=None).hits]
        assert order[:2] == sorted(a[:2], key=order.index)
        assert [kept[pid] for pid in order] == sorted((kept[pid] for pid in order),
                                                      reverse=True)
    assert no_conflict_markers(alice.team)


def test_a_late_list_is_split_without_moving_a_share(tmp_path: Path) -> None:
    _, (alice, bob, carol) = _lab(tmp_path, "alice", "bob", "carol", papers=150)
    alice.run("team", "split", QUERY, "--among", "alice,bob,carol", "--by", "venue")
    first = _assignments(alice)
    assert Counter(first.values()) == {"alice": 50, "bob": 50, "carol": 50}
    bob.sync()
    bob.run("status", *sorted(p for p, m in first.items() if m == "bob")[:10], "skipped")
    bob.sync()

    carol.sync()
    carol.run("import", str(_write_list(tmp_path / "late.jsonl", 150, 251)))
    out = carol.run("team", "split", QUERY).stdout  # among those who hold a share
    assert out.splitlines()[0] == "assigned 101 papers: alice 34, bob 34, carol 33"
    now = _assignments(carol)
    assert {pid: now[pid] for pid in first} == first  # nobody's share moved
    assert len(now) == 251 and _balanced(list(Counter(now.values()).values()))
    # Splitting again gives nothing out: every paper is held or triaged.
    again = carol.run("team", "split", QUERY).stdout.splitlines()[0]
    assert again == ("nothing to assign: 251 papers in the query, 10 triaged already, "
                     "241 held already")
    alice.sync()
    assert _assignments(alice) == now


def test_reassign_hands_an_untriaged_share_to_the_others(tmp_path: Path) -> None:
    _, (alice, bob, carol) = _lab(tmp_path, "alice", "bob", "carol", papers=90)
    alice.run("team", "split", QUERY, "--among", "alice,bob,carol")
    bob.sync()
    mine = sorted(_ids(bob, "assigned:me"))
    assert len(mine) == 30
    bob.run("status", *mine[:12], "to-read")
    bob.sync()
    carol.sync()
    out = carol.run("team", "split", QUERY, "--reassign", "bob").stdout.splitlines()
    assert out == ["assigned 18 papers: alice 9, carol 9", "shares now: alice 39, bob 12, "
                   "carol 39"]
    assert {p for p, m in _assignments(carol).items() if m == "bob"} == set(mine[:12])
    # team unassign takes papers back; a sync from an older copy never brings them back.
    assert alice.run("team", "unassign", "assigned:bob").stdout.strip() == \
        "took back 12 papers"  # after taking in Carol's change
    assert alice.run("team", "unassign", "assigned:bob", "--no-sync").stdout.strip() == \
        "nothing to take back: no paper of the query is assigned"
    bob.sync()
    status = _status(bob)
    assert status["members"]["bob"]["assigned"] == 0
    assert status["members"]["alice"]["assigned"] == 39
    assert _ids(bob, "assigned:me") == set()


def test_a_member_who_never_synced_gets_a_share_and_one_who_left_is_listed(
        tmp_path: Path) -> None:
    remote, (alice, bob) = _lab(tmp_path, "alice", "bob", papers=60)
    out = alice.run("team", "split", QUERY, "--among", "alice,bob,dave,erin")
    assert "dave has not synced yet: they are told of their share at their first sync" \
        in out.stderr
    assert out.stdout.splitlines()[0] == "assigned 60 papers: alice 15, bob 15, dave 15, " \
                                         "erin 15"
    status = _status(alice)
    assert status["members"]["dave"]["state"] == "not synced yet"
    assert status["members"]["dave"]["assigned"] == 15
    dave = Member(tmp_path / "dave", "dave")
    assert "15 papers assigned to you (search assigned:me)" in dave.sync(remote).stdout
    assert len(_ids(dave, "assigned:me")) == 15

    # Dave's file is taken out of the repo: he left, holding his share.
    mate = Teammate(remote, tmp_path / "mate")
    mate.push("dave left", remove=("people/dave.yaml",))
    bob.sync()
    status = _status(bob)
    assert status["members"]["dave"]["state"] == "left"
    lines = bob.run("team", "status", QUERY).stdout.splitlines()
    assert "dave left the team holding 15 papers: paper-tui team split --reassign dave" \
        in lines
    assert any(line.startswith("erin (not synced yet)") for line in lines)
    bob.run("team", "split", QUERY, "--reassign", "dave")
    after = _status(bob)["members"]
    assert after["dave"]["assigned"] == 0 if "dave" in after else True
    assert sum(row["assigned"] for row in after.values()) == 60


def test_two_members_splitting_at_once_offline_merge_without_losing_a_paper(
        tmp_path: Path) -> None:
    _, (alice, bob, carol) = _lab(tmp_path, "alice", "bob", "carol", papers=120)
    alice.run("team", "split", QUERY, "--among", "alice,bob", "--no-sync")
    bob.run("team", "split", "year:..2019", "--among", "bob,carol", "--no-sync")
    bob.run("team", "split", QUERY, "--among", "bob,carol", "--no-sync")
    alice.sync()
    bob.sync()
    alice.sync()
    carol.sync()
    papers = _ids(carol, QUERY)
    seen = [_assignments(member) for member in (alice, bob, carol)]
    assert seen[0] == seen[1] == seen[2]
    assert set(seen[0]) == papers  # none lost, each in one share (one member a block)
    assert set(seen[0].values()) <= {"alice", "bob", "carol"}
    shares = {name: _ids(carol, f"assigned:{name}") for name in ("alice", "bob", "carol")}
    assert sum(len(s) for s in shares.values()) == len(papers)
    assert not (shares["alice"] & shares["bob"]) and not (shares["bob"] & shares["carol"])
    for member in (alice, bob, carol):
        assert no_conflict_markers(member.team)
        assert git(member.team, "status", "--porcelain").stdout == ""


def test_a_broken_assignments_file_is_one_line_and_the_rest_works(tmp_path: Path) -> None:
    remote, (alice, bob) = _lab(tmp_path, "alice", "bob", papers=30)
    alice.run("team", "split", QUERY, "--among", "alice,bob")
    some = sorted(_ids(alice, QUERY))
    alice.run("status", *some[:4], "to-read")
    alice.sync()
    mate = Teammate(remote, tmp_path / "mate")
    text = (mate.path / "assignments.yaml").read_text("utf-8")
    lines = text.splitlines()
    broken_at = 9
    lines[broken_at - 1] = "    member: [unclosed"
    mate.push("a hand edit", files={"assignments.yaml": "\n".join(lines) + "\n"})

    out = bob.sync()
    line = re.compile(r"assignments\.yaml:\d+(:\d+)?: .*")
    assert any(line.search(x) for x in out.stderr.splitlines()), out.stderr
    status = bob.run("team", "status", QUERY, "--json")
    problems = [x for x in status.stderr.splitlines() if "assignments.yaml" in x]
    assert len(problems) == 1 and f"assignments.yaml:{broken_at}" in problems[0], \
        status.stderr
    seen = json.loads(status.stdout)
    assert seen["members"]["alice"]["kept"] == 4  # the rest of the team view works
    assert seen["members"]["alice"]["assigned"] == 0
    assert _ids(bob, "kept-by:alice") == set(some[:4])
    assert "Traceback" not in status.stderr
    refused = bob.run("team", "split", QUERY, "--among", "bob", check=False)
    assert refused.returncode == 1
    assert refused.stderr.count("\n") == 1 and "assignments.yaml:" in refused.stderr
    assert (bob.team / "assignments.yaml").read_text("utf-8").splitlines()[broken_at - 1] \
        == "    member: [unclosed"  # never written over

    # A link in its place is not followed: the same one line, nothing read through it.
    secret = tmp_path / "secret.yaml"
    secret.write_text(text, "utf-8")
    mate.push("a link", links={"assignments.yaml": str(secret)})
    bob.sync()
    linked = bob.run("team", "status", QUERY, "--json")
    assert json.loads(linked.stdout)["members"]["alice"]["assigned"] == 0
    assert "assignments.yaml" in linked.stderr and "Traceback" not in linked.stderr


def test_the_digest_is_the_agenda_of_the_picks_and_the_disputed(tmp_path: Path) -> None:
    _, (alice, bob) = _lab(tmp_path, "alice", "bob", papers=20)
    ids = sorted(_ids(alice, QUERY))
    pick, other, fought, lonely = ids[:4]
    alice.run("status", pick, other, fought, lonely, "to-read")
    alice.run("tag", pick, "rl")
    alice.run("note", pick, "--set", "<script>alert(1)</script> \x1b[31mred\x1b[0m & co")
    bob.run("star", pick)
    bob.run("status", other, "read")
    bob.run("status", fought, "skipped")
    bob.run("note", fought, "--set", "the proofs do not hold")
    alice.sync()
    bob.sync()
    alice.sync()

    md = alice.run("team", "digest", QUERY).stdout
    assert md.startswith("# Reading group: 2 picks, 1 disputed\n")
    title = alice.show(pick)["title"]
    head, disputed = md.split("## Disputed (1)")
    assert "## Picks (2)" in head and title.split()[0] in head
    assert head.index(title[:20]) < head.index(alice.show(other)["title"][:20])  # a star
    assert "kept by alice, bob" in head and "\\#rl" in head
    assert alice.show(fought)["title"][:20] in disputed
    assert "kept by alice; skipped by bob" in disputed
    assert "the proofs do not hold" in disputed
    assert lonely not in md and alice.show(lonely)["title"][:20] not in md
    assert "\x1b" not in md
    assert re.search(r"`[A-Za-z]+\d{4}\w*`", head)  # a citation key

    every = alice.run("team", "digest", QUERY, "--all").stdout
    assert "## Kept (3)" in every and alice.show(lonely)["title"][:20] in every

    out = tmp_path / "agenda.html"
    alice.run("team", "digest", QUERY, "-o", str(out))
    page = out.read_text("utf-8")
    assert page.startswith("<!DOCTYPE html>")
    assert "<script" not in page and "&lt;script&gt;alert(1)&lt;/script&gt;" in page
    assert "&amp; co" in page and "\x1b" not in page
    assert "default-src 'none'" in page
    assert not re.search(r"""(src|href)=["'](?!https?://)""", page)  # nothing loaded
    assert not re.search(r"""<(img|link|iframe|object|embed)\b""", page)

    org = alice.run("team", "digest", QUERY, "-f", "org", "--since", "1d").stdout
    assert org.startswith("#+TITLE: Reading group: 2 picks, 1 disputed")
    assert ":KEPT_BY: alice, bob" in org
    none = alice.run("team", "digest", QUERY, "--since", "2999-01-01").stdout
    assert none.startswith("# Reading group: 0 picks, 0 disputed")
    bad = alice.run("team", "digest", "--since", "last week", check=False)
    assert bad.returncode == 1 and bad.stderr.count("\n") == 1 and "--since" in bad.stderr


@pytest.mark.parametrize(("query", "says"), [
    ("kept:x", "kept:x is not a number of members"),
    ("kept:0", "kept:0 is not a number of members"),
    ("assigned:", "assigned: needs a member's name"),
    ("assigned:al/ice", "assigned:al/ice needs a member's name"),
    ("kept-by:none", "kept-by:none finds nothing"),
])
def test_a_bad_team_word_is_the_query_languages_one_line(library: Library, query: str,
                                                          says: str) -> None:
    results = library.results(f"diffusion {query}")
    assert results.error is not None and says in results.error
    assert "\n" not in results.error and results.ids() == []
    results.close()


def test_the_team_words_outside_a_team_and_as_text(library: Library) -> None:
    every = set(library.results("").ids())
    assert set(library.results("untouched").ids()) == every  # nobody triaged anything
    assert set(library.results("assigned:none").ids()) == every
    assert library.results("kept:1").ids() == []
    assert library.results("disputed").ids() == []
    # In quotes, in a field or as a prefix they are words of the text.
    assert library.results('"untouched"').error is None
    assert library.results("abstract:disputed").error is None


def test_a_bad_team_word_on_the_command_line(tmp_path: Path) -> None:
    done = Member(tmp_path / "solo", "solo").run("search", "kept:many", check=False)
    assert done.returncode == 1 and done.stdout == ""
    assert done.stderr.count("\n") == 1 and "kept:many is not a number" in done.stderr


def test_a_split_without_a_query_leaves_the_demo_list_out_and_says_what_it_grouped_by(
        tmp_path: Path) -> None:
    """The bundled NeurIPS 2026 demo list is split only when a query asks for it; a list
    whose papers have no area says so (grouped by keyword, else venue), in one line."""
    _, (alice, _bob) = _lab(tmp_path, "alice", "bob", papers=40)
    out = alice.run("team", "split", "--among", "alice,bob", "--no-sync")
    assert out.stdout.splitlines()[0] == "assigned 40 papers: alice 20, bob 20"
    notes = out.stderr.splitlines()
    assert "paper-tui: the bundled NeurIPS 2026 demo list (38 papers) is not split without " \
           "a query: name it in one to split it too (paper-tui team split year:2026)" in notes
    assert "paper-tui: no paper of the query has an area: papers were kept together by " \
           "their first keyword, else their venue (--by venue or --by random to choose)" \
        in notes
    assert len(_ids(alice, "NOT assigned:none")) == 40
    demo = alice.run("team", "split", "year:2026", "--no-sync", "--by", "venue")
    assert demo.stdout.splitlines()[0].startswith("assigned 38 papers: ")
    assert "demo list" not in demo.stderr and "area" not in demo.stderr
