"""The sync's step lines: how ``paper-tui sync --steps`` tells the app what it is doing.

The app runs the sync as a process of its own and reads its stderr line by line; both
fronts take the protocol from here (the command line writes it, the app reads it), so
neither imports the other.
"""

from __future__ import annotations

STEP = "step: "
"""A line starting so names the step the sync is at ("fetching", "merging", …)."""
LISTED = "papers or lists came in"
"""The last step line of a sync that brought papers or reading lists (search again)."""


def step_line(step: str) -> str:
    """The line written for ``step``."""
    return f"{STEP}{step}"


def read_step(line: str) -> str | None:
    """The step a line names, None when it is not a step line (a message for the reader)."""
    return line.removeprefix(STEP) if line.startswith(STEP) else None
