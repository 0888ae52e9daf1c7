"""What the venue says about a paper, as text for people: the decision's label, the
reviews (``6.8 ± 0.4 (6 7 7 7; confidence 4.0)``), citations, and the one line that puts
only what is known together (``paper-tui show``, the Markdown export):
``Oral · rating 6.8 ± 0.4 (6 7 7 7; confidence 4.0) · 312 citations (2026-12-01) · award ·
area: Vision and Language``."""

from __future__ import annotations

from paper_tui.model import Paper
from paper_tui.vocabulary import decision_label


def number(value: float) -> str:
    """``6`` for 6.0, ``6.5``, ``3.67``: a score as people write it."""
    return f"{value:.2f}".rstrip("0").rstrip(".")


def reviews_text(paper: Paper) -> str:
    """``6.8 ± 0.4 (6 7 7 7; confidence 4.0)``; ``6.0`` when only the mean is known; the
    confidence alone when no rating is (``confidence 4.0``); ``""`` when nothing is."""
    confidence = f"confidence {paper.confidence:.1f}" if paper.confidence is not None else ""
    if paper.rating is None:
        return confidence
    text = f"{paper.rating:.1f}"
    if paper.rating_spread is not None:
        text += f" ± {paper.rating_spread:.1f}"
    inside = "; ".join(p for p in (" ".join(map(number, paper.ratings)), confidence) if p)
    return f"{text} ({inside})" if inside else text


def citations_text(paper: Paper) -> str:
    """``312 citations (2026-12-01)``: the count ages, so its date goes with it."""
    if paper.citations is None:
        return ""
    text = f"{paper.citations:,} citation" + ("" if paper.citations == 1 else "s")
    return f"{text} ({paper.citations_date})" if paper.citations_date else text


def summary(paper: Paper, moved: str = "") -> str:
    """The decision, reviews, citations, award and area, only what is known, ``·``
    between; ``""`` when the source said none of them. ``moved``: how the rating moved
    since the first fetch (``5.3 → 6.0 (+0.7 since 20 Nov)``), after the rating."""
    reviews = reviews_text(paper)
    parts = (decision_label(paper),
             f"rating {reviews}" if reviews and paper.rating is not None else reviews, moved,
             citations_text(paper), "award" if paper.award else "",
             f"area: {paper.area}" if paper.area else "")
    return " · ".join(p for p in parts if p)


def affiliations_text(paper: Paper) -> str:
    """Each affiliation once, in author order, ``; `` between, then the countries:
    ``Tsinghua University; MIT (China, United States)``."""
    names = dict.fromkeys(name for names in paper.affiliations for name in names)
    text = "; ".join(names)
    if paper.countries:
        countries = ", ".join(paper.countries)
        text = f"{text} ({countries})" if text else countries
    return text
