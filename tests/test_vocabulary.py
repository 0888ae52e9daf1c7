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


def test_what_the_venue_says_in_words() -> None:
    from paper_tui.model import Paper
    from paper_tui.vocabulary import (
        number,
        rating_words,
        sort_value,
        venue_words,
    )

    assert [number(x) for x in (6.0, 6.5, 6.75, 20 / 3, 0.433)] == \
        ["6.0", "6.5", "6.75", "6.67", "0.43"]
    paper = Paper("p", "T", "A", decision="oral", decision_text="Oral",
                  ratings=(6, 7, 7, 7), rating=6.75, rating_spread=0.433, confidence=4.0,
                  citations=312, citations_date="2026-12-01", area="RL", award=True)
    assert venue_words(paper) == ["Oral", "μ 6.75 ± 0.43 (6 7 7 7; confidence 4.0)",
                                  "312 citations (2026-12-01)", "award", "area: RL"]
    assert sort_value(paper, "rating") == "μ 6.75"
    assert sort_value(paper, "consensus") == "μ 6.75 ± 0.43"
    assert sort_value(paper, "citations") == "312 cites"
    assert sort_value(paper, "year") == ""
    unknown = Paper("q", "T", "A", decision="accept", citations=0)
    assert venue_words(unknown) == ["Accepted", "0 citations"]  # 0 is known, never unknown
    assert rating_words(unknown) == "" and sort_value(unknown, "rating") == ""
    assert venue_words(Paper("r", "T", "A")) == []
