"""What the venue says, as the cells of a table (the CSV export), in the forms the CSV
importer reads back (:func:`paper_tui.venue.signals.from_record`): scores ``6; 7; 7``,
affiliations ``A + B; C`` (``;`` between authors, ``+`` between one author's), countries
``China; United States``, award ``yes`` / ``no``, unknown as an empty cell."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from paper_tui.venue.fields import EXPORT_ORDER, FIELDS

COLUMNS = EXPORT_ORDER
"""The columns: the fields of :class:`~paper_tui.venue.fields.VenueSignals`, in the
exports' order."""


def _number(value: float | None) -> str:
    return "" if value is None else f"{value:g}"


_CELL: dict[str, Callable[[Any], str]] = {
    "str": lambda text: text or "",
    "tuple[float, ...]": lambda numbers: "; ".join(map(_number, numbers or ())),
    "float | None": _number,
    "bool | None": lambda flag: "" if flag is None else "yes" if flag else "no",
    "int | None": lambda count: "" if count is None else str(count),
    "tuple[tuple[str, ...], ...]": lambda per_author: "; ".join(
        " + ".join(names) for names in per_author or ()),
    "tuple[str, ...]": lambda names: "; ".join(names or ()),
}
"""A field's cell, by the field's type (as :mod:`paper_tui.venue.fields` declares it)."""
_WRITE = {f.name: _CELL[str(f.type)] for f in FIELDS}


def cells(record: Mapping[str, Any]) -> dict[str, str]:
    """The columns' cells of one exported record (a paper's fields, as JSON has them)."""
    return {name: _WRITE[name](record.get(name)) for name in COLUMNS}
