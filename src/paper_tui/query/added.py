"""The query words about when papers entered this library, before any engine sees them.

``added:today``, ``added:yesterday``, ``added:7d`` (the last 7 days: 7 x 24 hours),
``added:2026-11-30`` (that day), ``added:>=2026-11-30`` (also ``>``, ``<``, ``<=``) and
``watch:NAME`` (the papers of a watch's source that match the watch's query). Days are
the reader's local days. They combine with text, the other words and negation like any
word.

:func:`rewrite` checks each value (a bad one is the query language's one line) and writes
``added:`` as a range of first-seen times in seconds (``added:[0001764547200 TO]``, the
width of :func:`time_value`, so that text order is time order) and ``watch:NAME`` as
``(watch:NAME AND (its query))``. Both are answered at query time from the first-seen
times beside the sources (``paper_tui.holdings.arrivals``), never from the index.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import re
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING

from paper_tui.errors import QueryError
from paper_tui.query import ranges

if TYPE_CHECKING:
    import numpy as np

ADDED = "added"
WATCH = "watch"
FIELDS = (ADDED, WATCH)
"""The engine's names for these words (fields of their own, answered outside the index)."""
WIDTH = 13

WatchQuery = Callable[[str], "tuple[str, str] | None"]
"""``watch_query(name)``: the watch's name as saved and its query ("" for none), or None
when there is no such watch."""

_WORDS = re.compile(
    r"(\"[^\"]*\")"  # a phrase: left as it is
    r"|(?<![\w\"])(added|watch):(\"[^\"]*\"|[^\s()\"]*)", re.IGNORECASE)
_RELATIVE = re.compile(r"([0-9]+)d")
_CMP = re.compile(r"(>=|<=|>|<)?([+-]?[0-9]+-[0-9]+-[0-9]+)")
NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,63}")
"""A watch's name: letters, digits, ``.``, ``_``, ``-`` (``cs.LG``, ``iclr-orals``)."""
_USE = "use added:today, added:7d, added:2026-11-30 or added:>=2026-11-30"


def time_value(seconds: int) -> str:
    """A first-seen time as the engine's text: zero-padded, so text order is time order."""
    return f"{max(seconds, 0):0{WIDTH}d}"


def _range(low: int | None, high: int | None) -> str:
    """``added:[low TO high]``, both inclusive (seconds)."""
    start = time_value(low) if low is not None else ""
    end = time_value(high) if high is not None else ""
    return f"{ADDED}:[{start} TO {end}]".replace("[ TO", "[TO").replace("TO ]", "TO]")


def added_range(value: str, now: float) -> str:
    """``added:VALUE`` as the engine's range; :class:`QueryError` for a value that is
    not a time."""
    text = value.strip('"').strip().lower()
    today = dt.datetime.fromtimestamp(now).date()
    if text == "today":
        return _range(ranges.local_midnight(today), None)
    if text == "yesterday":
        start, after = ranges.day_span(today - dt.timedelta(days=1))
        return _range(start, after - 1)
    if relative := _RELATIVE.fullmatch(text):
        try:
            days = ranges.whole(relative.group(1), 1, ranges.MAX_DAYS)
        except ranges.BadValue as exc:
            raise QueryError(f"added:{ranges.shown(value)} is not a time: "
                             f"{ranges.shown(relative.group(1))} days {exc}") from None
        return _range(int(now) - days * ranges.DAY, None)
    if cmp := _CMP.fullmatch(text):
        op, date = cmp.groups()
        try:
            day = ranges.day(date)
        except ranges.BadValue as exc:
            raise QueryError(f"added:{ranges.shown(value)}: {ranges.shown(date)} {exc}") \
                from None
        start, after = ranges.day_span(day)
        return {None: _range(start, after - 1), ">=": _range(start, None),
                ">": _range(after, None), "<": _range(None, start - 1),
                "<=": _range(None, after - 1)}[op]
    if not text:
        raise QueryError(f"added: needs a time after the colon: {_USE}")
    raise QueryError(f"added:{ranges.shown(value)} is not a time: {_USE}")


def rewrite(query: str, now: float, watch_query: WatchQuery | None = None) -> str:
    """``query`` with ``added:`` and ``watch:`` as the engine's fields (text in quotes as
    it is); :class:`QueryError` for a value that cannot be meant or a watch there is not
    (``watch_query`` None: any name is left for the sets to answer)."""

    def word(match: re.Match[str]) -> str:
        phrase, name, value = match.groups()
        if phrase is not None:
            return phrase
        if name.lower() == ADDED:
            return added_range(value, now)
        watch = value.strip('"')
        if not NAME.fullmatch(watch):
            raise QueryError(f"watch:{value} needs a watch's name: `paper-tui watch` "
                             "lists them")
        if watch_query is None:
            return f"{WATCH}:{watch}"
        found = watch_query(watch)
        if found is None:
            raise QueryError(f"watch:{watch}: there is no such watch (`paper-tui watch` "
                             "lists them)")
        saved, query_of = found
        if not query_of.strip():
            return f"{WATCH}:{saved}"
        return f"({WATCH}:{saved} AND ({rewrite(query_of, now)}))"

    return _WORDS.sub(word, query)


def digests(ids: Iterable[str]) -> np.ndarray:
    """Each id's 64-bit digest (blake2b of its UTF-8), as a ``uint64`` array in the ids'
    order: the key the first-seen times and the index join on, as arrays (a million ids
    hash in ~0.4 s, done once when either side's file is made). Two ids of a million
    share a digest with odds of about 1 in 30 million."""
    import numpy

    blake2b = hashlib.blake2b
    return numpy.frombuffer(b"".join(
        [blake2b(pid.encode("utf-8", "surrogatepass"), digest_size=8).digest()
         for pid in ids]), dtype="<u8")
