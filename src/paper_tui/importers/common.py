"""What every importer shares: reading files (``.gz`` too) and turning fields into a Paper."""

from __future__ import annotations

import itertools
import json
import re
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from pathlib import Path
from typing import Any, BinaryIO

from paper_tui import display, naming
from paper_tui.errors import SourceError, TooBig
from paper_tui.importers.reading import reading
from paper_tui.model import Paper, make_id
from paper_tui.trust.bounded_gzip import (
    MAX_UNPACKED,
    gunzip,
    open_gzip,
    position_on_disk,
    shown_size,
)
from paper_tui.venue import fields as venue_fields
from paper_tui.venue.fields import NO_SIGNALS, VenueSignals
from paper_tui.venue.names import display_venue

# The separators of names and keywords, with the white space around them. Written so a
# match is tried only where white space starts (``(?<!\s)``), never again inside it, which
# keeps splitting linear in a field's length (``\s*[;|]\s*`` is quadratic on a long run of
# spaces) and splits exactly as that simpler pattern would.
_SPACE_BEFORE = r"(?:(?<!\s)\s+)?"
_AUTHOR_SPLIT = re.compile(rf"{_SPACE_BEFORE}[;|]\s*|{_SPACE_BEFORE},\s*|(?<!\s)\s+and\s+")
_KEYWORD_SPLIT = re.compile(rf"{_SPACE_BEFORE}[;,|]\s*")
# "Harry Rubin-Falcone* (University of Michigan)": the affiliation and the contribution
# mark (equal contribution, corresponding author) are not part of the name.
_AFFILIATION = re.compile(r"(?<!\s)\s*\([^()]*\)")
_MARKS = "*†‡§¶"
_YEAR = re.compile(r"(19|20)\d{2}")
_XML_ENCODING = re.compile(  # <?xml version="1.0" encoding="ISO-8859-1"?>, after a BOM
    rb"(?:\xef\xbb\xbf)?\s*<\?xml[^>]*?\sencoding\s*=\s*[\"']([A-Za-z0-9._\-]+)[\"']")
_ASCII = bytes(range(32, 127)) + b"\t\n\r"
MAX_TEXT = 100_000
"""The longest title, abstract, TL;DR or BibTeX entry taken, in characters: six times the
longest abstract in the 87,549-paper corpus (16,262)."""


class FieldError(ValueError):
    """A record's field whose value cannot mean what the field means (``"author": 5``, a
    1 MB title): the importer leaves that record out with one line naming it."""


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

MAX_LIST_GB = 16
"""The default of ``import.max_unpacked_gb``: four times arXiv's metadata snapshot (~4 GB
of JSON Lines, 2.7M papers)."""


@dataclass(frozen=True)
class Limits:
    """How big a list an import reads: ``max_unpacked`` bytes (a plain file's size, a gzip
    file's unpacked bytes; the user's ``import.max_unpacked_gb``), ``how_to_raise`` said
    with a file over it. A list read whole (JSON, BibTeX, XML …) is held to
    :data:`~paper_tui.trust.bounded_gzip.MAX_UNPACKED` (1 GiB) too; every gzip file to
    the ratio of :mod:`~paper_tui.trust.bounded_gzip`, whatever these say."""

    max_unpacked: int
    how_to_raise: str


def limits_of(max_unpacked_gb: float) -> Limits:
    """The :class:`Limits` of the setting ``import.max_unpacked_gb``."""
    return Limits(int(max_unpacked_gb * (1 << 30)),
                  f"the cap import.max_unpacked_gb is {max_unpacked_gb:g}; set it higher in "
                  "your config file (`paper-tui config` names it) to import this list")


DEFAULT_LIMITS = limits_of(MAX_LIST_GB)
_LIMITS: ContextVar[Limits] = ContextVar("paper_tui_import_limits", default=DEFAULT_LIMITS)


def limits() -> Limits:
    """The :class:`Limits` this thread's imports read by (see :func:`limited`)."""
    return _LIMITS.get()


@contextmanager
def limited(to: Limits) -> Iterator[None]:
    """Files read in this thread (and the import workers it starts) held to ``to``: set
    once by the library's intake from the settings, not handed through every format's
    reader."""
    token = _LIMITS.set(to)
    try:
        yield
    finally:
        _LIMITS.reset(token)


def bare_suffix(path: Path) -> str:
    """The extension that names the format, lower case: ``.json`` for ``a.JSON.gz``."""
    suffixes = [s.lower() for s in path.suffixes]
    if suffixes and suffixes[-1] == ".gz":
        suffixes = suffixes[:-1]
    return suffixes[-1] if suffixes else ""


def is_gzip(path: Path) -> bool:
    return path.suffix.lower() == ".gz"


def open_bytes(path: Path) -> bytes:
    """The file's bytes, gunzipped (within :mod:`~paper_tui.trust.bounded_gzip`'s caps) when it
    ends in ``.gz``."""
    cap = limits()
    whole = "read whole (JSON Lines is read as it goes)"
    if is_gzip(path):
        if cap.max_unpacked < MAX_UNPACKED:
            return gunzip(path, max_unpacked=cap.max_unpacked, how_to_raise=cap.how_to_raise)
        return gunzip(path, how_to_raise=whole)
    try:
        if path.stat().st_size > min(cap.max_unpacked, MAX_UNPACKED):
            if cap.max_unpacked < MAX_UNPACKED:  # the user's cap
                raise _over(path, cap)
            # the cap of a gzipped list read whole, for a plain one
            raise TooBig(path, f"is more than {MAX_UNPACKED >> 30} GiB: too big for a "
                         f"paper list {whole}")
        return path.read_bytes()
    except OSError as exc:
        raise SourceError(path, f"cannot read: {exc.strerror or exc}") from None


def _over(path: Path, cap: Limits) -> TooBig:
    """A plain file bigger than the user's cap (checked before it is read)."""
    return TooBig(path, f"is more than {shown_size(cap.max_unpacked)}: too big for a paper "
                  f"list ({cap.how_to_raise})")


def open_stream(path: Path) -> BinaryIO:
    """The file opened for reading bytes, gunzipped as it is read when it ends in ``.gz``."""
    cap = limits()
    if is_gzip(path):
        return open_gzip(path, max_unpacked=cap.max_unpacked, how_to_raise=cap.how_to_raise)
    try:
        if path.stat().st_size > cap.max_unpacked:
            raise _over(path, cap)
        return path.open("rb")
    except OSError as exc:
        raise SourceError(path, f"cannot read: {exc.strerror or exc}") from None


def read_head(path: Path, size: int) -> bytes:
    """The first ``size`` bytes of the file (gunzipped), without reading the rest."""
    with open_stream(path) as fh:
        try:
            return fh.read(size)
        except OSError as exc:
            raise SourceError(path, f"cannot read: {exc.strerror or exc}") from None


def read_lines(path: Path) -> Iterator[tuple[int, bytes]]:
    """``(line number, line)`` for each line that is not blank, split at newlines only and
    read as it goes (a big file is never held whole); the checks of :func:`read_data`.

    A file that cannot be read on (cut short, damaged) raises :class:`SourceError` naming
    the line it stopped at, after the lines before it."""
    number = 0
    with open_stream(path) as fh, reading(path, lambda: position_on_disk(fh)):
        try:
            head = fh.read(8192)
            first = head + fh.readline() if b"\x00" not in head else head
        except (SourceError, OSError) as exc:
            raise _stopped(path, exc, 1) from None
        if b"\x00" in head:
            raise SourceError(path, "binary file, not a paper list")
        parts = first.split(b"\n")
        if first.endswith(b"\n"):
            parts.pop()  # the next line is the file's next line
        found = False
        try:
            for number, line in enumerate(itertools.chain(parts, fh), 1):
                if line.strip():
                    found = True
                    yield number, line
        except (SourceError, OSError) as exc:
            raise _stopped(path, exc, number + 1) from None
    if not found:
        raise SourceError(path, "file is empty")


def _stopped(path: Path, exc: SourceError | OSError, line: int) -> SourceError:
    """Reading stopped at ``line``: what the reader said, at that line."""
    if isinstance(exc, SourceError):  # a cap's TooBig stays one
        return type(exc)(path, exc.message, line=line)
    return SourceError(path, f"cannot read: {exc.strerror or exc}", line=line)


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


def xml_encoding(path: Path, data: bytes) -> str:
    """The encoding an XML file's declaration names (UTF-8 when none), if paper-tui can
    read it: a text encoding that reads ASCII as ASCII (not ``utf-16`` in a file of
    single bytes, ``idna``, ``punycode``, ``utf-7`` …); else a :class:`SourceError`."""
    m = _XML_ENCODING.match(data[:300])
    if m is None:
        return "utf-8"
    name = m.group(1).decode("ascii")
    try:
        # Read as DBLP's records are: a byte it cannot decode is replaced, not an error.
        if (_ASCII + b"\xff").decode(name, "replace").startswith(_ASCII.decode("ascii")):
            return name
    except (LookupError, UnicodeError, ValueError):
        pass
    raise SourceError(path, f"the XML declaration names encoding {name!r}, which is not a "
                      "text encoding paper-tui reads (UTF-8, Latin-1, …)", line=1)


def load_json(data: str | bytes) -> Any:
    """A JSON value; any text that is not one (bad syntax, nested past Python's recursion
    limit, a number of more than 4,300 digits, not UTF-8) raises ``ValueError``, a
    :class:`json.JSONDecodeError` when the decoder can say where."""
    try:
        return json.loads(data)
    except RecursionError:
        raise ValueError("nested too deeply") from None


def read_json(path: Path) -> Any:
    """The file's JSON value; a bad file is one error naming its line."""
    try:
        return load_json(read_text(path))
    except json.JSONDecodeError as exc:
        raise SourceError(path, f"invalid JSON: {exc.msg}", line=exc.lineno) from None
    except ValueError as exc:
        raise SourceError(path, f"invalid JSON: {exc}") from None


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
        if ")" in value:
            kept = _unused_character(value)
            parts = [p.replace(kept, ",") for p in
                     _AUTHOR_SPLIT.split(_protect_commas(value, kept))]
        else:
            parts = _AUTHOR_SPLIT.split(value)
    else:
        parts = [str(v) for v in value]
    names = (author_name(p) for p in parts if p)
    return tuple(n for n in names if n)


def _protect_commas(value: str, kept: str) -> str:
    """``value`` with each comma inside parentheses (the next parenthesis after it is a
    closing one: ``A (X, Y)``) replaced by ``kept``, so it separates no names; one pass
    from the end, where a lookahead per comma would be quadratic."""
    out = []
    closing = False
    for ch in reversed(value):
        if ch in "()":
            closing = ch == ")"
        out.append(kept if ch == "," and closing else ch)
    return "".join(reversed(out))


def _unused_character(text: str) -> str:
    """A character ``text`` does not hold (from Unicode's private use planes)."""
    return next(chr(c) for c in range(0xF0000, 0x10FFFE) if chr(c) not in text)


def split_keywords(value: str | Iterable[str] | None) -> tuple[str, ...]:
    if not value:
        return ()
    parts = _KEYWORD_SPLIT.split(value) if isinstance(value, str) else \
        [str(v) for v in value]
    return tuple(p.strip() for p in parts if p and p.strip())


def parse_year(value: object) -> int | None:
    """A year from a file: a number from 1 to 9999 (``year: 1e30``, ``-5``: unknown), or
    the first 19xx/20xx in a text."""
    if value is None or value == "" or isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value if 1 <= value <= 9999 else None
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

    ``signals``: what the venue says of it (its fields: :mod:`paper_tui.venue.fields`),
    read by the importer (:mod:`paper_tui.venue.signals`). ``paper_id`` is for sources
    whose own id names a paper across its versions (arXiv): otherwise the id is derived
    from the content (:func:`make_id`). A text longer than :data:`MAX_TEXT` raises
    :class:`FieldError`."""
    for key, value in (("title", title), ("abstract", abstract), ("tldr", tldr),
                       ("bibtex", bibtex)):
        if value and len(value) > MAX_TEXT:
            raise FieldError(f"{key} is {len(value):,} characters long (at most {MAX_TEXT:,})")
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
        **venue_fields.values(signals),
        truncated=truncated,
        title_generated=not source_title,
        display_title=display_title,
        display_abstract=display_abstract,
        title_emphasis=title_emphasis,
        abstract_emphasis=abstract_emphasis,
    )
