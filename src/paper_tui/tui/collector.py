"""Python's garbage collector while the app runs: frozen after startup, young objects
collected between keys rather than inside them.

The collector's thresholds are the process's, so its state lives here, once.
"""

from __future__ import annotations

import gc

GC_YOUNG_OBJECTS = 50_000
"""Allocations between automatic collections of young objects once the app is up (Python's
default, 700, collects several times inside every key's frame); the app collects them
itself after each frame instead."""

_saved: tuple[int, int, int] | None = None
"""Python's collector thresholds before :func:`tune` (put back by :func:`restore`)."""


def tuned() -> bool:
    return _saved is not None


def tune() -> None:
    """After the first paint: freeze what startup built (Textual, the index, the papers),
    so no collection scans it again (a full one took up to 90 ms in the middle of a key),
    and collect young objects between keys rather than inside them. numpy, which the
    search core imports on first use (~0.1 s), is imported here, while the reader looks at
    the first screen, not on their first keystroke."""
    global _saved
    if _saved is None:
        _saved = gc.get_threshold()
        import numpy  # noqa: F401

        gc.freeze()
        gc.set_threshold(GC_YOUNG_OBJECTS, *_saved[1:])


def collect(generation: int) -> None:
    """Collect up to ``generation`` now (a key's garbage, between keys), once tuned."""
    if _saved is not None:
        gc.collect(generation)


def restore() -> None:
    """The collector as it was before :func:`tune`."""
    global _saved
    if _saved is not None:
        gc.set_threshold(*_saved)
        gc.unfreeze()
        _saved = None
