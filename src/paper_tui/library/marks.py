"""The reader's marks and reading lists as :class:`~paper_tui.library.Library` offers them:
one-line calls into the annotation store (:mod:`paper_tui.store`), which holds the rules.

A change is made in memory and saved off the caller's path (:meth:`ReaderMarks.flush` waits
for it); the next search sees it at once. A change to one version of a paper is made to all.
A list is named ignoring case and spacing; its changes are saved and undone as marks are.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

from paper_tui.store import Annotation, Annotations, ReadingList


class ReaderMarks:
    """The part of the library's door that hands the reader's marks and lists to the store
    (:class:`~paper_tui.library.Library` is one; it sets :attr:`annotations`)."""

    annotations: Annotations

    def annotation(self, paper_id: str) -> Annotation:
        """The reader's marks on a paper (all defaults when it has none)."""
        return self.annotations.get(paper_id)

    def set_status(self, ids: Sequence[str], status: str) -> None:
        """Set the triage status (one of :data:`~paper_tui.vocabulary.STATUSES`)."""
        self.annotations.set_status(ids, status)

    def set_starred(self, ids: Sequence[str], starred: bool) -> None:
        """Star (``starred``) or unstar papers."""
        self.annotations.set_starred(ids, starred)

    def toggle_star(self, ids: Sequence[str]) -> bool:
        """Star all of ``ids`` unless all are starred (then unstar); True when starred now."""
        return self.annotations.toggle_star(ids)

    def add_tags(self, ids: Sequence[str], tags: Iterable[str]) -> None:
        """Add tags (split at commas, matched ignoring case: an existing spelling wins)."""
        self.annotations.add_tags(ids, tags)

    def remove_tags(self, ids: Sequence[str], tags: Iterable[str]) -> None:
        """Take tags off papers (matched ignoring case)."""
        self.annotations.remove_tags(ids, tags)

    def set_note(self, paper_id: str, text: str) -> None:
        """Replace the note ("" clears it)."""
        self.annotations.set_note(paper_id, text)

    def append_note(self, paper_id: str, text: str) -> None:
        """Add ``text`` to the note, on a line of its own."""
        self.annotations.append_note(paper_id, text)

    def undo(self) -> str | None:
        """Undo the last change to marks or lists (of the last 100); what it was, or None."""
        return self.annotations.undo()

    @property
    def read_only_reason(self) -> str | None:
        """Why annotations cannot be changed now (a broken file), None when they can."""
        return self.annotations.read_only_reason

    def flush(self) -> None:
        """Block until every change is on disk (:class:`StoreError` if it cannot be)."""
        self.annotations.flush()

    def tag_counts(self) -> dict[str, int]:
        """Every tag with how many papers carry it, most used first."""
        return self.annotations.tag_counts()

    def on_save_outcome(self, callback: Callable[[str | None], None]) -> None:
        """``callback(error)`` when saving fails or works again (None); the saver's thread."""
        self.annotations.add_save_listener(callback)

    def on_changed_elsewhere(self, callback: Callable[[set[str]], None]) -> None:
        """``callback(paper_ids)`` when marks or lists changed elsewhere; the saver's thread."""
        self.annotations.add_change_listener(callback)

    def reading_lists(self) -> list[ReadingList]:
        """Every reading list, by name (ignoring case)."""
        return self.annotations.lists.all()

    def reading_list(self, name: str) -> ReadingList | None:
        """The list of that name, None when there is none."""
        return self.annotations.lists.get(name)

    def lists_of(self, paper_id: str) -> tuple[str, ...]:
        """The names of the lists holding a paper."""
        return tuple(self.annotations.lists.lists_of(paper_id))

    def create_list(self, name: str, description: str = "") -> ReadingList:
        """A new, empty list (:class:`StoreError` when the name is taken or empty)."""
        return self.annotations.lists.create(name, description)

    def add_to_list(self, name: str, ids: Sequence[str]) -> int:
        """Append papers not in the list yet; how many were added."""
        return self.annotations.lists.add(name, ids)

    def remove_from_list(self, name: str, ids: Iterable[str]) -> int:
        """Take papers out of a list; how many were in it."""
        return self.annotations.lists.remove(name, ids)

    def move_in_list(self, name: str, paper_id: str, position: int) -> None:
        """Move a paper to ``position`` (0-based, clamped to the list)."""
        self.annotations.lists.move(name, paper_id, position)

    def describe_list(self, name: str, text: str) -> None:
        """Set a list's description ("" clears it)."""
        self.annotations.lists.describe(name, text)
