"""Dividing papers among members (``team/split.py``), the assignments file as read, written
and merged (``team/assignments.py``, the merge driver), and the team's query words as the
parser sees them (``team_words.py``)."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from paper_tui.errors import QueryError, StoreError
from paper_tui.query.team import rewrite
from paper_tui.team import assignments, repo
from paper_tui.team.merge import merge_texts
from paper_tui.team.split import Candidate, quotas, split

MEMBERS = ["alice", "bob", "carol", "dave", "erin"]


def _papers(n: int, groups: int, seed: int = 1) -> list[Candidate]:
    rng = random.Random(seed)
    sizes = [rng.randint(1, 40) for _ in range(groups)]
    return [Candidate(f"p{i:05d}", f"area-{rng.choices(range(groups), sizes)[0]:02d}",
                      f"kw-{rng.randint(0, 5)}") for i in range(n)]


def _balanced(sizes: list[int]) -> bool:
    return max(sizes) - min(sizes) <= max(sizes) // 100 + 1


@pytest.mark.parametrize("by", ["area", "venue", "random"])
@pytest.mark.parametrize(("n", "members"), [(300, 3), (10_000, 5), (7, 5), (1, 2)])
def test_every_paper_goes_to_one_member_and_the_shares_are_level(by: str, n: int,
                                                                  members: int) -> None:
    papers = _papers(n, 12)
    out = split(papers, MEMBERS[:members], {}, by)
    assert set(out) == {p.id for p in papers}
    sizes = Counter(out.values())
    assert _balanced([sizes.get(m, 0) for m in MEMBERS[:members]])


def test_an_area_stays_with_one_member_where_the_balance_allows() -> None:
    papers = _papers(3000, 40)
    out = split(papers, MEMBERS, {}, "area")
    groups: dict[str, set[str]] = {}
    for p in papers:
        groups.setdefault(p.group, set()).add(out[p.id])
    # an area is cut only where it fills a member's room: at most one cut per member
    assert sum(len(who) - 1 for who in groups.values()) <= len(MEMBERS) - 1
    # at random, nearly every area is spread over several members
    spread = split(papers, MEMBERS, {}, "random")
    scattered = {p.group for p in papers if spread[p.id] != spread[papers[0].id]}
    assert len(scattered) > 30


def test_shares_held_are_topped_up_first_and_never_moved() -> None:
    assert quotas(["alice", "bob", "carol"], {"alice": 10, "bob": 4}, 9) == \
        {"alice": 0, "bob": 3, "carol": 6}
    assert quotas(["alice", "bob"], {}, 0) == {"alice": 0, "bob": 0}
    held = {"alice": 10, "bob": 4}
    out = split(_papers(20, 3), ["alice", "bob", "carol"], held, "area")
    got = Counter(out.values())
    assert [held.get(m, 0) + got[m] for m in ("alice", "bob", "carol")] == [12, 11, 11]


def test_the_same_input_gives_the_same_split_in_any_order_and_process() -> None:
    papers = _papers(2000, 25)
    shuffled = papers[:]
    random.Random(7).shuffle(shuffled)
    for by in ("area", "venue", "random"):
        assert split(papers, MEMBERS, {"bob": 3}, by) == split(shuffled, MEMBERS, {"bob": 3},
                                                               by)
    code = ("import json; from paper_tui.team.split import Candidate, split; "
            "papers = [Candidate(f'p{i}', f'g{i % 7}', '') for i in range(500)]; "
            "print(json.dumps(split(papers, ['a', 'b', 'c'], {}, 'random')))")
    seen = {subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                           check=True, env={**os.environ, "PYTHONHASHSEED": seed}).stdout
            for seed in ("1", "2", "random")}
    assert len(seen) == 1 and len(json.loads(seen.pop())) == 500


def test_another_team_deals_in_another_order() -> None:
    papers = _papers(200, 5)
    one = split(papers, ["a", "b"], {}, "random")
    other = split(papers, ["c", "d"], {}, "random")
    assert [one[p.id] == "a" for p in papers] != [other[p.id] == "c" for p in papers]


# -- the file ------------------------------------------------------------------------------
def _text(records: dict[str, dict], titles: dict[str, str] | None = None) -> str:
    return assignments.render(records, titles or {})


def test_the_file_round_trips_with_titles_and_taken_back_papers(tmp_path: Path) -> None:
    text = _text({"p1": {"member": "alice", "updated": "2026-11-20T10:00:00Z"},
                  "p2": {"updated": "2026-11-21T10:00:00Z"}},
                 {"p1": "A paper # with a hash"})
    assert '  "p1":  # A paper # with a hash\n    member: alice\n' in text
    read = assignments.parse(text, tmp_path / "assignments.yaml")
    assert read.member_of == {"p1": "alice"} and read.share("alice") == {"p1"}
    assert read.share("bob") == frozenset() and set(read.records) == {"p1", "p2"}


@pytest.mark.parametrize(("text", "line", "says"), [
    ("version: 1\npapers:\n  p1:\n    member: Alice Smith\n", 3, "not a team name"),
    ("version: 1\npapers:\n  p1:\n    member: [x\n", 5, "not valid YAML"),
    ("version: 1\npapers:\n  p1:\n    colour: red\n", 4, "colour"),
    ("- just\n- a list\n", 1, ""),
])
def test_a_broken_file_is_one_line_naming_file_and_line(tmp_path: Path, text: str,
                                                        line: int, says: str) -> None:
    path = tmp_path / "assignments.yaml"
    with pytest.raises(StoreError) as caught:
        assignments.parse(text, path)
    message = str(caught.value)
    assert "\n" not in message and message.startswith(f"{path}:{line}") and says in message


def test_a_link_or_a_huge_file_is_not_read(tmp_path: Path) -> None:
    team = tmp_path / "team"
    team.mkdir()
    (tmp_path / "elsewhere.yaml").write_text(_text({"p1": {"member": "alice"}}))
    (team / repo.ASSIGNMENTS).symlink_to(tmp_path / "elsewhere.yaml")
    with pytest.raises(StoreError, match=r"assignments\.yaml"):
        assignments.read(team)
    (team / repo.ASSIGNMENTS).unlink()
    (team / repo.ASSIGNMENTS).write_bytes(b"#" * (repo.MAX_BYTES + 1))
    with pytest.raises(StoreError, match=r"assignments\.yaml"):
        assignments.read(team)
    (team / repo.ASSIGNMENTS).unlink()
    assert assignments.read(team) is assignments.EMPTY


def test_the_merge_driver_merges_assignments_paper_by_paper(tmp_path: Path) -> None:
    old, new = "2026-11-20T10:00:00Z", "2026-11-21T10:00:00Z"
    base = _text({"p1": {"member": "alice", "updated": old},
                  "p3": {"member": "bob", "updated": old}})
    ours = _text({"p1": {"member": "alice", "updated": old},
                  "p2": {"member": "carol", "updated": new},
                  "p3": {"updated": new}})  # we took p3 back
    theirs = _text({"p1": {"member": "dave", "updated": new},
                    "p3": {"member": "bob", "updated": old},
                    "p4": {"member": "erin", "updated": new}})
    merged = assignments.parse(
        merge_texts(repo.ASSIGNMENTS_SCHEMA, base, ours, theirs, Path("assignments.yaml")),
        Path("assignments.yaml"))
    # nobody's work emptied: both sides' new papers, the newer change of each paper
    assert dict(merged.member_of) == {"p1": "dave", "p2": "carol", "p4": "erin"}
    assert "p3" in merged.records  # taken back, and stays so


# -- the query words -----------------------------------------------------------------------
@pytest.mark.parametrize(("typed", "engine"), [
    ("assigned:Alice diffusion", "assigned:alice diffusion"),
    ("kept:2 -disputed", "kept:2 -team:disputed"),
    ("(untouched OR kept-by:me) year:2024", "(team:untouched OR keptby:me) year:2024"),
    ('"untouched" abstract:disputed untouched*', '"untouched" abstract:disputed untouched*'),
    ('title:"kept:2" assigned:"bob"', 'title:"kept:2" assigned:bob'),
])
def test_the_team_words_are_written_as_the_engines_fields(typed: str, engine: str) -> None:
    assert rewrite(typed) == engine


@pytest.mark.parametrize("typed", ["kept:", "kept:two", "kept:-1", "assigned:a/b",
                                   "kept-by:", "kept-by:none"])
def test_a_bad_value_is_a_query_error(typed: str) -> None:
    with pytest.raises(QueryError) as caught:
        rewrite(typed)
    assert "\n" not in str(caught.value) and typed.split(":")[0] in str(caught.value)
