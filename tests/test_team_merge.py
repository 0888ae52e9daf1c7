"""The team files and their field-by-field merge (what git's merge driver runs)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from paper_tui.errors import StoreError
from paper_tui.team import repo
from paper_tui.team.layer import Team
from paper_tui.team.merge import merge_one, merge_texts
from paper_tui.team.people_file import TeamRecord

P = repo.PEOPLE_SCHEMA
L = repo.LISTS_SCHEMA
T1, T2, T3 = "2026-12-01T10:00:00Z", "2026-12-01T11:00:00Z", "2026-12-01T12:00:00Z"


def test_tags_are_a_union_with_removals_honoured() -> None:
    base = {"tags": ("a", "b"), "updated": T1}
    ours = {"tags": ("a", "b", "mine"), "updated": T2}
    theirs = {"tags": ("b", "theirs"), "updated": T3}  # they removed "a"
    assert merge_one(P, base, ours, theirs)["tags"] == ("b", "theirs", "mine")


def test_status_and_star_take_the_latest_change() -> None:
    base = {"status": "to-read", "updated": T1}
    ours = {"status": "read", "starred": True, "updated": T3}
    theirs = {"status": "skipped", "updated": T2}
    merged = merge_one(P, base, ours, theirs)
    assert merged == {"status": "read", "starred": True, "updated": T3}
    assert merge_one(P, base, theirs, ours) == merged


def test_a_note_edited_on_both_sides_keeps_both_texts() -> None:
    base = {"note": "start", "updated": T1}
    ours = {"note": "ours now", "updated": T3}
    theirs = {"note": "theirs now", "updated": T2}
    assert merge_one(P, base, ours, theirs)["note"] == "theirs now\n\nours now"
    assert merge_one(P, base, theirs, ours)["note"] == "theirs now\n\nours now"
    # One side only added to the text: no repeat.
    grown = {"note": "start\nmore", "updated": T2}
    assert merge_one(P, base, ours | {"note": "start"}, grown)["note"] == "start\nmore"
    # Merging the merged note again changes nothing.
    both = merge_one(P, base, ours, theirs)
    assert merge_one(P, ours, both, ours)["note"] == both["note"]


def test_list_members_merge_in_order_and_deletions_stand() -> None:
    base = {"papers": ("p1", "p2"), "updated": T1}
    ours = {"papers": ("p1", "p2", "p3"), "updated": T2}
    theirs = {"papers": ("p2", "p4"), "updated": T3}
    assert merge_one(L, base, ours, theirs)["papers"] == ("p2", "p4", "p3")
    assert merge_one(L, base, None, base) is None  # we deleted the list, they left it


def test_people_files_read_back_with_titles_beside_ids(tmp_path: Path) -> None:
    records = {"b-2": {"status": "read", "tags": ("x",), "updated": T1},
               "a-1": {"starred": True, "note": "two\nlines", "updated": T2}}
    text = repo.write(P, records, {"a-1": "Attention: it's all # you need", "b-2": ""})
    assert text.index('"a-1"') < text.index('"b-2"')
    assert '  "a-1":  # Attention: it\'s all # you need\n    starred: true\n' in text
    back = repo.read(text, tmp_path / "x.yaml", P)
    assert back.records == records
    assert back.titles == {"a-1": "Attention: it's all # you need"}
    assert repo.write(P, back.records, back.titles, reuse=back) == text


def test_merge_texts_merges_whole_files(tmp_path: Path) -> None:
    base = repo.write(P, {"p": {"tags": ("a",), "updated": T1}}, {"p": "Title P"})
    ours = repo.write(P, {"p": {"tags": ("a", "o"), "updated": T2},
                          "q": {"starred": True, "updated": T2}}, {"p": "Title P"})
    # They cleared p: its block holds only a time stamp.
    theirs = repo.write(P, {"p": {"updated": T3}, "r": {"status": "read", "updated": T3}},
                        {"r": "Title R"})
    merged = repo.read(merge_texts(P, base, ours, theirs, tmp_path / "f"), tmp_path / "f", P)
    assert merged.records == {"p": {"tags": ("o",), "updated": T3},
                              "q": {"starred": True, "updated": T2},
                              "r": {"status": "read", "updated": T3}}
    assert merged.titles == {"p": "Title P", "r": "Title R"}
    # A file that lacks p says nothing about it: ours stands.
    theirs = repo.write(P, {"r": {"status": "read", "updated": T3}}, {"r": "Title R"})
    merged = repo.read(merge_texts(P, base, ours, theirs, tmp_path / "f"), tmp_path / "f", P)
    assert merged.records["p"] == {"tags": ("a", "o"), "updated": T2}
    with pytest.raises(StoreError, match="f:"):
        merge_texts(P, base, ours, "papers: [unclosed\n", tmp_path / "f")


def test_the_driver_leaves_our_file_alone_when_theirs_cannot_be_read(tmp_path: Path) -> None:
    ours_text = repo.write(P, {"p": {"starred": True, "updated": T1}}, {})
    files = {}
    for side, text in (("base", ""), ("ours", ours_text), ("theirs", "<<<<<<< HEAD\n")):
        files[side] = tmp_path / side
        files[side].write_text(text)
    done = subprocess.run([sys.executable, "-m", "paper_tui", "merge-driver", str(files["base"]),
                           str(files["ours"]), str(files["theirs"]), "people/bob.yaml"],
                          capture_output=True, text=True)
    assert done.returncode == 1
    assert "cannot merge people/bob.yaml" in done.stderr and "Traceback" not in done.stderr
    assert files["ours"].read_text() == ours_text


def test_the_team_layer_reads_others_and_names_a_broken_file(tmp_path: Path) -> None:
    people = tmp_path / "team" / "people"
    people.mkdir(parents=True)
    repo.State(name="alice").save(tmp_path)
    (people / "alice.yaml").write_text(repo.write(P, {"p": {"starred": True}}, {}))
    (people / "bob.yaml").write_text(repo.write(P, {"p": {"status": "read", "tags": ("t",)}},
                                                {"p": "P"}))
    (people / "carol.yaml").write_text("papers: [\n")
    team = Team(tmp_path)
    assert team.members() == ["bob", "carol"]
    assert team.annotators("p") == {"bob": TeamRecord("read", False, ("t",), "")}
    assert "carol.yaml:" in team.problems["carol"]
    assert team.annotations_of("nobody") == {}
