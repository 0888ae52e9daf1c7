"""Properties of the merges: lines added to a note on two sides both land, once, each side's
in its order; a team file that lacks a record never takes it away. Two real stores on one
real file for the first; the merge functions for the others."""

from __future__ import annotations

import tempfile
import time
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from paper_tui.store.annotations import SCHEMA
from paper_tui.store.file_store import YamlStore
from paper_tui.store.merge import add_lines, added_lines, merge_record
from paper_tui.team import repo
from paper_tui.team.merge import merge_one, merge_records

LINE = st.text(st.characters(categories=("L", "N")), min_size=1, max_size=6)
LINES = st.lists(LINE, max_size=3)
T1, T2 = "2026-12-01T10:00:00Z", "2026-12-01T11:00:00Z"


@settings(max_examples=60, deadline=None)
@given(base=LINES, steps=st.lists(st.tuples(st.sampled_from("ab"), st.booleans()),
                                  min_size=1, max_size=12))
def test_two_stores_appending_to_one_note_lose_no_line(base: list[str],
                                                       steps: list[tuple[str, bool]]) -> None:
    """Each step: writer a or b adds a line, then saves or not; both save at the end."""
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "annotations.yaml"
        if base:
            first = YamlStore(path, SCHEMA)
            first.put("p", {"note": "\n".join(base)}, time.time())
            first.save()
        stores = {who: YamlStore(path, SCHEMA) for who in "ab"}
        for store in stores.values():
            store.load()
        added: dict[str, list[str]] = {"a": [], "b": []}
        for n, (who, save) in enumerate(steps):
            store = stores[who]
            line = f"{who}{n}"
            note = (store.get("p") or {}).get("note", "")
            store.put("p", {"note": f"{note}\n{line}" if note else line}, time.time())
            added[who].append(line)
            if save:
                store.save()
        for store in stores.values():
            store.save()
        final = YamlStore(path, SCHEMA)
        lines = final.get("p")["note"].split("\n")
        assert lines[:len(base)] == base
        rest = lines[len(base):]
        assert sorted(rest) == sorted(added["a"] + added["b"])
        for who in "ab":
            assert [line for line in rest if line.startswith(who)] == added[who]


@given(base=LINES, ours=st.lists(LINE, min_size=1, max_size=3),
       theirs=st.lists(LINE, min_size=1, max_size=3), newer=st.booleans())
def test_a_merge_adds_our_lines_to_theirs(base: list[str], ours: list[str],
                                          theirs: list[str], newer: bool) -> None:
    b = "\n".join(base)
    o, t = "\n".join(base + ours), "\n".join(base + theirs)
    added = added_lines(b, o)
    assert added is not None and add_lines(b, added) == o
    merged = merge_record(SCHEMA, {"note": b}, {"note": o}, {"note": t, "updated": T1},
                          time.time() if newer else 0.0, {"note": [added]})
    assert merged is not None
    if o == t:  # the same change on both sides is one change
        assert merged["note"] == o
    else:
        assert merged["note"].split("\n") == base + theirs + ours


@given(base=st.lists(LINE, min_size=1, max_size=3), ours=st.lists(LINE, min_size=1, max_size=3),
       theirs=st.lists(LINE, min_size=1, max_size=3), ours_first=st.booleans())
def test_the_team_merge_keeps_lines_both_members_machines_added(
        base: list[str], ours: list[str], theirs: list[str], ours_first: bool) -> None:
    b = "\n".join(base)
    o, t = "\n".join(base + ours), "\n".join(base + theirs)
    first, then = (T1, T2) if ours_first else (T2, T1)
    merged = merge_one(repo.PEOPLE_SCHEMA, {"note": b, "updated": T1},
                       {"note": o, "updated": first}, {"note": t, "updated": then})
    assert merged is not None
    lines = merged["note"].split("\n")
    if o in t or t in o:  # one already holds the other
        assert merged["note"] == max(o, t, key=len)
    else:
        assert lines == base + (ours + theirs if ours_first else theirs + ours)


RECORD = st.fixed_dictionaries({}, optional={
    "status": st.sampled_from(["to-read", "read", "skipped"]), "starred": st.just(True),
    "tags": st.lists(LINE, min_size=1, max_size=2, unique_by=str.casefold).map(tuple),
    "note": LINE}).map(lambda r: {**r, "updated": T1})
FILE = st.dictionaries(st.sampled_from(["p1", "p2", "p3", "p4", "p5"]), RECORD, max_size=5)


@given(base=FILE, ours=FILE, theirs=FILE)
def test_a_file_that_lacks_a_record_never_takes_it_away(base, ours, theirs) -> None:
    merged = merge_records(repo.PEOPLE_SCHEMA, base, ours, theirs)
    for key in ours.keys() ^ theirs.keys():
        assert merged[key] == (ours.get(key) or theirs[key])
    for key in ours.keys() & theirs.keys():
        assert merged.get(key) == (ours[key] if ours[key] == theirs[key] else
                                   merge_one(repo.PEOPLE_SCHEMA, base.get(key), ours[key],
                                             theirs[key]))
