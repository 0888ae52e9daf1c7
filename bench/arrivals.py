"""What ``added:`` and ``watch:`` cost to read: the first-seen times of 87,549 papers
(``sources/<id>.added.json``, :mod:`paper_tui.holdings.arrivals`), as one source and as 90 sources
(the corpus's venues are about that many lists), ids shaped as the library's
(``neurips2024-1a2b3c4d5e``); four import times, as a library that grew by four imports.

- read: every file parsed and the sets built again (after any import, here or in another
  process: the manifest changed), median of 7;
- check: the look that finds nothing changed (a stat of the manifest), median of 1,000;
- record: an import of a 2,000-paper source into that library (read + write its file);
- disk: the files' total size.

With ``--library DIR`` (made from ``--corpus FILE`` when it has no sources yet: ~2
minutes for the 87,549-paper corpus), on that real library: the queries' p50/p95
in-process (each first search after the times were read, then repeats), and the one-time
cost an older library pays on its first open (every ``.added.json`` written from the
index's ids).

    python bench/arrivals.py    # results in bench/results/arrivals.json
    python bench/arrivals.py --library /tmp/arrivals-big \
        --corpus ../shared/corpus/papers-ml.jsonl.gz
"""

from __future__ import annotations

import argparse
import json
import random
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

from paper_tui import config as config_mod
from paper_tui.holdings.arrivals import Arrivals, file_of, write_times
from paper_tui.library import Library
from results_file import run_header, save

PAPERS = 87_549
IMPORTS = (1_764_000_000, 1_764_300_000, 1_764_600_000, 1_764_900_000)


def build(root: Path, sources: int, rng: random.Random) -> list[str]:
    """A ``sources/`` dir of ``sources`` lists holding PAPERS papers; their ids."""
    ids = [f"conf{2010 + i % 16}-{rng.getrandbits(40):010x}" for i in range(PAPERS)]
    manifest = {}
    per = -(-PAPERS // sources)
    for n in range(sources):
        sid = f"{n:03d}-{rng.getrandbits(64):016x}-json"
        chunk = ids[n * per:(n + 1) * per]
        at = IMPORTS[n % len(IMPORTS)]
        write_times(file_of(root, sid), dict.fromkeys(chunk, at))
        manifest[sid] = {"id": sid, "path": f"/lists/{sid}.json", "checksum": "0" * 64,
                         "format": "paperlists", "count": len(chunk), "imported_at": at}
    (root / "manifest.json").write_text(json.dumps({"version": 2, "sources": manifest}))
    return ids


def touch_manifest(root: Path) -> None:
    """As an import does: the manifest written again (a new identity)."""
    path = root / "manifest.json"
    text = path.read_text()
    path.unlink()
    path.write_text(text)


def measure(sources: int, rng: random.Random) -> dict[str, float]:
    root = Path(tempfile.mkdtemp(prefix="paper-tui-arrivals-")) / "sources"
    root.mkdir()
    try:
        build(root, sources, rng)
        arrivals = Arrivals(root)
        reads = []
        for _ in range(7):
            touch_manifest(root)
            start = time.perf_counter()
            found = arrivals.fresh()
            reads.append(time.perf_counter() - start)
        assert len(found.first_seen) == PAPERS, len(found.first_seen)
        checks = []
        for _ in range(1_000):
            start = time.perf_counter()
            arrivals.fresh()
            checks.append(time.perf_counter() - start)
        new = [f"conf2026-{rng.getrandbits(40):010x}" for _ in range(2_000)]
        touch_manifest(root)
        start = time.perf_counter()
        arrivals.record("new-source", new, time.time())
        record = time.perf_counter() - start
        disk = sum(p.stat().st_size for p in root.glob("*.added.json"))
        return {"read_ms": round(statistics.median(reads) * 1000, 1),
                "check_us": round(statistics.median(checks) * 1e6, 1),
                "record_2000_ms": round(record * 1000, 1),
                "disk_mb": round(disk / 1e6, 2)}
    finally:
        shutil.rmtree(root.parent)


QUERIES = {"diffusion (no added:)": "diffusion", "added:today": "added:today",
           "added:7d diffusion": "added:7d diffusion",
           "diffusion -added:today": "diffusion -added:today",
           "added:>=2020-01-01 tag:x": "added:>=2020-01-01 tag:x"}


def percentiles(values: list[float]) -> dict[str, float]:
    values = sorted(values)
    p95 = values[min(len(values) - 1, round(0.95 * (len(values) - 1)))]
    return {"p50_ms": round(statistics.median(values) * 1000, 2),
            "p95_ms": round(p95 * 1000, 2), "n": len(values)}


def on_library(root: Path, corpus: Path | None, repeats: int) -> dict:
    config = config_mod.defaults()
    with Library.open(root, config=config, bundled=False) as lib:
        if not lib.sources.manifest:
            if corpus is None:
                raise SystemExit(f"{root} holds no papers: give --corpus FILE")
            start = time.perf_counter()
            lib.import_paths([corpus])
            print(f"imported in {time.perf_counter() - start:.1f} s")
        found: dict = {"papers": lib.count()}
        for name, query in QUERIES.items():
            times = []
            for _ in range(repeats):
                touch_manifest(root / "sources")  # as after an import: times read again
                start = time.perf_counter()
                lib.search(query, limit=50)
                times.append(time.perf_counter() - start)
            warm = []
            for _ in range(repeats):
                start = time.perf_counter()
                lib.search(query, limit=50)
                warm.append(time.perf_counter() - start)
            found[name] = {"after an import": percentiles(times),
                           "again": percentiles(warm)}
            print(name, found[name])
        sources = list(lib.sources.manifest)
    opens = []
    for with_files in (True, False):
        if not with_files:
            for sid in sources:
                file_of(root / "sources", sid).unlink()
        start = time.perf_counter()
        Library.open(root, config=config, bundled=False).close()
        opens.append(time.perf_counter() - start)
    found["open_s"] = round(opens[0], 2)
    found["first_open_of_an_older_library_s"] = round(opens[1], 2)
    print("open", opens)
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--library", type=Path)
    parser.add_argument("--corpus", type=Path)
    parser.add_argument("--repeats", type=int, default=21)
    args = parser.parse_args()
    rng = random.Random(25)
    result: dict = {**run_header("arrivals.py", sys.argv[1:]), "papers": PAPERS}
    if args.library is not None:
        result.update(on_library(args.library, args.corpus, args.repeats))
        print(save("arrivals", str(args.library.name), result))
        return
    for sources in (1, 90):
        result[f"{sources}_sources"] = found = measure(sources, rng)
        print(f"{PAPERS:,} papers in {sources} source(s): {found}")
    print(save("arrivals", "synthetic", result))


if __name__ == "__main__":
    main()
