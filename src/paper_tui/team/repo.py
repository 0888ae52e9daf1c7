"""The team repository: a git work tree at ``<library>/team/`` that a person can read.

- ``people/<name>.yaml``: one member's own triage (status, star, tags, note) in the
  annotation store's YAML, one paper per block, sorted by id, the paper's title as a
  comment beside its id, so ``git log -p`` reads like a changelog;
- ``lists.yaml``: the team's shared reading lists (the reading-list store's YAML);
- ``citekeys.yaml``: the citation keys given out on any member's machine, so a paper is
  cited under one key by the whole team (the older key wins a merge);
- ``sources/``: the paper lists members imported, as the files they imported (so every
  library derives the same stable paper ids from them);
- ``.gitattributes``: routes those files to paper-tui's merge driver.

What this library last agreed on with the repo lives beside it, in ``<library>/team.json``.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field, replace
from pathlib import Path

from paper_tui import atomic
from paper_tui.errors import PaperTuiError
from paper_tui.store.annotations import SCHEMA as ANNOTATION_SCHEMA
from paper_tui.store.citekeys import SCHEMA as CITEKEY_SCHEMA
from paper_tui.store.reading_lists import SCHEMA as LIST_SCHEMA
from paper_tui.store.schema import Record, Schema, words
from paper_tui.store.yaml_format import emit_fragments, parse, render

TEAM_DIR = "team"
STATE_FILE = "team.json"
PEOPLE = "people"
LISTS = "lists.yaml"
CITEKEYS = "citekeys.yaml"
SOURCES = "sources"
DRIVER = "paper-tui"
ATTRIBUTES = (f"# paper-tui merges these field by field (see `paper-tui merge-driver`).\n"
              f"{PEOPLE}/*.yaml merge={DRIVER}\n{LISTS} merge={DRIVER}\n"
              f"{CITEKEYS} merge={DRIVER}\n"
              f"{SOURCES}/** merge={DRIVER} -text\n")

PEOPLE_SCHEMA = replace(ANNOTATION_SCHEMA, header=(
    "# paper-tui: one team member's triage, written by `paper-tui sync`.\n"
    "# One paper per block, by id; the title is a comment beside the id.\n"))
LISTS_SCHEMA = replace(LIST_SCHEMA, header=(
    "# paper-tui: the team's shared reading lists, written by `paper-tui sync`.\n"))
CITEKEYS_SCHEMA = replace(CITEKEY_SCHEMA, header=(
    "# paper-tui: the citation keys given out in the team, written by `paper-tui sync`.\n"))

_NAME = re.compile(r"[a-z0-9][a-z0-9._-]{0,39}")
_TITLED_KEY = re.compile(r'^(  "([^"\\\n]*)":)  # ([^\n]*)$', re.MULTILINE)


def check_name(name: str) -> str:
    """A member's name as used for their file: lower-case letters, digits, ``.-_``."""
    clean = name.strip().lower()
    if not _NAME.fullmatch(clean):
        raise PaperTuiError(f"team name {name!r}: use 1-40 lower-case letters, digits, "
                            "'.', '-' or '_' (it names your file people/NAME.yaml)")
    return clean


def person_file(name: str) -> str:
    return f"{PEOPLE}/{name}.yaml"


def schema_for(repo_path: str) -> Schema | None:
    """The schema of a file in the team repo (by its path there); None for sources."""
    if repo_path == LISTS:
        return LISTS_SCHEMA
    if repo_path == CITEKEYS:
        return CITEKEYS_SCHEMA
    if repo_path.startswith(f"{PEOPLE}/") and repo_path.endswith(".yaml"):
        return PEOPLE_SCHEMA
    return None


# -- the files' text -----------------------------------------------------------------------
@dataclass
class TeamFile:
    """A people or lists file: its records, the titles beside ids, reusable record text."""

    records: dict[str, Record] = field(default_factory=dict)
    titles: dict[str, str] = field(default_factory=dict)
    fragments: dict[str, str] = field(default_factory=dict)


def read(text: str | None, path: Path, schema: Schema) -> TeamFile:
    """Parse a team file (None: absent, empty); :class:`StoreError` names file:line."""
    if text is None:
        return TeamFile()
    titles: dict[str, str] = {}

    def untitle(match: re.Match[str]) -> str:
        titles[match.group(2)] = match.group(3)
        return match.group(1)

    parsed = parse(_TITLED_KEY.sub(untitle, text), path, schema)
    return TeamFile(parsed.records, titles, parsed.fragments)


def write(schema: Schema, records: dict[str, Record], titles: dict[str, str],
          reuse: TeamFile | None = None) -> str:
    """The file's text: records sorted by key, each with its title when one is known.

    A record unchanged since ``reuse`` (the file as read) keeps its text, not emitted again."""
    keys = sorted(records)
    bare = {}
    if reuse is not None:
        bare = {k: reuse.fragments[k] for k in keys
                if k in reuse.fragments and reuse.records.get(k) == records[k]}
    bare.update(emit_fragments(schema, [(k, records[k]) for k in keys if k not in bare]))
    fragments = {}
    for key in keys:
        title = words(titles.get(key, ""))
        first, rest = bare[key].split("\n", 1)
        if title and first.endswith('":'):
            first = f"{first}  # {title}"
        fragments[key] = f"{first}\n{rest}"
    return render(schema, keys, fragments)


# -- what this library agreed on with the repo ---------------------------------------------
@dataclass
class State:
    """``<library>/team.json``: who this library is in the team, and sync bookkeeping."""

    name: str | None = None
    agreed: str | None = None  # the commit whose files the local stores last took in
    sources: dict[str, str] = field(default_factory=dict)  # file -> checksum last exchanged
    unsent: int = 0  # changes committed here and not yet pushed
    driver: str = ""  # the merge-driver command configured in the repo

    @classmethod
    def load(cls, library: Path) -> State:
        path = library / STATE_FILE
        try:
            raw = json.loads(path.read_text("utf-8"))
        except FileNotFoundError:
            return cls()
        except (OSError, ValueError) as exc:
            raise PaperTuiError(f"{path}: unreadable ({exc}); fix or delete it (the team "
                                "repo keeps everything shared)") from None
        if not isinstance(raw, dict):
            raise PaperTuiError(f"{path}: expected a JSON object; fix or delete it")
        return cls(name=raw.get("name"), agreed=raw.get("agreed"),
                   sources=dict(raw.get("sources") or {}), unsent=int(raw.get("unsent") or 0),
                   driver=str(raw.get("driver") or ""))

    def save(self, library: Path) -> None:
        atomic.write_text(library / STATE_FILE, json.dumps(
            {"name": self.name, "agreed": self.agreed, "sources": self.sources,
             "unsent": self.unsent, "driver": self.driver}, indent=1) + "\n")
