"""Names and titles for papers, including title-less abstracts.

Placeholder until the naming issue lands: the title is a shortened first sentence and the
name is empty. :func:`name_and_title` is the one entry point the importers call.
"""

from __future__ import annotations

import re

_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z(])")
MAX_TITLE = 90


def shorten(sentence: str, limit: int = MAX_TITLE) -> str:
    """Cut at a word boundary and mark the cut with an ellipsis."""
    sentence = " ".join(sentence.split())
    if len(sentence) <= limit:
        return sentence.rstrip(".")
    cut = sentence[:limit].rsplit(" ", 1)[0].rstrip(",;:")
    return cut + "…"


def first_sentence(text: str) -> str:
    return _SENTENCE_END.split(" ".join(text.split()), maxsplit=1)[0]


def name_and_title(abstract: str, title: str = "") -> tuple[str, str]:
    """Return ``(name, title)`` for a paper; ``title`` is the source's own, if any.

    Both are raw text (LaTeX kept); the caller renders them for display.
    """
    if title.strip():
        return "", title.strip()
    return "", shorten(first_sentence(abstract))
