"""A hostile library: a paper list whose author put terminal escape sequences and control
characters into every field, annotations (tags, note, a reading list) and a team-mate's file
doing the same. For the tests that everything shown of it is inert."""

from __future__ import annotations

import base64
import json
import re
import shutil
from pathlib import Path

from paper_tui import config as config_mod
from paper_tui.library import Library

ESC = "\x1b"
PANE_TITLE = f"{ESC}]0;PWNED-PANE\x07"
"""OSC 0: renames the terminal window (and the tmux pane)."""
WINDOW_TITLE = f"{ESC}]2;PWNED-WINDOW{ESC}\\"
TMUX_TITLE = f"{ESC}kPWNED-TMUX{ESC}\\"
CLIPBOARD = f"{ESC}]52;c;{base64.b64encode(b'PWNED-CLIPBOARD').decode()}\x07"
"""OSC 52: puts text on the clipboard (tmux: a paste buffer, with set-clipboard on)."""
SCREEN = f"{ESC}[2J{ESC}[31m{ESC}(0{ESC}7"
"""CSI: clear the screen, red; line drawing characters; save the cursor."""
C1 = "\x9d2;PWNED-C1\x9c\x9b31m\x85"
"""The same as 8-bit C1 controls (a UTF-8 terminal may honour them)."""
BIDI = "\u202e"
EVIL = PANE_TITLE + CLIPBOARD + WINDOW_TITLE + TMUX_TITLE + SCREEN + C1 + BIDI
"""Every kind at once; nothing of any of it may reach a terminal."""
PAYLOAD = "PWNED"
"""In every sequence's payload: removed whole, it is never shown."""
ACTIVE = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]")
"""What text shown to people may not hold (tabs and newlines aside)."""

TITLE = f"Hostile{EVIL} paper title"
MEMBER = "mallory"
"""A team-mate with a plain name (a name that is not plain is never a member: see
``HOSTILE_MEMBER``); their file holds the hostile tag and note."""
HOSTILE_MEMBER = f"mal{PANE_TITLE}lory"
"""A file in the team's ``people/`` whose name holds a sequence: ignored, with a line that
names it inert."""
"""A team-mate whose file name holds an escape sequence."""
TAG = f"evil{CLIPBOARD}tag"
NOTE = f"first line{SCREEN}\nsecond{PANE_TITLE} line\r\nthird\x85line"
LIST = f"Reading{PANE_TITLE}list"
LIST_DESCRIPTION = f"what{CLIPBOARD} we read\nsecond line"


def hostile_record(title: str, n: int) -> dict:
    """One JSONL record with ``EVIL`` in every field a list can carry."""
    return {
        "title": title,
        "abstract": f"We present{EVIL} a method.\r\nIt works{C1} well\tindeed.",
        "authors": [f"Eve{PANE_TITLE} Mallory", f"Bob{CLIPBOARD} Ng"],
        "venue": f"NeurIPS{SCREEN}",
        "year": 2026,
        "url": f"https://example.org/{n}{ESC}]8;;https://evil.example{ESC}\\x",
        "pdf": f"https://example.org/{n}.pdf{PANE_TITLE}",
        "keywords": [f"robust{CLIPBOARD}ness"],
        "track": f"main{SCREEN}",
        "status": f"Poster{PANE_TITLE}",
        "tldr": f"tl;dr{CLIPBOARD}",
        "bibtex": "@inproceedings{key" + PANE_TITLE + ",\n  title = {" + title + "},\n"
                  "  author = {Mallory, Eve and Ng, Bob},\n  year = {2026}\n}",
    }


def write_hostile_list(path: Path) -> Path:
    """Two hostile papers (the second for lists of several), as paperlists JSONL."""
    records = [hostile_record(TITLE, 1), hostile_record(f"Second{CLIPBOARD} hostile", 2)]
    path.write_text("".join(json.dumps(r) + "\n" for r in records), "utf-8")
    return path


def hostile_library(root: Path, source_dir: Path) -> list[str]:
    """Import the hostile list into a library at ``root`` (no bundled list) and annotate
    its first paper with hostile text; a team-mate's file names it too. The papers' ids."""
    config = source_dir / "config.yaml"
    config.write_text("bundled_lists: false\n", "utf-8")
    lib = Library.open(root, config=config_mod.load(config))
    try:
        lib.import_paths([write_hostile_list(source_dir / "hostile.jsonl")])
        ids = [paper.id for paper in lib.papers()]
        first = next(p.id for p in lib.papers() if p.title.startswith("Hostile"))
        lib.add_tags([first], [TAG])
        lib.set_note(first, NOTE)
        lib.set_starred([first], True)
        lib.create_list(LIST, LIST_DESCRIPTION)
        lib.add_to_list(LIST, ids)
        lib.flush()
    finally:
        lib.close()
    people = root / "team" / "people"
    people.mkdir(parents=True)
    shutil.copy(root / "annotations.yaml", people / f"{MEMBER}.yaml")
    shutil.copy(root / "annotations.yaml", people / f"{HOSTILE_MEMBER}.yaml")
    return ids


def inert_shown(text: str) -> bool:
    """``text`` (what a command printed, an export, a screen) holds nothing active and no
    payload of a sequence."""
    return ACTIVE.search(text) is None and PAYLOAD not in text
