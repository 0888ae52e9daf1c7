"""The two readable built-in styles: ``plain`` (one line: ``Authors. Year. Title. In
Proceedings (Venue Year). URL``) and ``markdown`` (``[Title](url) — Authors. *Venue*
Year.``)."""

from __future__ import annotations

import re
from collections.abc import Sequence

from paper_tui import display
from paper_tui.model import Paper
from paper_tui.trust.inert import inert_paper
from paper_tui.venue.names import display_venue, proceedings


def _author_list(authors: Sequence[str]) -> str:
    names = [display.plain(a) for a in authors]
    if len(names) <= 2:
        return " and ".join(names)
    return ", ".join(names[:-1]) + ", and " + names[-1]


def _venue_phrase(paper: Paper) -> str:
    if not paper.venue:
        return ""
    short = display_venue(paper.venue)
    full = proceedings(paper.venue)
    year = f" {paper.year}" if paper.year else ""
    return f"{full} ({short}{year})" if full != short else f"{short}{year}"


def _sentence(text: str) -> str:
    text = text.strip()
    return text if not text or text[-1] in ".?!…" else text + "."


def plain(paper: Paper) -> str:
    """``Authors. Year. Title. In Proceedings (Venue Year). URL`` on one line."""
    paper = inert_paper(paper)
    title = paper.display_title or display.plain(paper.title)
    parts = []
    if paper.authors:
        parts.append(_sentence(_author_list(paper.authors)))
    if paper.year:
        parts.append(f"{paper.year}.")
    parts.append(_sentence(title))
    venue = _venue_phrase(paper)
    if venue:
        parts.append(_sentence(("In " if paper.venue and not venue.startswith(
            ("Transactions", "Journal")) else "") + venue))
    if not paper.authors:
        parts.append("Authors not given in the source list.")
    if paper.url:
        parts.append(paper.url)
    return " ".join(parts)


_MD_SPECIAL = re.compile(r"([\\`*_\[\]<>])")


def markdown(paper: Paper) -> str:
    """``[Title](url) — Authors. *Venue* Year.``"""
    paper = inert_paper(paper)
    title = _MD_SPECIAL.sub(r"\\\1", paper.display_title or display.plain(paper.title))
    if paper.url:
        url = paper.url if not re.search(r"[\s()<>]", paper.url) else f"<{paper.url}>"
        head = f"[{title}]({url})"
    else:
        head = f"**{title}**"
    tail = []
    if paper.authors:
        tail.append(_MD_SPECIAL.sub(r"\\\1", ", ".join(display.plain(a) for a in paper.authors)))
    where = " ".join(x for x in (f"*{display_venue(paper.venue)}*" if paper.venue else "",
                                 str(paper.year or "")) if x)
    if where:
        tail.append(where)
    return head + (" — " + ". ".join(tail) + "." if tail else "")
