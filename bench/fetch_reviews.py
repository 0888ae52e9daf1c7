"""``paper-tui fetch openreview:VENUE --reviews`` against a local HTTP server (never the
network): a venue of 3,000 papers in pages of 1,000, each paper with four official reviews
(the real NeurIPS 2024 review of ``tests/data/reviews/``, its rating varied), a meta-review,
a decision and two comments: 24,000 replies.

The same venue is fetched without and with ``--reviews``, each into a new empty library:
the requests each made (the reviews must come in as many as the papers alone), the time,
the replies kept and the sizes of the files kept. Then the venue again with every
rating moved by one, and the points the history gained. Last, the venue as a server that
does not serve ``details=replies`` answers it (pages without the replies, each forum at
``/notes?forum=ID``): the pages and one forum request per paper.

    python bench/fetch_reviews.py [--papers 3000]

Results: ``bench/results/fetch_reviews.txt``.
"""

from __future__ import annotations

import argparse
import copy
import json
import sys
import tempfile
import time
import urllib.parse
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "tests"))  # the tests' replay server

from http_replay import ReplayServer, Reply  # noqa: E402
from paper_tui import config as config_mod  # noqa: E402
from paper_tui.library import Library  # noqa: E402

VENUE = "NeurIPS.cc/2024/Conference"
PAGE = 1000
SAMPLE = HERE.parent / "tests" / "data" / "reviews" / "openreview-v2-neurips2024-offset0.json"


def notes(total: int, moved: int = 0) -> list[dict]:
    paper = json.loads(SAMPLE.read_text("utf-8"))["notes"][0]
    review, comment, meta, decision = paper["details"]["replies"]
    made = []
    for number in range(1, total + 1):
        oid = f"bench{number:05d}"
        note = copy.deepcopy(paper)
        note["id"] = note["forum"] = oid
        note["number"] = number
        title = paper["content"]["title"]["value"]
        note["content"]["title"] = {"value": f"Paper {number}: {title}"}
        replies = []
        for r in range(4):
            one = copy.deepcopy(review)
            one["id"], one["forum"], one["replyto"] = f"{oid}r{r}", oid, oid
            one["content"]["rating"] = {"value": 3 + (number + r) % 6 + moved}
            replies.append(one)
        for r, other in enumerate((comment, comment, meta, decision)):
            one = copy.deepcopy(other)
            one["id"], one["forum"] = f"{oid}o{r}", oid
            one["replyto"] = f"{oid}r{r}" if other is comment else oid
            replies.append(one)
        note["details"] = {"replies": replies}
        made.append(note)
    return made


def serve_forums(server: ReplayServer, made: list[dict]) -> None:
    """The pages without the replies, whatever was asked, and each paper's forum."""
    for offset in range(0, len(made), PAGE):
        bare = [{k: v for k, v in n.items() if k != "details"}
                for n in made[offset:offset + PAGE]]
        page = json.dumps({"notes": bare, "count": len(made)}).encode()
        params: dict[str, str | int] = {"content.venueid": VENUE, "limit": PAGE,
                                        "offset": offset, "details": "replies"}
        server.route(f"/notes?{urllib.parse.urlencode(params)}", Reply(body=page))
    for note in made:
        forum = [{k: v for k, v in note.items() if k != "details"},
                 *note["details"]["replies"]]
        server.route(f"/notes?{urllib.parse.urlencode({'forum': note['id']})}",
                     Reply(body=json.dumps({"notes": forum, "count": len(forum)}).encode()))


def serve(server: ReplayServer, made: list[dict]) -> None:
    for offset in range(0, len(made), PAGE):
        page = json.dumps({"notes": made[offset:offset + PAGE], "count": len(made)}).encode()
        for replies in (False, True):
            params: dict[str, str | int] = {"content.venueid": VENUE, "limit": PAGE,
                                            "offset": offset}
            if replies:
                params["details"] = "replies"
            body = page if replies else json.dumps(
                {"notes": [{k: v for k, v in n.items() if k != "details"}
                           for n in made[offset:offset + PAGE]], "count": len(made)}).encode()
            server.route(f"/notes?{urllib.parse.urlencode(params)}", Reply(body=body))


def library(root: Path, url: str) -> Library:
    cfg = root.parent / f"{root.name}.yaml"
    cfg.write_text(f"bundled_lists: false\nfetch:\n  openreview_url: {url}\n"
                   "  retries: 0\n  timeout_s: 60\n", "utf-8")
    return Library.open(root, config=config_mod.load(cfg), bundled=False)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--papers", type=int, default=3000)
    args = parser.parse_args()
    server = ReplayServer()
    made = notes(args.papers)
    serve(server, made)
    lines = [f"a venue of {args.papers:,} papers, {8 * args.papers:,} replies, pages of {PAGE:,}"]
    try:
        with tempfile.TemporaryDirectory() as folder:
            for reviews in (False, True):
                root = Path(folder) / f"lib-{reviews}"
                before = len(server.requests)
                start = time.perf_counter()
                with library(root, server.url) as lib:
                    [done] = lib.fetch([f"openreview:{VENUE}"], reviews=reviews).sources
                    seconds = time.perf_counter() - start
                    kept = sum(f.stat().st_size for f in (root / "sources").glob("*.reviews.*"))
                    listed = sum(f.stat().st_size for f in (root / "fetched").glob("*.json"))
                    some = next(iter(lib.papers()))
                    found = lib.reviews(some.id).reviews or ()
                lines.append(
                    f"{'with' if reviews else 'without'} --reviews: {done.status}, "
                    f"{done.papers:,} papers, {len(server.requests) - before} requests "
                    f"({done.pages} pages), {seconds:.1f} s; fetched list {listed / 1e6:.1f} MB, "
                    f"reviews kept {kept / 1e6:.1f} MB ({len(found)} replies for one paper)")
            serve(server, notes(args.papers, moved=1))
            with library(Path(folder) / "lib-True", server.url) as lib:
                start = time.perf_counter()
                lib.fetch([f"openreview:{VENUE}"], reviews=True)
                seconds = time.perf_counter() - start
                some = next(iter(lib.papers()))
                change = lib.reviews(some.id).rating_change
            history = json.loads(next((Path(folder) / "lib-True" / "sources").glob(
                "*.ratings.json")).read_text("utf-8"))["papers"]
            moved = sum(1 for points in history.values() if len(points) == 2)
            lines.append(f"a re-fetch with every rating moved by 1: {seconds:.1f} s, "
                         f"{moved:,} papers with a second point (one paper's change: {change})")
            bare = ReplayServer()
            try:
                serve_forums(bare, made)
                start = time.perf_counter()
                with library(Path(folder) / "lib-forums", bare.url) as lib:
                    [done] = lib.fetch([f"openreview:{VENUE}"], reviews=True).sources
                    seconds = time.perf_counter() - start
                    some = next(iter(lib.papers()))
                    found = lib.reviews(some.id).reviews or ()
                forum_asks = sum(1 for r in bare.requests if "forum=" in r.path)
                lines.append(
                    f"pages without their replies, --reviews: {done.status}, {done.papers:,} "
                    f"papers, {len(bare.requests)} requests ({done.pages} pages + "
                    f"{forum_asks:,} forums; the report says {done.forums:,}), {seconds:.1f} s "
                    f"({len(found)} replies for one paper)")
            finally:
                bare.stop()
    finally:
        server.stop()
    print("\n".join(lines))


if __name__ == "__main__":
    main()
