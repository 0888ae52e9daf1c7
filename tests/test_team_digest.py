"""The digest's three formats with hostile data: titles, notes, tags and links from a
paper list and from team-mates are text, never markup, links or terminal controls."""

from __future__ import annotations

import json
import re

import pytest

from paper_tui.citations import citation_keys
from paper_tui.model import Paper
from paper_tui.store import Annotation
from paper_tui.team.assignments import EMPTY
from paper_tui.team.coverage import Lab, member_work
from paper_tui.team.digest import gather, parse_since, render

HOSTILE = Paper(
    id="evil", title="Attention <script>alert(1)</script> *is* [all](javascript:x) #1",
    abstract="", venue="NeurIPS\x1b]0;owned\x07", year=2026,
    url="https://example.org/a paper)(<b>\x1b[31m", authors=("Mallory Evil",))
PLAIN = Paper(id="ok", title="Plain Paper", abstract="", venue="ICML", year=2025,
              url="javascript:alert(1)", authors=("Ann Author",))
NOTE = "see [here](javascript:steal)\n<img src=x onerror=alert(1)>\n\x1b[2J*bold*"


def _lab() -> Lab:
    def marks(status: str, starred: bool = False, tags: tuple[str, ...] = (),
              note: str = "") -> Annotation:
        return Annotation(status=status, starred=starred, tags=tags, note=note)

    alice = {"evil": marks("to-read", tags=("<b>x</b>",), note=NOTE),
             "ok": marks("read")}
    bob = {"evil": marks("read", starred=True), "ok": marks("skipped", note="meh")}
    stamp = {"evil": "2026-11-20T10:00:00Z", "ok": "2026-11-20T10:00:00Z"}
    return Lab("alice", {"alice": member_work("alice", alice, stamp),
                         "bob": member_work("bob", bob, stamp)}, EMPTY, 1)


def _digest(fmt: str) -> str:
    papers = {p.id: p for p in (HOSTILE, PLAIN)}
    return render(gather(_lab(), ["evil", "ok"], papers.get, citation_keys), fmt)


@pytest.mark.parametrize("fmt", ["markdown", "org", "html"])
def test_no_terminal_control_reaches_any_format(fmt: str) -> None:
    text = _digest(fmt)
    assert not re.search(r"[\x00-\x08\x0b-\x1f\x7f\x9b]", text)
    assert "Picks (1)" in text and "Disputed (1)" in text


def test_markdown_escapes_markup_and_keeps_links_whole() -> None:
    md = _digest("markdown")
    assert not re.search(r"(?<!\\)<(script|img|b)\b", md)  # every < escaped
    assert "\\<script\\>" in md and "\\<img src=x onerror=alert(1)\\>" in md
    assert not re.search(r"(?<!\\)\]\(javascript:", md)  # the note's link is text
    heading = next(line for line in md.splitlines() if line.startswith("### 1."))
    assert heading.endswith("(https://example.org/a%20paper%29%28%3Cb%3E)"), heading
    assert "javascript:alert" not in md  # only http(s) pages are linked
    assert "kept by alice, bob" in md and "kept by alice; skipped by bob" in md


def test_html_is_escaped_and_loads_nothing() -> None:
    page = _digest("html")
    assert "<script" not in page and "<img" not in page and "<b>" not in page
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page
    assert 'href="https://example.org/a paper)(&lt;b&gt;' in page
    assert not re.search(r"""href=(?!"https?://)""", page)
    assert "default-src 'none'" in page


def test_org_links_cannot_be_ended_by_data() -> None:
    org = _digest("org")
    assert "[[https://example.org/a%20paper%29%28%3Cb%3E][page]]" in org
    assert ":KEPT_BY: alice, bob" in org and ":SKIPPED_BY: bob" in org


def test_org_keeps_no_link_but_to_the_web_a_file_or_a_doi() -> None:
    paper = Paper(id="el", title="[[elisp:(delete-file \"~/x\")][Click]] shell:rm",
                  abstract="", venue="ICLR <shell:ls>", year=2026,
                  url="https://example.org/p:8080", authors=("Eve",))
    note = "[[shell: rm -rf ~]]\nsee elisp:(kill-emacs) or doi:10.1/x"
    marks = {"el": Annotation(status="to-read", note=note, tags=("[[elisp:(tag)]]",))}
    lab = Lab("alice", {"alice": member_work("alice", marks, {"el": "2026-11-20T10:00:00Z"})},
              EMPTY, 1)
    org = render(gather(lab, ["el"], {"el": paper}.get, citation_keys, every_kept=True), "org")
    assert not re.search(r"(elisp|shell) *:", org), org
    assert "[[elisp\u200b:(delete-file" in org and "<shell\u200b:ls>" in org
    assert "[[shell\u200b: rm -rf ~]]" in org and "doi:10.1/x" in org
    assert "[[https://example.org/p:8080][page]]" in org


def test_since() -> None:
    assert parse_since("7d", now=1_000_000.0) == 1_000_000.0 - 7 * 86400
    assert parse_since("2026-11-24") == parse_since("2026-11-24T00:00:00+00:00")
    papers = {p.id: p for p in (HOSTILE, PLAIN)}
    later = gather(_lab(), ["evil", "ok"], papers.get, citation_keys,
                   since=parse_since("2026-11-21"))
    assert later.picks == () and later.disputed == ()


@pytest.mark.parametrize("fmt", ["markdown", "org", "html"])
def test_a_skip_is_said_once(fmt: str) -> None:
    """``bob skipped: meh``, not ``bob skipped (skipped): meh``; a keep names its status."""
    text = _digest(fmt)
    assert "skipped (skipped)" not in text
    assert re.search(r"bob\W*(strong>)? skipped\W", text), text
    assert re.search(r"alice\W*(strong>)? kept \(read\)", text), text


# -- the biggest rating moves ----------------------------------------------------------------
def _moved(n: int, before: float, after: float) -> tuple[Paper, list]:
    from paper_tui.venue.reviews import RatingPoint

    paper = Paper(id=f"m{n}", title=f"Moved {n}", abstract="", venue="ICLR", year=2026,
                  url=f"https://openreview.net/forum?id=m{n}")
    return paper, [RatingPoint("2026-11-12T08:00:00Z", (before,)),
                   RatingPoint("2026-11-20T08:00:00Z", (before,), (3.0,)),
                   RatingPoint("2026-11-28T08:00:00Z", (after,))]


def test_the_digest_lists_the_biggest_rating_moves_largest_first() -> None:
    from paper_tui.team.digest import MOVES, rating_moves

    moved = [_moved(n, 5.0, 5.0 + (n % 7 - 3) * 0.5) for n in range(30)]
    papers = {p.id: p for p, _ in moved} | {HOSTILE.id: HOSTILE, PLAIN.id: PLAIN}
    histories = {p.id: h for p, h in moved}
    digest = gather(_lab(), ["evil", "ok", *histories], papers.get, citation_keys,
                    histories=histories)
    assert len(digest.moves) == MOVES == 10
    changes = [m.change for m in digest.moves]
    assert [abs(c) for c in changes] == sorted((abs(c) for c in changes), reverse=True)
    assert abs(changes[0]) == 1.5 and 0.0 not in changes
    md = render(digest, "markdown")
    assert "## Rating moves (10)" in md
    assert "- +1.5 Moved 13 (5.0 → 6.5) <https://openreview.net/forum?id=m13>" in md
    assert md.index("Moved 27 (5.0 → 6.5)") < md.index("Moved 0 (5.0 → 3.5)")
    assert "Moved 3 (" not in md  # unmoved
    assert "* Rating moves (10)" in render(digest, "org")
    assert "<h2>Rating moves (10)</h2>" in render(digest, "html")
    data = json.loads(render(digest, "json"))
    assert data["rating_moves"][0] == {"id": "m13", "title": "Moved 13", "change": 1.5,
                                       "from": 5.0, "to": 6.5,
                                       "since": "2026-11-12T08:00:00Z"}
    assert [e["id"] for e in data["picks"]] == ["evil"]
    assert [e["id"] for e in data["disputed"]] == ["ok"]
    # since a date: from the last point before it; a paper with no point after it: none
    since = parse_since("2026-11-25")
    window = rating_moves(histories, histories, papers.get, since)
    assert window[0].since == "2026-11-20T08:00:00Z" and window[0].change == 1.5
    assert rating_moves(histories, histories, papers.get, parse_since("2026-12-01")) == ()
    assert rating_moves(histories, ["m6"], papers.get) == (window[0].__class__(
        papers["m6"], 5.0, 6.5, "2026-11-12T08:00:00Z"),)


def test_no_rating_moves_no_section() -> None:
    md = _digest("markdown")
    assert "Rating moves" not in md
    assert json.loads(_digest("json"))["rating_moves"] == []


def test_a_moved_title_is_inert_in_every_format() -> None:
    from paper_tui.venue.reviews import RatingPoint

    history = [RatingPoint("2026-11-12T08:00:00Z", (4.0,)),
               RatingPoint("2026-11-20T08:00:00Z", (6.0,))]
    digest = gather(_lab(), ["evil"], {"evil": HOSTILE}.get, citation_keys,
                    histories={"evil": history})
    for fmt in ("markdown", "org", "html"):
        text = render(digest, fmt)
        assert not re.search(r"[\x00-\x08\x0b-\x1f\x7f\x9b]", text)
        assert "+2.0 " in text
    assert "<script>" not in render(digest, "html")
