"""Citation keys: a paper's own key (``vaswani2017attention``), and keys for a batch that
never collide with each other nor with the keys given out before.

One scheme for every paper, whatever key its source's BibTeX had (OpenReview's
``j.2018emergence``, ACL's ``goldman-etal-2022-un``): Better BibTeX's kind of default
(``auth.lower + year + shorttitle(1)``), ASCII only: the first author's family name folded
to ASCII letters (``Rodríguez`` -> ``rodriguez``, ``Sørensen`` -> ``sorensen``,
``Do-Omri`` -> ``doomri``), the year, the first significant word of the title.

A key once given out (cited, copied, exported, written to a linked ``.bib``) is remembered
in the library (:mod:`paper_tui.store.citekeys`) and handed back here as ``given``; so a
key a document cites never changes when a list grows, and a new paper never takes a key
another paper was given.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping

from paper_tui import display
from paper_tui.citations.names import author_names, split_name
from paper_tui.model import Paper, slug
from paper_tui.trust.inert import inert_paper

_STOPWORDS = {"a", "an", "the", "on", "of", "in", "for", "to", "towards", "toward", "with",
              "and", "or", "is", "are", "via", "from", "by", "at", "as", "do", "does", "can",
              "when", "what", "how", "why", "be", "its", "it", "into", "we", "our"}


# letters NFKD does not take apart, as Better BibTeX and JabRef fold them
_FOLD = str.maketrans({"ø": "o", "Ø": "O", "ß": "ss", "æ": "ae", "Æ": "AE", "œ": "oe",
                       "Œ": "OE", "ł": "l", "Ł": "L", "đ": "d", "Đ": "D", "ð": "d", "Ð": "D",
                       "þ": "th", "Þ": "Th", "ı": "i", "ħ": "h", "Ħ": "H"})


def fold(text: str) -> str:
    """Lower-case ASCII letters and digits only, letters folded: ``Sørensen`` ->
    ``sorensen``, ``Do-Omri`` -> ``doomri``."""
    return slug(text.translate(_FOLD))


def _first_word(title: str) -> str:
    for word in re.split(r"[\s\-/:]+", title):
        folded = fold(word)
        if folded and folded not in _STOPWORDS and not folded.isdigit():
            return folded[:20]
    return ""


def _family(author: str) -> str:
    """The family name a key starts with; the longest word when the split gives an
    initial (``Chen Patrick H.``)."""
    n = split_name(display.plain(author))
    family = fold(n.last)
    if len(family) > 1:
        return family[:20]
    words = [fold(w) for w in re.split(r"[\s,]+", display.plain(author))]
    return max(words, key=len, default="")[:20]


def citation_key(paper: Paper) -> str:
    """The paper's own key, before de-duplication in a batch: ``familyYYYYfirstword``
    (``vaswani2017attention``;
    ``hoof2018learning`` for Herke van Hoof), or ``nameYYYY`` from the short name
    when there are no authors (``l2eap2026``), or ``anonYYYYfirstword`` when there is
    neither. Only ASCII letters and digits, whatever the source's own key was."""
    paper = inert_paper(paper)
    year = str(paper.year) if paper.year else ""
    title = paper.display_title or display.plain(paper.title)
    authors = author_names(paper.authors)
    who = _family(authors[0]) if authors else ""
    if who:
        return f"{who}{year}{_first_word(title)}"
    if fold(paper.name):
        return f"{fold(paper.name)[:24]}{year}"
    return f"anon{year}{_first_word(title)}"


def _suffix(n: int) -> str:
    """1 -> ``a``, 26 -> ``z``, 27 -> ``aa``."""
    letters = ""
    while n > 0:
        n, rem = divmod(n - 1, 26)
        letters = chr(ord("a") + rem) + letters
    return letters


def unique_papers(papers: Iterable[Paper]) -> list[Paper]:
    """Each paper once, in the order given (a paper listed twice is cited once)."""
    seen: dict[str, Paper] = {}
    for paper in papers:
        seen.setdefault(paper.id, paper)
    return list(seen.values())


def citation_keys(papers: Iterable[Paper],
                  given: Mapping[str, str] | None = None) -> dict[str, str]:
    """Paper id -> key for a batch. A paper in ``given`` (paper id -> the key it was given
    out under, see :mod:`paper_tui.store.citekeys`) keeps that key; any other gets its own
    key (:func:`citation_key`), with a suffix when that is taken by a key given out or
    already in the batch, ignoring case (``smith2020deep``, ``smith2020deepa``,
    ``smith2020deepb``): the first keeps the plain key."""
    given = given or {}
    keys: dict[str, str] = {}
    taken = {key.lower() for key in given.values()}
    batch = unique_papers(papers)
    for paper in batch:
        if paper.id in given:
            keys[paper.id] = given[paper.id]
    for paper in batch:
        if paper.id in keys:
            continue
        base = citation_key(paper)
        key, n = base, 0
        while key.lower() in taken:
            n += 1
            key = base + _suffix(n)
        taken.add(key.lower())
        keys[paper.id] = key
    return {paper.id: keys[paper.id] for paper in batch}
