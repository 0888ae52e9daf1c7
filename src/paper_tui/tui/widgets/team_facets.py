"""The team's words in the facets panel: who is assigned the hits, how many members kept
them, who kept them, how many are disputed or untouched (counted only in a team).

Kept apart from :mod:`.facets` so the panel's own groups and these can change
independently; each value is shown as the word it adds to the query.
"""

from __future__ import annotations

TEAM_FACETS = ("assigned", "kept", "kept-by", "team")
"""The facets' names, as ``Library.facets`` gives them, in the panel's order."""
TEAM_HEADINGS = {"assigned": "Assigned", "kept": "Kept by at least",
                 "kept-by": "Kept by", "team": "Team coverage"}


def label(field: str, value: str) -> str:
    """How a facet value reads in the panel: ``2 members`` for ``kept:2``, the value
    itself elsewhere."""
    if field == "kept" and value.isdigit():
        return f"{value} member{'s' if value != '1' else ''}"
    return value
