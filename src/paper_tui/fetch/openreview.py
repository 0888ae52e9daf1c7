"""OpenReview: a venue's notes, ``GET /notes?content.venueid=V&limit=&offset=``, through
API v2, paged until the ``count`` the first page gives; a venue API v2 has nothing of
(OpenReview's venues before 2024 live on API v1) is asked of API v1 the same way, paged
until a page comes back short (v1 need not say its count).

The accepted papers of ``ICLR.cc/2025/Conference`` carry that venue id; with ``--all``,
OpenReview's other venue ids of the venue are fetched too: ``…/Submission`` (under review
or not yet decided), ``…/Rejected_Submission``, ``…/Withdrawn_Submission`` and
``…/Desk_Rejected_Submission``. The stored file is ``{"notes": [...], "count": N}``, which
``importers/openreview.py`` reads (decision and area from each note's ``venue``,
``venueid`` and ``primary_area``).

With ``--reviews`` (or ``fetch.reviews: true``) each page is asked with
``details=replies``: the same pages, in the same number of requests, bring every paper's
reviews, meta-review, decision and public comments (never a request per paper). Their
ratings reach the papers through the list; the reviews themselves
(:mod:`paper_tui.venue.reviews`) go with the listing, by forum, to be kept beside the
source (:mod:`paper_tui.holdings.reviews`). A venue that publishes none is said in one
line, and its list is fetched all the same.

A venue whose pages come back without the replies asked for (its replies not served
through ``details=replies``) has each such paper's forum asked, ``GET /notes?forum=ID``:
one request more per paper whose replies were missing, none for a paper whose page
carried them, through the same client (its retries, waits and ``fetch.deadline_s``) and
kept pages (resumed, asked conditionally again). When the first :data:`PROBE` forums
bring no reply (or the first cannot be had), the venue serves none that way either:
said in the line of a venue without reviews, no more forum asked.
"""

from __future__ import annotations

import json
from typing import Any

from paper_tui.errors import FetchError
from paper_tui.fetch.listing import MAX_PAGES, Listing, Options, json_page
from paper_tui.fetch.pages import Pages
from paper_tui.fetch.spec import Spec
from paper_tui.venue import reviews as venue_reviews

LIMIT = 1000
"""Notes per page: the most API v2 gives."""
PROBE = 3
"""Forums asked before a venue whose forums all come back without a reply is taken to
serve none (its other papers' forums are not asked)."""
MAX_FORUMS = 50_000
"""The most forums one fetch asks (a venue of all its submissions has ~20,000)."""
OTHER_DECISIONS = ("Submission", "Rejected_Submission", "Withdrawn_Submission",
                   "Desk_Rejected_Submission")


def venue_ids(venue: str, all_decisions: bool) -> list[str]:
    return [venue, *(f"{venue}/{other}" for other in OTHER_DECISIONS)] if all_decisions \
        else [venue]


def fetch(spec: Spec, pages: Pages, options: Options) -> Listing:
    ids = venue_ids(spec.value, options.all_decisions)
    notes: list[Any] = []
    base = options.settings.openreview_url
    for venueid in ids:
        notes += _venue_notes(spec, base, venueid, pages, len(notes), 2, options.reviews)
    v1_said = ""
    if not notes:
        base = options.settings.openreview_v1_url
        try:
            for venueid in ids:
                notes += _venue_notes(spec, base, venueid, pages, len(notes), 1,
                                      options.reviews)
        except FetchError as exc:
            if notes:  # v1 has the venue and failed on the way: that is the news
                raise
            v1_said = f"; API v1: {exc.message}"
    _one_version(spec, pages, notes)
    if not notes:
        tried = " or its other venue ids" if options.all_decisions else ""
        raise FetchError(spec.text, f"OpenReview has no papers under venue id {spec.value!r}"
                         f"{tried} (ids are case-sensitive, e.g. ICLR.cc/2025/Conference"
                         f"{v1_said})")
    said = _forum_replies(spec, base, pages, notes) if options.reviews else ""
    listing = Listing(lambda: json.dumps({"notes": [_slim(n) for n in notes],
                                          "count": len(notes)}, ensure_ascii=False).encode(),
                      len(notes))
    if options.reviews:
        listing.reviews, listing.notice = _reviews(spec, notes, said)
    return listing


def _forum(note: Any) -> str | None:
    forum = (note.get("forum") or note.get("id")) if isinstance(note, dict) else None
    return forum if isinstance(forum, str) and forum else None


def _forum_replies(spec: Spec, base: str, pages: Pages, notes: list[Any]) -> str:
    """Each paper whose page came without its replies given them from its forum
    (``GET /notes?forum=ID``, one request each); "" or why none was asked past the first
    :data:`PROBE` (for the line of a venue without reviews)."""
    missing = [n for n in notes if _forum(n) is not None
               and not venue_reviews.has_replies(n)][:MAX_FORUMS]
    any_reply = False
    for asked, note in enumerate(missing, 1):
        forum = _forum(note)
        assert forum is not None
        try:
            replies = pages.get(f"{base}/notes", {"forum": forum}, _replies_of(forum),
                                extra=True)
        except FetchError as exc:
            if any_reply or asked > PROBE:
                pages.flush()  # the next fetch resumes after the forums that came
                raise  # the venue serves its forums: this one is missing, try again
            return f"its forums cannot be had either ({exc.message})"
        details = note.get("details")
        note["details"] = {**(details if isinstance(details, dict) else {}),
                           "replies": replies}
        any_reply = any_reply or bool(replies)
        if pages.progress is not None:
            pages.progress(f"{spec.text} replies {asked}/{len(missing)}", asked,
                           len(missing))
        if not any_reply and asked >= PROBE:
            return f"the first {asked} forums have no reply either"
    return ""


def _replies_of(forum: str) -> Any:
    """A forum's page read: its notes but the paper's own, in the forum's order."""
    def read(body: bytes) -> list[Any]:
        _, found = _notes(body, 2)
        return [n for n in found if isinstance(n, dict) and n.get("id") != forum
                and n.get("forum", forum) == forum]

    return read


_REPLY_KEYS = ("id", "forum", "replyto", "invitation", "invitations", "signatures", "cdate",
               "tcdate")
_SCORE_KEYS = frozenset((*venue_reviews.RATING_KEYS, *venue_reviews.CONFIDENCE_KEYS,
                         "decision"))


def _slim(note: Any) -> Any:
    """The note as the list keeps it: its replies' scores and decision (what the import
    reads of them), not their text, which the reviews kept beside the source hold (a
    venue's list is then about as big with ``--reviews`` as without)."""
    details = note.get("details") if isinstance(note, dict) else None
    if not isinstance(details, dict) or not isinstance(details.get("replies"), list):
        return note
    replies = details["replies"]
    slim = []
    for reply in replies:
        if not isinstance(reply, dict):
            continue
        kept = {key: reply[key] for key in _REPLY_KEYS if key in reply}
        content = reply.get("content")
        if isinstance(content, dict):
            kept["content"] = {k: v for k, v in content.items() if k in _SCORE_KEYS}
        slim.append(kept)
    return {**note, "details": {**details, "replies": slim}}


def _reviews(spec: Spec, notes: list[Any], said: str = ""
             ) -> tuple[dict[str, list[venue_reviews.Review]], str]:
    """Each paper's reviews by its forum, and the line that says a venue has none
    (``said``: why its forums were not asked further)."""
    found: dict[str, list[venue_reviews.Review]] = {}
    for note in notes:
        if not isinstance(note, dict):
            continue
        forum = note.get("forum") or note.get("id")
        if isinstance(forum, str) and venue_reviews.has_replies(note):
            found[forum] = venue_reviews.of_note(note)
    if any(found.values()):
        return found, ""
    why = f" ({said})" if said else ""
    return found, (f"{spec.text}: OpenReview publishes no reviews of this venue (or not "
                   f"yet){why}: its list is fetched without them")


def _one_version(spec: Spec, pages: Pages, notes: list[Any]) -> None:
    """A note that came twice: the list moved under the pages (notes added or dropped
    while it was fetched), so some of its notes came on no page. Imported, it would drop
    papers the venue still has: the fetch fails and the next one asks every page again."""
    ids = [n["id"] for n in notes if isinstance(n, dict) and isinstance(n.get("id"), str)]
    twice = len(ids) - len(set(ids))
    if twice:
        pages.start_over()
        raise FetchError(spec.text, f"the list changed while it was fetched ({twice:,} "
                         "note(s) came twice, so others did not): fetch it again")


def _venue_notes(spec: Spec, base: str, venueid: str, pages: Pages, before: int,
                 api: int, replies: bool = False) -> list[Any]:
    url = f"{base}/notes"
    found: list[Any] = []
    count: int | None = None
    read = _page_v2 if api == 2 else _page_v1
    while count is None or len(found) < count:
        if pages.pages >= MAX_PAGES:
            raise FetchError(spec.text, f"more than {MAX_PAGES} pages: stopped")
        params: dict[str, str | int] = {"content.venueid": venueid, "limit": LIMIT,
                                        "offset": len(found)}
        if replies:  # the same page, with each paper's replies
            params["details"] = "replies"
        page_count, notes = pages.get(url, params, read)
        if page_count is None:  # API v1: a short page is the last
            page_count = len(found) + len(notes) + (LIMIT if len(notes) >= LIMIT else 0)
        count = page_count if count is None or api == 1 else count
        if pages.progress is not None:
            pages.progress(f"{spec.text} page {pages.pages}", before + len(found) + len(notes),
                           before + count)
        if not notes and len(found) < count:
            raise FetchError(spec.text, f"the list was cut off: {len(found):,} of "
                             f"{count:,} notes of {venueid} came")
        found += notes
    return found


def _notes(body: bytes, api: int) -> tuple[Any, list[Any]]:
    data = json_page(body)
    if not isinstance(data, dict) or not isinstance(data.get("notes"), list):
        raise ValueError(f'not an OpenReview API v{api} page: no "notes" array')
    return data.get("count"), data["notes"]


def _page_v2(body: bytes) -> tuple[int | None, list[Any]]:
    count, notes = _notes(body, 2)
    if not isinstance(count, int) or isinstance(count, bool) or count < 0:
        raise ValueError('not an OpenReview API v2 page: no "count"')
    return count, notes


def _page_v1(body: bytes) -> tuple[int | None, list[Any]]:
    return None, _notes(body, 1)[1]
