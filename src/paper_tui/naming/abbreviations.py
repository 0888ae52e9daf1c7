"""Abbreviation tests for :mod:`paper_tui.naming.introduced`: does a short form abbreviate a long
one? The Schwartz & Hearst (2003) test, and two looser ones used where the short form is
already known to be introduced."""

from __future__ import annotations

from paper_tui.naming.cleaning import MATH_RE


def long_form_start(short: str, long: str) -> int:
    """Where the words abbreviated by ``short`` begin in ``long``, or -1."""
    letters = [c.lower() for c in (MATH_RE.sub("", short) if "$" in short else short)
               if c.isalpha()]
    if len(letters) < 2:
        return -1
    li = len(long) - 1
    for si in range(len(letters) - 1, -1, -1):
        c = letters[si]
        while li >= 0:
            if long[li].lower() == c and (si > 0 or li == 0 or not long[li - 1].isalnum()):
                break
            li -= 1
        if li < 0:
            return -1
        li -= 1
    start = li + 1
    words = len(long[start:].split())
    n = len(letters)
    return start if words <= min(n + 5, 2 * n) else -1


def spells_out(name: str, inner: str) -> bool:
    """Is the parenthesis after a name its long form? Looser than for background acronyms:
    the name is already known to be introduced ("vOPD (On-Policy Distillation with a control
    variate baseline)": its capitals, OPD, suffice)."""
    if long_form_start(name, inner) >= 0:
        return True
    caps = [c.lower() for c in name if c.isupper()]
    low = inner.lower()
    if len(caps) < 2 or len(inner.split()) > len(caps) + 5 or low[0] != caps[0]:
        return False
    return _in_order(caps, low)


def _in_order(letters: list[str], low: str) -> bool:
    """Do ``letters`` after the first occur in ``low`` in order (the first is ``low[0]``)?"""
    i = 1
    for c in letters[1:]:
        i = low.find(c, i) + 1
        if i == 0:
            return False
    return True


def abbreviates_whole(short: str, long: str) -> bool:
    """Do the letters of ``short`` run through all of ``long`` from its first letter on
    ("EleGANt" in "Exquisite and locally editable GAN for makeup transfer")?"""
    letters = [c.lower() for c in (MATH_RE.sub("", short) if "$" in short else short)
               if c.isalpha()]
    low = long.lower()
    if len(letters) < 2 or not low or low[0] != letters[0]:
        return False
    n = len(letters)
    if len(long.split()) > min(n + 5, 2 * n):
        return False
    return _in_order(letters, low)
