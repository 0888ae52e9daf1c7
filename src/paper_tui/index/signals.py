"""What the venue says about each paper, as the index holds it, and how it is read back.

Words (``decision:``, ``has:``, ``area:``, ``aff:``, ``country:``) are fields like any
other: ``decision`` holds the normalised decision and ``accepted`` beside an accepted one,
``has`` what a paper has (``code``, ``abstract``, ``award``, ``reviews``). Facets of
many-valued fields count the values as written, kept in fields of their own
(``area_name``, ``aff_name``, ``country_name``: one term per whole value).

Numbers (the reviewers' mean rating, its spread and mean confidence, the number of
reviews, the citations; and the rating change, which :mod:`paper_tui.index.reviewed` fills
from the rating history) are one fixed-width record per document in the ``signals``
column, unknown as NaN: a range (``rating:>=6``) and a sort (by rating, citations,
consensus or rating change) are one numpy operation over every document, and an unknown
value is in no range and sorts last.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from paper_tui.index.lazy import np
from paper_tui.index.schema import SEPARATOR, SIGNAL_NAMES, SIGNAL_RECORD, SIGNALS, UNKNOWN
from paper_tui.index.whoosh_internals import fixed_column_bytes
from paper_tui.model import ACCEPTED, Paper
from paper_tui.query.parse import ACCEPTED as ACCEPTED_WORD
from paper_tui.query.parse import fold

SIGNAL_SORTS = ("rating", "citations", "consensus", "rating-change")
"""The sorts by a number (best first, unknown last)."""
FACET_NAMES = {"area": "area_name", "aff": "aff_name", "country": "country_name"}
"""Facet -> the field of its values as written."""
REPEATED = frozenset({"decision", "has", "country", "area_name", "country_name"})
"""Fields with few distinct values: the writer analyses each value once."""
MADE_FROM = {
    "decision": ("decision",), "has": ("code", "abstract", "award", "rating", "ratings"),
    "area": ("area",), "area_name": ("area",),
    "aff": ("affiliations",), "aff_name": ("affiliations",),
    "country": ("countries",), "country_name": ("countries",),
    "rating": ("rating",), "spread": ("rating_spread",), "confidence": ("confidence",),
    "cites": ("citations",), "reviews": ("ratings",),
    "rating_change": ("ratings",),  # over time: the history kept beside the source
}
"""Each index field of this module (:func:`document_fields`) and number of the ``signals``
column (:data:`~paper_tui.index.schema.SIGNAL_NAMES`) -> the paper's fields it is made of
(the venue's: :mod:`paper_tui.venue.fields`). ``tests/test_venue_fields.py`` holds it to
the index schema, to this module's documents and to the venue's fields."""


# -- a paper as document fields ----------------------------------------------------------
def has_words(paper: Paper) -> list[str]:
    """What ``has:`` finds the paper by."""
    found = []
    if paper.code:
        found.append("code")
    if paper.abstract:
        found.append("abstract")
    if paper.award:
        found.append("award")
    if paper.rating is not None or paper.ratings:
        found.append("reviews")
    return found


def _unique(values: Iterable[str]) -> list[str]:
    """Values stripped, the empty ones dropped, each once (the first spelling of a value
    that folds alike), in order."""
    seen: dict[str, str] = {}
    for value in values:
        value = " ".join(value.replace(SEPARATOR, " ").split())
        if value and fold(value) not in seen:
            seen[fold(value)] = value
    return list(seen.values())


def affiliations(paper: Paper) -> list[str]:
    """The paper's affiliations, each once, in author order."""
    return _unique(aff for author in paper.affiliations for aff in author)


def document_fields(paper: Paper) -> dict[str, Any]:
    """The fields of this module for the paper's index document (empty ones left out)."""
    out: dict[str, Any] = {}
    if paper.decision:
        out["decision"] = paper.decision + (f",{ACCEPTED_WORD}"
                                            if paper.decision in ACCEPTED else "")
    has = has_words(paper)
    if has:
        out["has"] = ",".join(has)
    area = " ".join(paper.area.split())
    if area:
        out["area"] = out["area_name"] = area
    affs = affiliations(paper)
    if affs:
        out["aff"] = " ; ".join(affs)
        out["aff_name"] = SEPARATOR.join(affs)
    countries = _unique(paper.countries)
    if countries:
        out["country"] = out["country_name"] = SEPARATOR.join(countries)
    record = _encode(paper)
    if record != UNKNOWN:
        out[SIGNALS] = record
    return out


def _number(value: float | None) -> float:
    return math.nan if value is None or not math.isfinite(value) else float(value)


def _encode(paper: Paper) -> bytes:
    reviews = len(paper.ratings) if paper.ratings else None
    return SIGNAL_RECORD.pack(_number(paper.rating), _number(paper.rating_spread),
                        _number(paper.confidence), _number(paper.citations),
                        _number(reviews), math.nan)  # the change: paper_tui.index.reviewed


# -- reading back ------------------------------------------------------------------------
@dataclass(frozen=True)
class Signals:
    """The numbers of every document of one view, by document number (float64, NaN for
    unknown): ``rating``, ``spread``, ``confidence``, ``cites``, ``reviews``,
    ``rating_change``."""

    columns: dict[str, np.ndarray]

    def range(self, field: str, start: str | None, end: str | None, startexcl: bool,
              endexcl: bool) -> np.ndarray:
        """The mask of the documents whose ``field`` is in the range (bounds as the query
        language checked them; None: open). Unknown (NaN) is in no range."""
        values = self.columns[field]
        found = ~np.isnan(values)
        if start is not None:
            found &= (values > float(start)) if startexcl else (values >= float(start))
        if end is not None:
            found &= (values < float(end)) if endexcl else (values <= float(end))
        return found

    def sort_key(self, sort: str) -> np.ndarray:
        """Ascending key per document for one of :data:`SIGNAL_SORTS`: the best first,
        the unknown (+inf) last."""
        if sort == "rating":
            value = self.columns["rating"]
        elif sort == "citations":
            value = self.columns["cites"]
        elif sort == "consensus":  # all reviewers liked it: a high mean, a small spread
            value = self.columns["rating"] - self.columns["spread"]
        elif sort == "rating-change":  # the biggest rise first
            value = self.columns["rating_change"]
        else:
            raise ValueError(f"not a sort by a number: {sort!r}")
        key = -value
        key[np.isnan(key)] = np.inf
        return key


def read_signals(leaves: Sequence[tuple[Any, int]], column: Any) -> Signals:
    """The numeric column of every segment of a view (``leaves``: its segment readers and
    their first document numbers), as :class:`Signals`."""
    raw = b"".join(fixed_column_bytes(reader, SIGNALS, column, SIGNAL_RECORD.size, UNKNOWN)
                   for reader, _ in leaves)
    records = np.frombuffer(raw, dtype=np.dtype(">f8")).reshape(-1, len(SIGNAL_NAMES))
    return Signals({name: records[:, i].astype(np.float64)
                    for i, name in enumerate(SIGNAL_NAMES)})


class FacetTable:
    """The values of a many-valued field (affiliations, countries, areas) of every
    document of a view, as pairs (document, value), values that fold alike counted as one
    and labelled by their most common spelling; counted among hits by one ``bincount``."""

    def __init__(self, docs: np.ndarray, values: np.ndarray, labels: list[str]) -> None:
        self.docs = docs
        self.values = values
        self.labels = labels
        by_label = sorted(range(len(labels)), key=lambda v: labels[v].casefold())
        self._alphabetical = np.empty(len(labels), dtype=np.int64)
        self._alphabetical[by_label] = np.arange(len(labels))

    @classmethod
    def build(cls, terms: Iterable[tuple[str, np.ndarray]]) -> FacetTable:
        """From each value as written and its (live, ascending) documents."""
        key_of: dict[str, int] = {}
        spellings: list[dict[str, int]] = []
        docs: list[np.ndarray] = []
        values: list[np.ndarray] = []
        for label, found in terms:
            if not len(found):
                continue
            key = fold(label)
            value = key_of.get(key)
            if value is None:
                value = key_of[key] = len(spellings)
                spellings.append({})
            spellings[value][label] = spellings[value].get(label, 0) + len(found)
            docs.append(found.astype(np.int64))
            values.append(np.full(len(found), value, dtype=np.int64))
        labels = [max(seen, key=lambda s: (seen[s], s)) for seen in spellings]
        if not docs:
            return cls(np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64), labels)
        pairs = np.unique(np.concatenate(docs) * max(1, len(labels))
                          + np.concatenate(values))  # a document counts a value once
        return cls(pairs // max(1, len(labels)), pairs % max(1, len(labels)), labels)

    def dump(self) -> bytes:
        """The table as bytes, for a cache file (:meth:`load` reads it back)."""
        return json.dumps({"labels": self.labels, "docs": self.docs.tolist(),
                           "values": self.values.tolist()}).encode()

    @classmethod
    def load(cls, data: bytes, size: int) -> FacetTable | None:
        """A table from :meth:`dump`'s bytes, of documents numbered below ``size``; None
        when they are not one (a damaged file)."""
        try:
            found = json.loads(data)
            labels = [str(label) for label in found["labels"]]
            docs = np.array(found["docs"], dtype=np.int64)
            values = np.array(found["values"], dtype=np.int64)
        except (ValueError, KeyError, TypeError):
            return None
        if docs.ndim != 1 or docs.shape != values.shape:
            return None
        if len(docs) and not (0 <= values.min() <= values.max() < len(labels)
                              and 0 <= docs.min() <= docs.max() < size):
            return None
        return cls(docs, values, labels)

    def counts(self, hits: np.ndarray | None, top: int | None = None) -> dict[str, int]:
        """Documents per value among ``hits`` (a mask; None: every live document), most
        first, then by label; the ``top`` most frequent only, when given."""
        values = self.values if hits is None else self.values[hits[self.docs]]
        found = np.bincount(values, minlength=len(self.labels))
        nonzero = np.flatnonzero(found)
        order = nonzero[np.lexsort((self._alphabetical[nonzero], -found[nonzero]))][:top]
        return {self.labels[v]: int(found[v]) for v in order.tolist()}
