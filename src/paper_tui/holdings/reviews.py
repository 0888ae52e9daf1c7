"""What the reviewers wrote and how their ratings moved, kept beside a source's copy:

- ``sources/<id>.reviews.jsonl.gz``: one line per paper of the source, ``{"id": paper id,
  "forum": …, "reviews": [Review.as_json(), …]}``, written by a fetch with ``--reviews``
  and replaced by the next (:func:`write_reviews`); the gzip header keeps the fetch's
  time (its name field, to the microsecond: two fetches of one second are told apart),
  so of two copies (a team-mate's, through sync) the newer fetch wins
  (:func:`newer_reviews`);
- ``sources/<id>.ratings.json``: per paper, a point ``(date, ratings, confidences)`` for
  every import of the source whose ratings differed from the paper's last point (a first
  import records the first; an unchanged one none: :func:`record_ratings`).

The index holds their words (``review:``, ``meta:``) and each paper's ``rating_change:``,
read from these files whenever it writes a paper (:class:`ForIndex`).

Both go with their source (:meth:`~paper_tui.holdings.sources.SourceStore.discard_unlisted`).
"""

from __future__ import annotations

import contextlib
import gzip
import hashlib
import io
import json
import re
import time
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from pathlib import Path

from paper_tui.errors import SourceError
from paper_tui.model import Paper
from paper_tui.trust import atomic
from paper_tui.trust.bounded_gzip import open_gzip
from paper_tui.venue.reviews import RatingPoint, Review, rating_change, review_texts, score

REVIEWS_SUFFIX = ".reviews.jsonl.gz"
RATINGS_SUFFIX = ".ratings.json"
MAX_POINTS = 1000
"""The most points one paper's history keeps (the oldest after the first go)."""


def reviews_file(root: Path, source_id: str) -> Path:
    return root / f"{source_id}{REVIEWS_SUFFIX}"


def ratings_file(root: Path, source_id: str) -> Path:
    return root / f"{source_id}{RATINGS_SUFFIX}"


def write_reviews(root: Path, source_id: str,
                  papers: Iterable[tuple[str, str, Sequence[Review]]],
                  fetched: float | None = None) -> int:
    """The source's reviews, ``(paper id, forum, reviews)`` per paper, replacing what was
    kept; how many reviews. ``fetched`` (seconds since 1970; default: now) is kept as the
    gzip header's time (:func:`fetched_at`)."""
    buffer = io.BytesIO()
    total = 0
    when = time.time() if fetched is None else fetched
    with gzip.GzipFile(f"{when:.6f}.jsonl", mode="wb", compresslevel=3, fileobj=buffer,
                       mtime=int(when)) as gz:
        for paper_id, forum, reviews in papers:
            line = {"id": paper_id, "forum": forum, "reviews": [r.as_json() for r in reviews]}
            gz.write(json.dumps(line, ensure_ascii=False).encode() + b"\n")
            total += len(reviews)
    atomic.write_bytes(reviews_file(root, source_id), buffer.getvalue())
    return total


def has_reviews(root: Path, source_id: str) -> bool:
    return reviews_file(root, source_id).is_file()


def reviews_of(root: Path, source_ids: Iterable[str], paper_id: str) -> list[Review] | None:
    """The paper's reviews from the first of the sources that kept its; None when none
    did (a damaged file is read up to the damage)."""
    needle = json.dumps({"id": paper_id}, ensure_ascii=False)[:-1].encode()
    for sid in source_ids:
        path = reviews_file(root, sid)
        if not path.is_file():
            continue
        with contextlib.suppress(OSError, SourceError, ValueError, EOFError), \
                open_gzip(path) as fh:
            for line in fh:
                if not line.startswith(needle + b",") and not line.startswith(needle + b"}"):
                    continue
                record = json.loads(line)
                found = record.get("reviews") if isinstance(record, dict) else None
                if isinstance(found, list):
                    return [r for r in map(Review.from_json, found) if r is not None]
    return None


_FETCHED_NAME = re.compile(rb"([0-9]{1,12}\.[0-9]{6})\.jsonl")


def fetched_at(data: bytes) -> float:
    """When the fetch that wrote a reviews file was, in seconds since 1970: the gzip
    header's name field as :func:`write_reviews` writes it (to the microsecond), else its
    time (to the second); 0 when unknown, -1 for bytes that are no gzip."""
    if len(data) < 10 or data[:2] != b"\x1f\x8b":
        return -1
    flags, at = data[3], 10
    if flags & 0x04 and len(data) >= 12:  # FEXTRA: skip it
        at += 2 + int.from_bytes(data[10:12], "little")
    if flags & 0x08:  # FNAME
        end = data.find(b"\0", at, at + 64)
        name = _FETCHED_NAME.fullmatch(data[at:end]) if end > at else None
        if name is not None:
            return float(name.group(1))
    return float(int.from_bytes(data[4:8], "little"))


def newer_reviews(a: bytes, b: bytes) -> bytes:
    """Of two copies of a source's reviews, the newer fetch's (the same whichever side
    asks: a tie goes to the greater bytes)."""
    return max(a, b, key=lambda data: (fetched_at(data), data))


# -- the rating history ---------------------------------------------------------------------
def _read_history(path: Path) -> dict[str, list[RatingPoint]]:
    try:
        return parse_history(atomic.read_regular(path)[0])
    except OSError:
        return {}  # none yet: the history starts


def parse_history(data: bytes) -> dict[str, list[RatingPoint]]:
    """A ratings file's histories by paper; none of a file that does not read (damaged:
    the history starts again)."""
    try:
        raw = json.loads(data)
    except (ValueError, RecursionError):
        return {}
    papers = raw.get("papers") if isinstance(raw, dict) else None
    if not isinstance(papers, dict):
        return {}
    history: dict[str, list[RatingPoint]] = {}
    for paper_id, points in papers.items():
        if isinstance(paper_id, str) and isinstance(points, list):
            read = [p for p in map(_point, points) if p is not None]
            if read:
                history[paper_id] = read
    return history


def _numbers(value: object) -> tuple[float, ...]:
    if not isinstance(value, list):
        return ()
    return tuple(n for n in map(score, value) if n is not None)


def _point(data: object) -> RatingPoint | None:
    if not isinstance(data, dict) or not isinstance(data.get("date"), str):
        return None
    return RatingPoint(data["date"], _numbers(data.get("ratings")),
                       _numbers(data.get("confidences")))


def record_ratings(root: Path, source_id: str,
                   current: Mapping[str, tuple[tuple[float, ...], tuple[float, ...]]],
                   date: str) -> int:
    """A point dated ``date`` for each paper whose ratings (or confidences) are not those
    of its last point; how many. Papers without ratings add none."""
    path = ratings_file(root, source_id)
    history = _read_history(path)
    added = 0
    for paper_id, (ratings, confidences) in current.items():
        if not ratings:
            continue
        points = history.setdefault(paper_id, [])
        if points and points[-1].ratings == ratings and points[-1].confidences == confidences:
            continue
        points.append(RatingPoint(date, tuple(ratings), tuple(confidences)))
        if len(points) > MAX_POINTS:
            del points[1]
        added += 1
    if added:
        atomic.write_text(path, history_text(history))
    return added


def history_text(history: Mapping[str, Sequence[RatingPoint]]) -> str:
    """A ratings file's text: papers by id, each's points oldest first."""
    data = {"papers": {pid: [{"date": p.date, "ratings": list(p.ratings),
                              "confidences": list(p.confidences)} for p in points]
                       for pid, points in sorted(history.items())}}
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"))


def union_histories(*histories: Mapping[str, Sequence[RatingPoint]]
                    ) -> dict[str, list[RatingPoint]]:
    """Histories of one source merged: each paper's points of every side, in the order of
    their dates (two of one date in the order the first side that has them gives: two
    fetches of one second), a point met twice kept once, and a point that says what the
    one before it said dropped (a point is a change); at most :data:`MAX_POINTS`."""
    merged: dict[str, list[RatingPoint]] = {}
    for paper_id in sorted({pid for history in histories for pid in history}):
        seen: dict[tuple[str, tuple[float, ...], tuple[float, ...]], RatingPoint] = {}
        for history in histories:
            for point in history.get(paper_id, ()):
                seen.setdefault((point.date, point.ratings, point.confidences), point)
        points: list[RatingPoint] = []
        for point in sorted(seen.values(), key=lambda p: p.date):  # stable: a side's order
            if points and (points[-1].ratings, points[-1].confidences) == \
                    (point.ratings, point.confidences):
                continue
            points.append(point)
        if len(points) > MAX_POINTS:
            points = points[:1] + points[len(points) - MAX_POINTS + 1:]
        if points:
            merged[paper_id] = points
    return merged


_READ: dict[Path, tuple[tuple[int, int, int], dict[str, list[RatingPoint]]]] = {}
"""Ratings files as read, by path, with the (inode, size, mtime) they were read at: the
app asks a history for every paper it shows, and a venue's file takes 90 ms to read."""
_KEPT_FILES = 8


def _history_file(path: Path) -> dict[str, list[RatingPoint]]:
    """``path`` read, or as read before if it has not changed since (replaced, it has)."""
    try:
        st = path.stat()
    except OSError:
        return {}
    key = (st.st_ino, st.st_size, st.st_mtime_ns)
    hit = _READ.get(path)
    if hit is not None and hit[0] == key:
        return hit[1]
    history = _read_history(path)
    if len(_READ) >= _KEPT_FILES:
        _READ.clear()
    _READ[path] = (key, history)
    return history


def history_of(root: Path, source_ids: Iterable[str], paper_id: str) -> list[RatingPoint]:
    """The paper's rating history, oldest first, from the first of the sources that has
    one for it (each file read once while it does not change)."""
    for sid in source_ids:
        path = ratings_file(root, sid)
        if path.is_file():
            points = _history_file(path).get(paper_id)
            if points:
                return list(points)
    return []


def histories(root: Path, source_ids: Iterable[str]) -> dict[str, list[RatingPoint]]:
    """Every paper's rating history, from the first of the sources that has one for it
    (each file read once while it does not change)."""
    found: dict[str, list[RatingPoint]] = {}
    for sid in source_ids:
        path = ratings_file(root, sid)
        if path.is_file():
            for paper_id, points in _history_file(path).items():
                found.setdefault(paper_id, points)
    return found


# -- what the index holds of them -------------------------------------------------------------
Texts = tuple[str, str]
"""A paper's review text and meta-review text (:func:`~paper_tui.venue.reviews.review_texts`)."""


def _texts_in(path: Path) -> Iterator[tuple[str, Texts]]:
    """``(paper id, its review and meta-review texts)`` for each paper of a reviews file,
    in the file's order (a damaged file is read up to the damage)."""
    with contextlib.suppress(OSError, SourceError, ValueError, EOFError, RecursionError), \
            open_gzip(path) as fh:
        for line in fh:
            record = json.loads(line)
            if not isinstance(record, dict) or not isinstance(record.get("id"), str) \
                    or not isinstance(record.get("reviews"), list):
                continue
            yield record["id"], review_texts(r for r in map(Review.from_json,
                                                            record["reviews"])
                                             if r is not None)


def digest(texts: Texts) -> bytes:
    """What tells one paper's review texts from another's (16 bytes)."""
    return hashlib.blake2b("\x00".join(texts).encode(), digest_size=16).digest()


def digests_of(root: Path, source_id: str) -> dict[str, bytes]:
    """The :func:`digest` of the review texts of each paper the source kept reviews
    for, a paper whose reviews have no text left out."""
    path = reviews_file(root, source_id)
    if not path.is_file():
        return {}
    return {pid: digest(texts) for pid, texts in _texts_in(path) if any(texts)}


_ID_LINE = re.compile(rb'\{"id": ("(?:[^"\\]|\\.)*")')


class _Reader:
    """A source's review texts as the papers of one writer ask for them: the file read
    forward, a paper's texts taken where its line is; the lines passed over on the way
    are kept until asked (a rebuild asks in the file's order, and keeps next to nothing)."""

    def __init__(self, path: Path) -> None:
        self._path = path
        self._ids: set[str] = set()
        if path.is_file():
            with contextlib.suppress(OSError, SourceError, ValueError, EOFError), \
                    open_gzip(path) as fh:
                for line in fh:
                    m = _ID_LINE.match(line)
                    if m:
                        with contextlib.suppress(ValueError):
                            self._ids.add(json.loads(m.group(1)))
        self._lines = _texts_in(path) if self._ids else iter(())
        self._ahead: dict[str, Texts] = {}
        self._taken: set[str] = set()

    def texts(self, paper_id: str) -> Texts:
        if paper_id not in self._ids:
            return "", ""
        if paper_id in self._taken:  # asked again: the file is read again from its start
            self._lines, self._ahead, self._taken = _texts_in(self._path), {}, set()
        self._taken.add(paper_id)
        found = self._ahead.pop(paper_id, None)
        if found is not None:
            return found
        for pid, texts in self._lines:
            if pid == paper_id:
                return texts
            self._ahead[pid] = texts
        return "", ""


def change_at_import(points: Sequence[RatingPoint], ratings: Sequence[float],
                     confidences: Sequence[float]) -> float | None:
    """The rating change of a paper whose history is ``points`` and whose ratings are now
    ``ratings``: the history as :func:`record_ratings` leaves it once this import is
    recorded (a point more when they differ from the last). The index writes a paper
    before its import's point is recorded, and again from the same ratings later: both
    give the same number."""
    ratings, confidences = tuple(ratings), tuple(confidences)
    if ratings and not (points and points[-1].ratings == ratings
                        and points[-1].confidences == confidences):
        points = [*points, RatingPoint("", ratings, confidences)]
    return rating_change(points)


class ForIndex:
    """The kept reviews and rating histories as the index reads them when it writes a
    paper (:class:`paper_tui.index.reviewed.KeptReviews`): each from the files of the
    paper's own source."""

    def __init__(self, root: Path) -> None:
        self.root = root

    def looker(self) -> Callable[[Paper], tuple[str, str, float | None]]:
        """A look-up for one writer: a source's reviews file is read (forward, as its
        papers come: :class:`_Reader`) and its rating history looked up until a paper of
        another source comes (a rebuild writes the sources one after another)."""
        held: dict[str, tuple[_Reader, dict[str, list[RatingPoint]]]] = {}

        def look(paper: Paper) -> tuple[str, str, float | None]:
            kept = held.get(paper.source)
            if kept is None:
                held.clear()
                kept = held[paper.source] = (
                    _Reader(reviews_file(self.root, paper.source)),
                    _history_file(ratings_file(self.root, paper.source)))
            reader, history = kept
            change = change_at_import(history.get(paper.id, ()), paper.ratings,
                                      paper.confidences)
            return (*reader.texts(paper.id), change)

        return look
