"""SOURCE arguments of ``paper-tui fetch``: read, checked and written one canonical way.

``openreview:VENUE_ID`` (``ICLR.cc/2025/Conference``, case kept: OpenReview's ids are
case-sensitive), ``paperlists:NAMEYEAR`` (``iclr2025``), ``arxiv:CATEGORY`` (``cs.LG``) or
``arxiv:ID[,ID…]`` (``2401.01234``, ``hep-th/9901001``; versions dropped), ``dblp:KEY``
(``conf/nips/neurips2024``, or ``conf/nips/2024`` for the series and year: see
:func:`dblp_toc`) and ``http(s)://…`` URLs.
"""

from __future__ import annotations

import re
import urllib.parse
from dataclasses import dataclass
from typing import Literal

from paper_tui.config import FetchSettings
from paper_tui.errors import FetchError
from paper_tui.fetch.uri import BadURL, shown, to_uri

Kind = Literal["openreview", "paperlists", "arxiv", "arxiv-ids", "dblp", "url"]

FORMS = ("openreview:VENUE_ID, paperlists:NAMEYEAR, arxiv:CATEGORY, arxiv:ID[,ID…], "
         "dblp:KEY or an http(s):// URL")
_VENUE_ID = re.compile(r"[A-Za-z0-9][\w.\-]*(?:/[\w.\-]+)*")
_NAMEYEAR = re.compile(r"([a-z]+)((?:19|20)\d\d)")
_CATEGORY = re.compile(r"[a-z]+(?:-[a-z]+)*(?:\.[A-Za-z]+(?:-[A-Za-z]+)*)?")
_NEW_ID = re.compile(r"(\d{4}\.\d{4,5})(?:v\d+)?")
_OLD_ID = re.compile(r"([a-z]+(?:-[a-z]+)*(?:\.[A-Z]{2})?/\d{7})(?:v\d+)?")
_DBLP = re.compile(r"(?:db/)?(conf|journals)/([a-z0-9]+)/([a-z0-9][a-z0-9\-]*?)"
                   r"(?:\.bht|\.html)?:?")
DBLP_SERIES_NAMES = {("nips", 2020): "neurips"}
"""Where DBLP names a series' volumes unlike the series from a year on (its NeurIPS
proceedings are ``conf/nips/neurips2020`` on, ``conf/nips/nips2019`` before)."""


@dataclass(frozen=True)
class Spec:
    kind: Kind
    value: str
    """The venue id, NAMEYEAR, category, comma-separated arXiv ids, DBLP volume key or URL."""

    @property
    def text(self) -> str:
        """The canonical SOURCE: ``arxiv:cs.LG``, the URL as given."""
        if self.kind == "url":
            return self.value
        return f"{'arxiv' if self.kind == 'arxiv-ids' else self.kind}:{self.value}"

    def __str__(self) -> str:
        return self.text


def parse(text: str) -> Spec:
    """The SOURCE ``text`` means; :class:`FetchError` (one line listing the forms) when it
    is none of them."""
    raw = text.strip()
    prefix, _, rest = raw.partition(":")
    prefix, rest = prefix.lower(), rest.strip()
    if prefix in ("http", "https") and rest.startswith("//") and len(rest) > 2 \
            and not any(c.isspace() for c in raw):
        try:
            to_uri(raw)
        except BadURL as exc:
            raise FetchError(shown(raw), str(exc)) from None
        return Spec("url", raw)
    spec = _parse_named(prefix, rest)
    if spec is None:
        raise FetchError(raw or repr(text), f"not a source: use {FORMS}")
    return spec


def _parse_named(prefix: str, rest: str) -> Spec | None:
    if prefix == "openreview":
        venue = rest.strip("/")
        return Spec("openreview", venue) if _VENUE_ID.fullmatch(venue) else None
    if prefix == "paperlists":
        name = rest.lower().removesuffix(".json")
        return Spec("paperlists", name) if _NAMEYEAR.fullmatch(name) else None
    if prefix == "arxiv":
        return _arxiv(rest)
    if prefix == "dblp":
        key = dblp_key(rest)
        return Spec("dblp", key) if key else None
    return None


def _arxiv(rest: str) -> Spec | None:
    parts = [p.strip() for p in rest.split(",") if p.strip()]
    if not parts:
        return None
    ids = []
    for part in parts:
        m = _NEW_ID.fullmatch(part) or _OLD_ID.fullmatch(part)
        if not m:
            break
        ids.append(m.group(1))
    else:
        return Spec("arxiv-ids", ",".join(dict.fromkeys(ids)))
    if len(parts) == 1 and _CATEGORY.fullmatch(parts[0]):
        return Spec("arxiv", parts[0])
    return None


def dblp_key(text: str) -> str | None:
    """``conf/nips/neurips2024`` from itself, ``db/conf/nips/neurips2024.bht`` or
    ``conf/nips/2024`` (a volume named by its series' name and the year, as most are:
    ``conf/iclr/2024`` -> ``conf/iclr/iclr2024``); None for anything else."""
    m = _DBLP.fullmatch(text.strip().lower())
    if not m:
        return None
    kind, series, volume = m.groups()
    if re.fullmatch(r"(?:19|20)\d\d", volume):
        year = int(volume)
        name = next((named for (s, since), named in DBLP_SERIES_NAMES.items()
                     if s == series and year >= since), series)
        volume = f"{name}{year}"
    return f"{kind}/{series}/{volume}"


def dblp_toc(key: str) -> str:
    """DBLP's search query for every record of a volume's table of contents."""
    return f"toc:db/{key}.bht:"


_PAPERLISTS_REPO = ("https://raw.githubusercontent.com/papercopilot/paperlists/",
                    "https://github.com/papercopilot/paperlists/blob/",
                    "https://github.com/papercopilot/paperlists/raw/")
_PAPERLISTS_PATH = re.compile(r"/?([a-z]+)/(\1(?:19|20)\d\d)\.json")


def canonical(spec: Spec, settings: FetchSettings) -> Spec:
    """The SOURCE a URL is the list of (one list, one source, whatever form names it):
    a Paper Copilot file under ``fetch.paperlists_url`` or in its GitHub repository is
    ``paperlists:NAMEYEAR``, OpenReview's notes of a venue id under
    ``fetch.openreview_url`` ``openreview:VENUE_ID``, a DBLP volume's page under
    ``fetch.dblp_url`` ``dblp:KEY``. Any other spec is itself."""
    if spec.kind != "url":
        return spec
    parts = urllib.parse.urlsplit(spec.value)
    bare = urllib.parse.urlunsplit((parts.scheme.lower(), parts.netloc.lower(), parts.path,
                                    "", ""))
    named = _paperlists(bare, settings) or _openreview(bare, parts.query, settings) \
        or _dblp(bare, parts.query, settings)
    return named or spec


def _under(url: str, base: str) -> str | None:
    """``url``'s path below ``base`` (None when it is not below it)."""
    base = base.rstrip("/") + "/"
    return url[len(base) - 1:] if url.lower().startswith(base.lower()) else None


def _paperlists(url: str, settings: FetchSettings) -> Spec | None:
    below = [_under(url, settings.paperlists_url)]
    for repo in _PAPERLISTS_REPO:  # …/paperlists/<branch>/iclr/iclr2018.json
        rest = _under(url, repo)
        below.append(rest.split("/", 2)[2] if rest and rest.count("/") >= 2 else None)
    for path in below:
        m = _PAPERLISTS_PATH.fullmatch(path) if path is not None else None
        if m:
            return Spec("paperlists", m.group(2))
    return None


def _openreview(url: str, query: str, settings: FetchSettings) -> Spec | None:
    if _under(url, settings.openreview_url) != "/notes":
        return None
    asked = urllib.parse.parse_qs(query)
    venue = asked.get("content.venueid", [""])
    if set(asked) - {"content.venueid", "limit"} or len(venue) != 1:  # a page: not the list
        return None
    return _parse_named("openreview", venue[0])


def _dblp(url: str, query: str, settings: FetchSettings) -> Spec | None:
    path = _under(url, settings.dblp_url)
    if path is None or query or not path.startswith("/db/"):
        return None
    return _parse_named("dblp", path.removeprefix("/"))
