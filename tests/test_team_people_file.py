"""Reading a member's people file again parses only its changed blocks: the records are
always those of reading the whole file, whatever was edited, by a sync or by hand."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from paper_tui.errors import StoreError
from paper_tui.team import people_file, repo

STATUSES = ["to-read", "read", "skipped"]
NOTES = ["", "short", "two\nlines", "a: colon # hash", "trailing\n\n", "  indented", "ünï ★"]


def _records(rng: random.Random, ids: list[str]) -> dict[str, dict]:
    out = {}
    for pid in ids:
        record: dict = {"status": rng.choice(STATUSES), "updated": "2026-12-01T10:00:00Z"}
        if rng.random() < 0.3:
            record["starred"] = True
        if rng.random() < 0.5:
            record["tags"] = tuple(rng.sample(["rl", "theory", "llm", "a b"], 2))
        note = rng.choice(NOTES)
        if note:
            record["note"] = note
        out[pid] = record
    return out


def _text(records: dict[str, dict], titles: dict[str, str] | None = None) -> str:
    return repo.write(repo.PEOPLE_SCHEMA, records, titles or {})


def test_reading_again_gives_what_reading_the_whole_file_gives(tmp_path: Path) -> None:
    rng = random.Random(7)
    path = tmp_path / "bob.yaml"
    ids = [f"paper-{n:04d}" for n in range(400)]
    records = _records(rng, ids[:300])
    titles = {pid: f"Title of {pid}" for pid in ids[::3]}
    held = people_file.read(_text(records, titles), path)
    assert held.blocks is not None and len(held.blocks) == 300
    for _ in range(30):  # a sync's worth of changes, additions and removals each time
        for pid in rng.sample(sorted(records), 20):
            records[pid] = _records(rng, [pid])[pid]
        for pid in rng.sample(sorted(records), 5):
            del records[pid]
        for pid in rng.sample(ids, 10):
            records.setdefault(pid, _records(rng, [pid])[pid])
        text = _text(records, titles)
        before, held = held, people_file.read(text, path, held)
        assert held.records == people_file.read(text, path).records
        assert list(held.records) == sorted(records)
        kept = [pid for pid in held.records if pid in before.records
                and held.records[pid] == before.records[pid]]
        assert all(held.records[pid] is before.records[pid] for pid in kept)  # not parsed


def test_a_hand_edited_file_is_read_whole(tmp_path: Path) -> None:
    path = tmp_path / "bob.yaml"
    held = people_file.read(_text(_records(random.Random(1), ["a-1", "a-2", "a-3"])), path)
    hand = ('version: 1\npapers:\n  "a-1":\n    status: read\n  a-2:\n    starred: true\n'
            '  "a-3": {status: skipped}\n')
    again = people_file.read(hand, path, held)
    assert again.records == people_file.read(hand, path).records
    assert again.records["a-2"].starred is True  # an unquoted id inside a block: found
    assert again.blocks is None  # and this file is never read by its blocks
    assert people_file.read(hand, path, again).records == again.records


def test_a_broken_block_is_reported_at_its_line_in_the_file(tmp_path: Path) -> None:
    path = tmp_path / "bob.yaml"
    records = _records(random.Random(2), [f"p-{n}" for n in range(50)])
    text = _text(records)
    held = people_file.read(text, path)
    lines = text.splitlines(keepends=True)
    at = next(i for i, line in enumerate(lines) if line.startswith('  "p-40"'))
    lines[at + 1] = "    status: [unclosed\n"
    broken = "".join(lines)
    with pytest.raises(StoreError) as whole:
        people_file.read(broken, path)
    with pytest.raises(StoreError) as again:
        people_file.read(broken, path, held)
    assert str(again.value) == str(whole.value)
    assert str(whole.value).startswith(f"{path}:{at + 3}:")  # where libyaml sees it


def test_one_papers_record_is_what_reading_the_whole_file_gives(tmp_path: Path) -> None:
    """``show`` parses only the paper's block: the same record as reading the whole file,
    for papers there and not there, with titles, notes of every shape, a cleared paper (a
    block with its time stamp only) and a hand-edited file."""
    path = tmp_path / "bob.yaml"
    rng = random.Random(11)
    ids = [f"paper-{n:04d}" for n in range(120)]
    records = _records(rng, ids[:100])
    records[ids[5]] = {"updated": "2026-12-01T10:00:00Z"}  # cleared
    texts = [_text(records, {pid: f"Title of {pid}" for pid in ids[::2]}),
             ('version: 1\npapers:\n  "paper-0001":\n    status: read\n  paper-0002:\n'
              '    starred: true\n  "paper-0003": {status: skipped}\n')]
    for text in texts:
        whole = people_file.read(text, path).records
        for pid in [*ids, "paper-00", 'odd"id']:
            assert people_file.record_of(text, path, pid) == whole.get(pid), pid
    broken = texts[0].replace('  "paper-0007":', '  "paper-0007": [', 1)
    with pytest.raises(StoreError):
        people_file.record_of(broken, path, "paper-0007")
