"""What the index holds: fields, the analyzer (folding, stemming) and its fast path,
the codec, the constants the other index modules share."""

from __future__ import annotations

import math
import struct
from collections.abc import Callable, Iterator
from typing import Any

from whoosh.analysis import (
    Filter,
    IDTokenizer,
    LowercaseFilter,
    RegexTokenizer,
    StemFilter,
    StopFilter,
)
from whoosh.analysis.filters import STOP_WORDS
from whoosh.codec.whoosh3 import W3Codec
from whoosh.columns import FixedBytesColumn, VarBytesColumn
from whoosh.fields import BOOLEAN, COLUMN, ID, KEYWORD, STORED, TEXT, Schema
from whoosh.lang import stemmer_for_language
from whoosh.system import pack_uint

from paper_tui.index.positions import PackedPositions, pickled_as
from paper_tui.index.whoosh_internals import codec_arguments
from paper_tui.model import Paper, fullness, version_key
from paper_tui.query import added as added_words
from paper_tui.query import team as team_words
from paper_tui.query.parse import NUMBER_FIELDS, WORD, fold

SCHEMA_VERSION = 16
"""7: positions packed (index/positions.py); 8: every block part packed; 9: no annotation
fields (the reader's work is answered from the overlay, :mod:`paper_tui.store.overlay`); 10: the
TOC pickles Whoosh's classes, not ours (an index is opened with :func:`build_schema`), and
posting blocks only stdlib types (:mod:`paper_tui.index.packed`); 11: the versionkey column
(versions of one paper from two sources, :mod:`paper_tui.index.versions`); 12: what the venue
says (decision, has, area, aff, country and their facets' values; the signals column:
:mod:`paper_tui.index.signals`); 13: a paper stored as :meth:`Paper.to_record` (fields at
their defaults left out) with the venue fields the importers fill; 14: ``ł``, ``ø``, ``æ`` …
folded to ``l``, ``o``, ``ae`` (:func:`paper_tui.query.parse.fold`); 15: the text of a paper's
PDF (``body``) and ``has:pdf`` (:mod:`paper_tui.index.fulltext`); 16: the reviews' texts
(``review``, ``meta``) and the rating change in the signals column
(:mod:`paper_tui.index.reviewed`)."""
Progress = Callable[[int], None]
Spans = dict[str, list[tuple[int, int]]]
"""Character spans of matched words: ``{"title": [(start, end)], "abstract": [...]}``."""

SORTS = ("relevance", "year", "title", "rating", "citations", "consensus", "rating-change")
BODY = "body"
"""The text of the paper's PDF (:mod:`paper_tui.index.fulltext`; ``fulltext:``)."""
BODY_BOOST = 0.1
"""A body word's weight beside a title's (3) or an abstract's (1): a paper's text says
the words of its field many times (and a paper found through its body alone is ranked
after those found through their record: :func:`~paper_tui.index.fulltext.without_body`)."""
REVIEW = "review"
"""The text of a paper's reviews, meta-reviews and decisions (``review:``; not a default
field: :mod:`paper_tui.index.reviewed`)."""
META = "meta"
"""The text of its meta-reviews and decisions alone (``meta:``)."""
DEFAULT_FIELDS = ("title", "name", "abstract", "authors", "keywords", BODY)
TEXT_FIELDS = frozenset({*DEFAULT_FIELDS, "title_exact", REVIEW, META})
"""The fields whose words rank a hit (BM25F)."""
K1, B = 1.2, 0.75  # BM25F, as Whoosh's default weighting


class Codec(W3Codec):
    """Whoosh's codec, minus per-block length statistics: they only serve Whoosh's own
    scorer (we rank with :meth:`Snapshot.scores`) and cost a column lookup per posting
    when a segment is written. Pickled (into the TOC, with each segment) as the
    ``W3Codec`` it reads like: ``length_stats`` is only read by a segment writer, and ours
    is always given :data:`CODEC`."""

    length_stats = False

    def __reduce__(self):
        return W3Codec, codec_arguments(self)


CODEC = Codec(blocklimit=1024, compression=0)
"""Posting blocks of 1,024 (Whoosh: 128), uncompressed: fewer per-block steps in pure
Python when whole posting lists are read for counting and scoring, and when written."""
BOOSTS = {"title": 3.0, "name": 3.0, "abstract": 1.0, "authors": 1.5, "keywords": 1.5,
          BODY: BODY_BOOST}
VOCAB_FILE = "vocabulary.txt"
MAX_EXPANSION = 64  # words a prefix* query may expand to (each is a posting list to read)
MAX_FUZZY = 12  # words a fuzzy~ query may expand to, closest first
SEPARATOR = "\x1f"
"""Between the whole values of a many-valued field (an affiliation may hold commas)."""
SIGNALS = "signals"
"""The column of the venue's numbers, one fixed-width record per document."""
SIGNAL_NAMES = ("rating", "spread", "confidence", "cites", "reviews", "rating_change")
SIGNAL_RECORD = struct.Struct("!" + "d" * len(SIGNAL_NAMES))
"""The mean rating, its spread, the mean confidence, the citations, the number of
reviews and the rating change (the newest mean of the rating history less the first:
:mod:`paper_tui.index.reviewed`): big-endian float64, NaN for unknown."""
UNKNOWN = SIGNAL_RECORD.pack(*[math.nan] * len(SIGNAL_NAMES))
"""The record of a paper the venue gives no number for."""


# -- analysis ------------------------------------------------------------------------------
class FoldFilter(Filter):
    """Lower case without accents or compatibility forms: ``Rodolà`` = ``rodola``,
    ``MemR³`` = ``memr3``, ``ﬁ`` = ``fi``. Pickled as Whoosh's ``LowercaseFilter`` (see
    :func:`~paper_tui.index.positions.pickled_as`)."""

    def __reduce__(self):
        return LowercaseFilter, ()

    def __call__(self, tokens):
        for t in tokens:
            t.text = fold(t.text)
            yield t


_STEMFN = stemmer_for_language("en")
_STEM_CACHE: dict[str, str] = {}


def stem(word: str) -> str:
    """The Snowball English stem of a folded word (Porter would turn running into runn)."""
    out = _STEM_CACHE.get(word)
    if out is None:
        out = _STEM_CACHE[word] = _STEMFN(word)
    return out


def analyzer(stemmed: bool):
    """``StemmingAnalyzer(stemfn=stemmer_for_language("en"))`` with folding instead of
    plain lower-casing; ``stemmed=False`` for names and the spelling vocabulary."""
    chain = RegexTokenizer(WORD.pattern) | FoldFilter() | StopFilter(minsize=2)
    return chain | StemFilter(stemfn=_STEMFN, cachesize=-1) if stemmed else chain


def terms_of(text: str, stemmed: bool = True) -> Iterator[tuple[int, str, int, int]]:
    """``(position, term, start, end)`` for each indexed word of ``text``: what the field's
    Whoosh analyzer yields, without its per-token objects (indexing and highlights)."""
    pos = None
    for i, m in enumerate(WORD.finditer(text)):
        word = m.group()
        word = word.lower() if word.isascii() else fold(word)
        if len(word) < 2 or word in STOP_WORDS:
            continue
        pos = i if pos is None else pos + 1
        yield pos, (stem(word) if stemmed else word), m.start(), m.end()


class FoldedText(TEXT):
    """A TEXT field whose ``index()`` is a fast path giving the same terms as its analyzer
    (pickled as a ``TEXT``: see :func:`~paper_tui.index.positions.pickled_as`)."""

    def __reduce__(self):
        return pickled_as(TEXT, self, "stemmed")

    def __init__(self, stemmed: bool = True, phrase: bool = True, field_boost: float = 1.0):
        super().__init__(analyzer=analyzer(stemmed), phrase=phrase, field_boost=field_boost)
        if phrase:
            self.format = PackedPositions(field_boost=field_boost)
        self.stemmed = stemmed

    def index(self, value, **kwargs):
        return self.index_folded(folded_words(value))

    def index_folded(self, folded: list[str]) -> list[tuple[bytes, int, float, bytes]]:
        """What :meth:`index` gives for a text whose :func:`folded_words` are ``folded``
        (the writer folds a text once for two fields and the spelling vocabulary)."""
        positions = folded_positions(folded, self.stemmed)
        if self.format.supports("positions"):
            encode, single = self.format.encode, _single_position(self.format)
            return [(term.encode(), len(ps), float(len(ps)),
                     single[ps[0]] if len(ps) == 1 and ps[0] < len(single) else encode(ps))
                    for term, ps in positions.items()]
        return [(term.encode(), len(ps), float(len(ps)), pack_uint(len(ps)))
                for term, ps in positions.items()]


_SINGLE: dict[type, list[bytes]] = {}


def _single_position(fmt) -> list[bytes]:
    """Encoded one-position postings, by position: most words occur once in a text."""
    single = _SINGLE.get(type(fmt))
    if single is None:
        single = _SINGLE[type(fmt)] = [fmt.encode([p]) for p in range(1024)]
    return single


def shared_values(fmt) -> dict[bytes, bytes]:
    """The one-position values :meth:`FoldedText.index` shares, by value: values that
    crossed a process boundary are mapped back to these, so the writer's buffer holds one
    object per distinct value (most postings have one position), as when they never left
    this process."""
    shared = _SHARED.get(type(fmt))
    if shared is None:
        shared = _SHARED[type(fmt)] = {v: v for v in _single_position(fmt)}
    return shared


_SHARED: dict[type, dict[bytes, bytes]] = {}


def folded_words(text: str) -> list[str]:
    """Every word of ``text`` (:data:`WORD`), folded: stop words and one-letter words too."""
    return [w.lower() if w.isascii() else fold(w) for w in WORD.findall(text)]


def folded_positions(folded: list[str], stemmed: bool = True) -> dict[str, list[int]]:
    """``{term: positions}`` as the field's analyzer would index a text whose
    :func:`folded_words` are ``folded`` (the hot path of indexing: whole-list operations
    instead of a generator of tokens)."""
    kept = [w for w in folded if len(w) > 1 and w not in STOP_WORDS]
    if not kept:
        return {}
    # Stop words are dropped and the rest renumbered from the first kept word's position.
    base = next(i for i, w in enumerate(folded) if len(w) > 1 and w not in STOP_WORDS)
    if stemmed:
        cached = _STEM_CACHE.get
        kept = [cached(w) or stem(w) for w in kept]
    out: dict[str, list[int]] = {}
    for pos, term in enumerate(kept, base):
        if term in out:
            out[term].append(pos)
        else:
            out[term] = [pos]
    return out


def build_schema() -> Schema:
    lower_id = IDTokenizer() | FoldFilter()
    whole = RegexTokenizer(rf"[^{SEPARATOR}]+")
    return Schema(
        id=ID(stored=True, unique=True, sortable=True),
        source=ID(),
        title=FoldedText(field_boost=1.0),
        title_exact=FoldedText(stemmed=False, phrase=False),
        name=FoldedText(),
        authors=FoldedText(stemmed=False, phrase=False),
        abstract=FoldedText(),
        body=FoldedText(),  # never stored: a snippet is read from the text file
        review=FoldedText(),  # the reviews' texts, never stored (paper_tui.index.reviewed)
        meta=FoldedText(),
        venue=ID(analyzer=lower_id),
        year=ID(),
        keywords=KEYWORD(commas=True, lowercase=True, scorable=True),
        sortkey=COLUMN(VarBytesColumn()),
        versionkey=COLUMN(VarBytesColumn()),
        paper=STORED(),
        # what the venue says (paper_tui.index.signals): words, and whole values for facets
        decision=KEYWORD(commas=True, lowercase=True),
        has=KEYWORD(commas=True, lowercase=True),
        area=FoldedText(),
        aff=FoldedText(stemmed=False, phrase=False),
        country=ID(analyzer=whole | FoldFilter()),
        area_name=ID(analyzer=whole),
        aff_name=ID(analyzer=whole),
        country_name=ID(analyzer=whole),
        signals=COLUMN(FixedBytesColumn(SIGNAL_RECORD.size, default=UNKNOWN)),
    )


def query_schema() -> Schema:
    """The index's fields plus the annotation fields, for parsing queries only: the index
    holds no annotations, but ``tag:x`` must parse (and fold) as it always has; the
    overlay answers those leaves (:mod:`paper_tui.index.annotation_filter`)."""
    schema = build_schema()
    schema.add("tags", KEYWORD(commas=True, lowercase=True))
    schema.add("status", ID(analyzer=IDTokenizer() | FoldFilter()))
    schema.add("starred", BOOLEAN())
    schema.add("lists", KEYWORD(commas=True, lowercase=True))
    schema.add("note", FoldedText())
    schema.add("by", KEYWORD(commas=True, lowercase=True))
    # the team's words (paper_tui/query/team.py), answered from the team's files
    for name in (team_words.ASSIGNED, team_words.KEPT_BY):
        schema.add(name, KEYWORD(commas=True, lowercase=True))
    for name in (team_words.KEPT, team_words.TEAM):
        schema.add(name, ID())
    # added:[t TO] and watch:NAME (paper_tui/query/added.py), answered from arrivals
    for name in added_words.FIELDS:
        schema.add(name, ID())
    for name in NUMBER_FIELDS:  # rating:[6 TO] parses as a term range the column answers
        schema.add(name, ID())
    return schema


def note_terms(text: str) -> list[str]:
    """A note's searchable words in order, as ``note:`` queries are analysed."""
    return [term for _, term, _, _ in terms_of(text)]


def stored_fields(paper: Paper) -> dict[str, Any]:
    """The paper as stored in the index (:meth:`Paper.to_record`: fields at their defaults
    left out; what :meth:`Paper.from_dict` reads back)."""
    return paper.to_record()


def versionkey(paper: Paper) -> bytes:
    """``key \x1f year \x1f fullness`` (:func:`~paper_tui.model.version_key`): what groups
    the versions of one paper, and which of them is shown; empty for a paper never grouped."""
    key = version_key(paper)
    if not key:
        return b""
    return f"{key}\x1f{paper.year or 0}\x1f{fullness(paper)}".encode()


def sortkey(paper: Paper) -> bytes:
    year = paper.year or 0
    return "\x1f".join((fold(paper.venue), f"{9999 - year:04d}",
                        fold(paper.display_title))).encode()

