"""Parsing our query language into Whoosh queries, and the plan a search runs."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from whoosh import qparser
from whoosh import query as wq
from whoosh.fields import Schema

from paper_tui.index.lazy import cached
from paper_tui.index.schema import BOOSTS, DEFAULT_FIELDS, TEXT_FIELDS
from paper_tui.query import fold

EXACT_BOOST = 3.5
"""A title word as typed (unstemmed, field title_exact) ranks above another form of it; with
untouched BM25 length normalisation there, it is also what prefers a short title. Tuned on
known-item queries (3 words of a title): 1.5 -> 3.5 took rank 1 from 83% to 85%."""


# -- parsing -------------------------------------------------------------------------------
class _FuzzyPlugin(qparser.FuzzyTermPlugin):
    """``word~``: keeps the word as typed (not stemmed) for the vocabulary to expand."""

    class FuzzyTermNode(qparser.FuzzyTermPlugin.FuzzyTermNode):
        def query(self, parser):
            q = super().query(parser)
            if isinstance(q, wq.FuzzyTerm):
                q.text = fold(self.text)
            return q


MAX_SCAN = 256
"""How far the parser looks ahead for the end of a ``'single-quoted term'`` or a
``[range TO end]``: their text is at most this long."""
_WORD_RUN = re.compile(r"\w+")


def build_parser(schema: Schema) -> qparser.QueryParser:
    parser = qparser.MultifieldParser(list(DEFAULT_FIELDS), schema, fieldboosts=BOOSTS,
                                      group=qparser.AndGroup)
    parser.add_plugin(_FuzzyPlugin())
    # + and - only at the start of a word: "KV-PRM" and "tag:to-cite" are words.
    parser.add_plugin(qparser.PlusMinusPlugin(plusexpr=r"(?<![^\s(])\+",
                                              minusexpr=r"(?<![^\s(])-"))
    _linear_patterns(parser)
    return parser


def _linear_patterns(parser: qparser.QueryParser) -> None:
    """Whoosh's parser tries each of its patterns at every character of the query that no
    pattern has taken yet, so a pattern that scans ahead and fails costs the length of its
    scan at every character: one 100,000-character word took minutes. Three of the default
    patterns scan without bound; these replace them, in their places (the order patterns
    are tried in), so that parsing costs time in proportion to the query's length:

    - ``field:`` is tried once per word (:class:`_FieldsPlugin`), reading as before;
    - ``'single quotes'`` and ``[a TO b]`` ranges scan at most :data:`MAX_SCAN` characters
      for their end (before: to the end of the query), so a longer one is plain text.

    ``"phrases"`` are left as they are: the query language checks that quotes pair, so
    each scan ends at the next quote and takes what it scanned."""
    n = MAX_SCAN
    linear = {
        qparser.FieldsPlugin: _FieldsPlugin(),
        qparser.SingleQuotePlugin: qparser.SingleQuotePlugin(
            expr=rf"(^|(?<=\W))'(?P<text>.{{0,{n}}}?)'(?=\s|\]|[)}}]|$)"),
        qparser.RangePlugin: qparser.RangePlugin(expr=re.compile(rf"""
            (?P<open>\{{|\[)
            (?P<start>('[^']{{0,{n}}}?'\s+)|([^\]}}]{{1,{n}}}?(?=[Tt][Oo])))?
            [Tt][Oo]
            (?P<end>(\s+'[^']{{0,{n}}}?')|([^\]}}]{{1,{n}}}?))?
            (?P<close>}}|])
            """, re.VERBOSE)),
    }
    parser.plugins = [linear.get(type(plugin), plugin) for plugin in parser.plugins]


class _FieldsPlugin(qparser.FieldsPlugin):
    """Whoosh's ``field:`` (``\\w+:``), tried once per word instead of at every letter."""

    def taggers(self, parser):
        return [(_FieldnameTagger(self.expr), 0)]


class _FieldnameTagger(qparser.FieldsPlugin.FieldnameTagger):
    """Where ``\\w+:`` fails at a letter, it fails at every later letter of the same word
    (each reaches the same end, which is not a colon): the rest of the word is skipped.
    One per parse (Whoosh asks the plugin for its taggers at each parse)."""

    def __init__(self, expr: str) -> None:
        super().__init__(expr)
        self._text: str | None = None
        self._word_end = 0

    def match(self, parser, text, pos):
        if text is self._text and pos < self._word_end:
            return None
        node = super().match(parser, text, pos)
        if node is None and (word := _WORD_RUN.match(text, pos)):
            self._text, self._word_end = text, word.end()
        return node


@dataclass
class Plan:
    """A parsed query: the all-words query, the any-word query (when different), and the
    positive terms per field for highlighting."""

    strict: wq.Query
    loose: wq.Query | None
    terms: dict[str, set[str]]
    exact: list[str] = field(default_factory=list)  # the plain words as typed, folded

    @cached
    def scoring(self) -> list[tuple[str, str, float]]:
        """``(field, term, boost)`` of every positive word in a text field: what ranks."""
        best: dict[tuple[str, str], float] = {}

        def walk(q: wq.Query) -> None:
            if isinstance(q, wq.Not):
                return
            if isinstance(q, wq.AndNot):
                return walk(q.a)
            if isinstance(q, wq.Term) and q.fieldname in TEXT_FIELDS:
                text = q.text.decode() if isinstance(q.text, bytes) else str(q.text)
                key = (q.fieldname, text)
                best[key] = max(best.get(key, 0.0), q.boost)
            elif isinstance(q, wq.Phrase) and q.fieldname in TEXT_FIELDS:
                for word in q.words:
                    best[(q.fieldname, word)] = max(best.get((q.fieldname, word), 0.0), q.boost)
            for child in q.children():
                walk(child)

        walk(self.strict)
        for word in self.exact:
            best[("title_exact", word)] = EXACT_BOOST
        return [(f, t, b) for (f, t), b in best.items()]


def loosen(strict: wq.Query) -> wq.Query | None:
    """The "some of the words" query ranked below the "all words" one: the plain words
    become optional, field filters (year:, tag: …) and exclusions stay."""
    q, excluded = strict, []
    if isinstance(q, wq.AndNot):
        q, excluded = q.a, [q.b]
    words: list[wq.Query] = []
    required: list[wq.Query] = []
    for child in q.subqueries if isinstance(q, wq.And) else [q]:
        if isinstance(child, wq.Not):
            excluded.append(child.query)
        elif _fieldnames(child) <= set(DEFAULT_FIELDS):
            words.append(child)
        else:
            required.append(child)
    if len(words) < 2:
        return None
    loose: wq.Query = wq.Or(words) if not required else wq.And([*required, wq.Or(words)])
    if excluded:
        loose = wq.AndNot(loose, excluded[0] if len(excluded) == 1 else wq.Or(excluded))
    return loose


def _fieldnames(q: wq.Query) -> set[str | None]:
    """The fields of a query's leaves (None for a leaf that names none)."""
    return {getattr(leaf, "fieldname", None) for leaf in ([q] if q.is_leaf() else q.leaves())}


def positive_terms(q: wq.Query, out: dict[str, set[str]]) -> dict[str, set[str]]:
    if isinstance(q, wq.Not):
        return out
    if isinstance(q, wq.AndNot):
        return positive_terms(q.a, out)
    if isinstance(q, wq.Term):
        text = q.text.decode() if isinstance(q.text, bytes) else str(q.text)
        out.setdefault(q.fieldname, set()).add(text)
    elif isinstance(q, wq.Phrase):
        out.setdefault(q.fieldname, set()).update(q.words)
    for child in q.children():
        positive_terms(child, out)
    return out

