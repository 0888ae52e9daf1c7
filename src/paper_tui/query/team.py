"""The team's words of the query language, before any engine sees them.

``assigned:NAME`` (``assigned:me``, ``assigned:none``), ``kept:N`` (kept by at least N
members, you included), ``kept-by:NAME`` (``kept-by:me``), ``disputed`` (kept by one
member, skipped by another) and ``untouched`` (no member has triaged it). They combine
with text, the other words and negation (``-untouched``, ``NOT kept:2``) like any word.

:func:`rewrite` checks each value (a bad one is the query language's one line) and writes
the words as the fields the engine parses (``assigned``, ``kept``, ``keptby``, ``team``);
they are answered at query time from the team's files (``team/coverage.py``), never from
the index. ``disputed`` and ``untouched`` are words of their own only where they stand
alone: ``"untouched"`` in quotes, ``abstract:untouched`` or ``untouched*`` search the text.
"""

from __future__ import annotations

import re

from paper_tui.errors import QueryError
from paper_tui.query import ranges

ASSIGNED = "assigned"
KEPT = "kept"
KEPT_BY = "keptby"
TEAM = "team"
FIELDS = (ASSIGNED, KEPT, KEPT_BY, TEAM)
"""The engine's names for the team's words (``kept-by:`` is ``keptby``, ``disputed`` and
``untouched`` are ``team:disputed`` and ``team:untouched``)."""
ME = "me"
"""``assigned:me``, ``kept-by:me``: you, by your team name."""
NONE = "none"
"""``assigned:none``: papers no member is assigned."""
ANY = "(any)"
"""Every assigned paper: what ``assigned:none`` is the rest of (never typed)."""
TOUCHED = "(touched)"
"""Every paper a member triaged: what ``untouched`` is the rest of (never typed)."""
COMPLEMENTS = {(ASSIGNED, NONE): ANY, (TEAM, "untouched"): TOUCHED}
"""A word's value that finds every paper but those of another value."""
RESERVED = frozenset({ME, NONE})
"""Not a member's name: they mean something after ``assigned:``."""

_WORDS = re.compile(
    r"(\"[^\"]*\")"  # a phrase: left as it is
    r"|(?<![\w\"-])(assigned|kept-by|kept):(\"[^\"]*\"|[^\s()\"]*)"
    r"|(?:(?<![^\s(])|(?<=(?<![^\s(])-))(disputed|untouched)(?![^\s)])",
    re.IGNORECASE)
_NAME = re.compile(r"[A-Za-z0-9*?][A-Za-z0-9._*?-]*")
MAX_KEPT = 999_999
"""The largest ``kept:N`` (more than any team has members)."""


def _word(match: re.Match[str]) -> str:
    phrase, word, value, bare = match.groups()
    if phrase is not None:
        return phrase
    if bare is not None:
        return f"{TEAM}:{bare}" if bare in ("disputed", "untouched") else bare
    word = word.lower()
    name = value.strip('"')
    if word == "kept":
        try:
            count = ranges.whole(name, 1, MAX_KEPT)
        except ranges.BadValue:
            raise QueryError(f"kept:{ranges.shown(value)} is not a number of members: use "
                             "kept:2 (kept by at least 2 members, you included)") from None
        return f"{KEPT}:{count}"
    if not _NAME.fullmatch(name):
        what = f"{word}:{value}" if value else f"{word}:"
        example = ("assigned:alice, assigned:me or assigned:none" if word == "assigned"
                   else "kept-by:alice or kept-by:me")
        raise QueryError(f"{what} needs a member's name: use {example}")
    if word == "kept-by" and name.lower() == NONE:
        raise QueryError("kept-by:none finds nothing: for papers no member kept, use "
                         "-kept:1")
    return f"{ASSIGNED if word == 'assigned' else KEPT_BY}:{name.lower()}"


def rewrite(query: str) -> str:
    """``query`` with the team's words as the engine's fields (text in quotes as it is);
    :class:`QueryError` for a value that cannot be meant."""
    return _WORDS.sub(_word, query)
