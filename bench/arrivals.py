"""What ``added:`` and ``watch:`` cost to read: the first-seen times of 87,549 papers
(``sources/<id>.added.json``, :mod:`paper_tui.arrivals`), as one source and as 90 sources
(the corpus's venues are about that many lists), ids shaped as the library's
(``neurips2024-1a2b3c4d5e``); four import times, as a library that grew by four imports.

- read: every file parsed and the sets built again (after any import, here or in another
  process: the manifest changed), median of 7;
- check: the look that finds nothing changed (a stat of the manifest), median of 1,000;
- record: an import of a 2,000-paper source into that library (read + write its file);
- disk: the files' total size.

    python bench/arrivals.py    # results in bench/results/arrivals.json
"""

from __future__ import annotations

import json
import random
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

from paper_tui.arrivals import Arrivals, file_of, write_times
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


def main() -> None:
    rng = random.Random(25)
    result: dict = {**run_header("arrivals.py", sys.argv[1:]), "papers": PAPERS}
    for sources in (1, 90):
        result[f"{sources}_sources"] = found = measure(sources, rng)
        print(f"{PAPERS:,} papers in {sources} source(s): {found}")
    print(save("arrivals", "synthetic", result))


if __name__ == "__main__":
    main()
