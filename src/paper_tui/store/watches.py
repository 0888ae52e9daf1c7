"""Watches: saved fetches with a query (``paper-tui watch add NAME SOURCE --query Q``),
kept in ``watches.yaml`` in the library with what each found last time, written as the
other store files are (atomic, locked, merged; a damaged file is one line, read-only until
fixed, never written over). The reader's own setting: never shared by team sync.

```yaml
# paper-tui watches: saved fetches and what each found last time.
version: 1
watches:
  cs.LG:
    source: arxiv:cs.LG
    query: diffusion
    reviews: false
    source_id: arxiv-cs.LG
    last_run: "2026-12-01T06:00:02Z"
    outcome: fetched
    new: "143"
    matched: "12"
    reported: "2026-12-01T06:00:02Z"
    updated: "2026-12-01T06:00:02Z"
```

``reported``: when the watch last said what was new (its last run that did not fail, or
when it was added); the papers of its source that arrived after that are new to its next
run, even those a failed or killed run imported. ``error``: the last run's failure, or why
its query could not be read. ``reviews``: its source (OpenReview) is fetched with
``--reviews`` (``watch add … --reviews``), whatever ``fetch.reviews`` says.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path

from paper_tui.query import ranges
from paper_tui.store.file_store import YamlStore
from paper_tui.store.merge import stamp, stamp_time
from paper_tui.store.schema import Field, Record, Schema

FILE_NAME = "watches.yaml"
OUTCOMES = ("never", "fetched", "unchanged", "failed")
"""What a watch's last run did (``never``: it has not run yet)."""
SCHEMA = Schema(
    section="watches",
    title="watches",
    what="watch name",
    fields=(Field("source", "text"), Field("query", "text"), Field("source_id", "text"),
            Field("last_run", "text"), Field("outcome", "choice", OUTCOMES),
            Field("new", "text"), Field("matched", "text"), Field("error", "text"),
            Field("reported", "text"), Field("reviews", "flag")),
    implicit=False,
    header="# paper-tui watches: saved fetches and what each found last time.\n",
)


@dataclass(frozen=True)
class Watch:
    """A saved fetch: a name, a SOURCE as ``paper-tui fetch`` takes it, a query the new
    papers are matched against ("" for none); and what its last run found."""

    name: str
    source: str
    query: str = ""
    source_id: str = ""
    """The library's source its fetches go into ("" before the first)."""
    last_run: float | None = None
    outcome: str = "never"
    new: int = 0
    """Papers the last run brought that the library did not hold."""
    matched: int | None = None
    """Of those, how many matched the query (None without a query)."""
    error: str = ""
    reported: float | None = None
    """When it last said what was new (see the module's doc); None: never."""
    reviews: bool = False
    """Fetch its source's reviews too (``fetch --reviews``)."""


@dataclass(frozen=True)
class WatchRun:
    """What one run of a watch found: its outcome, the new papers, those matching."""

    outcome: str
    source_id: str = ""
    new: int = 0
    matched: int | None = None
    error: str = ""


def _watch(name: str, record: Record) -> Watch:
    matched = str(record.get("matched") or "")
    return Watch(name, str(record.get("source") or ""), str(record.get("query") or ""),
                 str(record.get("source_id") or ""),
                 stamp_time(record.get("last_run")) or None,
                 str(record.get("outcome") or "never"), _count(record.get("new")),
                 _count(matched) if matched else None, str(record.get("error") or ""),
                 stamp_time(record.get("reported")) or None, record.get("reviews") is True)


def _count(value: object) -> int:
    """A count the file keeps; 0 for one that is not a count (hand-edited: ``²``, 5,000
    digits)."""
    try:
        return ranges.whole(str(value or "0"), 0, ranges.MAX_COUNT)
    except ranges.BadValue:
        return 0


class Watches:
    """The library's watches (``<library>/watches.yaml``), by name (matched ignoring
    case, kept as first written)."""

    def __init__(self, root: Path) -> None:
        self.store = YamlStore(root / FILE_NAME, SCHEMA)

    @property
    def version(self) -> int:
        """Changes whenever a watch is added, removed or run, here or in the file."""
        return self.store.version

    @property
    def problem(self) -> str | None:
        """Why the file cannot be changed (damaged: what is shown is its backup)."""
        self.store.ensure_loaded()
        return self.store.read_only_reason

    def refresh(self) -> None:
        """Pick up the file when another process changed it."""
        self.store.refresh()

    def all(self) -> list[Watch]:
        """Every watch, by name."""
        records = self.store.snapshot()
        return [_watch(name, records[name]) for name in sorted(records, key=str.casefold)]

    def get(self, name: str) -> Watch | None:
        wanted = name.casefold()
        return next((w for w in self.all() if w.name.casefold() == wanted), None)

    def add(self, watch: Watch) -> None:
        """Save a new watch (the caller checked that its name is free)."""
        now = time.time()
        record: dict[str, object] = {"source": watch.source, "query": watch.query,
                                     "reported": stamp(now)}
        if watch.reviews:
            record["reviews"] = True
        if watch.source_id:
            record["source_id"] = watch.source_id
        self.store.put(watch.name, record, now)
        self.store.save()

    def remove(self, name: str) -> Watch | None:
        """Drop the watch named ``name``; the watch it was, None when there is none."""
        found = self.get(name)
        if found is not None:
            self.store.put(found.name, None, time.time())
            self.store.save()
        return found

    def record_runs(self, runs: dict[str, WatchRun], at: float) -> None:
        """Keep what each watch's run found (one save for them all); a run that did not
        fail is when its watch last reported."""
        with self.store.transaction():
            for name, run in runs.items():
                record = self.store.get(name)
                if record is None:  # removed meanwhile
                    continue
                kept = dict(record)
                kept.pop("updated", None)
                kept.update(last_run=stamp(at), outcome=run.outcome, new=str(run.new),
                            matched="" if run.matched is None else str(run.matched),
                            error=run.error)
                if run.outcome != "failed":  # a failed run said nothing: its next one will
                    kept["reported"] = stamp(at)
                if run.source_id:
                    kept["source_id"] = run.source_id
                self.store.put(name, kept, at)
            self.store.save()
