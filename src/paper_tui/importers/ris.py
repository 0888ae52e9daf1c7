"""RIS (``TY  - `` … ``ER  - ``), as reference managers and databases export it.

Any line ending, a BOM; UTF-8, or Latin-1 (said once, as a notice). Names written
``Family, Given`` become ``Given Family``, as every other format gives them.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

from paper_tui.errors import SourceError, SourceNotice
from paper_tui.importers.common import (
    NO_HINTS,
    FieldError,
    Hints,
    make_paper,
    parse_year,
    read_data,
    split_keywords,
)
from paper_tui.model import Paper
from paper_tui.venue import signals as venue_signals
from paper_tui.venue.fields import NO_SIGNALS, VenueSignals

FORMAT = "ris"
EXTENSIONS = (".ris",)
_TAG = re.compile(r"^([A-Z][A-Z0-9])  -(?: (.*))?$")
_AUTHORS = ("AU", "A1")
_TITLES = ("TI", "T1")
_ABSTRACTS = ("AB", "N2")
_YEARS = ("PY", "Y1", "DA")
_VENUES = ("T2", "JO", "JF", "BT", "T3", "JA")


def sniff(head: str) -> bool:
    return bool(re.search(r"^TY  - ", head, re.MULTILINE))


def _decode(path: Path) -> tuple[str, SourceNotice | None]:
    data = read_data(path)
    try:
        return data.decode("utf-8-sig"), None
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        return data.decode("latin-1"), SourceNotice(
            path, f"not UTF-8 (line {line}): read as Latin-1; check accented names")


def given_first(name: str) -> str:
    """``Marx, Karl`` -> ``Karl Marx``; ``King, Martin Luther, Jr.`` -> ``Martin Luther King
    Jr.``; a name without a comma stays as it is."""
    parts = [p.strip() for p in name.split(",") if p.strip()]
    if len(parts) < 2:
        return " ".join(name.split())
    family, given, *suffix = parts
    return " ".join([given, family, *suffix])


def records(text: str) -> Iterator[tuple[int, dict[str, list[str]] | str]]:
    """``(line of TY, fields)`` per record, or ``(line, what is wrong)``. A line without a
    tag continues the field before it (a wrapped abstract): the last value of the tag
    that came first last (a repeated tag is not "before it")."""
    fields: dict[str, list[str]] | None = None
    start = 0
    wrapped: list[str] = []  # the lines continuing that value (joined once: linear)
    last = ""

    def unwrap() -> None:
        if fields is not None and wrapped:
            fields[last][-1] = " ".join(p for p in (fields[last][-1], *wrapped) if p)
        wrapped.clear()

    for number, line in enumerate(text.splitlines(), 1):
        m = _TAG.match(line.rstrip())
        if m is None:
            if fields is not None and line.strip():
                wrapped.append(line.strip())
            continue
        unwrap()
        tag, value = m.group(1), (m.group(2) or "").strip()
        if tag == "TY":
            if fields is not None:
                yield start, f"record has no ER line before the next TY (line {number})"
            fields, start, last = {"TY": [value]}, number, "TY"
        elif fields is None:
            if tag != "ER":
                yield number, f"{tag} line outside a record (no TY before it)"
        elif tag == "ER":
            yield start, fields
            fields = None
        else:
            if tag not in fields:
                last = tag
            fields.setdefault(tag, []).append(value)
    unwrap()
    if fields is not None:
        yield start, "last record has no ER line"


def _first(fields: dict[str, list[str]], tags: tuple[str, ...]) -> str:
    return next((fields[t][0] for t in tags if fields.get(t) and fields[t][0]), "")


def record_to_paper(fields: dict[str, list[str]], source: str, hints: Hints) -> Paper:
    authors = [given_first(a) for t in _AUTHORS for a in fields.get(t, ()) if a]
    url = _first(fields, ("UR", "L2"))
    doi = _first(fields, ("DO",))
    if doi and not url:
        url = doi if doi.startswith("http") else "https://doi.org/" + doi
    keywords = [k for kw in fields.get("KW", ()) for k in split_keywords(kw)]
    return make_paper(
        source=source, title=_first(fields, _TITLES), abstract=_first(fields, _ABSTRACTS),
        authors=authors, venue=_first(fields, _VENUES) or hints.venue,
        year=parse_year(_first(fields, _YEARS)) or hints.year, url=url,
        pdf=_first(fields, ("L1",)), keywords=keywords,
        signals=_affiliations(fields.get("AD", []), len(authors)),
    )


def _affiliations(addresses: list[str], authors: int) -> VenueSignals:
    """``AD`` lines as affiliations when there is one an author (``A + B`` for several,
    as paper-tui's export writes them); otherwise which author is where is unknown."""
    if not addresses or len(addresses) != authors:
        return NO_SIGNALS
    return VenueSignals(affiliations=venue_signals.affiliations(addresses))


def read(path: Path, source: str, hints: Hints = NO_HINTS) -> Iterator[Paper | SourceError]:
    text, notice = _decode(path)
    if notice:
        yield notice
    count = 0
    for number, (line, found) in enumerate(records(text), 1):
        if isinstance(found, str):
            yield SourceError(path, found, line=line)
            continue
        count += 1
        if not (_first(found, _TITLES) or _first(found, _ABSTRACTS)):
            yield SourceError(path, "record has neither title (TI/T1) nor abstract (AB/N2)",
                              line=line, record=number)
            continue
        try:
            paper = record_to_paper(found, source, hints)
        except FieldError as exc:
            yield SourceError(path, str(exc), line=line, record=number)
            continue
        yield paper
    if not count:
        raise SourceError(path, "no RIS records (TY  - … ER  -) found")
