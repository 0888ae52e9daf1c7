"""The YAML store: format, round trips, schema errors, broken files, hand edits, merging."""

from __future__ import annotations

import cProfile
import dataclasses
import gc
import os
import random
import time
from pathlib import Path

import pytest
import yaml

from paper_tui.errors import StoreError
from paper_tui.store.annotations import SCHEMA
from paper_tui.store.file_store import YamlStore, _digest
from paper_tui.store.merge import merge_record, stamp_time
from paper_tui.store.own_layout import read as read_own_layout
from paper_tui.store.reading_lists import SCHEMA as LIST_SCHEMA
from paper_tui.store.yaml_format import emit_fragments, parse, read_yaml, render

TRICKY_NOTES = [
    "key: value",
    "# not a comment",
    "- not a list item",
    "  two leading spaces\nthen a normal line",
    "    indented block\n  less indented\nnone",
    "Unicode: ünïcödé — 漢字, emoji 🎉, math ∀x∈ℝ",
    "line one\n\nafter a blank line",
    'quotes "double" and \'single\' and \\backslash',
    "ends with colon:",
    "trailing # hash and: colon mid",
    "yes",
    "2401.10010",
    "null",
    "~",
    "@at start",
    "%percent",
    "tab\tinside",
    "a line with trailing spaces   \nnext",
    "control \x07 bell and \x1b escape",
    "separators \u2028 and \u2029 and \x85",
    "[flow] {like}",
    "|pipe start",
    ">fold start",
    "*star &amp !bang",
    "' starts with quote",
    "multi\nline: with colon\n- dash\n# hash",
]


def _store(tmp_path: Path, name: str = "annotations.yaml", schema=SCHEMA) -> YamlStore:
    store = YamlStore(tmp_path / name, schema)
    store.ensure_loaded()
    return store


def _reload(store: YamlStore) -> YamlStore:
    return _store(store.path.parent, store.path.name, store.schema)


def test_every_field_round_trips_including_tricky_notes(tmp_path: Path) -> None:
    store = _store(tmp_path)
    expected = {}
    for i, note in enumerate(TRICKY_NOTES):
        record = {"status": ("to-read", "read", "skipped")[i % 3], "starred": i % 2 == 0,
                  "tags": ("ML", "deep learning", f"t{i}"), "note": note}
        pid = f"paper-{i:03d}"
        store.put(pid, record, 1_700_000_000.0 + i)
        expected[pid] = record
    store.put("2401.10010", {"tags": ("yes", "1.5", "null")}, 1_700_000_000.0)
    expected["2401.10010"] = {"tags": ("yes", "1.5", "null")}
    store.save()

    again = _reload(store)
    for pid, record in expected.items():
        got = again.get(pid)
        assert got is not None
        assert {k: v for k, v in got.items() if k != "updated"} == {
            k: v for k, v in record.items() if v not in (False, (), "")}
        assert got["updated"].endswith("Z")
    # Any YAML reader agrees (the format is plain YAML, ids are strings).
    data = yaml.safe_load(store.path.read_text("utf-8"))
    assert data["version"] == 1
    assert set(data["papers"]) == set(expected)
    assert data["papers"]["paper-000"]["note"] == TRICKY_NOTES[0]
    assert data["papers"]["2401.10010"]["tags"] == ["yes", "1.5", "null"]


def test_file_layout_is_block_style_with_quoted_ids_and_literal_notes(tmp_path: Path) -> None:
    store = _store(tmp_path)
    store.put("2401.10010", {"status": "read", "starred": True, "tags": ("b", "a"),
                             "note": "first line\n  second: indented"}, 1_700_000_000.0)
    store.put("0001", {"status": "skipped"}, 1_700_000_000.0)
    store.save()
    text = store.path.read_text("utf-8")
    assert text == (
        "# paper-tui annotations. Edit freely: a running paper-tui picks changes up.\n"
        "version: 1\n"
        "papers:\n"
        '  "0001":\n'
        "    status: skipped\n"
        '    updated: "2023-11-14T22:13:20Z"\n'
        '  "2401.10010":\n'
        "    status: read\n"
        "    starred: true\n"
        "    tags:\n"
        "    - b\n"
        "    - a\n"
        "    note: |-\n"
        "      first line\n"
        "        second: indented\n"
        '    updated: "2023-11-14T22:13:20Z"\n')


def test_defaults_are_not_stored_and_an_empty_store_is_valid_yaml(tmp_path: Path) -> None:
    store = _store(tmp_path)
    store.put("p1", {"status": "read"}, time.time())
    store.save()
    store.put("p1", {"status": "new", "starred": False, "tags": (), "note": ""}, time.time())
    store.save()
    assert yaml.safe_load(store.path.read_text()) == {"version": 1, "papers": {}}
    assert _reload(store).get("p1") is None


def test_no_abstracts_or_unknown_fields_are_written(tmp_path: Path) -> None:
    store = _store(tmp_path)
    store.put("p1", {"status": "read", "abstract": "long text"}, time.time())
    store.save()
    assert "abstract" not in store.path.read_text()


@pytest.mark.parametrize("schema, name", [(SCHEMA, "annotations.yaml"),
                                          (LIST_SCHEMA, "reading-lists.yaml")])
def test_fast_reader_agrees_with_the_yaml_parser(tmp_path: Path, schema, name) -> None:
    """The line-by-line reader of our own layout must read exactly what the YAML parser
    reads: check it on every tricky text we can think of plus random ones."""
    rng = random.Random(7)
    alphabet = "ab :#-'\"\\|>*&!%@`[]{},?~\n\t  ü漢\u2028\x85\x07é0123456789."
    texts = TRICKY_NOTES + ["".join(rng.choice(alphabet) for _ in range(rng.randint(1, 30)))
                            for _ in range(400)]
    records = []
    for i, text in enumerate(texts):
        if schema is SCHEMA:
            record = {"status": "read", "tags": (text.replace(",", " ").strip() or "x", "ok"),
                      "note": text}
        else:
            record = {"description": text, "papers": (f"id-{i}", text.strip() or "y")}
        records.append((f"key {text[:8]!r} {i}", record))
    fragments = emit_fragments(schema, records)
    text = render(schema, sorted(fragments), fragments)
    slow = read_yaml(text, tmp_path / name, schema)
    plain_yaml = yaml.safe_load(text)[schema.section]  # what any YAML reader sees
    for key, record in records:
        assert {k: tuple(v) if isinstance(v, list) else v
                for k, v in plain_yaml[key].items()} == record, key
    fast = read_own_layout(text, schema)
    if fast is not None:
        assert fast.records == slow.records
        assert fast.fragments == slow.fragments
    # and record by record, so one odd record does not hide the rest from the fast path
    used = 0
    for key, record in records:
        one = render(schema, [key], emit_fragments(schema, [(key, record)]))
        expected = read_yaml(one, tmp_path / name, schema)
        got = read_own_layout(one, schema)
        if got is not None:
            used += 1
            assert got.records == expected.records, one
            assert got.fragments == expected.fragments, one
    assert used > len(records) // 3  # the fast path does carry the common cases


def test_hand_written_variants_read_the_same(tmp_path: Path) -> None:
    text = (
        "version: 1\n"
        "papers:\n"
        "    2401.10010:            # an unquoted id stays a string\n"
        "        status: to-read\n"
        "        starred: yes\n"
        "        tags: [ML, ' ml ', Deep   Learning]\n"
        "        note: >-\n"
        "          folded\n"
        "          text\n"
        "    'other': {status: read}\n"
    )
    parsed = parse(text, tmp_path / "annotations.yaml", SCHEMA)
    assert parsed.records == {
        "2401.10010": {"status": "to-read", "starred": True, "tags": ("ML", "Deep Learning"),
                       "note": "folded text"},
        "other": {"status": "read"},
    }
    assert parsed.fragments == {}  # not our layout: rewritten in it on the next save


@pytest.mark.parametrize("text, where, words", [
    ("version: 1\npapers:\n  \"p1\":\n    status: reading\n", ":4:13", "status must be one of"),
    ("version: 1\npapers:\n  \"p1\":\n    colour: red\n", ":4:5", "unknown field 'colour'"),
    ("version: 1\npapers:\n  \"p1\": {}\n  \"p1\": {}\n", ":4:3", "'p1' appears twice"),
    ("version: 1\npapers:\n  \"p1\":\n    starred: maybe\n", ":4:14", "true or false"),
    ("version: 1\npapers:\n  \"p1\":\n    tags: {a: 1}\n", ":4:11", "single value or a list"),
    ("version: 1\npapers:\n  \"p1\":\n    status: read\n   bad indent: x\n", ":5:4",
     "not valid YAML"),
    ("version: 9\npapers: {}\n", ":1:10", "newer paper-tui"),
    ("version: 1\nextra: 1\npapers: {}\n", ":2:1", "unknown key 'extra'"),
    ("- a\n- b\n", ":1:1", "expected a mapping"),
    ("version: 1\npapers:\n  \"p1\": &a {}\n  \"p2\": *a\n", ":4:9", "aliases"),
])
def test_schema_and_syntax_errors_name_file_line_and_column(tmp_path: Path, text: str,
                                                             where: str, words: str) -> None:
    path = tmp_path / "annotations.yaml"
    with pytest.raises(StoreError) as caught:
        parse(text, path, SCHEMA)
    message = str(caught.value)
    assert message.startswith(f"{path}{where}: "), message
    assert words in message
    assert "\n" not in message


def test_a_file_over_its_record_limit_is_refused_by_the_fast_reader_alone(
        tmp_path: Path) -> None:
    """A team-mate's file of a million papers was read twice: the fast reader gave up at the
    first record too many, then libyaml parsed everything up to it again to name its line
    (3 s for each sync and ``show``). The fast reader names the same place itself."""
    schema = dataclasses.replace(SCHEMA, max_records=3)
    text = "version: 1\npapers:\n" + "".join(f'  "p{i}":\n    status: read\n' for i in range(5))
    path = tmp_path / "people" / "eve.yaml"
    with pytest.raises(StoreError) as by_yaml:
        read_yaml(text, path, schema)
    gc.collect()  # no earlier test's suspended parser finalized inside the profile
    gc.disable()
    profile = cProfile.Profile()
    profile.enable()
    try:
        with pytest.raises(StoreError) as caught:
            parse(text, path, schema)
    finally:
        profile.disable()
        gc.enable()
    assert str(caught.value) == str(by_yaml.value) == (
        f"{path}:9:3: more than 3 records, the most this file may hold")
    yaml_code = [entry.code for entry in profile.getstats()
                 if f"{os.sep}yaml{os.sep}" in getattr(entry.code, "co_filename", "")]
    assert yaml_code == []
    # a duplicate before the limit is still the YAML reader's to name
    twice = text.replace('"p1"', '"p0"')
    with pytest.raises(StoreError, match=r":5:3: paper id 'p0' appears twice"):
        parse(twice, path, schema)


def _write_good_then_break(tmp_path: Path) -> tuple[YamlStore, bytes]:
    store = _store(tmp_path)
    store.put("p1", {"status": "read", "note": "keep me"}, time.time())
    store.save()
    store.put("p2", {"status": "skipped"}, time.time())
    store.save()  # the backup now holds p1 only
    broken = store.path.read_bytes().replace(b"status: read", b"status: [read")
    store.path.write_bytes(broken)
    return store, broken


def test_a_broken_file_is_reported_read_only_and_left_byte_for_byte(tmp_path: Path) -> None:
    store, broken = _write_good_then_break(tmp_path)
    fresh = _reload(store)
    reason = fresh.read_only_reason
    assert reason is not None
    assert f"{store.path}:" in reason and "annotations are read-only" in reason
    assert str(store.backup) in reason
    assert "\n" not in reason
    assert fresh.get("p1") == yaml.safe_load(store.backup.read_text())["papers"]["p1"] | {
        "updated": fresh.get("p1")["updated"]}  # the backup is shown meanwhile
    with pytest.raises(StoreError):
        fresh.put("p3", {"status": "read"}, time.time())
    with pytest.raises(StoreError):
        fresh.save()
    assert store.path.read_bytes() == broken


def test_a_file_broken_while_running_stops_saving_until_fixed(tmp_path: Path) -> None:
    store = _store(tmp_path)
    store.put("p1", {"status": "read"}, time.time())
    store.save()
    good = store.path.read_bytes()
    store.put("p2", {"status": "skipped"}, time.time())  # pending, not yet saved
    broken = good + b"  \"p9\": [unclosed\n"
    store.path.write_bytes(broken)
    with pytest.raises(StoreError, match=r"annotations.yaml:7:9: the fields of paper id"):
        store.save()
    assert store.path.read_bytes() == broken
    assert store.read_only_reason
    assert store.get("p2") is not None  # the change waits in memory
    store.path.write_bytes(good + b'  "p3":\n    status: to-read\n')  # fixed by hand
    time.sleep(0.01)
    store.save()
    assert store.read_only_reason is None
    again = _reload(store)
    assert again.get("p2")["status"] == "skipped"
    assert again.get("p3")["status"] == "to-read"
    assert again.get("p1")["status"] == "read"


def test_invalid_utf8_is_reported_with_its_position(tmp_path: Path) -> None:
    path = tmp_path / "annotations.yaml"
    path.write_bytes(b'version: 1\npapers:\n  "p1":\n    note: caf\xe9\n')
    store = _store(tmp_path)
    assert store.read_only_reason.startswith(f"{path}:4:14: not UTF-8")


def test_hand_edits_are_picked_up_and_merged_with_pending_changes(tmp_path: Path) -> None:
    store = _store(tmp_path)
    store.put("p1", {"status": "read", "tags": ("a",)}, time.time())
    store.save()
    store.put("p2", {"starred": True}, time.time())  # not yet saved
    text = store.path.read_text().replace("status: read", "status: skipped")
    text += '  "p9":\n    note: added by hand\n'
    store.path.write_text(text)
    changes = store.refresh()
    assert set(changes) == {"p1", "p9"}
    assert store.get("p1")["status"] == "skipped"
    assert store.get("p9")["note"] == "added by hand"
    assert store.get("p2")["starred"] is True
    store.save()
    again = _reload(store)
    assert again.get("p1")["status"] == "skipped"
    assert again.get("p2")["starred"] is True
    assert again.get("p9")["note"] == "added by hand"


def test_a_deleted_file_is_written_back_from_memory(tmp_path: Path) -> None:
    store = _store(tmp_path)
    store.put("p1", {"status": "read"}, time.time())
    store.save()
    store.path.unlink()
    store.refresh()
    assert store.needs_save
    store.save()
    assert _reload(store).get("p1")["status"] == "read"


def test_save_keeps_the_previous_file_as_backup(tmp_path: Path) -> None:
    store = _store(tmp_path)
    store.put("p1", {"status": "read"}, time.time())
    store.save()
    first = store.path.read_bytes()
    store.put("p1", {"status": "skipped"}, time.time())
    store.save()
    assert store.backup.read_bytes() == first
    assert not list(tmp_path.glob(".annotations.yaml.*.tmp"))


def test_leftover_temp_files_from_a_killed_save_are_swept(tmp_path: Path) -> None:
    leftover = tmp_path / ".annotations.yaml.abc123.tmp"
    leftover.write_text("half a file")
    store = _store(tmp_path)
    store.put("p1", {"status": "read"}, time.time())
    store.save()
    assert not leftover.exists()


def test_two_stores_on_one_file_merge_per_field(tmp_path: Path) -> None:
    a = _store(tmp_path)
    a.put("p1", {"status": "read", "tags": ("x",)}, time.time())
    a.save()
    b = _reload(a)
    a.put("p1", {"status": "read", "tags": ("x", "from-a")}, time.time())
    b.put("p1", {"status": "skipped", "tags": ("x", "from-b")}, time.time())
    b.put("p2", {"note": "only b"}, time.time())
    a.save()
    b.save()  # re-reads a's file and merges
    final = _reload(a)
    assert final.get("p1")["status"] == "skipped"  # only b changed it
    assert final.get("p1")["tags"] == ("x", "from-a", "from-b")  # both tag sets kept
    assert final.get("p2")["note"] == "only b"
    a.refresh()
    assert a.get("p1")["status"] == "skipped"


def test_merge_rules() -> None:
    base = {"status": "read", "tags": ("a", "b"), "note": "old", "updated": "2026-01-01T00:00:00Z"}
    ours = {"status": "skipped", "tags": ("a", "c"), "note": "ours"}
    theirs = {"status": "read", "tags": ("A", "b", "d"), "note": "theirs",
              "updated": "2026-01-01T00:00:10Z"}
    older = stamp_seconds("2026-01-01T00:00:05Z")
    newer = stamp_seconds("2026-01-01T00:00:20Z")
    merged = merge_record(SCHEMA, base, ours, theirs, older)
    assert merged["status"] == "skipped"  # only we changed it
    assert merged["tags"] == ("A", "d", "c")  # theirs minus our removal (b) plus our addition
    assert merged["note"] == "theirs"  # both changed: theirs is newer
    assert merge_record(SCHEMA, base, ours, theirs, newer)["note"] == "ours"
    # a list we deleted that they did not touch stays deleted; one they changed later stays
    lst = {"papers": ("p1",), "updated": "2026-01-01T00:00:00Z"}
    assert merge_record(LIST_SCHEMA, lst, None, lst, older) is None
    changed = {"papers": ("p1", "p2"), "updated": "2026-01-01T00:00:10Z"}
    assert merge_record(LIST_SCHEMA, lst, None, changed, older) == changed
    # a list they deleted that we changed is kept
    assert merge_record(LIST_SCHEMA, lst, changed, None, older) == changed


def stamp_seconds(text: str) -> float:
    return stamp_time(text)


def test_records_are_kept_as_text_between_saves(tmp_path: Path) -> None:
    """A save re-emits only changed records; unchanged ones keep their bytes (comments in a
    record survive until it changes)."""
    store = _store(tmp_path)
    for i in range(5):
        store.put(f"p{i}", {"status": "read"}, time.time())
    store.save()
    text = store.path.read_text().replace('  "p3":\n', '  "p3":\n    # my remark\n')
    store.path.write_text(text)
    again = _reload(store)
    again.put("p1", {"status": "skipped"}, time.time())
    again.save()
    assert "# my remark" in again.path.read_text()  # p3 did not change: kept as written
    again.put("p3", {"status": "skipped"}, time.time())
    again.save()
    assert "# my remark" not in again.path.read_text()
    assert _reload(again).get("p3")["status"] == "skipped"


def test_identity_is_checked_cheaply_when_nothing_changed(tmp_path: Path) -> None:
    store = _store(tmp_path)
    store.put("p1", {"status": "read"}, time.time())
    store.save()
    stat = os.stat(store.path)
    assert store.refresh() == {}
    assert os.stat(store.path).st_mtime_ns == stat.st_mtime_ns


def test_the_parsed_file_is_cached_for_the_next_start_and_checked(tmp_path: Path) -> None:
    store = _store(tmp_path)
    for i, note in enumerate(TRICKY_NOTES):
        store.put(f"p{i}", {"status": "read", "tags": (" a  b ", "A B", "c"), "note": note},
                  time.time())
    store.save()
    store.write_cache()
    assert store.cache.exists()
    text = store.path.read_text("utf-8")
    expected = parse(text, store.path, SCHEMA).records
    assert store.snapshot() == expected  # memory is exactly what the file reads back as
    cached = _reload(store)
    assert cached.snapshot() == expected
    assert cached._from_cache(hashlib_digest(store.path)) is not None
    # A hand edit makes the cache stale: it is not used.
    store.path.write_text(text.replace("status: read", "status: skipped", 1))
    assert _reload(store).get("p0")["status"] == "skipped"
    # Garbage in the cache is ignored.
    store.cache.write_bytes(b"\x00garbage")
    assert _reload(store).get("p0")["status"] == "skipped"


def hashlib_digest(path: Path) -> bytes:
    return _digest(path.read_bytes())


@pytest.mark.parametrize("schema", [SCHEMA, LIST_SCHEMA], ids=["annotations", "lists"])
def test_fast_reader_never_accepts_what_yaml_reads_differently(tmp_path: Path, schema) -> None:
    """Hand edits of our layout, simulated by random insertions and deletions: whenever the
    fast reader accepts the text, the YAML parser reads the same records (and does not
    reject it)."""
    rng = random.Random(11)
    pieces = [" ", "  ", "\n", ":", ": ", "#", " #", "-", "- ", '"', "'", "\\", "|", "|-",
              "|2-", ">", "~", "null", "true", "yes", "x", "ü", "\t", "    ", "      ", "{",
              "[", "&a", "*a", "!!str ", "---\n", "...\n", "    status: read\n",
              "    note: |\n", '  "k":\n']
    accepted = 0
    for _ in range(1500):
        if schema is SCHEMA:
            records = [(f"k{i}", {"status": "read", "starred": True, "tags": ("a b", "c"),
                                  "note": rng.choice(["one", "two\nlines", "  lead\nx: y"])})
                       for i in range(3)]
        else:
            records = [(f"k{i}", {"description": rng.choice(["d", "two\nlines"]),
                                  "papers": ("p1", "p2")}) for i in range(3)]
        fragments = emit_fragments(schema, records)
        text = render(schema, sorted(fragments), fragments)
        for _ in range(rng.randint(1, 3)):
            at = rng.randrange(len(text) + 1)
            cut = rng.choice([0, 0, rng.randint(1, 4)])
            text = text[:at] + (rng.choice(pieces) if rng.random() < 0.7 else "") + text[at + cut:]
        fast = read_own_layout(text, schema)
        if fast is None:
            continue
        accepted += 1
        assert read_yaml(text, tmp_path / "f.yaml", schema).records == fast.records, text
    assert accepted > 200
