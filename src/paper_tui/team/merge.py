"""Merging team files field by field, never by lines: git's merge driver and sync use it.

The store's three-way :func:`~paper_tui.store.merge.merge_record` does the work (tags and
list members: a union with explicit removals honoured; status, star, note: the latest
change by its time stamp), with one exception for people: a note both sides edited keeps
both texts, older first, rather than losing one (lines both added at its end: both
additions, once each). A record one side lacks is no change. No conflict marker ever lands
in a file: when a side cannot be read, the driver leaves our file as it was and says why.
"""

from __future__ import annotations

import sys
from pathlib import Path

from paper_tui.errors import StoreError
from paper_tui.store.merge import add_lines, added_lines, merge_record, stamp_time
from paper_tui.store.schema import Record, Schema
from paper_tui.team import repo

NOTE_BREAK = "\n\n"


def merge_one(schema: Schema, base: Record | None, ours: Record | None,
              theirs: Record | None) -> Record | None:
    """Three-way merge of one record, each side's time being its ``updated`` stamp."""
    our_time = stamp_time((ours or {}).get("updated"))
    merged = merge_record(schema, base, ours, theirs, our_time)
    if merged is None or schema.field("note") is None or not ours or not theirs:
        return merged
    b = (base or {}).get("note", "")
    o, t = ours.get("note", ""), theirs.get("note", "")
    if b in (o, t) or o == t:
        return merged
    if o in t or t in o:  # one side only added to the other's text
        merged["note"] = t if o in t else o
        return merged
    ours_first = our_time <= stamp_time(theirs.get("updated"))
    ours_added, theirs_added = added_lines(b, o), added_lines(b, t)
    if b and ours_added is not None and theirs_added is not None:  # both appended to it
        first, then = (ours_added, theirs_added) if ours_first else (theirs_added, ours_added)
        merged["note"] = add_lines(add_lines(b, first), then)
        return merged
    older, newer = (o, t) if ours_first else (t, o)
    merged["note"] = NOTE_BREAK.join(x for x in (older, newer) if x)
    return merged


def merge_records(schema: Schema, base: dict[str, Record], ours: dict[str, Record],
                  theirs: dict[str, Record]) -> dict[str, Record]:
    """Two versions of a file's records merged. A record one side lacks is the other's:
    a file without it says nothing about it (a person clears a paper by a record with no
    field, never by leaving it out), so no merge ever empties a file."""
    out = {}
    for key in ours.keys() | theirs.keys():
        o, t = ours.get(key), theirs.get(key)
        if o is None or t is None or o == t:
            merged = o if t is None else t
        else:
            merged = merge_one(schema, base.get(key), o, t)
        if merged is not None:
            out[key] = merged
    return out


def merge_texts(schema: Schema, base: str | None, ours: str | None, theirs: str | None,
                path: Path) -> str:
    """The merged text of a team file; :class:`StoreError` when a side cannot be read."""
    b, o, t = (repo.read(text, path, schema) for text in (base, ours, theirs))
    records = merge_records(schema, b.records, o.records, t.records)
    titles = {**t.titles, **o.titles}
    return repo.write(schema, records, titles, reuse=o)


def _text(path: str, repo_path: str) -> str | None:
    data = _bytes(path, repo_path)
    return None if data is None else data.decode("utf-8")


def _bytes(path: str, repo_path: str) -> bytes | None:
    """A side's bytes (None: absent, which git gives as an empty file)."""
    with open(path, "rb") as fh:
        data = fh.read(repo.MAX_BYTES + 1)
    if len(data) > repo.MAX_BYTES:
        raise StoreError(f"{repo_path}: more than the {repo.MAX_BYTES >> 20} MB a team file "
                         "may hold")
    return data or None


def run_driver(base: str, ours: str, theirs: str, repo_path: str) -> int:
    """``git merge``'s driver: %O %A %B %P. Writes the result over %A; 0 when merged.

    A source file (a paper list) both sides changed keeps ours: it is a whole file, and
    the paper ids of either version are stable, so nothing a member annotated is lost. A
    list's reviews: the newer fetch's; its rating history: both sides' points
    (:mod:`paper_tui.team.reviews`)."""
    from paper_tui.team import reviews

    if reviews.is_team_path(repo_path):
        try:
            sides = [_bytes(path, repo_path) for path in (ours, theirs)]
        except (StoreError, OSError) as exc:
            print(f"paper-tui merge-driver: cannot merge {repo_path}: {exc}", file=sys.stderr)
            return 1
        out = reviews.merged(repo_path, *sides)
        if out is not None and out != sides[0]:
            Path(ours).write_bytes(out)
        return 0
    schema = repo.schema_for(repo_path)
    if schema is None:
        return 0
    try:
        merged = merge_texts(schema, _text(base, repo_path), _text(ours, repo_path),
                             _text(theirs, repo_path), Path(repo_path))
    except (StoreError, OSError, UnicodeDecodeError) as exc:
        print(f"paper-tui merge-driver: cannot merge {repo_path}: {exc}", file=sys.stderr)
        return 1
    Path(ours).write_text(merged, "utf-8")
    return 0
