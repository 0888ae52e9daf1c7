"""OpenReview notes as its API returns them: ``{"notes": [...]}`` or a bare array of notes.

API v2 wraps every content field as ``{"value": ...}``; API v1 gives plain values. Venue
and year come from ``venue`` / ``venueid`` (``ICLR 2024 oral``, ``ICLR.cc/2024/Conference``);
so do the track (oral, spotlight, poster) and the decision (normalised by
:func:`paper_tui.venue.signals.decision`; the venue text kept as ``decision_text``). The area
is ``primary_area``. Notes fetched with their replies (``details=directReplies`` in v1,
``details=replies`` in v2) also give the reviews' ratings and confidences (``Official_Review``
replies) and the decision (a ``Decision`` reply). Rejected and withdrawn submissions are
imported, flagged: a keyword (``keyword:rejected``) besides the decision, and the import
says how many there were.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from paper_tui.errors import SourceError, SourceNotice
from paper_tui.importers import fields
from paper_tui.importers.common import (
    NO_HINTS,
    FieldError,
    Hints,
    make_paper,
    parse_year,
    read_json,
)
from paper_tui.model import Paper
from paper_tui.venue import reviews as venue_reviews
from paper_tui.venue import signals as venue_signals

FORMAT = "openreview"
EXTENSIONS = (".json",)
SITE = "https://openreview.net"
TRACKS = ("oral", "spotlight", "poster")
FLAGGED = ("rejected", "withdrawn")
_FLAG_WORDS = {"reject": "rejected", "desk-reject": "rejected", "withdrawn": "withdrawn",
               "submitted": "submitted"}
"""The keyword a decision adds (``keyword:rejected``), as before decisions were searchable."""
_VENUE = re.compile(r"^(?P<venue>.*?)\s*(?P<year>(?:19|20)\d{2})\b")
_VENUE_LENGTH = 300


def sniff(head: str) -> bool:
    head = head.lstrip()
    if head.startswith("{") and '"notes"' in head[:200]:
        return True
    return head.startswith("[") and '"content"' in head and \
        any(key in head for key in ('"forum"', '"invitation"', '"invitations"'))


def _value(field: Any) -> Any:
    """A content field's value: v2 wraps it as ``{"value": ...}``."""
    return field.get("value") if isinstance(field, dict) else field


def _text(content: dict, *keys: str) -> str:
    """The first of ``keys`` that holds text (a list of texts joined with ", ")."""
    for key in keys:
        value = fields.text(_value(content.get(key)), key)
        if value:
            return value
    return ""


def decision_and_track(*texts: str) -> tuple[str, str]:
    """``("oral", "oral")`` from ``ICLR 2024 oral`` or ``Accept (Oral)``, ``("withdrawn",
    "")`` from ``ICLR.cc/2024/Conference/Withdrawn_Submission`` …: the normalised decision
    (:data:`~paper_tui.model.DECISIONS`) and the presentation track."""
    text = " ".join(texts).lower().replace("_", " ")
    track = next((t for t in TRACKS if re.search(rf"\b{t}\b", text)), "")  # not "doctoral"
    return venue_signals.decision(text), track


def _venue_year(venue: str, venueid: str, note: dict) -> tuple[str, int | None]:
    """``ICLR`` and 2024 from ``ICLR 2024 poster`` or ``ICLR.cc/2024/Conference``
    (or ``Submitted to ICLR 2024``); the year of the note's dates when neither says."""
    name, year = "", None
    # (a venue is short: the pattern is quadratic on a long run of spaces)
    m = _VENUE.match(re.sub(r"(?i)^submitted to\s+", "", venue[:_VENUE_LENGTH]))
    if m:
        name, year = m.group("venue"), int(m.group("year"))
    elif venueid:
        parts = venueid.split("/")
        name = parts[0].removesuffix(".cc") if not parts[0].startswith("dblp.org") \
            else (parts[2] if len(parts) > 2 else "")
        year = next((int(p) for p in parts if re.fullmatch(r"(19|20)\d{2}", p)), None)
    if year is None:
        year = _stamp_year(note)
    return name, year


def _stamp_year(note: dict) -> int | None:
    """The year of the note's publication (or creation) date: milliseconds since 1970, or
    a text holding a year."""
    for key in ("pdate", "cdate", "tcdate"):
        stamp = note.get(key)
        if not stamp:
            continue
        if isinstance(stamp, str):
            if (year := parse_year(stamp)) is not None:
                return year
            continue
        if isinstance(stamp, int | float) and not isinstance(stamp, bool):
            try:
                return datetime.fromtimestamp(stamp / 1000, UTC).year
            except (OverflowError, OSError, ValueError):  # NaN, 1e300
                pass
        raise FieldError(f"{key} is not a time in milliseconds since 1970")
    return None


def _link(value: str) -> str:
    return SITE + value if value.startswith("/") else value


def _replies(note: dict, kind: str) -> list[dict[str, Any]]:
    """The contents of the note's replies whose invitation ends with ``kind``
    (``Official_Review``, ``Decision``): v1 ``details.directReplies`` (``invitation``), v2
    ``details.replies`` (``invitations``)."""
    details = note.get("details")
    if not isinstance(details, dict):
        return []
    found = details.get("directReplies") or details.get("replies")
    out = []
    for reply in found if isinstance(found, list) else ():
        if not isinstance(reply, dict) or not isinstance(reply.get("content"), dict):
            continue
        invitations = reply.get("invitations")
        names = [*(invitations if isinstance(invitations, list) else ()),
                 reply.get("invitation")]
        if any(isinstance(name, str) and name.endswith(kind) for name in names):
            out.append(reply["content"])
    return out


def _reviews(note: dict) -> tuple[venue_signals.Reviews, venue_signals.Reviews]:
    """The ratings and confidences of the note's official reviews, read as
    ``show --reviews`` reads them (:func:`paper_tui.venue.reviews.of_note`)."""
    reviews = [r for r in venue_reviews.of_note(note) if r.kind == "review"]
    ratings = [r.rating for r in reviews if r.rating is not None]
    confidences = [r.confidence for r in reviews if r.confidence is not None]
    return venue_signals.reviews(ratings), venue_signals.reviews(confidences)


def note_to_paper(note: dict, source: str, hints: Hints) -> Paper:
    content = note.get("content") or {}
    venue_text, venueid = _text(content, "venue"), _text(content, "venueid")
    venue, year = _venue_year(venue_text, venueid, note)
    decision_note = _text(content, "decision") or next(
        (text for reply in _replies(note, "Decision") if (text := _text(reply, "decision"))),
        "")
    ratings, confidences = _reviews(note)
    decision, track = decision_and_track(venue_text, venueid, decision_note)
    keywords = list(fields.words(_value(content.get("keywords")), "keywords"))
    keywords += [w for w in (track, _FLAG_WORDS.get(decision, "")) if w and w not in keywords]
    forum = fields.text(*fields.pick(note, "forum", "id"))
    return make_paper(
        source=source,
        title=_text(content, "title"),
        abstract=_text(content, "abstract"),
        authors=fields.names(_value(content.get("authors")), "authors"),
        venue=venue or hints.venue,
        year=year or parse_year(_text(content, "year")) or hints.year,
        url=f"{SITE}/forum?id={forum}" if forum else "",
        pdf=_link(_text(content, "pdf")),
        keywords=keywords,
        bibtex=_text(content, "_bibtex"),
        tldr=_text(content, "TL;DR", "TLDR", "tldr"),
        track=track,
        signals=venue_signals.VenueSignals(
            decision=decision,
            decision_text=venue_signals.decision_text(decision_note or venue_text
                                                      or (venueid if decision else "")),
            ratings=ratings.each, rating=ratings.mean, rating_spread=ratings.spread,
            confidences=confidences.each, confidence=confidences.mean,
            area=venue_signals.area(_value(content.get("primary_area"))
                                    or _value(content.get("subject_areas"))),
            code=venue_signals.link(_value(content.get("code"))),
        ),
    )


def read(path: Path, source: str, hints: Hints = NO_HINTS) -> Iterator[Paper | SourceError]:
    data = read_json(path)
    notes = data.get("notes") if isinstance(data, dict) else data
    if not isinstance(notes, list):
        raise SourceError(path, 'expected OpenReview notes: {"notes": [...]} or a JSON array')
    flagged: Counter[str] = Counter()
    for number, note in enumerate(notes, 1):
        if not isinstance(note, dict) or not isinstance(note.get("content"), dict):
            yield SourceError(path, "not an OpenReview note (no content object)", record=number)
            continue
        try:
            paper = note_to_paper(note, source, hints)
        except FieldError as exc:
            yield SourceError(path, str(exc), record=number)
            continue
        if not paper.abstract and paper.title_generated:
            yield SourceError(path, "note has neither title nor abstract", record=number)
            continue
        flag = _FLAG_WORDS.get(paper.decision, "")
        if flag in FLAGGED:
            flagged[flag] += 1
        yield paper
    if flagged:
        counts = " and ".join(f"{n} {word}" for word, n in sorted(flagged.items()))
        yield SourceNotice(path, f"{counts} submission(s) imported, flagged: search "
                           + " or ".join(f"keyword:{word}" for word in sorted(flagged)))
