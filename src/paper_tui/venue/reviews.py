"""What the reviewers wrote: one :class:`Review` per reply of a paper's OpenReview forum
(an official review, the meta-review, the decision, a public comment), read from a reply
note as API v1 (``invitation``, plain values) or v2 (``invitations``, ``{"value": …}``)
gives it; and a paper's rating history (:class:`RatingPoint`), a point per fetch whose
ratings differed from the last.

Every reader takes any value and gives a clean one or "unknown" (``""``, ``()``, None);
none raises. Nothing here imports what is above ``venue/``.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, Literal

from paper_tui.query import ranges
from paper_tui.venue.signals import MAX_SCORE

Kind = Literal["meta-review", "decision", "review", "comment"]
KINDS: tuple[Kind, ...] = ("meta-review", "decision", "review", "comment")
"""In the order ``show --reviews`` prints them."""
_KIND_OF = {"meta_review": "meta-review", "metareview": "meta-review",
            "decision": "decision", "acceptance": "decision",
            "official_review": "review", "review": "review",
            "official_comment": "comment", "public_comment": "comment", "comment": "comment",
            "rebuttal": "comment", "author_response": "comment"}
"""An invitation's last part, folded (``…/Submission12/-/Official_Review``; API v1's
``…/-/Paper12/Official_Review``, ICLR 2017's ``…/-/paper12/official/review``) -> the kind
of its note. A reply of another invitation (a revision, a withdrawal, an ethics review) is
no review of the paper's and is left out."""
RATING_KEYS = ("rating", "recommendation", "overall_assessment", "review_rating",
               "final_rating", "overall_recommendation")
CONFIDENCE_KEYS = ("confidence", "review_confidence")
SCORE_KEYS = ("soundness", "presentation", "contribution", "originality", "quality",
              "clarity", "significance", "correctness", "technical_novelty_and_significance",
              "empirical_novelty_and_significance", "excitement", "reproducibility")
"""The venue's other score fields, taken as they come (with their number where they hold
one: ``"3 good"``, ``3``)."""
_SKIPPED = frozenset({"code_of_conduct", "flag_for_ethics_review", "details_of_ethics_concerns",
                      "first_time_reviewer", "pdf", "supplementary_material",
                      "responsible_reviewing_acknowledgement", "code_of_ethics",
                      "withdrawal_confirmation"})
"""Fields that say nothing of the paper to a reader (checkboxes, the form's own title)."""
_LEADING_NUMBER = re.compile(r"\s*([+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+))")
MAX_FIELD = 200_000
"""The longest text a review field is read from (OpenReview's own limit); longer: cut."""
MAX_REPLIES = 10_000
"""The most replies of one paper taken (a forum has tens)."""


def score(value: object) -> float | None:
    """A score as a number: ``6``, ``6.5``, ``"6"``, ``"6: Marginally above acceptance
    threshold"``, ``"3 good"``; None for anything else or a number outside 0 ..
    :data:`~paper_tui.venue.signals.MAX_SCORE` (read by :func:`paper_tui.query.ranges.fraction`:
    any length of digits is safe)."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return float(value) if 0 <= value <= MAX_SCORE else None
    if isinstance(value, float):
        return value if math.isfinite(value) and 0 <= value <= MAX_SCORE else None
    if isinstance(value, str):
        m = _LEADING_NUMBER.match(value[:64])
        if m:
            try:
                return ranges.fraction(m.group(1), 0, MAX_SCORE)
            except ranges.BadValue:
                return None
    return None


def _value(field: Any) -> Any:
    return field.get("value") if isinstance(field, dict) else field


def _text(value: object) -> str:
    """A field's text: a text as written (its lines kept), a list of texts joined with
    ", ", a number as written; ``""`` for anything else."""
    if isinstance(value, str):
        return value[:MAX_FIELD].strip()
    if isinstance(value, int | float) and not isinstance(value, bool):
        return str(value) if math.isfinite(value) else ""
    if isinstance(value, list) and len(value) <= 1000:
        return ", ".join(t for t in (_text(v) for v in value if isinstance(v, str)) if t)
    return ""


def kind(invitations: Iterable[object]) -> Kind | None:
    """``review`` for ``…/Submission12/-/Official_Review`` (v2) or
    ``…/-/Paper12/Official_Review`` (v1), …; None for another invitation."""
    for name in invitations:
        if not isinstance(name, str):
            continue
        found = _KIND_OF.get(name.rsplit("/", 1)[-1].casefold())
        if found is not None:
            return found  # type: ignore[return-value]
    return None


def author(signatures: object) -> str:
    """Who wrote it, as the forum shows it: ``Reviewer_x1Yz``, ``Area_Chair_ab12``,
    ``Authors``, ``Program_Chairs``, a profile ``~Jane_Doe1``; ``""`` when unsigned."""
    if not isinstance(signatures, list) or not signatures:
        return ""
    first = signatures[0]
    if not isinstance(first, str):
        return ""
    return first.rsplit("/", 1)[-1][:200]


def _date(note: Mapping[str, Any]) -> str:
    """The note's date, ISO (``2024-11-20``): when it was first posted."""
    for key in ("cdate", "tcdate", "tmdate", "mdate"):
        stamp = note.get(key)
        if isinstance(stamp, int | float) and not isinstance(stamp, bool) \
                and 0 < stamp < 1e14:
            return datetime.fromtimestamp(stamp / 1000, UTC).date().isoformat()
    return ""


HEADINGS: dict[str, str] = {"meta-review": "Meta-review", "decision": "Decision",
                            "review": "Review", "comment": "Comment"}


@dataclass(frozen=True, slots=True)
class Review:
    """One reply of a paper's forum."""

    kind: Kind
    author: str
    date: str
    """ISO ``YYYY-MM-DD``; ``""`` when the note gives none."""
    rating: float | None = None
    confidence: float | None = None
    scores: tuple[tuple[str, str], ...] = ()
    """The venue's other scores, as they came (``("soundness", "3 good")``)."""
    fields: tuple[tuple[str, str], ...] = ()
    """The text fields in the venue's order (``("summary", "…")``, ``("weaknesses", …)``)."""
    id: str = ""
    replyto: str = ""
    """The note it answers: the paper's forum, or a review (a comment's thread)."""

    def heading(self) -> str:
        """``Review by Reviewer_x1Yz, 2024-11-02``: what both fronts head it with."""
        by = f" by {self.author}" if self.author else ""
        return f"{HEADINGS[self.kind]}{by}" + (f", {self.date}" if self.date else "")

    def scores_line(self) -> str:
        """``rating 6 · confidence 4 · soundness 3 good · presentation 2 fair``."""
        from paper_tui.venue.text import number

        parts = [f"{name} {number(value)}" for name, value in
                 (("rating", self.rating), ("confidence", self.confidence))
                 if value is not None]
        parts += [f"{name.replace('_', ' ')} {value}" for name, value in self.scores]
        return " · ".join(parts)

    def as_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "author": self.author, "date": self.date,
                "rating": self.rating, "confidence": self.confidence,
                "scores": dict(self.scores), "fields": dict(self.fields),
                "id": self.id, "replyto": self.replyto}

    @classmethod
    def from_json(cls, data: object) -> Review | None:
        """A review as :meth:`as_json` wrote it; None for anything else."""
        if not isinstance(data, dict) or data.get("kind") not in KINDS:
            return None
        scores, fields = data.get("scores"), data.get("fields")
        return cls(data["kind"], _text(data.get("author")), _text(data.get("date")),
                   score(data.get("rating")), score(data.get("confidence")),
                   _pairs(scores), _pairs(fields), _text(data.get("id")),
                   _text(data.get("replyto")))


def _pairs(value: object) -> tuple[tuple[str, str], ...]:
    if not isinstance(value, dict):
        return ()
    return tuple((k, v) for k, v in value.items() if isinstance(k, str) and isinstance(v, str))


def from_note(note: object) -> Review | None:
    """The review a reply note holds, or None when it is none of :data:`KINDS` (a
    revision, a withdrawal) or is not a note."""
    if not isinstance(note, dict) or not isinstance(note.get("content"), dict):
        return None
    invitations = note.get("invitations")
    names = [*(invitations if isinstance(invitations, list) else ()), note.get("invitation")]
    found = kind(names)
    if found is None:
        return None
    content: dict[str, Any] = note["content"]
    rating_key = next((key for key in RATING_KEYS
                       if score(_value(content.get(key))) is not None), "")
    confidence_key = next((key for key in CONFIDENCE_KEYS
                           if score(_value(content.get(key))) is not None), "")
    rating = score(_value(content.get(rating_key))) if rating_key else None
    confidence = score(_value(content.get(confidence_key))) if confidence_key else None
    scores: list[tuple[str, str]] = []
    fields: list[tuple[str, str]] = []
    for key, raw in content.items():
        if not isinstance(key, str) or key in _SKIPPED or key in (rating_key, confidence_key):
            continue
        text = _text(_value(raw))
        if not text:
            continue
        (scores if key in SCORE_KEYS else fields).append((key, text))
    if found == "decision" and not fields and rating is None:
        return None
    return Review(found, author(note.get("signatures")), _date(note), rating, confidence,
                  tuple(scores), tuple(fields), _text(note.get("id")),
                  _text(note.get("replyto")))


def of_note(note: Mapping[str, Any]) -> list[Review]:
    """The reviews among a submission note's replies (``details.replies`` or
    ``details.directReplies``), in the forum's order."""
    details = note.get("details")
    if not isinstance(details, dict):
        return []
    replies = details.get("replies") or details.get("directReplies")
    if not isinstance(replies, list):
        return []
    found = (from_note(reply) for reply in replies[:MAX_REPLIES])
    return [review for review in found if review is not None]


def has_replies(note: Mapping[str, Any]) -> bool:
    """Whether the note came with its replies (even none: ``"replies": []``)."""
    details = note.get("details")
    return isinstance(details, dict) and any(
        isinstance(details.get(key), list) for key in ("replies", "directReplies"))


def in_order(reviews: Sequence[Review]) -> list[Review]:
    """Meta-review and decision first, then the reviews, then the comments (each kind in
    the forum's order)."""
    return sorted(reviews, key=lambda r: KINDS.index(r.kind))


def thread_depth(reviews: Sequence[Review]) -> dict[str, int]:
    """How deep each note is in the thread: 0 for a reply to the paper, 1 for a reply to
    one of those, …; by note id."""
    parent = {r.id: r.replyto for r in reviews if r.id}
    depth: dict[str, int] = {}
    for note_id in parent:
        seen, at = 0, note_id
        while parent.get(at) in parent and seen < 50:
            at = parent[at]
            seen += 1
        depth[note_id] = seen
    return depth


# -- the rating history ---------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class RatingPoint:
    """A paper's ratings and confidences as one fetch (or import) found them."""

    date: str
    """When: ISO, to the second, UTC (``2026-11-20T08:00:00Z``)."""
    ratings: tuple[float, ...]
    confidences: tuple[float, ...] = ()

    @property
    def mean(self) -> float | None:
        return round(math.fsum(self.ratings) / len(self.ratings), 3) if self.ratings else None

    def as_json(self) -> dict[str, Any]:
        return {"date": self.date, "ratings": list(self.ratings),
                "confidences": list(self.confidences), "mean": self.mean}


def rating_change(history: Sequence[RatingPoint]) -> float | None:
    """The newest mean less the first; None with fewer than two points (or no means)."""
    if len(history) < 2 or not history[0].ratings or not history[-1].ratings:
        return None
    first, last = history[0].ratings, history[-1].ratings
    return round(math.fsum(last) / len(last) - math.fsum(first) / len(first), 3)


def change_text(history: Sequence[RatingPoint]) -> str:
    """``5.3 → 6.0 (+0.7 since 20 Nov)``; ``""`` with fewer than two points."""
    change = rating_change(history)
    if change is None:
        return ""
    first, last = history[0].mean, history[-1].mean
    day = history[0].date[:10]
    try:
        since = datetime.strptime(day, "%Y-%m-%d").strftime("%-d %b")
    except ValueError:
        since = day
    return f"{first:.1f} → {last:.1f} ({change:+.1f} since {since})"


def stamp(seconds: float) -> str:
    """A point's date from seconds since 1970."""
    return datetime.fromtimestamp(seconds, UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


# -- their words, as the index holds them ----------------------------------------------------
REVIEW_KINDS: frozenset[Kind] = frozenset({"review", "meta-review", "decision"})
"""The kinds whose text ``review:`` searches (the comments of the thread are not a review)."""
META_KINDS: frozenset[Kind] = frozenset({"meta-review", "decision"})
"""The kinds whose text ``meta:`` searches."""


def review_texts(reviews: Iterable[Review]) -> tuple[str, str]:
    """The text fields of the reviews, meta-reviews and decisions (what ``review:``
    searches), and those of the meta-reviews and decisions alone (``meta:``); each
    field's text on its own lines."""
    every: list[str] = []
    meta: list[str] = []
    for review in reviews:
        if review.kind not in REVIEW_KINDS:
            continue
        texts = [text for _, text in review.fields]
        every += texts
        if review.kind in META_KINDS:
            meta += texts
    return "\n".join(every), "\n".join(meta)
