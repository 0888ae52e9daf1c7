"""The venue's fields of a paper, declared once: :class:`VenueSignals`.

Each field's name, type, default and meaning are here and only here. The rest reads them
from this declaration or is held to it by ``tests/test_venue_fields.py``:
:class:`~paper_tui.model.Paper` spells the same fields (in this order, with these types and
defaults: a typed attribute must be written out); the importers pass a
:class:`VenueSignals` to :func:`~paper_tui.importers.common.make_paper` (:func:`values`);
the exports write them in :data:`EXPORT_ORDER` (CSV cells by each field's type,
:mod:`paper_tui.venue.cells`; CSL-JSON's ``custom``); :func:`paper_tui.trust.inert.inert_paper`
finds the text ones by their types; the index stores them with the paper and makes its
venue words and numbers of them (:data:`paper_tui.index.signals.MADE_FROM`).
Nothing here imports paper-tui.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any


@dataclass(frozen=True, slots=True)
class VenueSignals:
    """What the venue said of a paper: the :class:`~paper_tui.model.Paper` fields that say
    it. Unknown is ``""``, ``()`` or None, never 0."""

    decision: str = ""
    """The venue's decision, normalised (see :data:`~paper_tui.model.DECISIONS`); "" when
    unknown."""
    decision_text: str = ""
    """The decision or presentation in the source's own words (``Poster Workshop``)."""
    ratings: tuple[float, ...] = ()
    """The reviewers' ratings, one per review, in the source's order; () when unknown."""
    confidences: tuple[float, ...] = ()
    """The reviewers' confidences, one per review; () when unknown."""
    rating: float | None = None
    """The mean rating: of ``ratings`` when the source lists them, else the source's own
    mean (``rating_avg``); None when unknown (never 0 for unknown)."""
    rating_spread: float | None = None
    """The ratings' standard deviation (population), or the source's own; None: unknown."""
    confidence: float | None = None
    """The mean confidence; None when unknown."""
    area: str = ""
    """The primary area or subject area, without a source's ``[Content]``-like prefix."""
    award: bool | None = None
    """Whether the paper won an award; None when the source does not say."""
    citations: int | None = None
    """Citation count as the source gave it on ``citations_date``; None when unknown."""
    citations_date: str = ""
    """The day (ISO ``YYYY-MM-DD``) the citation count was imported: it ages."""
    code: str = ""
    """A link to the paper's code (GitHub, …)."""
    project: str = ""
    """A link to the paper's project page."""
    affiliations: tuple[tuple[str, ...], ...] = ()
    """Per author (in author order), that author's affiliations (several allowed)."""
    countries: tuple[str, ...] = ()
    """The countries of the authors' affiliations, each once."""


NO_SIGNALS = VenueSignals()
FIELDS = fields(VenueSignals)
"""Each field: its ``name``, ``type`` (the annotation as written: ``"float | None"``) and
``default``."""
NAMES = tuple(f.name for f in FIELDS)
"""The fields' names, in order."""
EXPORT_ORDER = ("decision", "decision_text", "ratings", "rating", "rating_spread",
                "confidences", "confidence", "area", "award", "citations", "citations_date",
                "code", "project", "affiliations", "countries")
"""The fields in the order the exports write them (the CSV columns, CSL-JSON's ``custom``):
each list of scores before its mean. Every field once (``tests/test_venue_fields.py``)."""


def values(signals: VenueSignals) -> dict[str, Any]:
    """The fields by name (a paper's keyword arguments)."""
    return {name: getattr(signals, name) for name in NAMES}
