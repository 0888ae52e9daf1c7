"""The plain rows of ``list`` and ``search``: which columns, and each paper's cells.

Without ``--columns`` a row is ``id  title  [venue year]``, then the value the results are
sorted by (``μ 7.33``, ``μ 7.33 ± 0.47``, ``5,867 cites``) and the venue's decision
(``Oral``), each when known. ``--columns title,year,rating,decision`` chooses the cells, in
that order, two spaces between them, ``-`` for one that is unknown.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Iterable, Iterator
from typing import TYPE_CHECKING

from paper_tui.cli.output import line
from paper_tui.errors import PaperTuiError
from paper_tui.trust.inert import inert_line
from paper_tui.vocabulary import RATING_CHANGE, decision_label, sort_value

if TYPE_CHECKING:
    from paper_tui.library import Library
    from paper_tui.model import Paper

COLUMNS = ("id", "title", "venue", "year", "authors", "decision", "rating", "consensus",
           "citations", "added", "status", "tags")
"""The columns ``--columns`` may name."""
UNKNOWN = "-"


class ColumnNames:
    """``--columns``'s choices, as the shell completion offers them. Any text is "in" it:
    the command reads the list itself, so an unknown column is one line naming it (exit 1),
    not argparse's usage (exit 2)."""

    def __iter__(self) -> Iterator[str]:
        return iter(COLUMNS)

    def __contains__(self, _value: object) -> bool:
        return True


def chosen(text: str | None) -> tuple[str, ...] | None:
    """The columns ``--columns`` names, in its order (None without the option)."""
    if text is None:
        return None
    names = tuple(name.strip().casefold() for name in text.split(",") if name.strip())
    for name in names:
        if name not in COLUMNS:
            raise PaperTuiError(f"--columns: no column {name!r} (the columns: "
                                f"{', '.join(COLUMNS)})")
    if not names:
        raise PaperTuiError(f"--columns: name at least one column ({', '.join(COLUMNS)})")
    return names


def rows(lib: Library, papers: Iterable[Paper], columns: tuple[str, ...] | None,
         sort: str = "") -> Iterator[str]:
    """One line per paper: the default row (with ``sort``'s value: for ``rating-change``
    the move, ``7.0 → 8.0 (+1.0 since 20 Nov)``), or ``columns``."""
    if columns is None:
        for paper in papers:
            value = lib.rating_move(paper.id) if sort == RATING_CHANGE \
                else sort_value(paper, sort)
            yield line(paper, [x for x in (value, decision_label(paper)) if x])
        return
    cell = _cells(lib, columns)
    for paper in papers:
        yield inert_line("  ".join(cell[name](paper) or UNKNOWN for name in columns))


def _cells(lib: Library, columns: tuple[str, ...]) -> dict[str, Callable[[Paper], str]]:
    """Each column's cell of a paper (the arrival times read once, if asked for)."""
    first_seen = lib.first_seen() if "added" in columns else {}

    def added(paper: Paper) -> str:
        at = first_seen.get(paper.id)
        return dt.datetime.fromtimestamp(at).date().isoformat() if at is not None else ""

    return {
        "id": lambda p: p.id,
        "title": lambda p: p.display_title or p.title,
        "venue": lambda p: p.venue,
        "year": lambda p: str(p.year or ""),
        "authors": lambda p: ", ".join(p.authors),
        "decision": decision_label,
        "rating": lambda p: sort_value(p, "rating"),
        "consensus": lambda p: sort_value(p, "consensus"),
        "citations": lambda p: sort_value(p, "citations"),
        "added": added,
        "status": lambda p: lib.annotation(p.id).status,
        "tags": lambda p: ", ".join(lib.annotation(p.id).tags),
    }
