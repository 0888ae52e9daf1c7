"""A library of N distinct papers (issue 39): import time, peak memory, disk and search
latency, beside SQLite FTS5 on the same papers in the same run; and where the memory goes.

Run by hand (minutes, both cores)::

    python bench/million.py --sizes 87500 175000            # the measures, both engines
    python bench/million.py --sizes 87500 175000 --trace    # and a tracemalloc'd import

N papers are built from the corpus (``../shared/corpus/papers-ml.jsonl.gz``, 87,549
papers): copy 0 is the corpus as it is, copy k > 0 each paper perturbed so its id differs
(a title suffix, the abstract's sentences shuffled, the year moved back k years, the venue
marked), written as one gzipped JSON Lines file. Then, for each size:

- ``paper-tui import FILE`` into a new library, as a process: wall time, peak RSS of the
  process tree (its parsing worker included; /proc sampled every 0.1 s), the disk taken by
  ``sources/`` and ``index/``;
- FTS5 (``porter unicode61``, the same fields as bench/search.py) loading the same file,
  streamed, in a process of its own: time, peak RSS, database size;
- ``paper-tui search Q --limit 20`` as a new process for 5 queries (after one warm-up run),
  median; FTS5's ``MATCH ... ORDER BY rank LIMIT 20`` as a new process, the same queries;
- with ``--trace``: the import again, in this process under tracemalloc (6 frames), with
  snapshots at a quarter, half, three quarters of the papers and after the commit: the
  traced memory and peak, the live allocations by module and by line (the innermost
  frame's), and the 10 biggest allocation sites with their 6 frames (which name the
  paper-tui line that asked whoosh or the standard library for the memory). The parsing
  worker is not traced (the tree RSS counts it).

Results: ``bench/results/million.json``; ``bench/results/million.md`` is written by hand
from it. The machine is shared: the load averages are recorded with each measure.
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import random
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
CORPUS = Path(__file__).resolve().parents[2] / "shared" / "corpus" / "papers-ml.jsonl.gz"
RESULTS = REPO / "bench" / "results" / "million.json"
SEED = 39
SUFFIXES = ("revisited", "extended", "in practice", "at scale", "a second look",
            "reconsidered", "made simple", "and beyond", "for the rest of us", "redux",
            "in the wild", "under shift", "without labels", "the long version",
            "a field study", "lessons learned", "in context", "a survey", "unplugged")
QUERIES = ("graph neural networks", "contrastive learning", "reinforcement learning reward",
           "diffusion models", "transformer attention")


# -- measuring a process tree: bench/search.py's (run: seconds, peak tree RSS, stdout) --
sys.path.insert(0, str(Path(__file__).resolve().parent))
from search import du, run  # noqa: E402


def load() -> tuple[float, float, float]:
    return os.getloadavg()


# -- data ----------------------------------------------------------------------------------
def corpus() -> list[dict]:
    with gzip.open(CORPUS, "rb") as fh:
        return [json.loads(line) for line in fh if line.strip()]


_SENTENCE = re.compile(r"(?<=[.!?])\s+")


def perturbed(record: dict, k: int, rng: random.Random) -> dict:
    """Copy ``k`` (> 0) of a paper: another title, its sentences shuffled, another year
    and venue, so its id (made from its text) is new."""
    out = dict(record)
    out.pop("id", None)
    suffix = SUFFIXES[(k - 1) % len(SUFFIXES)]
    out["title"] = f"{record.get('title') or ''}: {suffix}" + \
        (f" ({k // len(SUFFIXES) + 1})" if k > len(SUFFIXES) else "")
    sentences = _SENTENCE.split(record.get("abstract") or "")
    rng.shuffle(sentences)
    out["abstract"] = " ".join(sentences)
    if isinstance(record.get("year"), int):
        out["year"] = record["year"] - k
    if record.get("venue"):
        out["venue"] = f"{record['venue']} (copy {k})"
    return out


def build(records: list[dict], n: int, path: Path) -> int:
    """``n`` papers (copy 0 the corpus, then perturbed copies) as gzipped JSON Lines."""
    rng = random.Random(SEED)
    written = 0
    with gzip.open(path, "wb", compresslevel=1) as fh:
        k = 0
        while written < n:
            for record in records:
                if written >= n:
                    break
                out = record if k == 0 else perturbed(record, k, rng)
                fh.write(json.dumps(out, ensure_ascii=False).encode() + b"\n")
                written += 1
            k += 1
    return written


# -- FTS5 ----------------------------------------------------------------------------------
FTS_LOAD = """
import gzip, json, sqlite3, sys
con = sqlite3.connect(sys.argv[1])
con.execute("CREATE VIRTUAL TABLE papers USING fts5(id UNINDEXED, title, authors, abstract, "
            "venue, year UNINDEXED, tokenize='porter unicode61')")
with gzip.open(sys.argv[2], "rb") as fh:
    rows = ((str(i), r.get("title") or "", "; ".join(r.get("authors") or []),
             r.get("abstract") or "", r.get("venue") or "", str(r.get("year") or ""))
            for i, r in enumerate(map(json.loads, fh)))
    con.executemany("INSERT INTO papers VALUES (?, ?, ?, ?, ?, ?)", rows)
con.commit()
"""

FTS_SEARCH = """
import sqlite3, sys
con = sqlite3.connect(sys.argv[1])
print(len(con.execute("SELECT id, title FROM papers WHERE papers MATCH ? ORDER BY rank "
                      "LIMIT 20", (sys.argv[2],)).fetchall()))
"""


# -- tracemalloc ---------------------------------------------------------------------------
def traced_import(library: str, data: str, total: int) -> None:
    """The import in this process under tracemalloc; prints JSON (see the docstring)."""
    import tracemalloc

    tracemalloc.start(6)
    from paper_tui import config
    from paper_tui.library import Library

    marks = [total // 4, total // 2, 3 * total // 4]
    shots: list[dict] = []
    start = time.perf_counter()

    def shot(label: str) -> None:
        current, peak = tracemalloc.get_traced_memory()
        snap = tracemalloc.take_snapshot().filter_traces(
            [tracemalloc.Filter(False, tracemalloc.__file__),
             tracemalloc.Filter(False, __file__)])
        shots.append({"at": label, "seconds": round(time.perf_counter() - start, 1),
                      "traced_mb": round(current / 2**20, 1),
                      "peak_mb": round(peak / 2**20, 1), **_grouped(snap)})

    def progress(stage: str, done: int, _total: int | None) -> None:
        if marks and done >= marks[0]:
            marks.pop(0)
            shot(f"{done:,} papers")

    with Library.open(library, config=config.defaults(), bundled=False) as lib:
        report = lib.import_paths([data], progress=progress)
        shot(f"after the commit ({report.papers:,} papers)")
    print(json.dumps(shots))


def _module(filename: str) -> str:
    """``paper_tui/index/writer.py``, ``whoosh/writing.py``, ``<stdlib>/gzip.py``."""
    for root in ("paper_tui", "whoosh"):
        i = filename.rfind(f"/{root}/")
        if i >= 0:
            return filename[i + 1:]
    return f"<{Path(filename).name}>"


def _grouped(snap) -> dict:
    by_module: dict[str, int] = defaultdict(int)
    by_line: dict[str, int] = defaultdict(int)
    stats = snap.statistics("traceback")
    for stat in stats:
        frame = stat.traceback[0]  # innermost
        by_module[_module(frame.filename)] += stat.size
        by_line[f"{_module(frame.filename)}:{frame.lineno}"] += stat.size

    def top(d: dict[str, int], n: int) -> list[tuple[str, float]]:
        return [(k, round(v / 2**20, 1)) for k, v in sorted(d.items(), key=lambda kv: -kv[1])
                [:n]]

    tracebacks = [{"mb": round(stat.size / 2**20, 1), "blocks": stat.count,
                   "frames": [f"{_module(f.filename)}:{f.lineno}" for f in stat.traceback]}
                  for stat in stats[:10]]  # innermost frame first
    return {"by_module_mb": top(by_module, 12), "by_line_mb": top(by_line, 15),
            "top_tracebacks": tracebacks}


# -- one size ------------------------------------------------------------------------------
def bench_size(records: list[dict], n: int, work: Path, trace: bool, measure: bool = True,
               keep: bool = False) -> dict:
    data = work / f"papers-{n}.jsonl.gz"
    made = build(records, n, data)
    library, db = work / f"lib-{n}", work / f"fts-{n}.db"
    cli = [sys.executable, "-m", "paper_tui", "--library", str(library)]
    env = dict(os.environ, PAPER_TUI_HOME=str(library))
    out: dict = {"papers_written": made, "file_mb": round(data.stat().st_size / 2**20, 1)}
    if measure:
        _measure(out, data, library, db, cli, env)
    if trace:
        traced_lib = work / f"lib-{n}-traced"
        t_time, t_rss, t_out = run([sys.executable, __file__, "--traced-import",
                                    str(traced_lib), str(data), str(made)], env=env)
        out["tracemalloc"] = {"seconds": round(t_time, 1), "peak_tree_rss_mb": round(t_rss),
                              "snapshots": json.loads(t_out), "load": load()}
        shutil.rmtree(traced_lib, ignore_errors=True)
    if not keep:
        shutil.rmtree(library, ignore_errors=True)
        db.unlink(missing_ok=True)
        data.unlink(missing_ok=True)
    return out


def _measure(out: dict, data: Path, library: Path, db: Path, cli: list[str],
             env: dict[str, str]) -> None:
    """The import, disk and search of both engines, into ``out``."""

    load_before = load()
    w_time, w_rss, w_out = run([*cli, "import", str(data)], env=env)
    load_after_w = load()
    f_time, f_rss, _ = run([sys.executable, "-c", FTS_LOAD, str(db), str(data)])
    out["import"] = {
        "paper_tui_s": round(w_time, 1), "fts5_s": round(f_time, 1),
        "ratio": round(w_time / f_time, 1),
        "paper_tui_peak_tree_rss_mb": round(w_rss), "fts5_peak_rss_mb": round(f_rss),
        "summary": w_out.strip().splitlines()[-1] if w_out.strip() else "",
        "load_before": load_before, "load_after_paper_tui": load_after_w,
        "load_after_fts5": load()}
    out["disk_mb"] = {"sources": round(du(library / "sources"), 1),
                      "index": round(du(library / "index"), 1),
                      "fts5_db": round(db.stat().st_size / 2**20, 1)}

    search = [*cli, "search", "--limit", "20"]
    run([*search, QUERIES[0]], env=env)  # warm-up: page cache, .pyc
    p_times = [run([*search, q], env=env)[0] for q in QUERIES]
    run([sys.executable, "-c", FTS_SEARCH, str(db), QUERIES[0]])
    f_times = [run([sys.executable, "-c", FTS_SEARCH, str(db), q])[0] for q in QUERIES]
    # annotation filters as a new process: a star on 20 papers, then starred:/added:
    hits = json.loads(run([*cli, "search", "--json", "--limit", "20", QUERIES[1]],
                          env=env)[2] or "[]")
    ids = [h["id"] for h in hits] if isinstance(hits, list) else []
    if ids:
        run([*cli, "star", *ids], env=env)
    filters = {q: run([*search, q], env=env)[0]
               for q in ("starred:yes", "added:today", "starred:yes added:7d graph")}
    out["annotation_filters_s"] = {q: round(t, 3) for q, t in filters.items()}
    # one more list into the big library: 2,000 papers of its own
    extra = data.with_name("extra.jsonl.gz")
    rng = random.Random(SEED + 1)
    with gzip.open(data, "rb") as fh, gzip.open(extra, "wb") as out_fh:
        for i, line in enumerate(fh):
            if i >= 2_000:
                break
            out_fh.write(json.dumps(perturbed(json.loads(line), 999, rng)).encode() + b"\n")
    e_time, e_rss, e_out = run([*cli, "import", str(extra)], env=env)
    out["one_more_list"] = {"papers": 2_000, "seconds": round(e_time, 1),
                            "peak_tree_rss_mb": round(e_rss),
                            "summary": e_out.strip().splitlines()[-1] if e_out.strip() else ""}
    extra.unlink(missing_ok=True)
    out["search_new_process"] = {
        "paper_tui_median_s": round(statistics.median(p_times), 3),
        "paper_tui_s": [round(t, 3) for t in p_times],
        "fts5_median_s": round(statistics.median(f_times), 3),
        "fts5_s": [round(t, 3) for t in f_times], "load": load()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[87_500, 175_000])
    parser.add_argument("--trace", action="store_true", help="a tracemalloc'd import too")
    parser.add_argument("--trace-only", action="store_true",
                        help="only the tracemalloc'd import (no timing of either engine)")
    parser.add_argument("--work", type=Path, help="where the files go (default: a temp dir)")
    parser.add_argument("--out", type=Path, default=RESULTS)
    parser.add_argument("--keep", action="store_true",
                        help="keep each size's file, library and FTS5 database (in --work)")
    parser.add_argument("--traced-import", nargs=3, metavar=("LIBRARY", "FILE", "N"),
                        help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.traced_import:
        library, data, total = args.traced_import
        traced_import(library, data, int(total))
        return
    work = args.work or Path(tempfile.mkdtemp(prefix="paper-tui-million-"))
    work.mkdir(parents=True, exist_ok=True)
    records = corpus()
    import sqlite3

    result: dict = {"date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
                    "commit": subprocess.run(["git", "-C", str(REPO), "rev-parse", "--short",
                                              "HEAD"], capture_output=True,
                                             text=True).stdout.strip(),
                    "python": sys.version.split()[0], "sqlite": sqlite3.sqlite_version,
                    "cpus": os.cpu_count(), "queries": list(QUERIES), "sizes": {}}
    for n in args.sizes:
        print(f"{n:,} papers …", file=sys.stderr, flush=True)
        result["sizes"][str(n)] = bench_size(records, n, work, args.trace or args.trace_only,
                                             measure=not args.trace_only, keep=args.keep)
        args.out.write_text(json.dumps(result, indent=1) + "\n")
        print(json.dumps(result["sizes"][str(n)], indent=1), flush=True)
    if args.work is None and not args.keep:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
