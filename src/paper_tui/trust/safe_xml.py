"""XML from the internet and team-mates, read without any DTD processing.

expat, under ElementTree, reads a document's internal DTD subset and expands the entities
it declares (only a 100x amplification cap: a 10 MB page grows to a gigabyte). No list
paper-tui reads needs a DTD (arXiv's Atom has none), so a document that has one
(``<!DOCTYPE …>``) is refused at that point, before any of it is read, with a
:class:`xml.etree.ElementTree.ParseError` naming its line; external entities and
parameter entities are never fetched. The elements are ElementTree's, names in
``{namespace}tag`` form as ElementTree gives them.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections import deque
from collections.abc import Iterator
from xml.parsers import expat

DTD_REFUSED = "a DTD (<!DOCTYPE>) is refused: no entity is ever expanded"


class _Refused(Exception):
    """Raised inside expat's callback: the document has a DTD."""


class PullParser:
    """:class:`xml.etree.ElementTree.XMLPullParser`'s ``feed`` / ``close`` /
    ``read_events`` with ``("start", "end")`` events, refusing DTDs. ``feed`` and
    ``close`` raise :class:`~xml.etree.ElementTree.ParseError` (its ``position`` set);
    the events before the error are still read. Without ``events``, only :meth:`close`'s
    root is had."""

    def __init__(self, events: bool = True) -> None:
        self._tree = ET.TreeBuilder()
        self._names: dict[str, str] = {}
        self._events: deque[tuple[str, ET.Element]] | None = deque() if events else None
        parser = expat.ParserCreate(namespace_separator="}")
        parser.buffer_text = True
        parser.SetParamEntityParsing(expat.XML_PARAM_ENTITY_PARSING_NEVER)
        parser.StartDoctypeDeclHandler = self._doctype
        parser.EntityDeclHandler = self._doctype  # (only inside a DTD: belt and braces)
        parser.StartElementHandler = self._start
        parser.EndElementHandler = self._end
        parser.CharacterDataHandler = self._tree.data
        self._parser = parser

    def _doctype(self, *_: object) -> None:
        raise _Refused

    def _name(self, name: str) -> str:
        """expat's ``namespace}tag`` (``namespace_separator="}"``) as ElementTree's
        ``{namespace}tag``, one string for each name (2.5 million ``<a/>`` share one)."""
        named = self._names.get(name)
        if named is None:
            named = self._names[name] = "{" + name if "}" in name else name
        return named

    def _start(self, tag: str, attributes: dict[str, str]) -> None:
        element = self._tree.start(self._name(tag),
                                   {self._name(k): v for k, v in attributes.items()})
        if self._events is not None:
            self._events.append(("start", element))

    def _end(self, tag: str) -> None:
        element = self._tree.end(self._name(tag))
        if self._events is not None:
            self._events.append(("end", element))

    def feed(self, data: bytes) -> None:
        self._parse(data, final=False)

    def close(self) -> ET.Element:
        """The root element, once the whole document is fed."""
        self._parse(b"", final=True)
        return self._tree.close()

    def _parse(self, data: bytes, final: bool) -> None:
        try:
            self._parser.Parse(data, final)
        except _Refused:
            raise self._error(DTD_REFUSED) from None
        except expat.ExpatError as exc:  # "undefined entity: line 3, column 5"
            error = ET.ParseError(str(exc))
            error.code, error.position = exc.code, (exc.lineno, exc.offset)
            raise error from None

    def _error(self, message: str) -> ET.ParseError:
        line, column = self._parser.CurrentLineNumber, self._parser.CurrentColumnNumber
        error = ET.ParseError(f"{message}: line {line}, column {column}")
        error.position = (line, column)
        return error

    def read_events(self) -> Iterator[tuple[str, ET.Element]]:
        while self._events:
            yield self._events.popleft()


def fromstring(data: bytes) -> ET.Element:
    """The document's root element (:class:`~xml.etree.ElementTree.ParseError` for a
    broken document or one with a DTD)."""
    parser = PullParser(events=False)
    parser.feed(data)
    return parser.close()
