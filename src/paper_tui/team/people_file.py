"""A member's people file as the team layer holds it: the records, and each paper's block
of text, so that reading the file again after a sync parses only the blocks that changed.

The app reads the members' files in a worker thread, sharing the interpreter with the
reader's keys: a sync that brings 1,000 changes into a file of 10,000 papers parses 1,000
blocks (about 6 ms), not the whole file again (about 37 ms).

A block holding no field (only its time stamp) is a paper the member cleared: it says so
to the member's other machines (a paper missing from the file says nothing), and shows
as nothing here.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from paper_tui.errors import StoreError
from paper_tui.store.annotations import Annotation
from paper_tui.team import repo

TeamRecord = Annotation
"""What a member did with a paper: status, star, tags, note (and when, ``updated``)."""

_PAPERS = "\npapers:\n"
_BLOCK = '\n  "'  # a paper's block starts a line with its id in quotes, as a sync writes it


@dataclass(frozen=True)
class PeopleFile:
    parsed: dict[str, TeamRecord]
    """Every block's record, those of cleared papers (no field) too."""
    head: str = ""
    blocks: dict[str, str] | None = None
    """Paper id -> its block's text; None when the file is not in the layout a sync writes
    (a hand edit): then it is parsed whole each time."""
    records: dict[str, TeamRecord] = field(init=False, repr=False, compare=False)
    """The papers the member annotated (status, star, tags or note)."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "records", {k: r for k, r in self.parsed.items()
                                             if _annotated(r)})


def _annotated(record: TeamRecord) -> bool:
    return record.status != "new" or record.starred or bool(record.tags) or bool(record.note)


def read(text: str, path: Path, before: PeopleFile | None = None) -> PeopleFile:
    """The file's records. The blocks whose text is as in ``before`` keep their records
    unparsed. Raises :class:`StoreError` naming file:line when the file is invalid."""
    head, blocks = _split(text)
    if blocks is not None and len(blocks) > repo.MAX_RECORDS:
        raise StoreError(f"{path}: {len(blocks):,} papers, more than the "
                         f"{repo.MAX_RECORDS:,} a team file may hold")
    if (blocks is not None and before is not None and before.blocks is not None
            and head == before.head):
        changed = [key for key, block in blocks.items() if before.blocks.get(key) != block]
        part = head + _PAPERS + "".join(f'  "{blocks[key]}\n' for key in changed)
        try:
            parsed = _records(part, path) if changed else {}
        except StoreError:
            parsed = None  # the whole file is read again, for the error's true line
        if parsed is not None and parsed.keys() == set(changed):
            records = {key: parsed[key] if key in parsed else before.parsed[key]
                       for key in blocks}
            return PeopleFile(records, head, blocks)
    records = _records(text, path)
    if blocks is not None and records.keys() != blocks.keys():
        blocks = None  # not one record per block: never reuse a block of this file
    return PeopleFile(records, head, blocks)


def record_of(text: str, path: Path, paper_id: str) -> TeamRecord | None:
    """One paper's record in a member's file (None: not there), as :func:`read` would give
    it. ``show`` needs one paper of each member: in the layout a sync writes, only that
    paper's block is parsed (finding it costs about what reading the file does), so a
    member with 200,000 papers costs ``show`` milliseconds, not seconds. Anything else (a
    hand edit, an error, a file over :data:`~.repo.MAX_RECORDS`) goes through :func:`read`."""
    head, sep, body = text.partition(_PAPERS)
    if sep and body.startswith('  "') and not any(c in paper_id for c in '"\\\n'):
        body = "\n" + body
        keys = body.count("\n  ") - body.count("\n   ")  # lines holding a paper's id
        if keys <= repo.MAX_RECORDS:
            if paper_id not in body:
                return None
            start = body.find(f'{_BLOCK}{paper_id}":')
            end = body.find(_BLOCK, start + 1) if start >= 0 else -1
            block = body[start + 1:end] + "\n" if end >= 0 else body[start + 1:]
            if start >= 0 and not block.endswith("\n...\n"):
                try:
                    found = _records(head + _PAPERS + block, path)
                except StoreError:
                    found = {}  # the whole file is read, for the error's true line
                if found.keys() == {paper_id}:
                    return found[paper_id] if _annotated(found[paper_id]) else None
    return read(text, path).records.get(paper_id)


def _split(text: str) -> tuple[str, dict[str, str] | None]:
    head, sep, body = text.partition(_PAPERS)
    if not sep or not body.startswith('  "') or not body.endswith("\n"):
        return head, None
    if body.endswith("\n...\n"):  # YAML's document end (written after a note in |+ style)
        body = body[:-4]
    parts = ("\n" + body[:-1]).split(_BLOCK)[1:]
    blocks = {part[:part.find('"')]: part for part in parts}
    return head, blocks if len(blocks) == len(parts) else None


def _records(text: str, path: Path) -> dict[str, TeamRecord]:
    return {pid: TeamRecord(r.get("status", "new"), r.get("starred", False),
                            tuple(r.get("tags", ())), r.get("note", ""), r.get("updated"))
            for pid, r in repo.read(text, path, repo.PEOPLE_SCHEMA).records.items()}
