"""Numbers and dates a user gives, read with ranges: one set of helpers for every one of
them (the query's ``cites:``, ``rating:``, ``year:``, ``added:``; ``--limit``; ``--since``).

A number of any length is read without converting it whole (Python refuses to turn more
than 4,300 digits into an ``int``, and ``float`` makes 400 digits ``inf``): its digits are
counted first, and one longer than the range allows is out of range. A date is any
``YYYY-MM-DD`` with a year of any length; one outside ``0001-01-01``..``9999-12-31`` (what a
date can be here) is out of range, and so is a month or day that does not exist.

Each helper raises :class:`BadValue` with the end of a sentence (``is more than
10,000,000``), which the caller starts with what it read (``cites:>=…``) and turns into its
own one-line error: a :class:`~paper_tui.errors.QueryError`, an argparse error.
"""

from __future__ import annotations

import datetime as dt
import re

_WHOLE = re.compile(r"[+-]?[0-9]+")
_FRACTION = re.compile(r"[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)")
_DATE = re.compile(r"([+-]?[0-9]+)-([0-9]+)-([0-9]+)")
_SHOWN = 24
"""The most characters of a value an error repeats (a pasted 100,000-digit number is
named by its start and its length)."""
_EPOCH = dt.date(1970, 1, 1).toordinal()
DAY = 86_400
MAX_DAYS = dt.date.max.toordinal() - dt.date.min.toordinal()
"""The most days a span of days can be: from the first day there is to the last."""
MAX_COUNT = 1_000_000_000
"""The largest count of papers or position in a list taken (more than any library
holds): ``--limit``, a list position, a count kept in a file."""


class BadValue(ValueError):
    """A number or date that is not one, or out of its range: ``str()`` is the end of a
    sentence naming the problem (``is not a whole number``, ``is more than 100``)."""


class NotANumber(BadValue):
    """Not written as the number or date asked for."""


class OutOfRange(BadValue):
    """A number or date, beyond the range asked for."""


def shown(text: str) -> str:
    """``text`` as an error repeats it: whole when short, else its start and its length."""
    if len(text) <= _SHOWN:
        return text
    return f"{text[:_SHOWN - 4]}… ({len(text):,} characters)"


def _digits(text: str) -> str:
    """The digits of a number's whole part, without sign or leading zeros ("0" for none)."""
    return text.lstrip("+-").split(".")[0].lstrip("0") or "0"


def _text(number: float) -> str:
    """``10,000,000``, ``1,000``, ``0.5``: a range's end as an error names it."""
    return f"{int(number):,}" if float(number).is_integer() else f"{number:,}"


def _check(number: float, least: float, most: float) -> None:
    if number < least:
        raise OutOfRange(f"is less than {_text(least)}")
    if number > most:
        raise OutOfRange(f"is more than {_text(most)}")


def _too_long(text: str, least: float, most: float) -> None:
    """Out of range, before any conversion, for a whole part with more digits than the
    range's ends have (``+1``: a digit to spare, the exact check follows)."""
    if len(_digits(text)) > len(f"{max(abs(least), abs(most)):.0f}") + 1:
        raise OutOfRange(f"is less than {_text(least)}" if text.startswith("-")
                         else f"is more than {_text(most)}")


def whole(text: str, least: int, most: int) -> int:
    """A whole number written in ASCII digits (a sign allowed) from ``least`` to ``most``;
    :class:`BadValue` otherwise."""
    text = text.strip()
    if not _WHOLE.fullmatch(text):
        raise NotANumber("is not a whole number" if _FRACTION.fullmatch(text)
                         else "is not a number")
    _too_long(text, least, most)
    number = int(text)
    _check(number, least, most)
    return number


def fraction(text: str, least: float, most: float) -> float:
    """A number with or without a fraction (``6``, ``5.5``, ``-0.25``; no exponent) from
    ``least`` to ``most``; :class:`BadValue` otherwise."""
    text = text.strip()
    if not _FRACTION.fullmatch(text):
        raise NotANumber("is not a number")
    _too_long(text, least, most)
    number = float(text)
    _check(number, least, most)
    return number


def day(text: str) -> dt.date:
    """A date ``YYYY-MM-DD`` (a year of any length is read) from 0001-01-01 to 9999-12-31;
    :class:`BadValue` for another form, a month or day that does not exist, or a year out
    of that range."""
    m = _DATE.fullmatch(text.strip())
    if not m:
        raise NotANumber("is not a date (YYYY-MM-DD)")
    try:
        year = whole(m.group(1), dt.MINYEAR, dt.MAXYEAR)
    except BadValue:
        raise OutOfRange(f"is out of range: dates run from {dt.date.min} to "
                       f"{dt.date.max}") from None
    try:
        month = whole(m.group(2), 1, 12)
        return dt.date(year, month, whole(m.group(3), 1, 31))
    except (BadValue, ValueError):
        raise NotANumber("is not a date (YYYY-MM-DD)") from None


def local_midnight(when: dt.date) -> int:
    """The first second of a local day (seconds since the epoch). At the ends of the
    calendar, where the local time cannot be converted, the day's first second in UTC."""
    try:
        return int(dt.datetime.combine(when, dt.time()).astimezone().timestamp())
    except (OverflowError, OSError, ValueError):
        return (when.toordinal() - _EPOCH) * DAY


def day_span(when: dt.date) -> tuple[int, int]:
    """The first second of a local day and the first second of the next (the last day
    there is ends 24 hours after it starts)."""
    start = local_midnight(when)
    if when == dt.date.max:
        return start, start + DAY
    return start, local_midnight(when + dt.timedelta(days=1))
