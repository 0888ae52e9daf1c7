"""What every importer shares: reading files (``.gz`` too) and turning fields into a Paper."""

from __future__ import annotations

import gzip
import itertools
import json
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, BinaryIO, cast

from paper_tui import display, naming
from paper_tui.errors import SourceError
from paper_tui.model import Paper, make_id
from paper_tui.venue_signals import NO_SIGNALS, VenueSignals
from paper_tui.venues import display_venue

_AUTHOR_SPLIT = re.compile(r"\s*[;|]\s*|\s*,\s*(?![^()]*\))|\s+and\s+")
# "Harry Rubin-Falcone* (University of Michigan)": the affiliation and the contribution
# mark (equal contribution, corresponding author) are not part of the name.
_AFFILIATION = re.compile(r"\s*\([^()]*\)")
_MARKS = "*†‡§¶"
_YEAR = re.compile(r"(19|20)\d{2}")


@dataclass(frozen=True)
class Hints:
    """What the user says about a file that may not say it (``import --venue --year``):
    used where a record names no venue or year, before the file name's guess."""

    venue: str = ""
    year: int | None = None

    def venue_year(self, path: Path) -> tuple[str, int | None]:
        """The file's venue and year: these hints, else what its name says."""
        venue, year = venue_year_from_name(path)
        return self.venue or venue, self.year or year


NO_HINTS = Hints()


def open_bytes(path: Path) -> bytes:
    """The file's bytes, gunzipped when it ends in ``.gz``."""
    try:
        data = path.read_bytes()
        if path.suffix == ".gz":
            data = gzip.decompress(data)
    except (OSError, EOFError, gzip.BadGzipFile) as exc:
        raise SourceError(path, f"cannot read: {exc}") from None
    return data


def open_stream(path: Path) -> BinaryIO:
    """The file opened for reading bytes, gunzipped as it is read when it ends in ``.gz``."""
    try:
        if path.suffix == ".gz":
            return cast(BinaryIO, gzip.open(path, "rb"))
        return path.open("rb")
    except OSError as exc:
        raise SourceError(path, f"cannot read: {exc}") from None


def read_head(path: Path, size: int) -> bytes:
    """The first ``size`` bytes of the file (gunzipped), without reading the rest."""
    with open_stream(path) as fh:
        try:
            return fh.read(size)
        except (OSError, EOFError, gzip.BadGzipFile) as exc:
            raise SourceError(path, f"cannot read: {exc}") from None


def read_lines(path: Path) -> Iterator[tuple[int, bytes]]:
    """``(line number, line)`` for each line that is not blank, split at newlines only and
    read as it goes (a big file is never held whole); the checks of :func:`read_data`."""
    with open_stream(path) as fh:
        try:
            head = fh.read(8192)
            if b"\x00" in head:
                raise SourceError(path, "binary file, not a paper list")
            first = head + fh.readline()
            parts = first.split(b"\n")
            if first.endswith(b"\n"):
                parts.pop()  # the next line is the file's next line
            found = False
            for number, line in enumerate(itertools.chain(parts, fh), 1):
                if line.strip():
                    found = True
                    yield number, line
            if not found:
                raise SourceError(path, "file is empty")
        except (OSError, EOFError, gzip.BadGzipFile) as exc:
            raise SourceError(path, f"cannot read: {exc}") from None


def read_data(path: Path) -> bytes:
    """The file's bytes; a clear error for empty or binary files."""
    data = open_bytes(path)
    if not data.strip():
        raise SourceError(path, "file is empty")
    if b"\x00" in data[:8192]:
        raise SourceError(path, "binary file, not a paper list")
    return data


def read_text(path: Path) -> str:
    """The file as text; a clear error for empty, binary or non-UTF-8 files."""
    data = read_data(path)
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise SourceError(path, f"not UTF-8 text (byte {exc.start})", line=line) from None
    return text


def read_json(path: Path) -> Any:
    """The file's JSON value; a bad file is one error naming its line."""
    try:
        return json.loads(read_text(path))
    except json.JSONDecodeError as exc:
        raise SourceError(path, f"invalid JSON: {exc.msg}", line=exc.lineno) from None


def author_name(name: str) -> str:
    """A name without an affiliation in parentheses or contribution marks."""
    if "(" in name:
        name = _AFFILIATION.sub("", name)
    return " ".join(name.strip(_MARKS + " ").split())


def split_authors(value: str | Iterable[str] | None) -> tuple[str, ...]:
    """Names from a cell (``A; B``, ``A, B and C``, ``A* (Univ)|B (Univ)``) or a list."""
    if not value:
        return ()
    if isinstance(value, str):
        if "(" in value:  # first: an affiliation may hold "and" or a comma
            value = _AFFILIATION.sub("", value)
        parts = _AUTHOR_SPLIT.split(value)
    else:
        parts = [str(v) for v in value]
    names = (author_name(p) for p in parts if p)
    return tuple(n for n in names if n)


def split_keywords(value: str | Iterable[str] | None) -> tuple[str, ...]:
    if not value:
        return ()
    parts = re.split(r"\s*[;,|]\s*", value) if isinstance(value, str) else \
        [str(v) for v in value]
    return tuple(p.strip() for p in parts if p and p.strip())


def parse_year(value: object) -> int | None:
    if value is None or value == "":
        return None
    if isinstance(value, int):
        return value
    m = _YEAR.search(str(value))
    return int(m.group(0)) if m else None


def venue_year_from_name(path: Path) -> tuple[str, int | None]:
    """``nips2018.json`` -> ``("NeurIPS", 2018)``; ``iclr_2020.csv`` too."""
    stem = path.name.split(".")[0]
    m = re.match(r"([A-Za-z]+)[_\-]?((?:19|20)\d{2})", stem)
    if not m:
        return "", None
    return display_venue(m.group(1)), int(m.group(2))


def make_paper(*, source: str, title: str = "", abstract: str = "", authors: Iterable[str] = (),
               venue: str = "", year: int | None = None, url: str = "", pdf: str = "",
               keywords: Iterable[str] = (), bibtex: str = "", tldr: str = "", track: str = "",
               signals: VenueSignals = NO_SIGNALS, truncated: bool = False, paper_id: str = ""
               ) -> Paper:
    """Build a Paper: id, name, title and display text are all derived here, once.

    ``signals``: what the venue says of it (:mod:`paper_tui.venue_signals`), read by the
    importer. ``paper_id`` is for sources whose own id names a paper across its versions
    (arXiv): otherwise the id is derived from the content (:func:`make_id`)."""
    abstract = (abstract or "").strip()
    source_title = " ".join((title or "").split())
    authors = tuple(authors)
    venue = display_venue(venue) if venue else ""
    name, full_title = naming.name_and_title(abstract, source_title)
    display_title, title_emphasis = display.render(full_title)
    display_abstract, abstract_emphasis = display.render(abstract)
    return Paper(
        id=paper_id or make_id(venue, year, source_title, authors, abstract),
        title=full_title,
        abstract=abstract,
        name=display.plain(name) if name else "",
        authors=authors,
        venue=venue,
        year=year,
        url=(url or "").strip(),
        pdf=(pdf or "").strip(),
        keywords=tuple(keywords),
        bibtex=(bibtex or "").strip(),
        source=source,
        tldr=(tldr or "").strip(),
        track=(track or "").strip(),
        decision=signals.decision,
        decision_text=signals.decision_text,
        ratings=signals.ratings,
        confidences=signals.confidences,
        rating=signals.rating,
        rating_spread=signals.rating_spread,
        confidence=signals.confidence,
        area=signals.area,
        award=signals.award,
        citations=signals.citations,
        citations_date=signals.citations_date,
        code=signals.code,
        project=signals.project,
        affiliations=signals.affiliations,
        countries=signals.countries,
        truncated=truncated,
        title_generated=not source_title,
        display_title=display_title,
        display_abstract=display_abstract,
        title_emphasis=title_emphasis,
        abstract_emphasis=abstract_emphasis,
    )
