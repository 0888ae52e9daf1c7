"""The recorded responses of ``tests/data/fetch/`` served by a :class:`ReplayServer` the way
the real hosts serve them (the request paths ``paper-tui fetch`` asks), and a library whose
``fetch:`` config points at that server with every delay at ~0."""

from __future__ import annotations

import urllib.parse
from pathlib import Path

from http_replay import ReplayServer, Reply
from paper_tui import config as config_mod
from paper_tui.library import Library

DATA = Path(__file__).parent / "data" / "fetch"
ICLR = "ICLR.cc/2018/Conference"
ACCEPTED = ("B1QRgziT-", "B1gJ1L2aW", "B12Js_yRb", "B13njo1R-", "B14TlG-RW", "B17JTOe0-")
"""The OpenReview ids of the six accepted notes, in page order (2 orals, 4 posters)."""
REJECTED = ("B13EC5u6W", "B16_iGWCW")
WITHDRAWN = ("B11bwYgfM",)


def data(name: str) -> bytes:
    return (DATA / name).read_bytes()


def openreview_path(venueid: str, offset: int) -> str:
    query = urllib.parse.urlencode({"content.venueid": venueid, "limit": 1000,
                                    "offset": offset})
    return f"/notes?{query}"


def arxiv_path(category: str, start: int) -> str:
    query = urllib.parse.urlencode({"search_query": f"cat:{category}",
                                    "sortBy": "submittedDate", "sortOrder": "descending",
                                    "start": start, "max_results": 500})
    return f"/api/query?{query}"


def dblp_path(key: str, first: int) -> str:
    query = urllib.parse.urlencode({"q": f"toc:db/{key}.bht:", "format": "json", "h": 1000,
                                    "f": first})
    return f"/search/publ/api?{query}"


def serve_openreview(server: ReplayServer, *, etag: bool = False, all_decisions: bool = False
                     ) -> None:
    """ICLR 2018's six accepted papers in two pages (and with ``all_decisions`` its
    rejected, withdrawn and empty other venue ids)."""
    for offset in (0, 3):
        server.route(openreview_path(ICLR, offset),
                     Reply(body=data(f"openreview-iclr2018-offset{offset}.json"),
                           etag=f'"or-{offset}"' if etag else None))
    if all_decisions:
        for name, file in (("Rejected_Submission", "rejected"),
                           ("Withdrawn_Submission", "withdrawn"),
                           ("Submission", "empty"), ("Desk_Rejected_Submission", "empty")):
            suffix = f"openreview-iclr2018-{file}.json" if file != "empty" else \
                "openreview-empty.json"
            server.route(openreview_path(f"{ICLR}/{name}", 0), Reply(body=data(suffix)))


def serve_arxiv(server: ReplayServer) -> None:
    """25 real entries, newest first, in pages of 10 (2026-04-03 … 2024-06-28)."""
    for start in (0, 10, 20):
        server.route(arxiv_path("cs.SE", start), Reply(body=data(f"arxiv-cs-se-start{start}.atom")))


def serve_dblp(server: ReplayServer) -> None:
    for first in (0, 4):
        server.route(dblp_path("conf/iclr/iclr2018", first),
                     Reply(body=data(f"dblp-iclr2018-f{first}.json")))


def config_file(folder: Path, server_url: str, **more: object) -> Path:
    """A config pointing every source at ``server_url``, with no wait between tries."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "config.yaml"
    keys = {"openreview_url": server_url, "openreview_v1_url": f"{server_url}/v1",
            "paperlists_url": server_url,
            "arxiv_url": server_url, "dblp_url": server_url, "arxiv_delay_s": 0,
            "retry_delay_s": 0, "retries": 2, "timeout_s": 5, "max_wait_s": 5, **more}
    path.write_text("bundled_lists: false\nfetch:\n" + "".join(
        f"  {key}: {value}\n" for key, value in keys.items()), "utf-8")
    return path


def open_library(root: Path, server_url: str, **more: object) -> Library:
    config = config_mod.load(config_file(root.parent / f"{root.name}-config", server_url,
                                         **more))
    assert not config.problems, config.problems
    return Library.open(root, config=config, bundled=False)
