"""The full text of a paper's PDF in the index: the ``body`` field, ``has:pdf``, and a
snippet of the text around a match.

The text is derived data twice over: the PDF store keeps it beside each PDF
(``pdfs/<id>.txt``, extracted once), and the index holds only its postings, read from that
file whenever the index writes the paper (an import, a rebuild, a ``pdf get``): a rebuild
never extracts a PDF again. The index reads the texts through the :class:`BodyTexts` the
library hands it (nothing here knows the PDF store). Nothing of the body is stored in the
index: a snippet is cut from the text file when a search asks for one.

A body match ranks below a title or abstract match of the same words: the field is
boosted at :data:`~paper_tui.index.schema.BODY_BOOST`, and a paper found only through its
body is ranked after those found through their record (:func:`without_body`).
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterator
from typing import Any, Protocol

from whoosh import query as wq

from paper_tui.index.schema import BODY, stem
from paper_tui.model import Paper
from paper_tui.query.parse import HAS_PDF, WORD, fold
from paper_tui.trust.inert import inert_line

MAX_BODY = 1_000_000
"""The characters of a text indexed at most (~150,000 words, a few hundred pages): a
writer keeps a commit's postings in memory."""
SNIPPET_WIDTH = 80
"""Characters of text shown on each side of a match in a snippet."""
_STOP_AFTER = 200_000
"""Characters read past a snippet's first match looking for more: a snippet of a book
does not read the book."""


class BodyTexts(Protocol):
    """Where the index finds the papers' texts (the library's PDF store)."""

    def held(self) -> Collection[str]:
        """The ids of the papers whose PDF the library holds."""

    def text(self, paper_id: str) -> str | None:
        """The paper's cached text; None when there is none (then it is not indexed)."""


Extender = Callable[[Paper, dict[str, Any]], None]
"""Fills more of a paper's index document, from what the library keeps beside the papers
(a held PDF's text here, the reviews in :mod:`paper_tui.index.reviewed`): called with
each paper a writer writes."""


def body_extender(bodies: BodyTexts | None) -> Extender | None:
    """What gives each paper whose PDF is held its ``body`` (None: no PDF store)."""
    if bodies is None:
        return None
    held: frozenset[str] | None = None

    def extend(paper: Paper, doc: dict[str, Any]) -> None:
        nonlocal held
        if held is None:  # asked once per writer: a rebuild writes 87,549 papers
            held = frozenset(bodies.held())
        if paper.id in held:
            add_body(doc, bodies.text(paper.id))

    return extend


def add_body(doc: dict[str, Any], text: str | None) -> None:
    """Mark the index document ``doc`` as having a PDF (``has:pdf``) and give it the
    text, cut at :data:`MAX_BODY` characters."""
    doc["has"] = f"{doc['has']},{HAS_PDF}" if doc.get("has") else HAS_PDF
    if text and text.strip():
        doc[BODY] = text[:MAX_BODY]


def without_body(q: wq.Query) -> wq.Query:
    """``q`` with every word of the body taken out of its positive part: what a paper
    must match through its record alone (a leaf of the body is nothing; exclusions stay
    as they are)."""
    if isinstance(q, wq.Not):
        return q
    if isinstance(q, wq.AndNot):
        return wq.AndNot(without_body(q.a), q.b)
    if getattr(q, "fieldname", None) == BODY:
        return wq.NullQuery
    if q.is_leaf():
        return q
    return q.apply(without_body)


def body_matches(text: str, terms: Collection[str]) -> Iterator[tuple[int, int]]:
    """The character spans of the words of ``text`` whose stem is one of ``terms``."""
    for m in WORD.finditer(text):
        word = m.group()
        word = word.lower() if word.isascii() else fold(word)
        if len(word) > 1 and stem(word) in terms:
            yield m.start(), m.end()


def snippet(text: str, terms: Collection[str], width: int = SNIPPET_WIDTH,
            most: int = 3) -> str:
    """The text around the first matches of ``terms`` (stemmed), each match marked
    ``«like this»``, on one line, inert (no control character or escape sequence): ""
    when none of them is in it."""
    if not terms:
        return ""
    spans: list[tuple[int, int]] = []
    for start, end in body_matches(text, terms):
        if spans and start > spans[0][0] + _STOP_AFTER:
            break
        spans.append((start, end))
        if len(spans) >= 4 * most:
            break
    if not spans:
        return ""
    return inert_line(fragments(text, spans, width, most, one_line=True))


def fragments(text: str, spans: list[tuple[int, int]], width: int = 80, most: int = 3,
              *, one_line: bool = False) -> str:
    """Text around the first matches with each match marked ``«like this»`` (an abstract's
    highlights; with ``one_line``, a PDF's lines and columns folded into one line)."""
    if not spans:
        return ""
    pieces: list[str] = []
    windows: list[tuple[int, int]] = []
    for s, e in spans:
        if windows and s <= windows[-1][1]:
            windows[-1] = (windows[-1][0], max(windows[-1][1], e + width))
        elif len(windows) < most:
            windows.append((max(0, s - width), min(len(text), e + width)))
    for ws, we in windows:
        out, cursor = [], ws
        for s, e in spans:
            if s >= ws and e <= we:
                out += [text[cursor:s], "«", text[s:e], "»"]
                cursor = e
        out.append(text[cursor:we])
        joined = "".join(out)
        piece = " ".join(joined.split()) if one_line else joined.strip()
        pieces.append(("…" if ws > 0 else "") + piece + ("…" if we < len(text) else ""))
    return " ".join(pieces)
