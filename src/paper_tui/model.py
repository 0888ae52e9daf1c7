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
    # What the venue says: the fields of paper_tui.venue.fields.VenueSignals, declared and
    # explained there; written out here because a typed attribute must be (and held equal
    # to it, names, order, types and defaults, by tests/test_venue_fields.py).
    decision: str = ""
    decision_text: str = ""
    ratings: tuple[float, ...] = ()
    confidences: tuple[float, ...] = ()
    rating: float | None = None
    rating_spread: float | None = None
    confidence: float | None = None
    area: str = ""
    award: bool | None = None
    citations: int | None = None
    citations_date: str = ""
    code: str = ""
    project: str = ""
    affiliations: tuple[tuple[str, ...], ...] = ()
    countries: tuple[str, ...] = ()
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
_NESTED_TUPLES = tuple(f.name for f in fields(Paper)
                       if str(f.type).startswith(("tuple[tuple[", "tuple[Span")))
_FLAT_TUPLES = tuple(f.name for f in fields(Paper)
                     if str(f.type).startswith("tuple[") and f.name not in _NESTED_TUPLES)
"""The tuple fields (by their types), which JSON stores as lists (of lists)."""

DECISIONS = ("oral", "spotlight", "poster", "accept", "reject", "withdrawn", "desk-reject",
             "workshop", "findings", "submitted")
"""The normalised decisions a paper's ``decision`` may hold (besides "" for unknown);
``submitted``: under review, not decided when the list was made (OpenReview's "Submitted to
ICLR 2025", paperlists' "Active")."""
ACCEPTED = frozenset({"oral", "spotlight", "poster", "accept", "findings"})
"""The decisions that mean the paper was accepted (``decision:accepted``)."""


def _norm(text: str) -> str:
    """NFKC, case folded, white space collapsed: what an id is made of. (ASCII is its own
    NFKC and folds as ``lower``, without NFKC's look-up of every character; ``split`` and
    ``\\s`` know the same white space.)"""
    text = text.lower() if text.isascii() else unicodedata.normalize("NFKC", text).casefold()
    return " ".join(text.split())


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
