"""A member's people file as the team layer holds it: the records, and each paper's block
of text, so that reading the file again after a sync parses only the blocks that changed.

The app reads the members' files in a worker thread, sharing the interpreter with the
reader's keys: a sync that brings 1,000 changes into a file of 10,000 papers parses 1,000
blocks (about 6 ms), not the whole file again (about 37 ms).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from paper_tui.errors import StoreError
from paper_tui.team import repo

TeamRecord = dict[str, Any]
"""``{"status": str, "starred": bool, "tags": [str], "note": str}``"""

_PAPERS = "\npapers:\n"
_BLOCK = '\n  "'  # a paper's block starts a line with its id in quotes, as a sync writes it


@dataclass(frozen=True)
class PeopleFile:
    records: dict[str, TeamRecord]
    head: str = ""
    blocks: dict[str, str] | None = None
    """Paper id -> its block's text; None when the file is not in the layout a sync writes
    (a hand edit): then it is parsed whole each time."""


def read(text: str, path: Path, before: PeopleFile | None = None) -> PeopleFile:
    """The file's records. The blocks whose text is as in ``before`` keep their records
    unparsed. Raises :class:`StoreError` naming file:line when the file is invalid."""
    head, blocks = _split(text)
    if (blocks is not None and before is not None and before.blocks is not None
            and head == before.head):
        changed = [key for key, block in blocks.items() if before.blocks.get(key) != block]
        part = head + _PAPERS + "".join(f'  "{blocks[key]}\n' for key in changed)
        try:
            parsed = _records(part, path) if changed else {}
        except StoreError:
            parsed = None  # the whole file is read again, for the error's true line
        if parsed is not None and parsed.keys() == set(changed):
            records = {key: parsed[key] if key in parsed else before.records[key]
                       for key in blocks}
            return PeopleFile(records, head, blocks)
    records = _records(text, path)
    if blocks is not None and records.keys() != blocks.keys():
        blocks = None  # not one record per block: never reuse a block of this file
    return PeopleFile(records, head, blocks)


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
    return {pid: {"status": r.get("status", "new"), "starred": r.get("starred", False),
                  "tags": list(r.get("tags", ())), "note": r.get("note", "")}
            for pid, r in repo.read(text, path, repo.PEOPLE_SCHEMA).records.items()}
