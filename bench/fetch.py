"""``paper-tui fetch`` against a local HTTP server (never the network): what fetching costs
beyond the import, and a re-fetch of an unchanged list.

- a 5,000-paper OpenReview venue, in pages of 1,000 (API v2 notes made from the first
  5,000 corpus records with an abstract: title, authors, abstract, keywords, venue
  ``ICLR 2025 Poster``);
- a 2,000-paper Paper Copilot list (the records of ``corpus/paperlists/`` nips2018, nips2017,
  iclr2018 …, cut at 2,000, served as ``nips/nips2018.json``).

Per list, in interleaved rounds (best of ``--rounds``), each in a new empty library:
``Library.fetch`` (pages over HTTP, kept, assembled, written, imported) against
``Library.import_paths`` of the very file that fetch stored (target: <= 1.3x); then a
re-fetch of the unchanged list (every page a 304: target <= 0.5 s), in-process and as a
``paper-tui fetch`` process (start-up included).

    python bench/fetch.py [--corpus ../shared/corpus] [--rounds 3]

Results: ``bench/results/fetch.txt``.
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "tests"))  # the tests' replay server

from http_replay import ReplayServer, Reply  # noqa: E402
from paper_tui import config as config_mod  # noqa: E402
from paper_tui.library import Library  # noqa: E402

VENUE = "ICLR.cc/2025/Conference"
PAGE = 1000


def openreview_pages(corpus: Path, total: int = 5000) -> list[bytes]:
    notes = []
    with gzip.open(corpus / "papers-ml.jsonl.gz", "rt", encoding="utf-8") as fh:
        for line in fh:
            record = json.loads(line)
            if not record.get("abstract") or not record.get("title"):
                continue
            number = len(notes) + 1
            oid = f"bench{number:05d}"
            notes.append({
                "id": oid, "forum": oid, "number": number, "cdate": 1727740800000,
                "invitations": [f"{VENUE}/-/Submission"], "domain": VENUE,
                "content": {"title": {"value": record["title"]},
                            "authors": {"value": record.get("authors") or []},
                            "abstract": {"value": record["abstract"]},
                            "keywords": {"value": record.get("keywords") or []},
                            "venue": {"value": "ICLR 2025 Poster"},
                            "venueid": {"value": VENUE}}})
            if len(notes) == total:
                break
    return [json.dumps({"notes": notes[i:i + PAGE], "count": total}).encode()
            for i in range(0, total, PAGE)]


def paperlists_file(corpus: Path, total: int = 2000) -> bytes:
    records: list[dict] = []
    for name in ("nips2018", "nips2017", "iclr2018", "icml2019", "acl2022"):
        records += json.loads((corpus / "paperlists" / f"{name}.json").read_text("utf-8"))
        if len(records) >= total:
            break
    return json.dumps(records[:total]).encode()


def config(folder: Path, url: str) -> Path:
    path = folder / "config.yaml"
    path.write_text("bundled_lists: false\nfetch:\n" + "".join(
        f"  {key}: {url}\n" for key in ("openreview_url", "paperlists_url", "arxiv_url",
                                        "dblp_url")) + "  arxiv_delay_s: 0\n", "utf-8")
    return path


def open_library(root: Path, config_file: Path) -> Library:
    return Library.open(root, config=config_mod.load(config_file), bundled=False)


def one_round(work: Path, config_file: Path, spec: str, n: int) -> tuple[float, float, float]:
    """(fetch + import, import of the same file, unchanged re-fetch) in seconds."""
    fetched_lib, imported_lib = work / f"fetch-{n}", work / f"import-{n}"
    with open_library(fetched_lib, config_file) as lib:
        start = time.perf_counter()
        [done] = lib.fetch([spec]).sources
        fetch_s = time.perf_counter() - start
        assert done.status == "fetched", done
        stored = next((fetched_lib / "fetched").iterdir())
        start = time.perf_counter()
        [again] = lib.fetch([spec]).sources
        unchanged_s = time.perf_counter() - start
        assert again.status == "unchanged", again
    copy = work / f"copy-{n}" / stored.name
    copy.parent.mkdir()
    shutil.copy(stored, copy)
    with open_library(imported_lib, config_file) as lib:
        start = time.perf_counter()
        report = lib.import_paths([copy])
        import_s = time.perf_counter() - start
        assert report.papers == done.papers, (report, done)
    return fetch_s, import_s, unchanged_s


def process_refetch(work: Path, config_file: Path, spec: str, n: int) -> float:
    exe = shutil.which("paper-tui") or "paper-tui"
    lib = work / f"fetch-{n}"
    start = time.perf_counter()
    out = subprocess.run([exe, "--library", str(lib), "--config", str(config_file), "fetch",
                          spec], capture_output=True, text=True, check=True)
    took = time.perf_counter() - start
    assert "unchanged" in out.stdout, out.stdout
    return took


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--corpus", type=Path, default=HERE.parent.parent / "shared/corpus")
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    server = ReplayServer()
    pages = openreview_pages(args.corpus)
    for i, body in enumerate(pages):
        server.route(f"/notes?content.venueid={VENUE.replace('/', '%2F')}&limit={PAGE}"
                     f"&offset={i * PAGE}", Reply(body=body, etag=f'"p{i}"'))
    paperlists = paperlists_file(args.corpus)
    server.route("/nips/nips2018.json", Reply(body=paperlists, etag='"pl"'))
    specs = {f"openreview:{VENUE}": f"5,000 notes, {len(pages)} pages "
                                    f"({sum(map(len, pages)) / 1e6:.1f} MB)",
             "paperlists:nips2018": f"2,000 records ({len(paperlists) / 1e6:.1f} MB)"}
    lines = [f"bench/fetch.py, {time.strftime('%Y-%m-%d %H:%M')}, load "
             f"{os.getloadavg()[0]:.1f}, best of {args.rounds} interleaved rounds, "
             "a new library each round; local server on 127.0.0.1", ""]
    with tempfile.TemporaryDirectory(prefix="bench-fetch-") as folder:
        work = Path(folder)
        config_file = config(work, server.url)
        times: dict[str, list[tuple[float, float, float]]] = {s: [] for s in specs}
        processes: dict[str, list[float]] = {s: [] for s in specs}
        n = 0
        for _ in range(args.rounds):
            for spec in specs:
                n += 1
                times[spec].append(one_round(work, config_file, spec, n))
                processes[spec].append(process_refetch(work, config_file, spec, n))
        for spec, what in specs.items():
            fetch_s = min(t[0] for t in times[spec])
            import_s = min(t[1] for t in times[spec])
            unchanged_s = min(t[2] for t in times[spec])
            lines += [f"{spec} — {what}",
                      f"  fetch + import   {fetch_s:6.2f} s   (all rounds: "
                      f"{', '.join(f'{t[0]:.2f}' for t in times[spec])})",
                      f"  import of file   {import_s:6.2f} s   (all rounds: "
                      f"{', '.join(f'{t[1]:.2f}' for t in times[spec])})",
                      f"  ratio            {fetch_s / import_s:6.2f}x  (target <= 1.3x)",
                      f"  unchanged re-fetch, in-process {unchanged_s:6.3f} s; as a "
                      f"`paper-tui fetch` process {min(processes[spec]):.3f} s "
                      "(target <= 0.5 s)", ""]
    server.stop()
    text = "\n".join(lines)
    print(text)
    (HERE / "results" / "fetch.txt").write_text(text, "utf-8")


if __name__ == "__main__":
    main()
