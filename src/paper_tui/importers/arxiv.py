"""arXiv Atom: API results (``export.arxiv.org/api/query``) and listing feeds
(``rss.arxiv.org/atom/cs.LG``).

The arXiv id without its version is the paper's id (``arxiv-2401.01234``), so ``v1`` and
``v3`` are one paper and an annotation holds for both; within a file the newest version's
text wins, and the links name no version (they open the newest). Categories (primary
first) are keywords, so ``keyword:cs.LG`` finds them.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from pathlib import Path

from paper_tui.errors import SourceError
from paper_tui.importers.common import (
    NO_HINTS,
    FieldError,
    Hints,
    make_paper,
    parse_year,
    read_data,
    split_authors,
    xml_encoding,
)
from paper_tui.model import Paper
from paper_tui.trust import safe_xml

FORMAT = "arxiv"
EXTENSIONS = (".atom", ".xml")
VENUE = "arXiv"
SITE = "https://arxiv.org"
_ATOM = "{http://www.w3.org/2005/Atom}"
_ARXIV = "{http://arxiv.org/schemas/atom}"
_DC = "{http://purl.org/dc/elements/1.1/}"
_ID = re.compile(r"(?:arxiv\.org/abs/|oai:arXiv\.org:|arXiv:)(?P<id>[\w.\-/]+?)"
                 r"(?:v(?P<v>[0-9]{1,9}))?$")
_LISTING = re.compile(r"^arXiv:\S+\s+Announce Type:\s*\S+\s*Abstract:\s*")


def sniff(head: str) -> bool:
    return "http://www.w3.org/2005/Atom" in head and "arxiv" in head.lower()


def _fold(text: str | None) -> str:
    """Line breaks inside a title or abstract folded into spaces."""
    return " ".join((text or "").split())


def _entry(entry: ET.Element, source: str, hints: Hints) -> tuple[str, int, Paper] | str:
    """``(arXiv id, version, paper)``, or what is wrong with the entry."""
    m = _ID.search((entry.findtext(f"{_ATOM}id") or "").strip())
    if not m:
        return "entry has no arXiv id"
    arxiv_id, version = m.group("id"), int(m.group("v") or 0)
    title = _fold(entry.findtext(f"{_ATOM}title"))
    abstract = _LISTING.sub("", _fold(entry.findtext(f"{_ATOM}summary")))
    if not (title or abstract):
        return f"entry {arxiv_id} has neither title nor abstract"
    authors = [_fold(a.findtext(f"{_ATOM}name")) for a in entry.iter(f"{_ATOM}author")]
    if not authors:  # listing feeds: one dc:creator, names separated by commas
        authors = list(split_authors(entry.findtext(f"{_DC}creator")))
    primary = entry.find(f"{_ARXIV}primary_category")
    categories = [primary.get("term", "")] if primary is not None else []
    categories += [c.get("term", "") for c in entry.iter(f"{_ATOM}category")]
    date = entry.findtext(f"{_ATOM}published") or entry.findtext(f"{_ATOM}updated")
    paper = make_paper(
        source=source, title=title, abstract=abstract, authors=authors,
        venue=VENUE, year=parse_year(date) or hints.year,
        url=f"{SITE}/abs/{arxiv_id}", pdf=f"{SITE}/pdf/{arxiv_id}",
        keywords=dict.fromkeys(c for c in categories if c),
        paper_id=f"arxiv-{arxiv_id.replace('/', '-')}",
    )
    return arxiv_id, version, paper


def _entries(path: Path) -> Iterator[ET.Element | SourceError]:
    """Each ``<entry>`` as it is parsed; a broken feed ends with an error naming its line
    (the entries before it are kept)."""
    data = read_data(path)
    xml_encoding(path, data)  # the parser reads the declaration itself; this refuses odd ones
    parser = safe_xml.PullParser()  # a DTD refused, never expanded
    error = None
    try:
        parser.feed(data)
        parser.close()
    except ET.ParseError as exc:  # a DTD, a syntax error: the entries before it are read
        error = _invalid(path, exc)
    except ValueError as exc:  # pyexpat: "multi-byte encodings are not supported"
        raise SourceError(path, f"cannot read the encoding the XML declaration names ({exc})",
                          line=1) from None
    first = True
    for event, element in parser.read_events():
        if first and event == "start" and element.tag != f"{_ATOM}feed":
            raise SourceError(path, "not an Atom feed (expected <feed>)", line=1)
        first = False
        if event == "end" and element.tag == f"{_ATOM}entry":
            yield element
    if error is not None:
        yield error


def _invalid(path: Path, exc: ET.ParseError) -> SourceError:
    line, column = exc.position
    message = str(exc).rsplit(": line ", 1)[0]  # "undefined entity: line 3, column 5"
    return SourceError(path, f"invalid XML: {message} (column {column})", line=line)


def read(path: Path, source: str, hints: Hints = NO_HINTS) -> Iterator[Paper | SourceError]:
    newest: dict[str, tuple[int, Paper]] = {}
    for number, entry in enumerate(_entries(path), 1):
        if isinstance(entry, SourceError):
            yield entry
            continue
        try:
            found = _entry(entry, source, hints)
        except FieldError as exc:
            found = str(exc)
        if isinstance(found, str):
            yield SourceError(path, found, record=number)
            continue
        arxiv_id, version, paper = found
        if arxiv_id not in newest or version >= newest[arxiv_id][0]:
            newest[arxiv_id] = (version, paper)
    for _, paper in newest.values():
        yield paper
