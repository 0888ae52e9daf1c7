"""Where a paper's PDF comes from.

The source's own ``pdf`` link first (paperlists, OpenReview's ``/pdf?id=``, arXiv's
``/pdf/ID``, DBLP's ``ee`` when it ends in ``.pdf``, a JSONL or CSV ``pdf`` column); an
arXiv paper's is asked of ``fetch.arxiv_url`` (the host the reader configured, as every
arXiv request is); with no link, one derived from the id where the source says how (an
arXiv id, an OpenReview forum), else a ``url`` that is itself a PDF; else none.
"""

from __future__ import annotations

import re
import urllib.parse

from paper_tui.config import FetchSettings
from paper_tui.model import Paper

OPENREVIEW_SITE = "https://openreview.net"
_ARXIV_ID = re.compile(r"arxiv-(?P<id>\d{4}\.\d{4,5}(?:v\d+)?|[a-z-]+(?:\.[A-Z]{2})?-\d{7})")
_ARXIV_PDF = re.compile(r"https?://(?:export\.)?arxiv\.org/pdf/(?P<id>\S+)")


def pdf_url(paper: Paper, fetch: FetchSettings) -> str | None:
    """The URL to fetch ``paper``'s PDF from; None when there is none to be had."""
    link = paper.pdf.strip()
    arxiv = _ARXIV_PDF.fullmatch(link)
    if arxiv:
        return f"{fetch.arxiv_url}/pdf/{arxiv.group('id')}"
    if _web(link):
        return link
    derived = _ARXIV_ID.fullmatch(paper.id)
    if derived:  # old-style ids were stored with '-' for '/': hep-th-9901001
        arxiv_id = derived.group("id")
        if not arxiv_id[0].isdigit():
            arxiv_id = re.sub(r"-(\d{7})$", r"/\1", arxiv_id)
        return f"{fetch.arxiv_url}/pdf/{arxiv_id}"
    url = paper.url.strip()
    parts = urllib.parse.urlsplit(url)
    if parts.netloc.endswith("openreview.net") and parts.path == "/forum":
        forum = urllib.parse.parse_qs(parts.query).get("id")
        if forum:
            return f"{OPENREVIEW_SITE}/pdf?id={urllib.parse.quote(forum[0])}"
    if _web(url) and parts.path.lower().endswith(".pdf"):
        return url
    return None


def _web(link: str) -> bool:
    return link.lower().startswith(("http://", "https://"))
