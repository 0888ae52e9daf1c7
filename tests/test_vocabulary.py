"""The words both fronts use, spelled once: counts, status labels, a paper's marks."""

from __future__ import annotations

from paper_tui import vocabulary
from paper_tui.store import STATUSES, Annotation
from paper_tui.vocabulary import count, mark_words, member_marks, status_label


def test_counts() -> None:
    assert count(1, "paper") == "1 paper"
    assert count(0, "hit") == "0 hits"
    assert count(87549, "paper") == "87,549 papers"
    assert count(2, "annotated or listed id") == "2 annotated or listed ids"
    assert count(3, "entry", "entries") == "3 entries"


def test_statuses_have_a_label_and_a_mark() -> None:
    assert vocabulary.STATUSES == STATUSES  # the store's choices are these
    assert [status_label(s) for s in STATUSES] == ["new", "to read", "read", "skipped"]
    assert set(vocabulary.STATUS_MARKS) == set(STATUSES)
    assert vocabulary.SORTS[-1] == vocabulary.FOR_YOU


def test_a_papers_marks_on_the_command_line() -> None:
    assert mark_words(Annotation()) == ["new"]
    marked = Annotation("to-read", True, ("ML", "to discuss"), "a note")
    assert mark_words(marked, ["week"]) == ["to-read", "★", "tags: ML, to discuss",
                                            "lists: week", "note"]


def test_a_members_marks_in_a_few_words() -> None:
    assert member_marks(Annotation()) == ""
    assert member_marks(Annotation("skipped")) == "skipped"
    assert member_marks(Annotation("to-read", True, ("kernels", "rl"), "x")) == \
        "to read ★ #kernels #rl note"
