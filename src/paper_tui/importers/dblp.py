"""DBLP XML (``<dblp>`` with ``inproceedings`` / ``article`` records): a venue's or a
person's records, cut from DBLP's dump or saved from its pages, as DBLP writes them
(ISO-8859-1 with HTML entities from ``dblp.dtd``). The file is read whole: the full dump
(gigabytes) is not what this is for.

DBLP has no abstracts: a record with a title is a paper with an empty abstract (no
abstract in the source), and searching and naming work on its title and authors. Each
record is parsed alone, so a broken one is an error naming its line and the rest import.
"""

from __future__ import annotations

import html.entities
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
    xml_encoding,
)
from paper_tui.model import Paper

FORMAT = "dblp"
EXTENSIONS = (".xml",)
PAPERS = ("inproceedings", "article", "incollection")
_OPEN = re.compile(rb"<(%s)\b" % "|".join(PAPERS).encode())
_CLOSE = {name.encode(): re.compile(rb"</%s\s*>" % name.encode()) for name in PAPERS}
_ENTITY = re.compile(rb"&([A-Za-z][A-Za-z0-9]*);")
_XML_ENTITIES = {b"amp", b"lt", b"gt", b"quot", b"apos"}
_HOMONYM = re.compile(r"\s+\d{4}$")  # "Wei Wang 0001": DBLP's number for a name's holder
_VOLUME = re.compile(r"\s*\(\d+\)$")  # "ACL (1)": the first volume of ACL's proceedings
DBLP = "https://dblp.org/"


def sniff(head: str) -> bool:
    return "<dblp" in head or bool(re.search(r"<(inproceedings|article) [^>]*key=\"", head))


def _entity(m: re.Match[bytes]) -> bytes:
    """``&uuml;`` (declared in dblp.dtd, unknown to an XML parser) as a character reference."""
    name = m.group(1)
    if name in _XML_ENTITIES:
        return m.group(0)
    code = html.entities.name2codepoint.get(name.decode())
    return b"&#%d;" % code if code else m.group(0)


def _text(element: ET.Element | None) -> str:
    """An element's text with its inline markup (``<i>``, ``<sub>``) dropped."""
    return " ".join("".join(element.itertext()).split()) if element is not None else ""


def record_to_paper(record: ET.Element, source: str, hints: Hints) -> Paper:
    title = _text(record.find("title"))
    if title.endswith(".") and not title.endswith(".."):
        title = title[:-1]  # DBLP ends every title with a full stop
    links = [_text(ee) for ee in record.iter("ee")]
    page = record.findtext("url") or ""
    url = links[0] if links else (DBLP + page if page else "")
    pdf = next((link for link in links if link.lower().endswith(".pdf")), "")
    return make_paper(
        source=source, title=title,
        authors=[_HOMONYM.sub("", _text(a)) for a in record.iter("author")],
        venue=_VOLUME.sub("", _text(record.find("booktitle")) or _text(record.find("journal")))
        or hints.venue,
        year=parse_year(record.findtext("year")) or hints.year, url=url, pdf=pdf,
    )


def records(data: bytes) -> Iterator[tuple[int, int]]:
    """``(start, end)`` of each paper record: from ``<article`` (or ``inproceedings``,
    ``incollection``) to the first closing tag of its name after it. Found in linear time:
    once an opening tag has no closing one after it, no later tag of that name is looked
    for again (a lazy ``<article.*?</article>`` pattern rescans the rest of the file for
    each of them: 31 s for 264 KB of unclosed records)."""
    unclosed_from: dict[bytes, int] = {}  # no closing tag of this name from this offset on
    pos = 0
    while (opening := _OPEN.search(data, pos)) is not None:
        name = opening.group(1)
        closing = None
        if opening.end() < unclosed_from.get(name, len(data) + 1):
            closing = _CLOSE[name].search(data, opening.end())
        if closing is None:
            unclosed_from.setdefault(name, opening.end())
            pos = opening.start() + 1
            continue
        yield opening.start(), closing.end()
        pos = closing.end()


def read(path: Path, source: str, hints: Hints = NO_HINTS) -> Iterator[Paper | SourceError]:
    data = read_data(path)
    encoding = xml_encoding(path, data)
    count = 0
    line, at = 1, 0
    for number, (start, end) in enumerate(records(data), 1):
        line += data.count(b"\n", at, start)
        at = start
        count += 1
        chunk = _ENTITY.sub(_entity, data[start:end])
        try:
            record = ET.fromstring(chunk.decode(encoding, errors="replace"))
        except ET.ParseError as exc:
            yield SourceError(path, f"invalid XML record: {exc}", line=line, record=number)
            continue
        if not _text(record.find("title")):
            yield SourceError(path, f"record {record.get('key', '')!r} has no title",
                              line=line, record=number)
            continue
        try:
            paper = record_to_paper(record, source, hints)
        except FieldError as exc:
            yield SourceError(path, str(exc), line=line, record=number)
            continue
        yield paper
    if not count:
        raise SourceError(path, "no DBLP records (<inproceedings>, <article>) found")
