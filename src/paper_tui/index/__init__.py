"""Everything Whoosh: schema, writing, query parsing, search. Nothing else imports whoosh.

The index is derived data: it can always be deleted and rebuilt from ``sources/`` (and the
annotations, which live in YAML). Three ideas keep it fast in pure Python:

* Indexing skips Whoosh's per-token objects (:class:`~paper_tui.index.schema.FoldedText`)
  and its posting pool (:mod:`~paper_tui.index.writer`); a big import is parsed in a
  second process while this one writes.
* Counting, filtering and facets work on sets of document numbers read straight from the
  posting blocks (:class:`~paper_tui.index.snapshot.Snapshot`), not on Whoosh's
  per-document matcher loop; only the top of a ranked list is scored until someone
  scrolls past it.
* Sort orders (venue/year/title, year, title) come from one sort-key column, computed once
  per index version and shared by every query.

Modules: ``schema`` (fields, analysis), ``snapshot`` (a point-in-time reader), ``plan``
(query parsing), ``vocabulary`` (fuzzy/prefix words, "did you mean"), ``results`` (hits,
result sets), ``writer`` (writing segments), ``packed`` (a posting block's bytes),
``whoosh_internals`` (every use of Whoosh's private parts), ``paper_index`` (the index
object the library uses). Nothing in an index names one of our classes: code can move.
"""

from paper_tui.index.paper_index import PaperIndex
from paper_tui.index.reordered import Reordered
from paper_tui.index.results import (
    Hit,
    Results,
    ResultSet,
    SearchPage,
    fragments,
    highlight_spans,
    page_of,
)
from paper_tui.index.schema import (
    SCHEMA_VERSION,
    SORTS,
    FoldedText,
    FoldFilter,
    Spans,
    stem,
    terms_of,
)

__all__ = ["SCHEMA_VERSION", "SORTS", "FoldFilter", "FoldedText", "Hit", "PaperIndex",
           "Reordered", "ResultSet", "Results", "SearchPage", "Spans", "fragments",
           "highlight_spans", "page_of", "stem", "terms_of"]
