"""The annotation service: the calls both fronts make, undo, saving off the caller's path."""

from __future__ import annotations

import contextlib
import shutil
import threading
import time
from pathlib import Path

import pytest
import yaml

from paper_tui.errors import StoreError
from paper_tui.library import Library
from paper_tui.store.annotations import UNDO_LIMIT, Annotation, Annotations


@pytest.fixture
def notes(tmp_path: Path):
    service = Annotations(tmp_path)
    yield service
    service.close()


def _on_disk(root: Path) -> dict:
    return yaml.safe_load((root / "annotations.yaml").read_text("utf-8"))["papers"]


def test_defaults_for_an_unknown_paper(notes: Annotations) -> None:
    assert notes.get("nope") == Annotation()
    assert notes.searchable("nope") is None


def test_status_star_tags_and_note(notes: Annotations, tmp_path: Path) -> None:
    notes.set_status(["a", "b"], "to-read")
    notes.set_starred(["a"], True)
    notes.add_tags(["a", "b"], [" Deep   Learning ", "ML,rl", ""])
    notes.set_note("a", "first\r\nsecond   \n\n")
    notes.append_note("a", "third")
    notes.flush()
    a = notes.get("a")
    assert (a.status, a.starred, a.tags) == ("to-read", True, ("Deep Learning", "ML", "rl"))
    assert a.note == "first\nsecond\nthird"
    assert a.updated and a.updated.endswith("Z")
    assert _on_disk(tmp_path)["b"]["tags"] == ["Deep Learning", "ML", "rl"]
    with pytest.raises(StoreError, match="unknown status 'reading'"):
        notes.set_status(["a"], "reading")


def test_tags_match_ignoring_case_and_keep_the_first_spelling(notes: Annotations) -> None:
    notes.add_tags(["a"], ["GNN"])
    notes.add_tags(["b"], ["gnn", "Vision"])
    notes.add_tags(["b"], ["VISION"])
    assert notes.get("b").tags == ("GNN", "Vision")
    assert notes.tag_counts() == {"GNN": 2, "Vision": 1}
    notes.remove_tags(["a", "b"], ["gnn"])
    assert notes.tag_counts() == {"Vision": 1}
    assert notes.get("a") == Annotation()


def test_toggle_star_sets_all_to_one_value(notes: Annotations) -> None:
    notes.set_starred(["a"], True)
    assert notes.toggle_star(["a", "b"]) is True
    assert notes.get("b").starred
    assert notes.toggle_star(["a", "b"]) is False
    assert not notes.get("a").starred


def test_counts_and_searchable(notes: Annotations) -> None:
    notes.set_status(["a", "b"], "read")
    notes.set_status(["c"], "skipped")
    notes.lists.create("week")
    notes.lists.add("week", ["a", "z"])
    assert notes.status_counts() == {"to-read": 0, "read": 2, "skipped": 1}
    assert notes.searchable("a") == {"status": "read", "starred": False, "tags": [],
                                       "lists": ["week"], "note": ""}
    assert notes.searchable("z")["lists"] == ["week"]  # only in a list
    assert notes.orphans({"a", "b"}) == ["c", "z"]


def test_undo_reverses_the_last_changes_in_order(notes: Annotations, tmp_path: Path) -> None:
    notes.set_status(["a"], "read")
    notes.add_tags(["a", "b"], ["x"])
    notes.set_note("a", "hello")
    notes.lists.create("L")
    notes.lists.add("L", ["a"])
    assert notes.undo() == "add 1 paper to “L”"
    assert notes.lists.get("L").ids == ()
    assert notes.undo() == "create list “L”"
    assert notes.lists.get("L") is None
    assert notes.undo() == "edit note on a"
    assert notes.get("a").note == ""
    assert notes.undo() == "tag x on 2 papers"
    assert notes.get("b") == Annotation()
    assert notes.get("a").tags == ()
    assert notes.undo() == "status read on a"
    assert notes.get("a") == Annotation()
    assert notes.undo() is None
    notes.flush()
    assert _on_disk(tmp_path) == {}


def test_undo_keeps_the_last_hundred(notes: Annotations) -> None:
    for i in range(UNDO_LIMIT + 20):
        notes.set_note("a", f"v{i}")
    undone = 0
    while notes.undo():
        undone += 1
    assert undone == UNDO_LIMIT
    assert notes.get("a").note == "v19"


def test_undo_restores_only_the_fields_it_changed(notes: Annotations, tmp_path: Path) -> None:
    """Undo must not throw away what another process changed on the same paper."""
    notes.set_status(["a"], "read")
    notes.flush()
    other = Annotations(tmp_path)
    other.set_starred(["a"], True)
    other.close()
    notes.store.refresh()
    notes.undo()
    assert notes.get("a").status == "new"
    assert notes.get("a").starred is True


def test_a_change_reaches_the_disk_without_flush(notes: Annotations, tmp_path: Path) -> None:
    """The saver writes on its own, 0.05 s after a burst: within a second on a quiet machine.
    The test waits up to 5 s: in the full suite the other workers' fsyncs (git, every
    store) can hold this one's for over a second."""
    notes.set_status(["a"], "skipped")
    deadline = time.time() + 5.0
    while time.time() < deadline:
        path = tmp_path / "annotations.yaml"
        if path.exists() and "skipped" in path.read_text():
            break
        time.sleep(0.02)
    assert _on_disk(tmp_path)["a"]["status"] == "skipped"


def test_a_burst_of_changes_is_coalesced(notes: Annotations, tmp_path: Path) -> None:
    notes.get("warm-up")
    path = tmp_path / "annotations.yaml"
    inodes = set()
    stop = threading.Event()

    def watch() -> None:
        while not stop.is_set():
            with contextlib.suppress(FileNotFoundError):
                inodes.add(path.stat().st_ino)
            time.sleep(0.001)

    watcher = threading.Thread(target=watch)
    watcher.start()
    for i in range(200):
        notes.set_status([f"p{i}"], "read")
    notes.flush()
    stop.set()
    watcher.join()
    assert len(_on_disk(tmp_path)) == 200
    assert len(inodes) < 20  # far fewer saves than changes


def test_changes_from_elsewhere_reach_listeners_and_the_overlay(tmp_path: Path) -> None:
    seen: list[set[str]] = []
    notes = Annotations(tmp_path)
    overlay = notes.overlay
    notes.add_change_listener(seen.append)
    notes.set_status(["a"], "read")
    assert overlay.ids("status", "read")[0] == {"a"}  # at once, before any save
    notes.flush()
    path = tmp_path / "annotations.yaml"
    path.write_text(path.read_text() + '  "hand":\n    tags:\n    - Edited\n')
    deadline = time.time() + 3
    while not overlay.ids("tags", "edited")[0] and time.time() < deadline:
        time.sleep(0.02)
    assert overlay.ids("tags", "edited")[0] == {"hand"}
    assert {"hand"} in seen
    assert notes.get("hand").tags == ("Edited",)
    notes.set_status(["a"], "skipped")
    assert overlay.ids("status", "read")[0] == frozenset()
    assert notes.undo() == "status skipped on a"
    assert overlay.ids("status", "read")[0] == {"a"}
    notes.close()


def test_a_failed_save_is_reported_and_retried(tmp_path: Path) -> None:
    errors: list[str | None] = []
    notes = Annotations(tmp_path)
    notes.add_save_listener(errors.append)
    notes.set_status(["a"], "read")
    notes.flush()
    path = tmp_path / "annotations.yaml"
    good = path.read_bytes()
    notes.set_status(["b"], "read")
    path.write_bytes(b"version: 1\npapers: [oops\n")  # broken behind our back
    with pytest.raises(StoreError, match=r"annotations.yaml:2:"):
        notes.flush()
    assert notes.last_save_error and errors and errors[-1] == notes.last_save_error
    assert notes.read_only_reason
    with pytest.raises(StoreError):
        notes.set_status(["c"], "read")
    path.write_bytes(good)  # fixed
    time.sleep(0.01)
    notes.flush()
    assert notes.last_save_error is None and errors[-1] is None
    assert set(_on_disk(tmp_path)) == {"a", "b"}
    notes.close()


def test_library_wires_annotations_into_extras_and_the_index(library: Library) -> None:
    paper = next(library.papers())
    library.annotations.add_tags([paper.id], ["triage-me"])
    library.annotations.set_status([paper.id], "to-read")
    library.create_list("Reading group")
    library.add_to_list("reading group", [paper.id])
    extras = library.detail(paper.id).as_json()
    assert extras == {"status": "to-read", "starred": False, "tags": ["triage-me"],
                      "note": "", "lists": ["Reading group"], "also_in": []}
    assert [h.paper.id for h in library.search("tag:triage-me").hits] == [paper.id]
    assert library.orphans() == []
    library.annotations.set_status(["gone-paper-1234"], "read")
    assert library.orphans() == ["gone-paper-1234"]


def test_an_index_rebuild_carries_the_annotations(library_dir: Path) -> None:
    lib = Library.open(library_dir)
    paper = next(lib.papers())
    lib.annotations.add_tags([paper.id], ["kept"])
    lib.close()
    shutil.rmtree(library_dir / "index")
    again = Library.open(library_dir)
    assert [h.paper.id for h in again.search("tag:kept").hits] == [paper.id]
    again.close()


def test_hand_edits_made_while_closed_reach_search(library_dir: Path) -> None:
    lib = Library.open(library_dir)
    paper_id = next(lib.papers()).id
    lib.annotations.add_tags([paper_id], ["before"])
    lib.close()
    path = library_dir / "annotations.yaml"
    path.write_text(path.read_text().replace("- before", "- after"))
    lib = Library.open(library_dir)
    assert [h.paper.id for h in lib.search("tag:after").hits] == [paper_id]
    assert lib.search("tag:before").hits == []
    lib.close()


def test_a_file_in_another_layout_is_prepared_in_the_background(tmp_path: Path) -> None:
    """Records read from a hand-written layout get their text emitted while idle, so the
    first save after a change does not have to emit them all."""
    (tmp_path / "annotations.yaml").write_text(
        "version: 1\npapers: {" + ", ".join(f"p{i}: {{status: read}}" for i in range(300))
        + "}\n")
    notes = Annotations(tmp_path)
    assert notes.get("p7").status == "read"
    deadline = time.time() + 3
    while len(notes.store._fragments) < 300 and time.time() < deadline:
        time.sleep(0.05)
    assert len(notes.store._fragments) == 300
    notes.set_status(["p7"], "skipped")
    notes.flush()
    assert _on_disk(tmp_path)["p7"] == {"status": "skipped",
                                        "updated": notes.get("p7").updated}
    assert len(_on_disk(tmp_path)) == 300
    notes.close()


def test_tag_counts_follow_every_change(tmp_path: Path) -> None:
    notes = Annotations(tmp_path)
    notes.add_tags(["a", "b"], ["ML"])
    counts = notes.tag_counts()
    assert counts == {"ML": 2}
    counts["ML"] = 99  # the caller's copy
    assert notes.tag_counts() == {"ML": 2}
    notes.remove_tags(["a"], ["ml"])
    assert notes.tag_counts() == {"ML": 1}
    notes.flush()
    other = Annotations(tmp_path)  # another process
    other.add_tags(["c", "d"], ["ml", "new"])
    other.close()
    notes.store.refresh()
    assert notes.tag_counts() == {"ML": 3, "new": 2}
    notes.close()
