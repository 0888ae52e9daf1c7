"""The reading group's agenda (``paper-tui team digest``): the picks — papers at least two
members kept — and, with ``--all``, every kept paper, each with who kept or starred it,
their tags and notes, the link and a citation key; the disputed papers (kept by one
member, skipped by another) in a section of their own, with what each side said.

With the papers' rating histories (:mod:`paper_tui.holdings.reviews`), the biggest rating
moves: ``+1.3 Title (5.0 → 6.3)``, the largest change first, at most :data:`MOVES`, each
from the last point before ``since`` (else the first) to the newest.

``since``: only papers a member kept (or skipped, for the disputed) since then, and the
moves since then. Markdown, Org, HTML or JSON; every text from data is inert
(:mod:`paper_tui.trust.inert`), and the HTML is escaped and one self-contained file to
mail: no script, nothing loaded from elsewhere (its policy forbids it), links only to
``http(s)`` pages.
"""

from __future__ import annotations

import html
import json
import math
import re
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime

from paper_tui.errors import PaperTuiError
from paper_tui.exports.org_links import org_inert, org_link
from paper_tui.model import Paper
from paper_tui.team.coverage import Lab
from paper_tui.trust.inert import inert_line, inert_text
from paper_tui.venue.reviews import RatingPoint
from paper_tui.vocabulary import STAR, count, status_label

FORMATS = ("markdown", "org", "html", "json")
"""The digest's formats, the default first."""
EXTENSIONS = {"markdown": ".md", "org": ".org", "html": ".html", "json": ".json"}
MOVES = 10
"""The most rating moves a digest lists."""
_SPAN = re.compile(r"(\d{1,5})\s*([hdw])")
_HOURS = {"h": 1, "d": 24, "w": 24 * 7}


def parse_since(text: str, now: float | None = None) -> float:
    """``7d``, ``2w``, ``12h`` (before now) or a date (``2026-11-24``, UTC) as seconds since
    the epoch; :class:`PaperTuiError` (one line) for anything else."""
    value = text.strip().lower()
    if m := _SPAN.fullmatch(value):
        return (now if now is not None else time.time()) - int(m.group(1)) * \
            _HOURS[m.group(2)] * 3600
    try:
        when = datetime.fromisoformat(value)
    except ValueError:
        raise PaperTuiError(f"--since {text!r}: use 7d, 2w, 12h (days, weeks, hours ago) or "
                            "a date, 2026-11-24") from None
    return (when if when.tzinfo else when.replace(tzinfo=UTC)).timestamp()


@dataclass(frozen=True)
class Voice:
    """One member's word on a paper: kept or skipped, with their marks."""

    name: str
    verdict: str
    status: str
    starred: bool
    tags: tuple[str, ...]
    note: str

    def marks(self) -> str:
        """``to read ★ #rl`` (inert); not the status that says the verdict again (a skip
        reads ``skipped``, not ``skipped (skipped)``)."""
        label = status_label(self.status)
        words = [label] if self.status != "new" and label != self.verdict else []
        words += [STAR] if self.starred else []
        words += [f"#{tag}" for tag in self.tags]
        return inert_line(" ".join(words))


@dataclass(frozen=True)
class Entry:
    paper: Paper
    key: str
    voices: tuple[Voice, ...]

    @property
    def keepers(self) -> list[str]:
        return [v.name for v in self.voices if v.verdict == "kept"]

    @property
    def skippers(self) -> list[str]:
        return [v.name for v in self.voices if v.verdict == "skipped"]

    @property
    def link(self) -> str:
        """The paper's page (else its PDF), when it is an http(s) address."""
        for link in (self.paper.url, self.paper.pdf):
            if link and link.lower().startswith(("https://", "http://")):
                return link
        return ""


@dataclass(frozen=True)
class Move:
    """How a paper's reviewers' mean rating moved in the digest's window."""

    paper: Paper
    before: float
    after: float
    since: str
    """The date of the point it moved from (ISO)."""

    @property
    def change(self) -> float:
        return round(self.after - self.before, 3)

    def line(self) -> str:
        """``+1.3 Title (5.0 → 6.3)`` (inert)."""
        title = self.paper.display_title or self.paper.title or self.paper.id
        return inert_line(f"{self.change:+.1f} {title} ({self.before:.1f} → {self.after:.1f})")

    def as_json(self) -> dict[str, object]:
        return {"id": self.paper.id, "title": self.paper.display_title or self.paper.title,
                "change": self.change, "from": self.before, "to": self.after,
                "since": self.since}


def _mean(point: RatingPoint) -> float | None:
    return math.fsum(point.ratings) / len(point.ratings) if point.ratings else None


def rating_moves(histories: Mapping[str, Sequence[RatingPoint]], ids: Iterable[str],
                 lookup: Callable[[str], Paper | None], since: float | None = None,
                 most: int = MOVES) -> tuple[Move, ...]:
    """The papers of ``ids`` whose mean rating moved, the largest change first (a rise
    before a fall of as much; at most ``most``): from the last point at or before
    ``since`` (none before it, or no ``since``: the first) to the newest, which must be
    after ``since``."""
    after = "" if since is None else datetime.fromtimestamp(since, UTC).strftime(
        "%Y-%m-%dT%H:%M:%SZ")
    found: list[tuple[float, float, str, float, float, str]] = []
    for pid in dict.fromkeys(ids):
        points = histories.get(pid)
        if not points or len(points) < 2 or points[-1].date <= after:
            continue
        start = next((p for p in reversed(points) if p.date <= after), points[0]) \
            if after else points[0]
        before, now = _mean(start), _mean(points[-1])
        if before is None or now is None or round(now - before, 3) == 0:
            continue
        change = round(now - before, 3)
        found.append((-abs(change), -change, pid, before, now, start.date))
    moves = []
    for _, _, pid, before, now, date in sorted(found):  # a rise before a fall of as much
        paper = lookup(pid)
        if paper is not None:
            moves.append(Move(paper, round(before, 3), round(now, 3), date))
        if len(moves) >= most:
            break
    return tuple(moves)


@dataclass(frozen=True)
class Digest:
    picks: tuple[Entry, ...]
    disputed: tuple[Entry, ...]
    members: tuple[str, ...]
    since: float | None
    every_kept: bool
    moves: tuple[Move, ...] = ()
    """The biggest rating moves (:func:`rating_moves`)."""

    @property
    def title(self) -> str:
        what = "kept papers" if self.every_kept else "picks"
        return (f"Reading group: {count(len(self.picks), what[:-1], what)}, "
                f"{len(self.disputed):,} disputed")

    @property
    def subtitle(self) -> str:
        since = f" since {_date(self.since)}" if self.since is not None else ""
        rule = "kept by a member" if self.every_kept else "kept by at least two members"
        return (f"From the triage of {', '.join(self.members) or 'nobody yet'}: papers "
                f"{rule}{since}, most kept first; then the papers one member kept and "
                "another skipped.")


def gather(lab: Lab, ids: Iterable[str], lookup: Callable[[str], Paper | None],
           keys_of: Callable[[Sequence[Paper]], Mapping[str, str]],
           since: float | None = None, every_kept: bool = False,
           histories: Mapping[str, Sequence[RatingPoint]] | None = None) -> Digest:
    """The digest of the papers ``ids`` (a query's), from the team's work in ``lab``;
    ``keys_of`` gives the papers' citation keys (the library's, which never change);
    ``histories``: the papers' rating histories, for the biggest moves."""
    ids = list(ids)
    least = 1 if every_kept else 2
    picks: list[tuple[str, list[Voice]]] = []
    disputed: list[tuple[str, list[Voice]]] = []
    for pid in dict.fromkeys(ids):
        kept = lab.kept_count.get(pid, 0)
        if kept < least and pid not in lab.disputed:
            continue
        voices, newest = _voices(lab, pid)
        if since is not None and newest < since:
            continue
        (disputed if pid in lab.disputed else picks).append((pid, voices))
    found = {pid: lookup(pid) for pid, _ in picks + disputed}
    keys = keys_of([p for p in found.values() if p is not None])

    def order(e: Entry) -> tuple[int, int, str, str]:
        return (-len(e.keepers), -sum(v.starred for v in e.voices),
                e.paper.display_title.casefold(), e.paper.id)

    def entries(chosen: list[tuple[str, list[Voice]]]) -> tuple[Entry, ...]:
        out = [Entry(paper, keys.get(paper.id, ""), tuple(voices))
               for pid, voices in chosen if (paper := found[pid]) is not None]
        return tuple(sorted(out, key=order))

    members = tuple(sorted(name for name in lab.members if name))
    moves = rating_moves(histories, ids, lookup, since) if histories else ()
    return Digest(entries(picks), entries(disputed), members, since, every_kept, moves)


def _voices(lab: Lab, pid: str) -> tuple[list[Voice], float]:
    voices, newest = [], 0.0
    for name, work in sorted(lab.members.items()):
        said = "kept" if pid in work.kept else "skipped" if pid in work.skipped else None
        if said is None:
            continue
        m = work.marks[pid]
        voices.append(Voice(name or "you", said, m.status, m.starred, tuple(m.tags), m.note))
        newest = max(newest, work.updated.get(pid, 0.0))
    return voices, newest


def _date(at: float | None) -> str:
    return datetime.fromtimestamp(at or 0, UTC).strftime("%Y-%m-%d")


def render(digest: Digest, fmt: str) -> str:
    """The digest as ``fmt`` (one of :data:`FORMATS`)."""
    if fmt == "markdown":
        return _markdown(digest)
    if fmt == "org":
        return _org(digest)
    if fmt == "html":
        return _html(digest)
    if fmt == "json":
        return json.dumps(as_json(digest), ensure_ascii=False, indent=2) + "\n"
    raise PaperTuiError(f"unknown digest format {fmt!r}: use {', '.join(FORMATS)}")


def _where(paper: Paper) -> str:
    return inert_line(" ".join(x for x in (paper.venue, str(paper.year or "")) if x))


def _who(entry: Entry) -> str:
    kept = entry.keepers
    skipped = entry.skippers
    out = f"kept by {', '.join(kept)}" if kept else ""
    if skipped:
        out += ("; " if out else "") + f"skipped by {', '.join(skipped)}"
    return inert_line(out)


def as_json(digest: Digest) -> dict[str, object]:
    """``team digest --json``: the picks, the disputed and the rating moves as data (texts
    as they are: JSON escapes them)."""
    def entry(e: Entry) -> dict[str, object]:
        return {"id": e.paper.id, "title": e.paper.display_title or e.paper.title,
                "venue": e.paper.venue, "year": e.paper.year, "key": e.key,
                "link": e.link or None, "kept_by": e.keepers, "skipped_by": e.skippers,
                "voices": [{"name": v.name, "verdict": v.verdict, "status": v.status,
                            "starred": v.starred, "tags": list(v.tags), "note": v.note}
                           for v in e.voices]}

    return {"title": digest.title, "members": list(digest.members),
            "since": None if digest.since is None else _date(digest.since),
            "every_kept": digest.every_kept,
            "picks": [entry(e) for e in digest.picks],
            "disputed": [entry(e) for e in digest.disputed],
            "rating_moves": [m.as_json() for m in digest.moves]}


def _moves_heading(digest: Digest) -> str:
    since = f" since {_date(digest.since)}" if digest.since is not None else ""
    return f"Rating moves{since} ({len(digest.moves):,})"


# -- Markdown ------------------------------------------------------------------------------
_MD_SPECIAL = re.compile(r"([\\`*_\[\]<>#|])")


def _md(text: str) -> str:
    """One line of data as Markdown text (its markup characters escaped)."""
    return _MD_SPECIAL.sub(r"\\\1", inert_line(text))


_LINK_UNSAFE = re.compile(r"[\s()<>\[\]\\`\"']")


def _link(url: str) -> str:
    """An address as the target of a Markdown or Org link: inert, and the characters that
    would end the link (or open markup) percent-encoded."""
    return _LINK_UNSAFE.sub(lambda m: "".join(f"%{b:02X}" for b in m.group().encode()),
                            inert_line(url))


def _markdown(digest: Digest) -> str:
    lines = [f"# {digest.title}", "", _md(digest.subtitle), ""]
    for heading, entries in (("Picks" if not digest.every_kept else "Kept", digest.picks),
                             ("Disputed", digest.disputed)):
        lines += [f"## {heading} ({len(entries):,})", ""]
        if not entries:
            lines += ["(none)", ""]
        for number, entry in enumerate(entries, 1):
            title = _md(entry.paper.display_title or entry.paper.title or entry.paper.id)
            lines.append(f"### {number}. [{title}]({_link(entry.link)})" if entry.link else
                         f"### {number}. {title}")
            facts = [_md(_where(entry.paper)), f"`{inert_line(entry.key)}`" if entry.key
                     else "", _md(_who(entry))]
            lines += [" · ".join(f for f in facts if f), ""]
            for voice in entry.voices:
                said = f"- **{_md(voice.name)}** {voice.verdict}"
                marks = voice.marks()
                said += f" ({_md(marks)})" if marks else ""
                note = inert_text(voice.note).strip()
                if note:
                    first, *rest = (_md(line) for line in note.split("\n"))
                    said += f": {first}"
                    lines += [said, *(f"  {line}" if line else "" for line in rest)]
                else:
                    lines.append(said)
            lines.append("")
    if digest.moves:
        lines += [f"## {_moves_heading(digest)}", ""]
        for move in digest.moves:
            link = Entry(move.paper, "", ()).link
            line = _md(move.line())
            lines.append(f"- {line} <{_link(link)}>" if link else f"- {line}")
        lines.append("")
    return "\n".join(lines).rstrip("\n") + "\n"


# -- Org -----------------------------------------------------------------------------------
def _org_line(text: str) -> str:
    return " " + text if text.startswith("*") else text


def _org(digest: Digest) -> str:
    lines = [f"#+TITLE: {digest.title}", "", digest.subtitle, ""]
    for heading, entries in (("Picks" if not digest.every_kept else "Kept", digest.picks),
                             ("Disputed", digest.disputed)):
        lines += [f"* {heading} ({len(entries):,})", ""]
        for entry in entries:
            paper = entry.paper
            lines.append(f"** {inert_line(paper.display_title or paper.title or paper.id)}")
            props = {"ID": inert_line(paper.id), "CITEKEY": inert_line(entry.key),
                     "VENUE": _where(paper), "KEPT_BY": ", ".join(entry.keepers),
                     "SKIPPED_BY": ", ".join(entry.skippers)}
            lines += [":PROPERTIES:", *(f":{k}: {v}" for k, v in props.items() if v), ":END:"]
            if entry.link and (link := org_link(_link(entry.link), "page")):
                lines.append(link)
            for voice in entry.voices:
                marks = voice.marks()
                lines.append(f"- {voice.name} {voice.verdict}" + (f" ({marks})" if marks else ""))
                note = inert_text(voice.note).strip()
                lines += [f"  {_org_line(line)}" if line else "" for line in note.split("\n")
                          if note]
            lines.append("")
    if digest.moves:
        lines += [f"* {_moves_heading(digest)}", ""]
        lines += [f"- {move.line()}" for move in digest.moves]
        lines.append("")
    return org_inert("\n".join(lines).rstrip("\n") + "\n")  # no elisp: or shell: link


# -- HTML ----------------------------------------------------------------------------------
_STYLE = """body{font:16px/1.45 system-ui,sans-serif;max-width:46em;margin:2em auto;
padding:0 1em;color:#222}h1{font-size:1.5em}h2{margin-top:2em;border-bottom:1px solid #ccc}
h3{font-size:1.05em;margin:1.4em 0 .2em}.facts{color:#555;font-size:.92em}
code{background:#f3f3f3;padding:0 .25em}ul{margin:.4em 0}.note{white-space:pre-wrap}
.skipped{color:#8a2a2a}"""
_POLICY = "default-src 'none'; style-src 'unsafe-inline'"
"""Nothing loaded from elsewhere, no script: what the page shows is all it holds."""


def _h(text: str) -> str:
    """Data as HTML text: inert, then escaped (quotes too)."""
    return html.escape(inert_text(text), quote=True)


def _html(digest: Digest) -> str:
    out = ["<!DOCTYPE html>", '<html lang="en">', "<head>", '<meta charset="utf-8">',
           f'<meta http-equiv="Content-Security-Policy" content="{_POLICY}">',
           f"<title>{_h(digest.title)}</title>", f"<style>{_STYLE}</style>", "</head>",
           "<body>", f"<h1>{_h(digest.title)}</h1>", f"<p>{_h(digest.subtitle)}</p>"]
    for heading, entries in (("Picks" if not digest.every_kept else "Kept", digest.picks),
                             ("Disputed", digest.disputed)):
        out.append(f"<h2>{heading} ({len(entries):,})</h2>")
        if not entries:
            out.append("<p>(none)</p>")
        for number, entry in enumerate(entries, 1):
            paper = entry.paper
            title = _h(inert_line(paper.display_title or paper.title or paper.id))
            if entry.link:
                title = f'<a href="{_h(inert_line(entry.link))}">{title}</a>'
            out.append(f"<h3>{number}. {title}</h3>")
            facts = [_h(_where(paper)), f"<code>{_h(entry.key)}</code>" if entry.key else "",
                     _h(_who(entry))]
            out.append(f'<p class="facts">{" · ".join(f for f in facts if f)}</p>')
            out.append("<ul>")
            for voice in entry.voices:
                marks = voice.marks()
                item = f"<strong>{_h(voice.name)}</strong> {voice.verdict}"
                item += f" ({_h(marks)})" if marks else ""
                note = inert_text(voice.note).strip()
                if note:
                    item += f': <span class="note">{_h(note)}</span>'
                css = ' class="skipped"' if voice.verdict == "skipped" else ""
                out.append(f"<li{css}>{item}</li>")
            out.append("</ul>")
    if digest.moves:
        out.append(f"<h2>{_h(_moves_heading(digest))}</h2>")
        out.append("<ul>")
        for move in digest.moves:
            link = Entry(move.paper, "", ()).link
            text = _h(move.line())
            out.append(f'<li><a href="{_h(inert_line(link))}">{text}</a></li>' if link
                       else f"<li>{text}</li>")
        out.append("</ul>")
    out += ["</body>", "</html>"]
    return "\n".join(out) + "\n"


def file_format(fmt: str | None, path: str | None) -> str:
    """The format asked for, else the one an output file's extension names, else
    Markdown."""
    if fmt:
        return fmt
    for name, extension in EXTENSIONS.items():
        if path and path.lower().endswith((extension, ".htm" if name == "html" else extension)):
            return name
    return FORMATS[0]
