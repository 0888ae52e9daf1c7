"""Reading lists: create, rename, delete, describe, add, remove, reorder, and on disk."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from paper_tui.errors import StoreError
from paper_tui.store import Annotations, ReadingList, ReadingLists


@pytest.fixture
def service(tmp_path: Path):
    notes = Annotations(tmp_path)
    yield notes
    notes.close()


@pytest.fixture
def lists(service: Annotations) -> ReadingLists:
    return service.lists


def test_create_add_reorder_remove(lists: ReadingLists) -> None:
    created = lists.create("  Week   1 ", "for the reading group")
    assert created.name == "Week 1"
    assert lists.add("week 1", ["p1", "p2", "p3", "p2"]) == 3
    assert lists.add("Week 1", ["p3", "p4"]) == 1
    lists.move("Week 1", "p4", 0)
    assert lists.get("Week 1").ids == ("p4", "p1", "p2", "p3")
    lists.move("Week 1", "p4", 99)
    assert lists.get("Week 1").ids == ("p1", "p2", "p3", "p4")
    assert lists.remove("Week 1", ["p2", "absent"]) == 1
    assert lists.get("week 1") == ReadingList("Week 1", "for the reading group",
                                              ("p1", "p3", "p4"), lists.get("Week 1").updated)
    assert lists.lists_of("p3") == ["Week 1"]
    with pytest.raises(StoreError, match="not in the list"):
        lists.move("Week 1", "p2", 0)


def test_rename_describe_delete(lists: ReadingLists) -> None:
    lists.create("a")
    lists.create("B")
    lists.add("a", ["p1"])
    with pytest.raises(StoreError, match="already a reading list named 'B'"):
        lists.rename("a", "b")
    lists.rename("a", "A")  # a change of case is a rename
    lists.rename("A", "Alpha")
    lists.describe("Alpha", "line one\nline two  \n")
    assert [rl.name for rl in lists.all()] == ["Alpha", "B"]
    assert lists.get("alpha").description == "line one\nline two"
    assert lists.lists_of("p1") == ["Alpha"]
    lists.delete("alpha")
    assert lists.get("Alpha") is None
    assert lists.lists_of("p1") == []
    for bad in ("", "   ", "x" * 101):
        with pytest.raises(StoreError):
            lists.create(bad)
    with pytest.raises(StoreError, match="no reading list named 'nope'"):
        lists.add("nope", ["p1"])


def test_undo_covers_list_changes(service: Annotations, lists: ReadingLists) -> None:
    lists.create("L", "desc")
    lists.add("L", ["p1", "p2"])
    lists.rename("L", "M")
    lists.delete("M")
    assert service.undo() == "delete list “M”"
    assert lists.get("M").ids == ("p1", "p2")
    assert service.undo() == "rename list “L” to “M”"
    assert lists.get("M") is None and lists.get("L").description == "desc"
    assert service.undo() == "add 2 papers to “L”"
    assert lists.get("L").ids == ()


def test_lists_on_disk_keep_order_and_quote_ids(service: Annotations, lists: ReadingLists,
                                                tmp_path: Path) -> None:
    lists.create("To read", "multi\nline: description")
    lists.add("To read", ["2401.10010", "b", "a"])
    service.flush()
    text = (tmp_path / "reading-lists.yaml").read_text()
    assert '    - "2401.10010"\n    - "b"\n    - "a"\n' in text
    data = yaml.safe_load(text)
    assert data["lists"]["To read"]["papers"] == ["2401.10010", "b", "a"]
    assert data["lists"]["To read"]["description"] == "multi\nline: description"
    again = Annotations(tmp_path)
    assert again.lists.get("To read").ids == ("2401.10010", "b", "a")
    again.close()


def test_two_instances_adding_to_one_list_keep_both(tmp_path: Path) -> None:
    first = Annotations(tmp_path)
    first.lists.create("shared")
    first.flush()
    second = Annotations(tmp_path)
    first.lists.add("shared", ["from-first"])
    second.lists.add("shared", ["from-second"])
    first.flush()
    second.flush()
    first.lists.store.refresh()
    assert set(first.lists.get("shared").ids) == {"from-first", "from-second"}
    first.close()
    second.close()
