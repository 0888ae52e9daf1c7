"""The team repository: a git work tree at ``<library>/team/`` that a person can read.

- ``people/<name>.yaml``: one member's own triage (status, star, tags, note) in the
  annotation store's YAML, one paper per block, sorted by id, the paper's title as a
  comment beside its id, so ``git log -p`` reads like a changelog;
- ``lists.yaml``: the team's shared reading lists (the reading-list store's YAML);
- ``citekeys.yaml``: the citation keys given out on any member's machine, so a paper is
  cited under one key by the whole team (the older key wins a merge);
- ``assignments.yaml``: who reads which paper (``paper-tui team split``), one paper per
  block with its title beside the id, as the people files;
- ``sources/``: the paper lists members imported, as the files they imported (so every
  library derives the same stable paper ids from them);
- ``reviews/``: the reviews and rating history of those lists that have them
  (:mod:`paper_tui.team.reviews`);
- ``.gitattributes``: routes those files to paper-tui's merge driver.

What this library last agreed on with the repo lives beside it, in ``<library>/team.json``.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field, replace
from pathlib import Path

from paper_tui.errors import PaperTuiError
from paper_tui.query.team import RESERVED
from paper_tui.store.annotations import SCHEMA as ANNOTATION_SCHEMA
from paper_tui.store.citekeys import SCHEMA as CITEKEY_SCHEMA
from paper_tui.store.reading_lists import SCHEMA as LIST_SCHEMA
from paper_tui.store.schema import Field, Record, Schema, words
from paper_tui.store.yaml_format import emit_fragments, parse, render
from paper_tui.trust import atomic

TEAM_DIR = "team"
STATE_FILE = "team.json"
PEOPLE = "people"
LISTS = "lists.yaml"
CITEKEYS = "citekeys.yaml"
ASSIGNMENTS = "assignments.yaml"
SOURCES = "sources"
REVIEWS = "reviews"
DRIVER = "paper-tui"
ATTRIBUTES = (f"# paper-tui merges these field by field (see `paper-tui merge-driver`).\n"
              f"{PEOPLE}/*.yaml merge={DRIVER}\n{LISTS} merge={DRIVER}\n"
              f"{CITEKEYS} merge={DRIVER}\n"
              f"{ASSIGNMENTS} merge={DRIVER}\n"
              f"{SOURCES}/** merge={DRIVER} -text\n"
              f"{REVIEWS}/** merge={DRIVER} -text\n")

MAX_RECORDS = 200_000
"""The most papers (or lists) a team file may hold: more than any library's papers (the
87,549-paper corpus with its arXiv versions), far below what would make each ``show``
take seconds. A file with more is not read (its member is not shown; the sync goes on)."""
MAX_BYTES = 64 << 20
"""The most bytes a team file may hold (200,000 papers with titles and short notes take
about 40 MB); a bigger one is not read."""
PEOPLE_SCHEMA = replace(ANNOTATION_SCHEMA, max_records=MAX_RECORDS, header=(
    "# paper-tui: one team member's triage, written by `paper-tui sync`.\n"
    "# One paper per block, by id; the title is a comment beside the id.\n"))
LISTS_SCHEMA = replace(LIST_SCHEMA, max_records=MAX_RECORDS, header=(
    "# paper-tui: the team's shared reading lists, written by `paper-tui sync`.\n"))
CITEKEYS_SCHEMA = replace(CITEKEY_SCHEMA, header=(
    "# paper-tui: the citation keys given out in the team, written by `paper-tui sync`.\n"))
ASSIGNMENTS_SCHEMA = Schema(
    section="papers", title="assignments", what="paper id", fields=(Field("member", "text"),),
    implicit=False, max_records=MAX_RECORDS, header=(
        "# paper-tui: who reads which paper, written by `paper-tui team split`.\n"
        "# One paper per block, by id; the title is a comment beside the id. A block with\n"
        "# no member is a paper taken back (`paper-tui team unassign`).\n"))
"""Papers and the member each is assigned to; a record with no member (its time stamp
alone) says the paper was unassigned, so a merge with an older copy never brings the
assignment back."""

_NAME = re.compile(r"[a-z0-9][a-z0-9._-]{0,39}")
_TITLED_KEY = re.compile(r'^(  "([^"\\\n]*)":)  # ([^\n]*)$', re.MULTILINE)


def is_plain_name(name: str) -> bool:
    """Whether ``name`` can be a member's name (and name their file): 1-40 lower-case
    letters, digits, ``.-_``, not starting with a dot or dash."""
    return _NAME.fullmatch(name) is not None


def check_name(name: str) -> str:
    """A member's name as typed (``--as``), as used for their file."""
    clean = name.strip().lower()
    if not is_plain_name(clean):
        raise PaperTuiError(f"team name {name!r}: use 1-40 lower-case letters, digits, "
                            "'.', '-' or '_' (it names your file people/NAME.yaml)")
    if clean in RESERVED:
        raise PaperTuiError(f"team name {name!r} is taken by the query language "
                            f"(assigned:{clean}); choose another")
    return clean


def person_file(name: str) -> str:
    return f"{PEOPLE}/{name}.yaml"


def schema_for(repo_path: str) -> Schema | None:
    """The schema of a file in the team repo (by its path there); None for sources."""
    if repo_path == LISTS:
        return LISTS_SCHEMA
    if repo_path == CITEKEYS:
        return CITEKEYS_SCHEMA
    if repo_path == ASSIGNMENTS:
        return ASSIGNMENTS_SCHEMA
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
_COMMIT = re.compile(r"[0-9a-f]{40}([0-9a-f]{24})?")


@dataclass(frozen=True)
class Quarantined:
    """A paper list of the team's that failed to import, as it was then."""

    blob: str  # git's id of the file's content: a new version is tried again
    why: str  # the import's error, one line


@dataclass
class State:
    """``<library>/team.json``: who this library is in the team, and sync bookkeeping."""

    name: str | None = None
    agreed: str | None = None  # the commit whose files the local stores last took in
    sources: dict[str, str] = field(default_factory=dict)  # file -> checksum last exchanged
    unsent: int = 0  # changes committed here and not yet pushed
    quarantined: dict[str, Quarantined] = field(default_factory=dict)
    """Paper lists of the team that failed to import, by file name (skipped until the file
    changes or leaves the repo)."""
    importing: dict[str, str] = field(default_factory=dict)
    """The paper list a sync is importing (file -> its git blob), saved before and cleared
    after: left behind, it names the list that stopped the sync (killed, out of memory)."""

    @classmethod
    def load(cls, library: Path) -> State:
        """The file's state; :class:`PaperTuiError` naming the file and key when it is
        not what a sync writes."""
        path = library / STATE_FILE
        try:
            raw = json.loads(path.read_text("utf-8"))
        except FileNotFoundError:
            return cls()
        except (OSError, ValueError, RecursionError) as exc:
            raise PaperTuiError(f"{path}: unreadable ({exc}); fix or delete it (the team "
                                "repo keeps everything shared)") from None
        if not isinstance(raw, dict):
            raise PaperTuiError(f"{path}: expected a JSON object; fix or delete it")

        def bad(key: str, want: str) -> PaperTuiError:
            return PaperTuiError(f"{path}: {key!r} must be {want}, not {raw[key]!r}; fix or "
                                 "delete it (the team repo keeps everything shared)")

        name, agreed, unsent = raw.get("name"), raw.get("agreed"), raw.get("unsent", 0)
        if name is not None and not (isinstance(name, str) and is_plain_name(name)):
            raise bad("name", "a team name (lower-case letters, digits, '.', '-', '_')")
        if agreed is not None and not (isinstance(agreed, str) and _COMMIT.fullmatch(agreed)):
            raise bad("agreed", "a commit id or null")
        if not isinstance(unsent, int) or isinstance(unsent, bool) or unsent < 0:
            raise bad("unsent", "a whole number of changes")
        maps = {}
        for key in ("sources", "importing"):
            value = raw.get(key) or {}
            if not (isinstance(value, dict) and all(isinstance(k, str) and isinstance(v, str)
                                                    for k, v in value.items())):
                raise bad(key, "an object of file names to checksums")
            maps[key] = dict(value)
        quarantined = raw.get("quarantined") or {}
        if not (isinstance(quarantined, dict) and all(
                isinstance(v, dict) and isinstance(v.get("blob"), str)
                and isinstance(v.get("why"), str) for v in quarantined.values())):
            raise bad("quarantined", 'an object of file names to {"blob": …, "why": …}')
        return cls(name=name, agreed=agreed, unsent=unsent, sources=maps["sources"],
                   importing=maps["importing"],
                   quarantined={str(k): Quarantined(v["blob"], v["why"])
                                for k, v in quarantined.items()})

    def save(self, library: Path) -> None:
        atomic.write_text(library / STATE_FILE, json.dumps(
            {"name": self.name, "agreed": self.agreed, "sources": self.sources,
             "unsent": self.unsent, "importing": self.importing,
             "quarantined": {name: {"blob": q.blob, "why": q.why}
                             for name, q in self.quarantined.items()}}, indent=1) + "\n")
