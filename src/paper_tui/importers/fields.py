"""The values a JSON record's fields may hold, and what becomes of a value of another type.

JSON says nothing about types: ``"author": 5``, ``"title": {"x": 1}``, ``"year": 1e300``
or ``NaN`` all parse. A value whose meaning is clear is taken (a number where text is
expected, as written: ``"year": "2018"`` or ``2018.0`` is 2018); any other raises
:class:`FieldError`, and the importer leaves that record out with one line naming it.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterable

from paper_tui.importers.common import (
    MAX_TEXT,
    FieldError,
    parse_year,
    split_authors,
    split_keywords,
)

YEARS = range(1000, 10000)
"""A year is a four-digit number."""
_SURROGATE = re.compile("[\ud800-\udfff]")


def pick(record: dict, *keys: str) -> tuple[object, str]:
    """``(value, key)`` of the first of ``keys`` the record fills (``author`` or
    ``authors``), so a message names the key the file used."""
    for key in keys:
        if record.get(key):
            return record[key], key
    return None, keys[0]


def _kind(value: object) -> str:
    """What a JSON value is, for a message (never the value itself: it may be huge)."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return f"{str(value).lower()} (a boolean)"
    if isinstance(value, int | float):
        if not math.isfinite(value):
            return f"{value!r} (not a finite number)"
        return f"{value!r} (a number)" if len(repr(value)) <= 24 else "a number out of range"
    if isinstance(value, str):
        return f"a text of {len(value):,} characters"
    return "a list" if isinstance(value, list) else "an object"


def _checked(text: str, key: str) -> str:
    if len(text) > MAX_TEXT:
        raise FieldError(f"{key} is {len(text):,} characters long (at most {MAX_TEXT:,})")
    if not text.isascii():
        m = _SURROGATE.search(text)
        if m is not None:  # JSON's "\ud800" escapes decode to these; they are not text
            raise FieldError(f"{key} holds an unpaired UTF-16 surrogate "
                             f"(\\u{ord(m.group(0)):04x}), not text")
    return text


def _scalar_text(value: object, key: str) -> str | None:
    """A string as it is, a finite number as written; None for any other value."""
    if isinstance(value, str):
        return _checked(value, key)
    if isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value):
        return str(value)
    return None


def text(value: object, key: str) -> str:
    """A text field: a string; a number as written; a list of strings joined with ", ";
    nothing (missing, null, false, 0, empty) is ``""``."""
    if not value:
        return ""
    found = _scalar_text(value, key)
    if found is not None:
        return found
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return _checked(", ".join(value), key)
    raise FieldError(f"{key} is {_kind(value)}, not text")


def _parts(value: object, key: str, what: str,
           split: Callable[[str | Iterable[str]], tuple[str, ...]]) -> tuple[str, ...]:
    """A text or a list of texts (or numbers), split into names or keywords; nothing
    (missing, null, false, 0, empty) is none."""
    if not value:
        return ()
    if isinstance(value, str):
        return split(_checked(value, key))
    if isinstance(value, list):
        items = [_scalar_text(v, key) for v in value]
        if None not in items:
            return split([item for item in items if item is not None])
    raise FieldError(f"{key} is {_kind(value)}, not {what}")


def names(value: object, key: str) -> tuple[str, ...]:
    """An author field: one text of names (``A; B``, ``A, B and C``) or a list of names."""
    return _parts(value, key, "names (a text or a list)", split_authors)


def words(value: object, key: str) -> tuple[str, ...]:
    """A keywords field: one text (``a; b``, ``a, b``) or a list of keywords."""
    return _parts(value, key, "keywords (a text or a list)", split_keywords)


def year(value: object, key: str) -> int | None:
    """A year: a four-digit number (``2018``, ``2018.0``), or the first year in a text
    (``"2018-05-01"``; a text naming none is no year). Nothing (missing, null, false, 0,
    empty) is no year."""
    if not value:
        return None
    if isinstance(value, str):
        return parse_year(_checked(value, key))
    if isinstance(value, int | float) and not isinstance(value, bool) and \
            math.isfinite(value) and value == int(value) and int(value) in YEARS:
        return int(value)
    raise FieldError(f"{key} is {_kind(value)}, not a year")
