"""Citation keys once given out (cited, copied, exported, written to a linked ``.bib``):
``citekeys.yaml`` in the library, one record per paper, written as the other store files
are (atomic, locked, merged; shared by team sync).

A key given out never changes: new keys are chosen and saved in one transaction under the
file's lock (:meth:`CiteKeys.give`), so two processes never give one key to two papers,
and when two machines gave one paper two keys before a sync, the merge keeps the one given
first (``Schema.oldest_wins``). Two machines that gave one key to two different papers
before a sync is the one case a key must move: the paper that got it first keeps it.

```yaml
# paper-tui citation keys: once given out, a paper keeps its key.
version: 1
keys:
  "neurips2018-bcd94ae565":
    key: zhang2018l1
    updated: "2026-12-01T10:00:00Z"
```
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from pathlib import Path

from paper_tui.store.file_store import YamlStore
from paper_tui.store.merge import stamp_time
from paper_tui.store.schema import Field, Schema

FILE_NAME = "citekeys.yaml"
SCHEMA = Schema(
    section="keys",
    title="citation keys",
    what="paper id",
    fields=(Field("key", "text"),),
    implicit=False,
    header="# paper-tui citation keys: once given out, a paper keeps its key.\n",
    oldest_wins=True,
)

Assign = Callable[[Mapping[str, str]], Mapping[str, str]]
"""``assign(given)``: the keys for a batch (paper id -> key), keeping those in ``given``."""


class CiteKeys:
    """The keys given out in a library (``<library>/citekeys.yaml``)."""

    def __init__(self, root: Path) -> None:
        self.store = YamlStore(root / FILE_NAME, SCHEMA)

    @property
    def version(self) -> int:
        """Changes whenever a key is given out here or read from the file."""
        return self.store.version

    def given(self) -> dict[str, str]:
        """Paper id -> its key. Of two papers holding one key (ignoring case), which only
        two machines syncing can cause, the one that got it first keeps it."""
        records = self.store.snapshot()
        owners: dict[str, str] = {}
        for paper_id in sorted(records, key=lambda pid: (
                stamp_time(records[pid].get("updated")), pid)):
            key = str(records[paper_id].get("key") or "")
            if key:
                owners.setdefault(key.lower(), paper_id)
        return {pid: str(records[pid]["key"]) for pid in owners.values()}

    def give(self, assign: Assign) -> dict[str, str]:
        """The keys ``assign`` chooses for a batch, knowing every key given out so far,
        and those it added remembered, all under the file's lock: StoreError when the file
        cannot be read or written (the keys are not handed out then)."""
        self.store.refresh()
        given = self.given()
        keys = dict(assign(given))
        if all(given.get(pid) == key for pid, key in keys.items()):
            return keys  # nothing new: no lock, no write
        with self.store.transaction():
            given = self.given()
            keys = dict(assign(given))
            now = time.time()
            for paper_id, key in keys.items():
                if given.get(paper_id) != key:
                    self.store.put(paper_id, {"key": key}, now)
            self.store.save()
        return keys

    def refresh(self) -> None:
        """Take in what another process or a sync wrote."""
        self.store.refresh()
