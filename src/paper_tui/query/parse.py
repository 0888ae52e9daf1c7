"""The query language, before any search engine sees it: folding, checks and rewrites.

Pure Python (no whoosh here): :mod:`paper_tui.index` turns the cleaned string into an
engine query. What lives here is what a user can get wrong and what makes ``MemR$^3$``,
``MemR³`` and ``memr3`` the same word.

Syntax: words (stemmed), ``"phrases"``, ``AND`` / ``OR`` / ``NOT`` / ``-word``,
parentheses, ``title:`` ``author:`` ``abstract:`` ``venue:`` ``name:`` ``keyword:``,
``fulltext:`` (the text of the paper's PDF), ``review:`` (the text of its reviews,
meta-reviews and decisions) and ``meta:`` (of its meta-reviews and decisions alone),
``year:2024`` ``year:2019..2023`` ``year:>=2020``, ``tag:`` ``status:`` ``starred:yes``
``list:`` ``note:`` ``by:NAME`` (a team member annotated it), the team's words
(``assigned:`` ``kept:N`` ``kept-by:`` ``disputed`` ``untouched``: :mod:`.team`),
when a paper entered the library (``added:today`` ``added:7d`` ``added:>=2026-11-30``) and
``watch:NAME`` (:mod:`.added`),
``word*`` (prefix) and ``word~`` / ``word~2`` (fuzzy). What the venue says: ``decision:oral``
(``accepted``: every accepted kind), ``area:`` ``aff:`` ``country:``, ``has:code`` and numbers
as years are written (``rating:>=6``, ``rating:5.5..7``, ``confidence:`` ``reviews:``
``cites:``; ``rating_change:>0``: the newest mean rating of its history less the first).
"""

from __future__ import annotations

import itertools
import re
import time
import unicodedata

from paper_tui.errors import QueryError
from paper_tui.model import DECISIONS
from paper_tui.query import added as added_words
from paper_tui.query import ranges
from paper_tui.query import team as team_words
from paper_tui.venue.signals import MAX_CITATIONS, MAX_REVIEWS, MAX_SCORE

# What a user may type before ``:`` -> the index field it searches.
FIELDS: dict[str, str] = {
    "title": "title", "name": "name", "abstract": "abstract", "author": "authors",
    "authors": "authors", "venue": "venue", "year": "year", "keyword": "keywords",
    "keywords": "keywords", "tag": "tags", "tags": "tags", "status": "status",
    "starred": "starred", "list": "lists", "lists": "lists", "note": "note", "id": "id",
    "source": "source", "by": "by", "decision": "decision", "area": "area", "aff": "aff",
    "country": "country", "has": "has", "rating": "rating", "confidence": "confidence",
    "reviews": "reviews", "cites": "cites", "citations": "cites", "fulltext": "body",
    "review": "review", "meta": "meta", "rating_change": "rating_change",
    **{name: name for name in team_words.FIELDS},
    **{name: name for name in added_words.FIELDS},
}
ANNOTATION_FIELDS = frozenset({"tags", "status", "starred", "lists", "note", "by",
                               *team_words.FIELDS, *added_words.FIELDS})
"""Answered from the reader's work at query time, never from the index (``by:`` and the
team's words from the team's files, ``added:`` and ``watch:`` from the first-seen times
beside the sources)."""
_ALIASES = frozenset({"authors", "keywords", "tags", "lists", "citations"})
"""Other names of a field, left out of the list of known fields an error names."""

NUMBER_FIELDS = {"rating": float, "confidence": float, "reviews": int, "cites": int,
                 "rating_change": float}
"""Words whose value is a number or a range of numbers: the reviewers' mean rating and
confidence (fractions), the number of reviews and of citations (whole numbers), the
rating change (the newest mean of the rating history less the first; unknown with one
point). The index answers them from a numeric column; an unknown value is in no range."""
NUMBER_RANGES: dict[str, tuple[float, float]] = {
    "rating": (0, MAX_SCORE), "confidence": (0, MAX_SCORE), "reviews": (0, MAX_REVIEWS),
    "cites": (0, MAX_CITATIONS), "rating_change": (-MAX_SCORE, MAX_SCORE)}
"""What each number word can be: the caps the numbers of the source files are read with
(:mod:`paper_tui.venue.signals`); a bound beyond them is one line, not a search."""
YEARS = (1, 9999)
"""The years ``year:`` takes (the index keeps a year as its digits, four of them)."""
_NUMBER_EXAMPLES = {"rating": "rating:>=6 or rating:5..7",
                    "confidence": "confidence:>=4 or confidence:3..5",
                    "reviews": "reviews:>=4 or reviews:3..5",
                    "cites": "cites:>=100 or cites:10..500",
                    "rating_change": "rating_change:>0 or rating_change:-0.5..0.5"}
ACCEPTED = "accepted"
"""``decision:accepted``: every decision that accepts the paper (``model.ACCEPTED``)."""
DECISION_WORDS = (*DECISIONS, ACCEPTED)
DECISION_FORMS = {"rejected": "reject", "rejects": "reject", "rejection": "reject",
                  "withdraw": "withdrawn", "withdrew": "withdrawn", "withdrawal": "withdrawn",
                  "desk-rejected": "desk-reject", "desk-rejection": "desk-reject",
                  "deskreject": "desk-reject", "deskrejected": "desk-reject",
                  "orals": "oral", "spotlights": "spotlight", "posters": "poster",
                  "accepts": "accept", "workshops": "workshop", "finding": "findings",
                  "submission": "submitted", "submissions": "submitted"}
"""The other usual forms of a decision (``decision:rejected``, ``decision:"desk
rejected"``, ``decision:orals``), read as the decision; spaces and ``_`` are ``-``."""
HAS_VALUES = ("code", "abstract", "award", "reviews")
"""``has:code`` (a link to its code), ``has:abstract``, ``has:award``, ``has:reviews``
(reviewers' ratings known): what the venue says."""
HAS_PDF = "pdf"
"""``has:pdf``: the library holds the paper's PDF (``paper-tui pdf get``)."""

WORD = re.compile(r"\w+(?:\.?\w+)*")
"""A word: the tokenizer the index uses (letters, digits, ``³``; inner dots kept)."""

_MATH = re.compile(r"(?<!\\)\$([^$]*)(?<!\\)\$")
_MATH_NOISE = re.compile(r"\\(?:mathrm|mathbf|mathit|text|textbf|textit|operatorname)\b|[\^_{}\\]")
_NAME = r"[A-Za-z]+(?:_[A-Za-z]+)*"
"""A field's name: letters, words joined by ``_`` (``rating_change``)."""
_FIELD = re.compile(rf"(?<![\w\"])({_NAME}):(?=\S)")
_YEAR = re.compile(r"\byear:([^\s()]*)", re.IGNORECASE)
_YEAR_RANGE = re.compile(r"([0-9]+)?\.\.([0-9]+)?")
_YEAR_CMP = re.compile(r"(>=|<=|>|<)([0-9]+)")
_STARRED = re.compile(r"\bstarred:([^\s()]+)", re.IGNORECASE)
# A phrase (left as it is), or one of the venue's words with its value (a phrase or a run
# up to a space or parenthesis).
_VENUE_WORD = re.compile(r'"[^"]*"|(?<![\w"])(decision|has|rating_change|rating|confidence|'
                         r'reviews|cites|citations):("[^"]*"|[^\s()"]*)', re.IGNORECASE)
_NUMBER_CMP = re.compile(r"(>=|<=|>|<)(.*)")
# "new" is the status of every paper with none stored: match it as "none of the others".
_STATUS_NEW = re.compile(r"(?<![\w\"])status:\"?new\"?(?=\s|\)|$)", re.IGNORECASE)
_NOT_TRIAGED = "(NOT status:to-read AND NOT status:read AND NOT status:skipped)"
_NOT_STATUS_NEW = re.compile(r"(?:(?<![\w\"])-|\bNOT\s+)status:\"?new\"?(?=\s|\)|$)",
                             re.IGNORECASE)
_TRIAGED = "(status:to-read OR status:read OR status:skipped)"
_TRUE = {"yes", "y", "true", "1", "on"}
_FALSE = {"no", "n", "false", "0", "off"}
_OPERATORS = {"AND", "OR", "NOT", "ANDNOT", "ANDMAYBE"}
MAX_LENGTH = 200_000
"""The longest query searched, in characters: a 100 KB paste and then some. Reading a
query costs time in proportion to its length (about 0.08 s CPU per 100,000 characters of
one word); the words and symbols in it are bounded below."""
MAX_WORDS = 1_000
"""The most words a query may have (a long abstract pasted whole has 500); a word is what
spaces separate and holds a letter or digit (``title:a``, ``a~2`` and ``-a`` are one word
each). Each distinct word costs Whoosh a query per field to build and the index a posting
list per field to read, mask and score (0.5-1.3 ms a word on 87,549 papers, and more once
they no longer fit in the posting cache): 1,000 answer in about a second there; 13,000
words of pasted text would take half a minute."""
MAX_SYMBOLS = 1_000
"""The most symbols (characters other than letters, digits and spaces) a query may have:
each of ``( ) " * ? ~ ^`` … costs Whoosh up to 0.2 ms (``~`` 100,000 times took 12 s), and
a symbol inside a word splits it into more terms."""
_SYMBOL = re.compile(r"[^\w\s]")
_HAS_WORD = re.compile(r"\w")


def check_size(query: str) -> None:
    """:class:`QueryError` for a query longer than the language allows (characters, words
    or symbols): one line saying which and by how much, in time linear in its length."""
    if len(query) > MAX_LENGTH:
        raise QueryError(f"the query is {len(query):,} characters long: a query is at most "
                         f"{MAX_LENGTH:,}")
    words = sum(1 for piece in query.split() if _HAS_WORD.search(piece))
    if words > MAX_WORDS:
        raise QueryError(f"the query has {words:,} words: a query has at most {MAX_WORDS:,}")
    symbols = len(query) - len(_SYMBOL.sub("", query))
    if symbols > MAX_SYMBOLS:
        raise QueryError(f"the query has {symbols:,} symbols (characters other than letters, "
                         f"digits and spaces): a query has at most {MAX_SYMBOLS:,}")


_LETTERS = str.maketrans({"ł": "l", "ø": "o", "đ": "d", "ð": "d", "ħ": "h", "ı": "i",
                          "ŀ": "l", "ŧ": "t", "æ": "ae", "œ": "oe", "þ": "th"})
"""Letters Unicode does not decompose into a base letter and a mark, read as that letter
(``Łukasz`` = ``lukasz``, ``Jørgensen`` = ``jorgensen``); ``ß`` is ``ss`` by casefold."""


def fold(text: str) -> str:
    """Case, accents and compatibility forms folded: ``Rodolà`` -> ``rodola``, ``³`` -> ``3``,
    ``Łukasz`` -> ``lukasz``."""
    if text.isascii():
        return text.lower()
    text = unicodedata.normalize("NFKD", text)
    return "".join(ch for ch in text if not unicodedata.combining(ch)).casefold() \
        .translate(_LETTERS)


def strip_latex(text: str) -> str:
    """Inline math as plain characters: ``MemR$^3$`` -> ``MemR3``, ``$\\mathrm{L}_2$`` -> ``L2``."""
    return _MATH.sub(lambda m: _MATH_NOISE.sub("", m.group(1)), text)


def _year(m: re.Match[str]) -> str:
    value = m.group(1)

    def year(text: str) -> int:
        try:
            return ranges.whole(text, *YEARS)
        except ranges.BadValue as exc:
            said = "" if text == value else f": {ranges.shown(text)}"
            raise QueryError(f"year:{ranges.shown(value)}{said} {exc}: years run from "
                             f"{YEARS[0]:04d} to {YEARS[1]}") from None

    if re.fullmatch(r"[0-9]+", value):
        return f"year:{year(value):04d}"
    if rng := _YEAR_RANGE.fullmatch(value):
        low, high = rng.group(1), rng.group(2)
        if not (low or high):
            raise QueryError("year range needs a year on at least one side, e.g. year:2019..2023")
        first, last = (year(low) if low else None), (year(high) if high else None)
        if first is not None and last is not None and first > last:
            raise QueryError(f"year range {value} is backwards: write year:{high}..{low}")
        return _range("year", f"{first:04d}" if first else "", f"{last:04d}" if last else "")
    if cmp := _YEAR_CMP.fullmatch(value):
        op, bound = cmp.group(1), year(cmp.group(2))
        bound += {">": 1, "<": -1}.get(op, 0)
        if not YEARS[0] <= bound <= YEARS[1]:
            raise QueryError(f"year:{value} finds no year: years run from {YEARS[0]:04d} "
                             f"to {YEARS[1]}")
        return f"year:[{bound:04d} TO]" if op.startswith(">") else f"year:[TO {bound:04d}]"
    raise QueryError(f"year:{ranges.shown(value)} is not a year: use year:2024, "
                     "year:2019..2023 or year:>=2020")


def _venue_word(m: re.Match[str]) -> str:
    """One of the venue's words checked and written as the engine reads it (a phrase is
    left as it is)."""
    if m.group(1) is None:
        return m.group(0)
    field = FIELDS[m.group(1).lower()]
    value = m.group(2)
    if not value:
        raise QueryError(f"{m.group(1)}: needs something to search for after the colon")
    if field in NUMBER_FIELDS:
        return _number(field, value)
    word = fold(value.strip('"').strip())
    if field == "decision":
        word = re.sub(r"[\s_]+", "-", word)
        word = DECISION_FORMS.get(word, word)
        if word not in DECISION_WORDS:
            raise QueryError(f"decision:{value} is not a decision: use one of "
                             f"{', '.join(DECISION_WORDS)}")
        return f"decision:{word}"
    if word not in HAS_VALUES and word != HAS_PDF:
        known = [f"has:{v}" for v in HAS_VALUES]
        raise QueryError(f"has:{value} is unknown: use {', '.join(known[:-1])} or "
                         f"{known[-1]}")
    return f"has:{word}"


def _number(field: str, value: str) -> str:
    """``rating:>=6`` -> ``rating:[6.0 TO]``, ``reviews:3..5`` -> ``reviews:[3 TO 5]``,
    ``cites:100`` -> ``cites:[100 TO 100]``; each bound read in its range
    (:data:`NUMBER_RANGES`) and written as the number read."""
    whole = NUMBER_FIELDS[field] is int
    least, most = NUMBER_RANGES[field]

    def number(text: str) -> str:
        try:
            if whole:
                return str(ranges.whole(text, int(least), int(most)))
            read = ranges.fraction(text, least, most)
        except ranges.NotANumber as exc:
            raise QueryError(f"{field}:{ranges.shown(value)} {exc}: use "
                             f"{_NUMBER_EXAMPLES[field]}") from None
        except ranges.OutOfRange as exc:
            said = "" if text == value else f": {ranges.shown(text)}"
            raise QueryError(f"{field}:{ranges.shown(value)}{said} {exc}") from None
        written = repr(read)  # no exponent: Whoosh's parser would split 1e-05
        return written if "e" not in written else f"{read:.20f}"

    if cmp := _NUMBER_CMP.fullmatch(value):
        op, bound = cmp.group(1), number(cmp.group(2))
        return {">=": f"{field}:[{bound} TO]", ">": f"{field}:{{{bound} TO]",
                "<=": f"{field}:[TO {bound}]", "<": f"{field}:[TO {bound}}}"}[op]
    low, dots, high = value.partition("..")
    if not dots:
        bound = number(value)
        return f"{field}:[{bound} TO {bound}]"
    if not (low or high):
        raise QueryError(f"{field} range needs a number on at least one side, e.g. "
                         f"{_NUMBER_EXAMPLES[field].split(' or ')[-1]}")
    first, last = number(low) if low else "", number(high) if high else ""
    if first and last and float(first) > float(last):
        raise QueryError(f"{field} range {value} is backwards: write {field}:{high}..{low}")
    return _range(field, first, last)


def _range(field: str, low: str, high: str) -> str:
    """``field:[low TO high]`` with an open end left out, space and all: Whoosh reads
    ``[2019 TO ]`` as a range that matches nothing."""
    return f"{field}:[{f'{low} ' if low else ''}TO{f' {high}' if high else ''}]"


def _starred(m: re.Match[str]) -> str:
    value = m.group(1).lower()
    if value in _TRUE:
        return "starred:true"
    if value in _FALSE:
        return "starred:false"
    raise QueryError(f"starred:{m.group(1)} should be starred:yes or starred:no")


def _check_balance(query: str) -> None:
    if query.count('"') % 2:
        raise QueryError('a quote is not closed: phrases are written "like this"')
    depth = 0
    in_phrase = False
    for ch in query:
        if ch == '"':
            in_phrase = not in_phrase
        elif not in_phrase and ch == "(":
            depth += 1
        elif not in_phrase and ch == ")":
            depth -= 1
            if depth < 0:
                raise QueryError("a ')' has no matching '('")
    if depth:
        raise QueryError("a '(' is not closed")


def _check_operators(query: str) -> None:
    words = [w for w in re.split(r"[\s()]+", re.sub(r'"[^"]*"', " x ", query)) if w]
    if not words:
        return
    if words[0] in _OPERATORS - {"NOT"}:
        raise QueryError(f"the query starts with {words[0]}: put a word before it")
    if words[-1] in _OPERATORS:
        raise QueryError(f"the query ends with {words[-1]}: put a word after it")
    for a, b in itertools.pairwise(words):
        if a in _OPERATORS and b in _OPERATORS - {"NOT"}:
            raise QueryError(f"{a} {b}: two operators in a row")


def _check_fields(query: str) -> None:
    outside = re.sub(r'"[^"]*"', " ", query)
    for m in _FIELD.finditer(outside):
        name = m.group(1).lower()
        if name not in FIELDS:
            shown = {k for k in FIELDS if k not in _ALIASES and k not in team_words.FIELDS}
            known = ", ".join(sorted(shown | {"assigned", "kept", "kept-by"}))
            raise QueryError(f"unknown field {m.group(1)}: (known fields: {known})")


def _canonical_fields(query: str) -> str:
    """``Author:x`` -> ``authors:x``: the index's field names, in lower case."""
    return _FIELD.sub(lambda m: f"{FIELDS.get(m.group(1).lower(), m.group(1))}:", query)


def clean(query: str, watch_query: added_words.WatchQuery | None = None,
          now: float | None = None) -> str:
    """The query as the engine parses it; :class:`QueryError` for what cannot be meant.

    ``watch_query`` finds a watch's query for ``watch:NAME``; ``now`` is the time
    ``added:today`` and ``added:7d`` count from (default: now)."""
    check_size(query)
    query = " ".join(strip_latex(query).split())
    if not query:
        return ""
    _check_balance(query)
    query = added_words.rewrite(query, time.time() if now is None else now, watch_query)
    query = team_words.rewrite(query)
    _check_fields(query)
    _check_operators(query)
    for m in re.finditer(rf"(?<![\w\"])({_NAME}):(?=\s|$)", query):
        raise QueryError(f"{m.group(1)}: needs something to search for after the colon")
    query = _YEAR.sub(_year, query)
    query = _VENUE_WORD.sub(_venue_word, query)
    query = _STARRED.sub(_starred, query)
    query = _NOT_STATUS_NEW.sub(_TRIAGED, query)
    query = _STATUS_NEW.sub(_NOT_TRIAGED, query)
    return _canonical_fields(query)


def plain_words(query: str) -> list[str]:
    """The unqualified search words of a query (for spelling suggestions), folded."""
    text = re.sub(rf"\b{_NAME}:(\"[^\"]*\"|\S+)", " ", strip_latex(query))
    text = re.sub(r"(?<!\w)-\S+", " ", text)
    words = []
    for m in WORD.finditer(text):
        word = m.group(0)
        if word in _OPERATORS:
            continue
        end = m.end()
        if end < len(text) and text[end] in "*~":
            continue
        words.append(fold(word))
    return words

