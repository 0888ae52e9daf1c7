"""Authors' names as citations need them: split into given, particle, family and suffix
(``Josef van Genabith``, ``King, Jr., Martin Luther``), one by one from a source's string."""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

_PARTICLES = {"van", "von", "der", "den", "de", "del", "della", "di", "da", "dos", "das", "du",
              "le", "la", "ter", "ten", "zu", "bin", "ibn", "al", "el", "y"}
_SUFFIXES = {"jr", "jr.", "sr", "sr.", "ii", "iii", "iv"}


@dataclass(frozen=True)
class Name:
    first: str
    von: str
    last: str
    jr: str = ""


def split_name(name: str) -> Name:
    """``Josef van Genabith`` -> first ``Josef``, von ``van``, last ``Genabith``.

    A name already written ``Last, First`` (or ``Last, Jr, First``) is taken as such.
    """
    name = " ".join(name.split())
    if "," in name:
        parts = [p.strip() for p in name.split(",")]
        jr = parts[1] if len(parts) > 2 else ""
        return Name(parts[-1] if len(parts) > 1 else "", "", parts[0], jr)
    words = name.split(" ")
    jr = ""
    if len(words) > 2 and words[-1].lower() in _SUFFIXES:
        jr = words.pop()
    if len(words) == 1:
        return Name("", "", words[0], jr)
    last = [words.pop()]
    von: list[str] = []
    while len(words) > 1 and words[-1].lower() in _PARTICLES and words[-1][0].islower():
        von.insert(0, words.pop())
    return Name(" ".join(words), " ".join(von), " ".join(last), jr)


def author_names(authors: Iterable[str]) -> list[str]:
    """The authors one by one: a source string ``"C. Serviere and D. Baudois"`` is two;
    ``"A and and B"`` two as well (no empty name), and a name's stray commas go
    (``"Roeder, Geoffrey,"`` -> ``"Roeder, Geoffrey"``)."""
    names = []
    for a in authors:
        for part in re.split(r"(?:\s+and)+\s+", f" {a} "):
            part = re.sub(r"\s*,(\s*,)+", ",", part).strip(" ,")
            if part and part.lower() != "and":
                names.append(part)
    return names
