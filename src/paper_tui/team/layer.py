"""The team layer: what the other members of the team did, read-only, for search and show.

Read from their files in the team work tree (``people/<name>.yaml``), each parsed once and
again only when it changes on disk (after a sync).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from paper_tui.errors import PaperTuiError
from paper_tui.team import repo

TeamRecord = dict[str, Any]
"""``{"status": str, "starred": bool, "tags": [str], "note": str}``"""


class Team:
    def __init__(self, library_root: Path) -> None:
        self.people = library_root / repo.TEAM_DIR / repo.PEOPLE
        try:
            self.me = repo.State.load(library_root).name
        except PaperTuiError:
            self.me = None
        self._files: dict[str, tuple[tuple[int, int, int], dict[str, TeamRecord]]] = {}
        self.problems: dict[str, str] = {}  # member -> why their file could not be read

    def members(self) -> list[str]:
        """The other members with a file in the team repo, by name."""
        try:
            names = [p.stem for p in self.people.glob("*.yaml")]
        except OSError:
            return []
        return sorted(n for n in names if n != self.me)

    def annotations_of(self, name: str) -> dict[str, TeamRecord]:
        """A member's triage: paper id -> record (empty when unknown or unreadable)."""
        path = self.people / f"{name}.yaml"
        try:
            st = os.stat(path)
        except OSError:
            self._files.pop(name, None)
            return {}
        identity = (st.st_ino, st.st_mtime_ns, st.st_size)
        cached = self._files.get(name)
        if cached is not None and cached[0] == identity:
            return cached[1]
        try:
            records = repo.read(path.read_text("utf-8"), path, repo.PEOPLE_SCHEMA).records
        except (PaperTuiError, OSError, UnicodeDecodeError) as exc:
            self.problems[name] = str(exc)
            records = {}
        else:
            self.problems.pop(name, None)
        out = {pid: {"status": r.get("status", "new"), "starred": r.get("starred", False),
                     "tags": list(r.get("tags", ())), "note": r.get("note", "")}
               for pid, r in records.items()}
        self._files[name] = (identity, out)
        return out

    def annotators(self, paper_id: str) -> dict[str, TeamRecord]:
        """The other members who annotated a paper, with what they did."""
        out = {}
        for name in self.members():
            record = self.annotations_of(name).get(paper_id)
            if record is not None:
                out[name] = record
        return out
