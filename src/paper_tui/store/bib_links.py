"""Reading lists linked to ``.bib`` files (``paper-tui lists bib NAME FILE``): kept in
``bib-links.yaml`` in the library, written as the other store files are (atomic, locked,
merged). A file's path belongs to one machine: the links are never shared by team sync.

```yaml
# paper-tui: reading lists whose .bib file paper-tui keeps up to date.
version: 1
links:
  reading group:
    file: /home/ada/thesis/reading-group.bib
    updated: "2026-12-01T10:00:00Z"
```
"""

from __future__ import annotations

import time
from pathlib import Path

from paper_tui.store.file_store import YamlStore
from paper_tui.store.schema import Field, Schema

FILE_NAME = "bib-links.yaml"
SCHEMA = Schema(
    section="links",
    title="linked .bib files",
    what="list name",
    fields=(Field("file", "text"),),
    implicit=False,
    header="# paper-tui: reading lists whose .bib file paper-tui keeps up to date.\n",
)


class BibLinks:
    """List name -> the ``.bib`` file (an absolute path) that follows it."""

    def __init__(self, root: Path) -> None:
        self.store = YamlStore(root / FILE_NAME, SCHEMA)

    @property
    def version(self) -> int:
        return self.store.version

    def all(self) -> dict[str, Path]:
        return {name: Path(str(record["file"]))
                for name, record in sorted(self.store.snapshot().items())
                if record.get("file")}

    def link(self, name: str, file: Path) -> None:
        self.store.put(name, {"file": str(file)}, time.time())
        self.store.save()

    def unlink(self, name: str) -> Path | None:
        """Drop the link of list ``name``; the file it had, None when it had none."""
        had = self.all().get(name)
        if had is not None:
            self.store.put(name, None, time.time())
            self.store.save()
        return had

    def refresh(self) -> None:
        self.store.refresh()
