"""What the venue says about a paper, read from whatever a source carries: the decision,
the reviews' ratings and confidences, the area, an award, citations, links and the
authors' affiliations and countries.

The fields themselves (name, type, meaning) are declared once, in
:mod:`paper_tui.venue.fields`.

Sources are messy (``"5;6;6;6"``, ``"[5.75, 0.43]"``, ``"[0, 0]"``, ``-1``, ``"China;"``,
a Markdown link where a URL belongs). Every reader here takes any value (a JSON value or a
cell's text) and gives a clean one or "unknown" (``""``, ``()``, ``None``); none raises,
and none gives 0 for unknown.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import date
from typing import Any

from paper_tui.model import DECISIONS
from paper_tui.venue.fields import NO_SIGNALS as NO_SIGNALS  # what the readers make: declared
from paper_tui.venue.fields import VenueSignals  # there, with its fields' meaning

_SPACE = re.compile(r"\s+")
_NUMBER = re.compile(r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")
_PREFIX = re.compile(r"^\s*(?:\[[^\]]*\]|\([^)]*\))\s*:?\s*")
_MARKDOWN_LINK = re.compile(r"\]\((https?://[^)\s]+)\)")
_URL = re.compile(r"(?i)\b(?:https?://|www\.|github\.com/|gitlab\.com/)[^\s<>\"'\]\[)(;,]+")
_DECIMALS = 3
MAX_SCORE = 1000.0
"""The largest review score or mean taken (review scales end at 10, a few at 100)."""
MAX_CITATIONS = 10_000_000
"""The largest citation count taken: the most cited papers there are have a few hundred
thousand; a count beyond this (``gs_citation: 1e308``) is unknown, not the top of a sort."""
MAX_REVIEWS = 100_000
"""The most reviews ``reviews:`` asks about (a paper's reviews are its listed scores)."""

# What a decision word means, tried in order on the folded text (the first cue found wins):
# "Submitted to ICLR 2024" with venueid ".../Rejected_Submission" is a reject, "Accept
# (Oral)" an oral, "Poster Workshop" a workshop paper.
_DECISION_CUES: tuple[tuple[str, str], ...] = (
    (r"desk[ -]?reject", "desk-reject"),
    (r"withdr[ae]w", "withdrawn"),
    (r"\breject", "reject"),
    (r"\bworkshop", "workshop"),
    (r"\bfindings\b", "findings"),
    (r"\boral\b|notable[ -]top[ -]5\b|\baward[ -]candidate|\bbest[ -]paper", "oral"),
    (r"\bspotlight|notable[ -]top[ -]25\b|\bhighlight", "spotlight"),
    (r"\bposter\b", "poster"),
    (r"\baccept", "accept"),
    # Not decided yet: OpenReview's "Submitted to ICLR 2025" (venueid ".../Submission"),
    # paperlists' "Active" (under review when the list was made).
    (r"\bsubmitted\b|\bsubmission\b|\bactive\b|\bunder review\b|\bpending\b",
     "submitted"),
    # Accepted, in the words of a venue that names the kind of paper or the track
    # (ACL's Long / Short / Main, "Technical", OpenReview's venueid ".../Conference").
    (r"\bconference\b|\b(?:long|short|main|technical|regular|full|industry|demos?"
     r"|system demonstrations?|journal|published|track)\b", "accept"),
)
_DECISION_PATTERNS = tuple((re.compile(cue), word) for cue, word in _DECISION_CUES)
assert all(word in DECISIONS for _, word in _DECISION_CUES)


_SURROGATE = re.compile("[\ud800-\udfff]")


def _has_surrogate(text: str) -> bool:
    """JSON's ``"\ud800"`` escapes decode to unpaired surrogates: not text (they cannot
    even be written as UTF-8)."""
    return not text.isascii() and _SURROGATE.search(text) is not None


def _text(value: object) -> str:
    """A value as one line of text: ``""`` for None, a bool, a container or a text that
    is not text (an unpaired surrogate)."""
    if isinstance(value, str):
        return "" if _has_surrogate(value) else _SPACE.sub(" ", value).strip()
    if isinstance(value, int | float) and not isinstance(value, bool):
        return str(value) if math.isfinite(value) else ""
    return ""


def decision_text(value: object) -> str:
    """The source's own words for the decision (``Poster Workshop``), cleaned."""
    return _text(value)


def decision(*values: object) -> str:
    """The normalised decision (one of :data:`~paper_tui.model.DECISIONS`) the texts say
    together (a paperlists ``status``; OpenReview's ``venue``, ``venueid`` and decision
    note), or ``""`` when none of them says one."""
    text = " ".join(_text(v) for v in values).casefold().replace("_", " ")
    if not text:
        return ""
    for pattern, word in _DECISION_PATTERNS:
        if pattern.search(text):
            return word
    return ""


def _finite(value: float) -> float | None:
    return value if math.isfinite(value) else None


def _number(value: object) -> float | None:
    """One number: a JSON number, or the first number in a text (``"6: Marginally above
    acceptance threshold"`` -> 6.0); None when there is none."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int) and abs(value) > MAX_SCORE:  # 400 digits are no float
        return None
    if isinstance(value, int | float):
        return _finite(float(value))
    if isinstance(value, str):
        m = _NUMBER.search(value)
        if m:
            try:
                return _finite(float(m.group(0)))
            except (ValueError, OverflowError):
                return None
    return None


def scores(value: object) -> tuple[float, ...]:
    """Per-review scores: ``"5;6;6;6"``, ``[5, 6]``, ``"5, 6"``, ``"6: Good paper"``.

    A part that holds no number is left out; so is 0 (or what rounds to it) or a negative
    one (no review scale has them: the sources write 0 for "no score"), and one above
    :data:`MAX_SCORE`."""
    if isinstance(value, list | tuple):
        parts: list[object] = list(value)
    elif isinstance(value, str):
        parts = list(re.split(r"[;,|]", value.strip().strip("[]")))
    elif isinstance(value, int | float) and not isinstance(value, bool):
        parts = [value]
    else:
        return ()
    out = []
    for part in parts:
        number = _number(part)
        if number is not None and 0 < round(number, _DECIMALS) <= MAX_SCORE:
            out.append(number)
    return tuple(out)


def _rounded(value: float | None) -> float | None:
    return None if value is None else round(value, _DECIMALS)


def mean_and_spread(value: object) -> tuple[float | None, float | None]:
    """A source's own mean, and its spread when given: ``6.0``, ``"6.0"``, ``"[5.75,
    0.43]"``; ``0``, ``"[0, 0]"``, ``""`` and negatives are unknown (no scale has a mean of
    0, and the sources write 0 for "no reviews")."""
    if isinstance(value, list | tuple) or (isinstance(value, str) and "[" in value):
        numbers = scores(value)
        mean = numbers[0] if numbers else None
        spread = numbers[1] if len(numbers) > 1 else None
    else:
        mean, spread = _number(value), None
    if mean is None or not 0 < round(mean, _DECIMALS) <= MAX_SCORE:
        return None, None
    if spread is not None and not 0 <= spread <= MAX_SCORE:
        spread = None
    return _rounded(mean), _rounded(spread)


@dataclass(frozen=True, slots=True)
class Reviews:
    """One kind of review score (ratings or confidences) as a paper keeps it."""

    each: tuple[float, ...] = ()
    mean: float | None = None
    spread: float | None = None


NO_REVIEWS = Reviews()


def reviews(each: object, mean: object = None) -> Reviews:
    """Per-review scores with their mean and (population) spread; the source's own mean
    (``rating_avg``) when it lists no scores."""
    numbers = scores(each)
    if numbers:
        # Plain floats: statistics.pstdev is exact through Fractions, 20x slower, and the
        # result is rounded to 3 decimals anyway.
        mean = math.fsum(numbers) / len(numbers)
        spread = math.sqrt(math.fsum((x - mean) ** 2 for x in numbers) / len(numbers))
        return Reviews(numbers, _rounded(mean), _rounded(spread))
    own_mean, own_spread = mean_and_spread(mean)
    return Reviews((), own_mean, own_spread)


def area(value: object) -> str:
    """The area without a ``[Content] ``-like prefix; ``machine_vision`` -> ``machine
    vision``; several (a list) joined with ``; ``."""
    if isinstance(value, list | tuple):
        return "; ".join(a for a in (area(_text(v)) for v in value) if a)
    text = _text(value)
    text = _PREFIX.sub("", text, count=1) if text.startswith(("[", "(")) else text
    if "_" in text and " " not in text:
        text = text.replace("_", " ")
    return text.strip(" ;,")


_TRUE = frozenset({"true", "yes", "y", "1"})
_FALSE = frozenset({"false", "no", "n", "0", "none", "null", "-"})


def award(value: object) -> bool | None:
    """Whether the paper won an award: ``True``/``False``, ``"true"``, ``"yes"``, or the
    award's name (``"Best Paper"``); None when the source does not say."""
    if isinstance(value, bool):
        return value
    if isinstance(value, int) and value in (0, 1):
        return bool(value)
    text = _text(value).casefold()
    if not text:
        return None
    if text in _TRUE:
        return True
    if text in _FALSE:
        return False
    return True if isinstance(value, str) else None


def citations(value: object) -> int | None:
    """A citation count: ``312``, ``"312"``, ``312.0``; ``-1``, other negatives, ``""``,
    anything not a whole number and anything above :data:`MAX_CITATIONS` are unknown."""
    if isinstance(value, bool):
        return None
    if isinstance(value, str):
        text = value.strip().replace(",", "")
        if not re.fullmatch(r"\d+(?:\.0*)?", text):
            return None
        value = float(text)
    # the range first: NaN and inf are in none, and an int of 400 digits is no float
    if isinstance(value, int | float) and 0 <= value <= MAX_CITATIONS \
            and float(value).is_integer():
        return int(value)
    return None


def citations_date(value: object) -> str:
    """An ISO day (``2026-12-01``) from a date text, ``""`` when there is none."""
    m = re.search(r"\b(\d{4})-(\d{2})-(\d{2})\b", _text(value))
    if not m:
        return ""
    try:
        return date(int(m.group(1)), int(m.group(2)), int(m.group(3))).isoformat()
    except ValueError:
        return ""


def link(value: object) -> str:
    """The first web link in a value: a URL, ``github.com/x/y`` (made ``https://``), the
    target of a Markdown link (``[![github](/icon.svg) x/y](https://github.com/x/y)``);
    ``""`` when there is none (only http and https: never ``javascript:`` or a file)."""
    if isinstance(value, list | tuple):
        return next((found for found in (link(_text(v)) for v in value) if found), "")
    text = _text(value)
    if not text:
        return ""
    m = _MARKDOWN_LINK.search(text)
    if m:
        return m.group(1)
    m = _URL.search(text)
    if not m:
        return ""
    url = m.group(0).rstrip(".")
    return url if url.casefold().startswith(("http://", "https://")) else "https://" + url


def _split_affiliations(text: str) -> tuple[str, ...]:
    names = (_SPACE.sub(" ", part).strip(" ,") for part in text.split("+"))
    return tuple(dict.fromkeys(n for n in names if n))


def affiliations(value: object) -> tuple[tuple[str, ...], ...]:
    """Per author, that author's affiliations: ``"A + B; C"`` -> ``(("A", "B"), ("C",))``
    (``;`` between authors, ``+`` between one author's); a list of texts or of lists too.
    An author with none gets ``()``; no affiliation at all (``";;"``) is ``()``."""
    if isinstance(value, str):
        per_author: list[tuple[str, ...]] = [_split_affiliations(_text(part))
                                             for part in value.split(";")]
    elif isinstance(value, list | tuple):
        per_author = []
        for item in value:
            if isinstance(item, list | tuple):
                texts = (_text(v) for v in item)
                per_author.append(tuple(dict.fromkeys(t for t in texts if t)))
            else:
                per_author.append(_split_affiliations(_text(item)))
    else:
        return ()
    return tuple(per_author) if any(per_author) else ()


def countries(value: object) -> tuple[str, ...]:
    """Each country once, in the source's order: ``"China;United States"``, ``"China;"``
    -> ``("China",)``; a list too."""
    if isinstance(value, str):
        parts: list[str] = [_text(part) for part in re.split(r"[;|]", value)]
    elif isinstance(value, list | tuple):
        parts = [_text(v) for v in value]
    else:
        return ()
    names = (p.strip(" ,") for p in parts)
    return tuple(dict.fromkeys(n for n in names if n))


MAX_VALUE = 100_000
"""The longest text (in characters) or list (in items) a signal is read from: a longer one
is no venue's signal (a damaged or hostile file) and stays unknown."""


def _get(record: Mapping[str, Any], key: str) -> Any:
    value = record.get(key)
    if isinstance(value, str | list | tuple) and len(value) > MAX_VALUE:
        return None
    return value


def _first(record: Mapping[str, Any], *keys: str) -> Any:
    """The first of ``keys`` the record has with a value that is not blank."""
    for key in keys:
        value = _get(record, key)
        if value is not None and value != "" and value != []:
            return value
    return None


def _is_per_review(value: object) -> bool:
    return isinstance(value, list | tuple) or (isinstance(value, str) and ";" in value)


def _reviews_of(record: Mapping[str, Any], name: str) -> Reviews:
    """Reviews from our names (``ratings`` per review, ``rating`` the mean,
    ``rating_spread``) or paperlists' (``rating`` per review, ``rating_avg`` the mean and
    maybe the spread: ``"[5.75, 0.43]"``)."""
    plural, avg = name + "s", name + "_avg"
    if plural in record or (avg not in record and not _is_per_review(_get(record, name))):
        found = reviews(_get(record, plural), _get(record, name))
        if found.each or found.mean is None:
            return found
        spread = _number(_get(record, name + "_spread"))
        return Reviews((), found.mean, _rounded(spread)
                       if spread is not None and 0 <= spread <= MAX_SCORE else found.spread)
    return reviews(_get(record, name), _get(record, avg))


def from_record(record: Mapping[str, Any], today: str = "") -> VenueSignals:
    """The signals in one record that uses our field names (the :class:`Paper` fields) or
    paperlists' (``status``, ``rating``/``rating_avg``, ``primary_area``, ``gs_citation``,
    ``github``, ``aff``, ``aff_country_unique``). ``today`` dates a citation count the
    record does not date itself."""
    # Our exports write the triage status as "status" beside "decision": "status" is the
    # venue's word only where "decision" is not a column.
    raw_decision = _get(record, "decision" if "decision" in record else "status")
    ratings = _reviews_of(record, "rating")
    confidences = _reviews_of(record, "confidence")
    cited = citations(_first(record, "citations", "gs_citation", "citation_count"))
    return VenueSignals(
        decision=decision(raw_decision),
        decision_text=decision_text(_first(record, "decision_text") or raw_decision),
        ratings=ratings.each,
        confidences=confidences.each,
        rating=ratings.mean,
        rating_spread=ratings.spread,
        confidence=confidences.mean,
        area=area(_first(record, "area", "primary_area", "subject_area")),
        award=award(_get(record, "award")),
        citations=cited,
        citations_date=(citations_date(_get(record, "citations_date")) or today)
        if cited is not None else "",
        code=link(_first(record, "code", "github")),
        project=link(_get(record, "project")),
        affiliations=affiliations(_first(record, "affiliations", "aff")),
        countries=countries(_first(record, "countries", "aff_country_unique")),
    )


def today() -> str:
    """Today's date, ISO: what a citation count imported now is dated."""
    return date.today().isoformat()
