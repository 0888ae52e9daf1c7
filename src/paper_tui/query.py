"""The query language, before any search engine sees it: folding, checks and rewrites.

Pure Python (no whoosh here): :mod:`paper_tui.index` turns the cleaned string into an
engine query. What lives here is what a user can get wrong and what makes ``MemR$^3$``,
``MemR³`` and ``memr3`` the same word.

Syntax: words (stemmed), ``"phrases"``, ``AND`` / ``OR`` / ``NOT`` / ``-word``,
parentheses, ``title:`` ``author:`` ``abstract:`` ``venue:`` ``name:`` ``keyword:``,
``year:2024`` ``year:2019..2023`` ``year:>=2020``, ``tag:`` ``status:`` ``starred:yes``
``list:`` ``note:`` ``by:NAME`` (a team member annotated it), the team's words
(``assigned:`` ``kept:N`` ``kept-by:`` ``disputed`` ``untouched``: :mod:`.team_words`),
``word*`` (prefix) and ``word~`` / ``word~2`` (fuzzy).
"""

from __future__ import annotations

import itertools
import re
import unicodedata

from paper_tui import team_words
from paper_tui.errors import QueryError

# What a user may type before ``:`` -> the index field it searches.
FIELDS: dict[str, str] = {
    "title": "title", "name": "name", "abstract": "abstract", "author": "authors",
    "authors": "authors", "venue": "venue", "year": "year", "keyword": "keywords",
    "keywords": "keywords", "tag": "tags", "tags": "tags", "status": "status",
    "starred": "starred", "list": "lists", "lists": "lists", "note": "note", "id": "id",
    "source": "source", "by": "by",
    **{name: name for name in team_words.FIELDS},
}
ANNOTATION_FIELDS = frozenset({"tags", "status", "starred", "lists", "note", "by",
                               *team_words.FIELDS})
"""Answered from the reader's work at query time, never from the index (``by:`` and the
team's words from the team's files)."""

WORD = re.compile(r"\w+(?:\.?\w+)*")
"""A word: the tokenizer the index uses (letters, digits, ``³``; inner dots kept)."""

_MATH = re.compile(r"(?<!\\)\$([^$]*)(?<!\\)\$")
_MATH_NOISE = re.compile(r"\\(?:mathrm|mathbf|mathit|text|textbf|textit|operatorname)\b|[\^_{}\\]")
_FIELD = re.compile(r"(?<![\w\"])([A-Za-z]+):(?=\S)")
_YEAR = re.compile(r"\byear:(\S*)", re.IGNORECASE)
_YEAR_RANGE = re.compile(r"(\d{4})?\.\.(\d{4})?")
_YEAR_CMP = re.compile(r"(>=|<=|>|<)(\d{4})")
_STARRED = re.compile(r"\bstarred:(\S+)", re.IGNORECASE)
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


def fold(text: str) -> str:
    """Case, accents and compatibility forms folded: ``Rodolà`` -> ``rodola``, ``³`` -> ``3``."""
    if text.isascii():
        return text.lower()
    text = unicodedata.normalize("NFKD", text)
    return "".join(ch for ch in text if not unicodedata.combining(ch)).casefold()


def strip_latex(text: str) -> str:
    """Inline math as plain characters: ``MemR$^3$`` -> ``MemR3``, ``$\\mathrm{L}_2$`` -> ``L2``."""
    return _MATH.sub(lambda m: _MATH_NOISE.sub("", m.group(1)), text)


def _year(m: re.Match[str]) -> str:
    value = m.group(1)
    if re.fullmatch(r"\d{4}", value):
        return f"year:{value}"
    if rng := _YEAR_RANGE.fullmatch(value):
        low, high = rng.group(1), rng.group(2)
        if not (low or high):
            raise QueryError("year range needs a year on at least one side, e.g. year:2019..2023")
        if low and high and low > high:
            raise QueryError(f"year range {value} is backwards: write year:{high}..{low}")
        return f"year:[{low or ''} TO {high or ''}]"
    if cmp := _YEAR_CMP.fullmatch(value):
        op, year = cmp.group(1), int(cmp.group(2))
        return {">=": f"year:[{year} TO]", ">": f"year:[{year + 1} TO]",
                "<=": f"year:[TO {year}]", "<": f"year:[TO {year - 1}]"}[op]
    raise QueryError(f"year:{value} is not a year: use year:2024, year:2019..2023 "
                     "or year:>=2020")


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
            shown = {k for k in FIELDS if k not in ("authors", "keywords", "tags", "lists",
                                                    *team_words.FIELDS)}
            known = ", ".join(sorted(shown | {"assigned", "kept", "kept-by"}))
            raise QueryError(f"unknown field {m.group(1)}: (known fields: {known})")


def _canonical_fields(query: str) -> str:
    """``Author:x`` -> ``authors:x``: the index's field names, in lower case."""
    return _FIELD.sub(lambda m: f"{FIELDS.get(m.group(1).lower(), m.group(1))}:", query)


def clean(query: str) -> str:
    """The query as the engine parses it; :class:`QueryError` for what cannot be meant."""
    check_size(query)
    query = " ".join(strip_latex(query).split())
    if not query:
        return ""
    _check_balance(query)
    query = team_words.rewrite(query)
    _check_fields(query)
    _check_operators(query)
    for m in re.finditer(r"(?<![\w\"])([A-Za-z]+):(?=\s|$)", query):
        raise QueryError(f"{m.group(1)}: needs something to search for after the colon")
    query = _YEAR.sub(_year, query)
    query = _STARRED.sub(_starred, query)
    query = _NOT_STATUS_NEW.sub(_TRIAGED, query)
    query = _STATUS_NEW.sub(_NOT_TRIAGED, query)
    return _canonical_fields(query)


def plain_words(query: str) -> list[str]:
    """The unqualified search words of a query (for spelling suggestions), folded."""
    text = re.sub(r"\b[A-Za-z]+:(\"[^\"]*\"|\S+)", " ", strip_latex(query))
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

