"""What the venue says, as the cells of a table (the CSV export), in the forms the CSV
importer reads back (:func:`paper_tui.venue.signals.from_record`): scores ``6; 7; 7``,
affiliations ``A + B; C`` (``;`` between authors, ``+`` between one author's), countries
``China; United States``, award ``yes`` / ``no``, unknown as an empty cell."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

COLUMNS = ("decision", "decision_text", "ratings", "rating", "rating_spread", "confidences",
           "confidence", "area", "award", "citations", "citations_date", "code", "project",
           "affiliations", "countries")
"""The columns, named as the :class:`~paper_tui.model.Paper` fields."""


def _number(value: float | None) -> str:
    return "" if value is None else f"{value:g}"


def cells(record: Mapping[str, Any]) -> dict[str, str]:
    """The columns' cells of one exported record (a paper's fields, as JSON has them)."""
    award = record.get("award")
    citations = record.get("citations")
    return {
        "decision": record.get("decision") or "",
        "decision_text": record.get("decision_text") or "",
        "ratings": "; ".join(map(_number, record.get("ratings") or ())),
        "rating": _number(record.get("rating")),
        "rating_spread": _number(record.get("rating_spread")),
        "confidences": "; ".join(map(_number, record.get("confidences") or ())),
        "confidence": _number(record.get("confidence")),
        "area": record.get("area") or "",
        "award": "" if award is None else "yes" if award else "no",
        "citations": "" if citations is None else str(citations),
        "citations_date": record.get("citations_date") or "",
        "code": record.get("code") or "",
        "project": record.get("project") or "",
        "affiliations": "; ".join(" + ".join(names)
                                  for names in record.get("affiliations") or ()),
        "countries": "; ".join(record.get("countries") or ()),
    }
