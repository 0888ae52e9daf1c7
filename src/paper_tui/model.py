"""The paper record and its ids."""

from __future__ import annotations

import hashlib
import re
import unicodedata
from dataclasses import MISSING, asdict, dataclass, field, fields
from typing import Any

Span = tuple[int, int, str]
"""``(start, end, style)`` over a display string; style is ``"italic"`` or ``"bold"``."""

NO_ABSTRACT = "(no abstract in the source)"
DERIVED_TITLE = "(title derived from the abstract)"
"""What a view says of a record without an abstract, and of a title it derived itself."""


@dataclass(frozen=True, slots=True)
class Paper:
    """One paper, as imported. Raw text is kept; display text is derived once at import."""

    id: str
    title: str
    abstract: str
    name: str = ""
    authors: tuple[str, ...] = ()
    venue: str = ""
    year: int | None = None
    url: str = ""
    pdf: str = ""
    keywords: tuple[str, ...] = ()
    bibtex: str = ""
    source: str = ""
    tldr: str = ""
    track: str = ""
    decision: str = ""
    """The venue's decision, normalised (see :data:`DECISIONS`); "" when unknown."""
    decision_text: str = ""
    """The decision or presentation in the source's own words (``Poster Workshop``)."""
    ratings: tuple[float, ...] = ()
    """The reviewers' ratings, one per review, in the source's order; () when unknown."""
    confidences: tuple[float, ...] = ()
    """The reviewers' confidences, one per review; () when unknown."""
    rating: float | None = None
    """The mean rating: of ``ratings`` when the source lists them, else the source's own
    mean (``rating_avg``); None when unknown (never 0 for unknown)."""
    rating_spread: float | None = None
    """The ratings' standard deviation (population), or the source's own; None: unknown."""
    confidence: float | None = None
    """The mean confidence; None when unknown."""
    area: str = ""
    """The primary area or subject area, without a source's ``[Content]``-like prefix."""
    award: bool | None = None
    """Whether the paper won an award; None when the source does not say."""
    citations: int | None = None
    """Citation count as the source gave it on ``citations_date``; None when unknown."""
    citations_date: str = ""
    """The day (ISO ``YYYY-MM-DD``) the citation count was imported: it ages."""
    code: str = ""
    """A link to the paper's code (GitHub, …)."""
    project: str = ""
    """A link to the paper's project page."""
    affiliations: tuple[tuple[str, ...], ...] = ()
    """Per author (in author order), that author's affiliations (several allowed)."""
    countries: tuple[str, ...] = ()
    """The countries of the authors' affiliations, each once."""
    truncated: bool = False
    title_generated: bool = False
    display_title: str = ""
    display_abstract: str = ""
    title_emphasis: tuple[Span, ...] = field(default=())
    abstract_emphasis: tuple[Span, ...] = field(default=())

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        for key in _FLAT_TUPLES:
            data[key] = list(data[key])
        for key in _NESTED_TUPLES:
            data[key] = [list(item) for item in data[key]]
        return data

    def to_record(self) -> dict[str, Any]:
        """The fields that differ from their defaults (id, title and abstract always), as
        stored in ``sources/`` and the index: a paper's unknown venue signals, links and
        flags cost its stored line nothing. :meth:`from_dict` reads it back."""
        record: dict[str, Any] = {"id": self.id, "title": self.title, "abstract": self.abstract}
        for name, default in _DEFAULTS:
            value = getattr(self, name)
            if value != default:
                record[name] = value
        return record

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Paper:
        """A paper from :meth:`to_dict` or :meth:`to_record`: a field left out takes its
        default (so a line stored before a field existed still reads), an unknown one is
        ignored."""
        kwargs = {k: v for k, v in data.items() if k in _KNOWN}
        for key in _FLAT_TUPLES:
            kwargs[key] = tuple(kwargs.get(key) or ())
        for key in _NESTED_TUPLES:
            kwargs[key] = tuple(tuple(item) for item in kwargs.get(key) or ())
        return cls(**kwargs)

    @property
    def label(self) -> str:
        """What a list row shows first: the short name when there is one, else the title."""
        return self.name or self.display_title or self.title

    @property
    def badge(self) -> str:
        """The derived name to show beside the title, in a style of its own, never as part
        of it: ``""`` when the title already says the name (a source's ``NAME: …`` title, or
        a derived title, which starts with it)."""
        if not self.name:
            return ""
        said = re.compile(rf"(?<![\w-]){re.escape(self.name.casefold())}(?![\w-])")
        return "" if said.search((self.display_title or self.title).casefold()) else self.name


_KNOWN = frozenset(f.name for f in fields(Paper))
_DEFAULTS = tuple((f.name, f.default) for f in fields(Paper) if f.default is not MISSING)
"""Every field with a default, and the default (``id``, ``title``, ``abstract`` have none)."""
_FLAT_TUPLES = ("authors", "keywords", "ratings", "confidences", "countries")
_NESTED_TUPLES = ("title_emphasis", "abstract_emphasis", "affiliations")
"""The tuple fields, which JSON stores as lists (of lists)."""

DECISIONS = ("oral", "spotlight", "poster", "accept", "reject", "withdrawn", "desk-reject",
             "workshop", "findings", "submitted")
"""The normalised decisions a paper's ``decision`` may hold (besides "" for unknown);
``submitted``: under review, not decided when the list was made (OpenReview's "Submitted to
ICLR 2025", paperlists' "Active")."""
ACCEPTED = frozenset({"oral", "spotlight", "poster", "accept", "findings"})
"""The decisions that mean the paper was accepted (``decision:accepted``)."""

_WS = re.compile(r"\s+")


def _norm(text: str) -> str:
    text = unicodedata.normalize("NFKC", text).casefold()
    return _WS.sub(" ", text).strip()


def slug(text: str) -> str:
    """Lower-case ASCII letters and digits only: ``NeurIPS`` -> ``neurips``."""
    ascii_text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    return re.sub(r"[^a-z0-9]+", "", ascii_text.lower())


def make_id(venue: str, year: int | None, title: str, authors: tuple[str, ...] | list[str],
            abstract: str) -> str:
    """A stable id from what the paper *is*, not where or in what order it was found.

    Two records share an id only when venue, year, title, authors and abstract all agree
    (after folding case and white space), so two different papers are never merged, and
    the same paper imported from a moved file or on another machine keeps its id.
    """
    digest = hashlib.sha1(
        "\x1f".join([_norm(venue), str(year or ""), _norm(title),
                     _norm("; ".join(authors)), _norm(abstract)]).encode()
    ).hexdigest()[:10]
    prefix = slug(venue)[:12] + (str(year) if year else "")
    return f"{prefix or 'paper'}-{digest}"


def version_key(paper: Paper) -> str:
    """What two versions of one paper share (an arXiv preprint and its proceedings
    version): the source's title and the first author's family name, folded. Empty when
    either is missing or the title was derived: such papers are never grouped."""
    if paper.title_generated or not paper.authors:
        return ""
    title = slug(paper.display_title or paper.title)
    family = slug(paper.authors[0].split()[-1]) if paper.authors[0].split() else ""
    return f"{title}|{family}" if len(title) >= 12 and family else ""


def fullness(paper: Paper) -> int:
    """How much a record holds, to pick the one a group of versions shows: an abstract
    first, then a venue other than arXiv, links, a BibTeX entry, keywords."""
    return (8 * bool(paper.abstract.strip()) + 4 * bool(paper.venue and
                                                        slug(paper.venue) != "arxiv")
            + 2 * bool(paper.pdf or paper.url) + bool(paper.bibtex) + bool(paper.keywords))
