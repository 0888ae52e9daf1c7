"""Parsing our query language into Whoosh queries, and the plan a search runs."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from whoosh import qparser
from whoosh import query as wq
from whoosh.fields import Schema
from whoosh.qparser import syntax

from paper_tui.index.lazy import cached
from paper_tui.index.schema import BOOSTS, DEFAULT_FIELDS, TEXT_FIELDS
from paper_tui.query.parse import fold

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


class LinearParser(qparser.QueryParser):
    """Whoosh's query parser, reading a query in time proportional to its length.

    Whoosh's parser tries each of its patterns (about 19) at every character of the query
    that no pattern has taken yet: the rest is the text of words. That costs the number of
    patterns at every letter of every word (4 µs a character: 0.4 s for a 100,000-letter
    word), and a pattern that scans ahead and fails costs the length of its scan at every
    character (quadratic: one 100,000-character word took minutes). Here:

    - where every pattern fails at a letter, digit or ``_``, the rest of that run of word
      characters is text too, without trying them at each one (:meth:`tag`);
    - ``'single quotes'`` and ``[a TO b]`` ranges scan at most :data:`MAX_SCAN` characters
      for their end (:func:`_bounded_patterns`; before: to the end of the query).

    ``"phrases"`` are left as they are: the query language checks that quotes pair, so each
    scan ends at the next quote and takes what it scanned. The property tests in
    ``tests/test_long_query.py`` check that this reads every query as Whoosh's own does.
    """

    def tag(self, text, pos=0, debug=False):
        """Whoosh's ``QueryParser.tag``, skipping the rest of a word where no pattern
        matched at a letter of it.

        Inside a run of word characters (``\\w``), at a character whose previous one is a
        word character too, only a pattern that can begin in the middle of a word can
        match; of the parser's patterns only ``field:`` (``\\w+:``) can, and where it
        failed at a letter it fails at every later letter of the same run (each reaches
        the same end, which is not a colon). A property test in
        ``tests/test_long_query.py`` checks that where no pattern matched at a letter, none
        matches in the rest of its word."""
        stack = []
        prev = pos
        taggers = self.taggers()
        end = len(text)

        def inter(startchar: int, endchar: int) -> syntax.WordNode:
            node = syntax.WordNode(text[startchar:endchar])
            node.startchar, node.endchar = startchar, endchar
            return node

        while pos < end:
            node = None
            for tagger in taggers:
                node = tagger.match(self, text, pos)
                if node is not None:
                    if node.endchar <= pos:
                        raise Exception(f"Token {tagger!r} did not move cursor forward. "
                                        f"({text!r}, {pos})")
                    if prev < pos:
                        stack.append(inter(prev, pos))
                    stack.append(node)
                    prev = pos = node.endchar
                    break
            if node is None:  # no pattern here, nor at the rest of this word's letters
                word = _WORD_RUN.match(text, pos)
                pos = word.end() if word else pos + 1
            elif not node:  # (as Whoosh's loop does for a node that is false)
                pos += 1
        if prev < end:
            stack.append(inter(prev, end))
        return self.group(stack)

    def parse(self, text, normalize=True, debug=False):
        """Whoosh's ``parse``, each word after the first of its kind left out of the text
        where that cannot change the query (:func:`repeats_left_out`): a pasted text
        repeats its words, and each costs Whoosh a query per field to build and then to
        normalise away (a normalised ``And`` keeps the first of equal subqueries)."""
        return super().parse(repeats_left_out(text) if normalize else text, normalize, debug)


_SPANNING = re.compile(r"(?:^|\W)'|[\[{]")
"""Where a ``'quoted term'`` or a ``[range]`` may start: it may hold several words, so
which words are in one is not known without parsing. (A ``'`` after a letter is text.)"""
_SYNTAX = re.escape("\"()*?~^:[]{}\u055e\u061f\u1367")  # where Whoosh's patterns start
_PLAIN = re.compile(rf"(?![+-])[^\s{_SYNTAX}]+")
"""A word no pattern takes a piece of: word characters and other punctuation, ``-`` and
``+`` inside (``KV-PRM``), ``'`` after a letter (``model's``; see :data:`_SPANNING`)."""
_OPERATORS = frozenset({"AND", "OR", "NOT", "ANDNOT", "ANDMAYBE", "REQUIRE"})


def repeats_left_out(text: str) -> str:
    """``text`` without the repeats of a word that stands alone at the top level, between
    two such words (or an end): ``a b a c`` -> ``a b c``.

    Such a word is one of the query's top-level "all of these" parts, wherever it is
    (not in parentheses or a phrase, not next to an operator, ``-``, ``^2`` or ``~``), and
    leaving it out only joins two such words, so the parse has the same parts less the
    repeat: the same query once normalised. Case does not count in ASCII words (every
    searched field folds case). A query where a quoted term or a range might span words
    is left as it is."""
    if _SPANNING.search(text):
        return text
    tokens = text.split(" ")
    alone = [bool(_PLAIN.fullmatch(t)) and t not in _OPERATORS for t in tokens]
    kept: list[str] = []
    seen: set[str] = set()
    depth, phrase = 0, False
    for i, token in enumerate(tokens):
        if not alone[i]:
            for ch in token:
                if ch == '"':
                    phrase = not phrase
                elif not phrase and ch in "()":
                    depth += 1 if ch == "(" else -1
        elif not phrase and depth == 0 and (i == 0 or alone[i - 1]) and \
                (i + 1 == len(tokens) or alone[i + 1]):
            key = token.lower() if token.isascii() else token
            if key in seen:
                continue
            seen.add(key)
        kept.append(token)
    return " ".join(kept) if len(kept) < len(tokens) else text


def build_parser(schema: Schema) -> qparser.QueryParser:
    """What ``qparser.MultifieldParser`` builds, as a :class:`LinearParser`."""
    parser = LinearParser(None, schema, group=qparser.AndGroup)
    parser.add_plugin(qparser.MultifieldPlugin(list(DEFAULT_FIELDS), fieldboosts=BOOSTS))
    parser.add_plugin(_FuzzyPlugin())
    # + and - only at the start of a word: "KV-PRM" and "tag:to-cite" are words.
    parser.add_plugin(qparser.PlusMinusPlugin(plusexpr=r"(?<![^\s(])\+",
                                              minusexpr=r"(?<![^\s(])-"))
    _bounded_patterns(parser)
    return parser


def _bounded_patterns(parser: qparser.QueryParser) -> None:
    """Two of Whoosh's default patterns scan to the end of the query for their end; these
    replace them, in their places (the order patterns are tried in), scanning at most
    :data:`MAX_SCAN` characters, so that a longer one is plain text."""
    n = MAX_SCAN
    bounded = {
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
    parser.plugins = [bounded.get(type(plugin), plugin) for plugin in parser.plugins]


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

