"""What full-text search (issue 36) costs a plain query: two-word title queries on the
first 10,000 papers of the corpus, in-process (``Library.search``, 20 hits, each paper
loaded), with no PDF held and with two real PDFs held (``tests/data/pdfs``: the body
field in use, so body-only matches are ranked after record matches).

Run by hand, once per source tree to compare (an older one: ``git archive REV src | tar
-x -C /tmp/old``)::

    python bench/fulltext.py                    # this tree
    python bench/fulltext.py --src /tmp/old/src --no-pdfs

Prints the best of 5 passes' p50 and p95 (after a warm-up pass); nothing is written.
"""

from __future__ import annotations

import argparse
import gzip
import json
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
CORPUS = Path(__file__).resolve().parents[2] / "shared" / "corpus" / "papers-ml.jsonl.gz"
PDFS = REPO / "tests" / "data" / "pdfs"
SEED = 4


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--src", type=Path, default=REPO / "src")
    parser.add_argument("--corpus", type=Path, default=CORPUS)
    parser.add_argument("--papers", type=int, default=10_000)
    parser.add_argument("--no-pdfs", action="store_true", help="only the run with no PDF")
    args = parser.parse_args()
    sys.path.insert(0, str(args.src))
    from paper_tui import config as config_mod
    from paper_tui.library import Library

    lines = []
    with gzip.open(args.corpus, "rt", encoding="utf-8") as f:
        for line in f:
            lines.append(line)
            if len(lines) >= args.papers:
                break
    rng = random.Random(SEED)
    queries = []
    for record in rng.sample([json.loads(line) for line in lines], 200):
        words = [w for w in record.get("title", "").split() if w.isalpha() and len(w) > 3]
        if len(words) >= 2:
            queries.append(" ".join(rng.sample(words, 2)))
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        (root / "papers.jsonl").write_text("".join(lines), "utf-8")
        (root / "config.yaml").write_text("bundled_lists: false\n", "utf-8")
        lib = Library.open(root / "lib", config=config_mod.load(root / "config.yaml"),
                           bundled=False)
        lib.import_paths([root / "papers.jsonl"])
        runs = [("no PDF", [])] if args.no_pdfs else \
            [("no PDF", []), ("2 PDFs held", sorted(PDFS.glob("[!e]*.pdf")))]
        for label, pdfs in runs:
            ids = [p.id for p in lib.papers()][:len(pdfs)]
            for pid, pdf in zip(ids, pdfs, strict=True):
                lib.pdf_add(pid, pdf)
            for q in queries:  # warm-up
                [h.paper for h in lib.search(q, limit=20).hits]
            p50s, p95s = [], []
            for _ in range(5):
                times = []
                for q in queries:
                    start = time.perf_counter()
                    [h.paper for h in lib.search(q, limit=20).hits]
                    times.append((time.perf_counter() - start) * 1000)
                times.sort()
                p50s.append(statistics.median(times))
                p95s.append(times[int(len(times) * 0.95)])
            print(f"{args.src} ({label}): {len(queries)} two-word title queries on "
                  f"{len(lines):,} papers, best of 5: p50 {min(p50s):.2f} ms, "
                  f"p95 {min(p95s):.2f} ms")
        lib.close()


if __name__ == "__main__":
    main()
