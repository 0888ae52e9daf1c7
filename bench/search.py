"""Search benchmark: paper-tui's Whoosh index against SQLite FTS5, same papers, same queries.

Run by hand (it takes minutes and both CPU cores)::

    python bench/search.py                      # 10,000-paper sample, then all 87,549
    python bench/search.py --sizes 10000        # the sample only
    python bench/search.py --import-only        # only import + index and add 1,000, vs FTS5

For each size it measures, for both engines: full import + index time and peak RSS (the
whole process tree, sampled), adding 1,000 new papers, open + first query in a fresh
process, in-process query latency p50/p95 per query kind, and known-item quality (3 words
of a random paper's title: rank 1 / top 10). Results go to bench/results/search.json.
Whoosh is driven through the real ``paper-tui import`` / ``paper-tui search`` commands and
the ``Library`` façade; FTS5 reads the same JSON Lines (``tokenize='porter unicode61'``).
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import platform
import random
import re
import resource
import shutil
import sqlite3
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
CORPUS = Path(__file__).resolve().parents[2] / "shared" / "corpus" / "papers-ml.jsonl.gz"
RESULTS = REPO / "bench" / "results" / "search.json"
SEED = 4
STOP = {"a", "an", "and", "are", "as", "at", "be", "by", "for", "from", "in", "is", "it",
        "of", "on", "or", "that", "the", "to", "with", "we", "via", "using", "towards", "its",
        "not", "can", "do", "does", "how", "what", "when", "all", "you", "your", "our"}


# -- measuring a process tree --------------------------------------------------------------
def _tree_rss(pid: int) -> int:
    """Resident memory of a process and all its descendants, in bytes."""
    total, todo = 0, [pid]
    while todo:
        p = todo.pop()
        try:
            with open(f"/proc/{p}/statm") as fh:
                total += int(fh.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
            with open(f"/proc/{p}/task/{p}/children") as fh:
                todo.extend(int(c) for c in fh.read().split())
        except OSError:
            continue
    return total


def _tree_pss(pid: int) -> int:
    """Proportional set size of a process tree, in bytes: memory shared by a parent and
    its forked writers counted once (an RSS sum counts it in every process)."""
    total, todo = 0, [pid]
    while todo:
        p = todo.pop()
        try:
            with open(f"/proc/{p}/smaps_rollup") as fh:
                for line in fh:
                    if line.startswith("Pss:"):
                        total += int(line.split()[1]) * 1024
                        break
            with open(f"/proc/{p}/task/{p}/children") as fh:
                todo.extend(int(c) for c in fh.read().split())
        except OSError:
            continue
    return total


def import_memory(data: Path, out_file: Path) -> None:
    """Peak memory of one full ``paper-tui import`` into a new library: RSS sum and PSS."""
    library = Path("/tmp/paper-tui-bench-import-memory")
    shutil.rmtree(library, ignore_errors=True)
    cmd = [sys.executable, "-m", "paper_tui", "--library", str(library), "import", str(data)]
    start = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    peak_rss = peak_pss = 0
    while proc.poll() is None:
        peak_rss = max(peak_rss, _tree_rss(proc.pid))
        peak_pss = max(peak_pss, _tree_pss(proc.pid))
        time.sleep(0.2)
    result = {"file": str(data), "seconds": round(time.perf_counter() - start, 1),
              "returncode": proc.returncode, "peak_rss_sum_mb": round(peak_rss / 2**20),
              "peak_pss_mb": round(peak_pss / 2**20),
              "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
              "load_average": os.getloadavg()}
    out_file.write_text(json.dumps(result, indent=1) + "\n")
    print(json.dumps(result))


def run(cmd: list[str], **kw) -> tuple[float, float, str]:
    """(seconds, peak tree RSS in MB, stdout) of a command; fails loudly."""
    start = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            **kw)
    peak = 0
    done = threading.Event()

    def sample() -> None:
        nonlocal peak
        while not done.is_set():
            peak = max(peak, _tree_rss(proc.pid))
            time.sleep(0.1)

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    out, err = proc.communicate()
    elapsed = time.perf_counter() - start
    done.set()
    sampler.join()
    if proc.returncode not in (0,):
        raise SystemExit(f"{' '.join(cmd)} failed ({proc.returncode}):\n{err[-2000:]}")
    return elapsed, peak / 2**20, out


def du(path: Path) -> float:
    return sum(f.stat().st_size for f in path.rglob("*") if f.is_file()) / 2**20


# -- data ----------------------------------------------------------------------------------
def load_corpus() -> list[dict]:
    with gzip.open(CORPUS, "rb") as fh:
        return [json.loads(line) for line in fh.read().split(b"\n") if line.strip()]


def write_jsonl(path: Path, records: list[dict]) -> Path:
    with gzip.open(path, "wb", compresslevel=1) as fh:
        for r in records:
            fh.write(json.dumps(r, ensure_ascii=False).encode() + b"\n")
    return path


def new_papers(records: list[dict], n: int, rng: random.Random) -> list[dict]:
    """n papers not in the corpus: real ones, retitled (so their ids are new)."""
    out = []
    for r in rng.sample(records, n):
        r = dict(r, id=f"{r['id']}-new", title=f"{r['title']} revisited")
        r["abstract"] = r["abstract"] + " We revisit this question."
        out.append(r)
    return out


def title_words(title: str) -> list[str]:
    words = [w for w in re.findall(r"[A-Za-z][A-Za-z0-9]+", title) if w.lower() not in STOP]
    return list(dict.fromkeys(words))


def queries(records: list[dict], rng: random.Random) -> dict[str, list[tuple[str, str]]]:
    """Per kind, (whoosh query, fts5 query) pairs drawn from real titles."""
    picks = rng.sample(records, 400)
    vocab = [w.lower() for r in picks for w in title_words(r["title"]) if len(w) > 4]
    years = sorted({r["year"] for r in records if r.get("year")})
    one = rng.sample(vocab, 20)
    two = [tuple(rng.sample(vocab, 2)) for _ in range(20)]
    phrases = []
    for r in picks:
        words = re.findall(r"[A-Za-z]+", r["title"])
        if len(words) >= 3 and all(w.lower() not in STOP for w in words[:2]):
            phrases.append(" ".join(words[:2]).lower())
        if len(phrases) == 20:
            break
    field = [(w, rng.choice(years[-10:])) for w in rng.sample(vocab, 20)]
    fuzzy = [w[:-2] + w[-1] + w[-2] for w in rng.sample(vocab, 20)]  # swap the last two
    return {
        "one word": [(w, w) for w in one],
        "two words": [(f"{a} {b}", f"{a} {b}") for a, b in two],
        "phrase": [(f'"{p}"', f'"{p}"') for p in phrases],
        "field (title: + year:)": [(f"title:{w} year:{y}", f"title:{w} AND year:{y}")
                                   for w, y in field],
        # FTS5 has no fuzzy matching: it gets the closest it has, a prefix query
        "fuzzy (~ / FTS5 prefix)": [(f"{w}~", f"{w[:4]}*") for w in fuzzy],
    }


def known_items(records: list[dict], rng: random.Random, n: int = 200) -> list[dict]:
    out = []
    for r in rng.sample(records, len(records)):
        words = title_words(r["title"])
        if len(words) >= 3:
            out.append({"record": r, "words": rng.sample(words, 3)})
            if len(out) == n:
                break
    return out


# -- workers (run in a fresh process) ------------------------------------------------------
def whoosh_worker(library: str, spec_file: str) -> None:
    spec = json.loads(Path(spec_file).read_text())
    sys.path.insert(0, str(REPO / "src"))
    from paper_tui.library import Library

    lib = Library.open(library, bundled=False)
    # Wall-clock time, and the process's CPU time beside it: on a shared machine the wall
    # clock also counts the time other processes held the cores.
    latency: dict[str, list[float]] = {}
    cpu: dict[str, list[float]] = {}

    def timed(kind: str, out: dict[str, list[float]], out_cpu: dict[str, list[float]],
              run) -> None:
        start, start_cpu = time.perf_counter(), time.process_time()
        run()
        out.setdefault(kind, []).append(time.perf_counter() - start)
        out_cpu.setdefault(kind, []).append(time.process_time() - start_cpu)

    def search(q: str) -> None:
        page = lib.search(q, limit=20)
        [hit.paper.id for hit in page.hits]
        assert page.error is None, (q, page.error)

    def results(q: str) -> None:
        rs = lib.results(q)
        [rs.paper(i) for i in range(min(40, len(rs)))]

    for kind, pairs in spec["queries"].items():
        for whoosh_q, _ in pairs:
            timed(kind, latency, cpu, lambda q=whoosh_q: search(q))
    # The same queries again: words already read (as when a query is refined while typing)
    warm: dict[str, list[float]] = {}
    warm_cpu: dict[str, list[float]] = {}
    for kind, pairs in spec["queries"].items():
        for whoosh_q, _ in pairs:
            timed(kind, warm, warm_cpu, lambda q=whoosh_q: search(q))
    # What the TUI does per keystroke: a lazy result set for the whole list
    for kind, qs in (("results: empty query", [""] * 5),
                     ("results: common word", ["learning", "neural", "model", "networks",
                                               "data"])):
        for q in qs:
            timed(kind, latency, cpu, lambda q=q: results(q))
    ranks = []
    for item in spec["known"]:
        ids = [h.paper.id for h in lib.search(" ".join(item["words"]), limit=10).hits]
        ranks.append(ids.index(item["paper_id"]) + 1 if item["paper_id"] in ids else None)
    lib.close()
    print(json.dumps({"latency": latency, "latency_warm": warm, "cpu": cpu,
                      "cpu_warm": warm_cpu, "ranks": ranks}))


def fts_worker(db: str, spec_file: str) -> None:
    spec = json.loads(Path(spec_file).read_text())
    con = sqlite3.connect(db)
    latency: dict[str, list[float]] = {}
    for kind, pairs in spec["queries"].items():
        for _, fts_q in pairs:
            where, args = _fts_where(fts_q)
            start = time.perf_counter()
            con.execute(f"SELECT id, title FROM papers WHERE {where} ORDER BY rank LIMIT 20",
                        args).fetchall()
            latency.setdefault(kind, []).append(time.perf_counter() - start)
    ranks = []
    for item in spec["known"]:
        q = " ".join(f'"{w}"' for w in item["words"])
        ids = [row[0] for row in con.execute(
            "SELECT id FROM papers WHERE papers MATCH ? ORDER BY rank LIMIT 10", (q,))]
        ranks.append(ids.index(item["fts_id"]) + 1 if item["fts_id"] in ids else None)
    print(json.dumps({"latency": latency, "ranks": ranks}))


def _fts_where(q: str) -> tuple[str, tuple]:
    m = re.fullmatch(r"title:(\w+) AND year:(\d+)", q)
    if m:
        return "papers MATCH ? AND year = ?", (f"title:{m.group(1)}", m.group(2))
    return "papers MATCH ?", (q,)


FTS_LOAD = """
import gzip, json, sqlite3, sys
db, files = sys.argv[1], sys.argv[2:]
con = sqlite3.connect(db)
con.execute("CREATE VIRTUAL TABLE IF NOT EXISTS papers USING fts5(id UNINDEXED, title, "
            "authors, abstract, venue, year UNINDEXED, tokenize='porter unicode61')")
for f in files:
    with gzip.open(f, "rb") as fh:
        rows = ((r["id"], r["title"], "; ".join(r.get("authors") or []), r["abstract"],
                 r.get("venue") or "", str(r.get("year") or ""))
                for r in map(json.loads, fh.read().split(b"\\n")[:-1]))
        con.executemany("INSERT INTO papers VALUES (?, ?, ?, ?, ?, ?)", rows)
con.commit()
"""

FTS_FIRST = """
import sqlite3, sys
con = sqlite3.connect(sys.argv[1])
print(con.execute("SELECT id, title FROM papers WHERE papers MATCH ? ORDER BY rank LIMIT 20",
                  (sys.argv[2],)).fetchall()[:1])
"""


def summarize(samples: list[float]) -> dict[str, float]:
    ms = sorted(s * 1000 for s in samples)
    return {"p50_ms": round(statistics.median(ms), 2),
            "p95_ms": round(ms[min(len(ms) - 1, round(0.95 * (len(ms) - 1)))], 2),
            "n": len(ms)}


def quality(ranks: list[int | None]) -> dict[str, float]:
    n = len(ranks)
    return {"rank1": round(sum(r == 1 for r in ranks) / n, 3),
            "top10": round(sum(r is not None for r in ranks) / n, 3), "n": n}


# -- one size ------------------------------------------------------------------------------
def bench_size(records: list[dict], size: int, work: Path, rng: random.Random) -> dict:
    papers = records if size >= len(records) else rng.sample(records, size)
    extra = new_papers(records, 1000, rng)
    data = work / f"papers-{size}.jsonl.gz"
    add = work / f"new-1000-{size}.jsonl.gz"
    write_jsonl(data, papers)
    write_jsonl(add, extra)
    library, db = work / f"lib-{size}", work / f"fts-{size}.db"
    cli = [sys.executable, "-m", "paper_tui", "--library", str(library)]
    env = dict(os.environ, PAPER_TUI_HOME=str(library))
    out: dict = {"papers": len(papers)}

    # Full import + index
    w_time, w_rss, _ = run([*cli, "import", str(data)], env=env)
    f_time, f_rss, _ = run([sys.executable, "-c", FTS_LOAD, str(db), str(data)])
    out["import"] = {"whoosh_s": round(w_time, 1), "fts5_s": round(f_time, 1),
                     "ratio": round(w_time / f_time, 1), "whoosh_peak_rss_mb": round(w_rss),
                     "fts5_peak_rss_mb": round(f_rss),
                     "whoosh_index_mb": round(du(library / "index"), 1),
                     "fts5_db_mb": round(db.stat().st_size / 2**20, 1)}
    print(f"[{size}] import: {out['import']}", flush=True)

    # Queries and known items (drawn before adding the 1,000)
    spec = {"queries": queries(papers, rng), "known": []}
    items = known_items(papers, rng)
    # The ids paper-tui gives these papers: its own importer, on just these records
    from paper_tui.importers import import_file
    from paper_tui.model import Paper

    probe = write_jsonl(work / f"known-{size}.jsonl.gz", [i["record"] for i in items])
    pt_ids = [p.id for p in import_file(probe)[2] if isinstance(p, Paper)]
    assert len(pt_ids) == len(items)
    spec["known"] = [{"words": i["words"], "paper_id": pid, "fts_id": i["record"]["id"]}
                     for i, pid in zip(items, pt_ids, strict=True)]
    spec_file = work / f"spec-{size}.json"
    spec_file.write_text(json.dumps(spec))

    # Open + first query in a fresh process (median of 5)
    first_q = spec["queries"]["two words"][0][0]
    w_first = [run([*cli, "search", first_q, "--limit", "20"], env=env)[0] for _ in range(5)]
    f_first = [run([sys.executable, "-c", FTS_FIRST, str(db), first_q])[0] for _ in range(5)]
    out["open_first_query"] = {"whoosh_median_s": round(statistics.median(w_first), 3),
                               "fts5_median_s": round(statistics.median(f_first), 3),
                               "query": first_q}
    print(f"[{size}] first query: {out['open_first_query']}", flush=True)

    # In-process latency and known-item quality
    w = json.loads(run([sys.executable, __file__, "--whoosh-worker", str(library),
                        str(spec_file)], env=env)[2])
    f = json.loads(run([sys.executable, __file__, "--fts-worker", str(db), str(spec_file)])[2])
    out["latency"] = {kind: {"whoosh": summarize(w["latency"][kind]),
                             **({"fts5": summarize(f["latency"][kind])}
                                if kind in f["latency"] else {})}
                      for kind in w["latency"]}
    out["known_item"] = {"whoosh": quality(w["ranks"]), "fts5": quality(f["ranks"])}
    print(f"[{size}] latency: {json.dumps(out['latency'])}", flush=True)
    print(f"[{size}] known item: {out['known_item']}", flush=True)

    # Adding 1,000 new papers
    wa_time, wa_rss, _ = run([*cli, "import", str(add)], env=env)
    fa_time, _, _ = run([sys.executable, "-c", FTS_LOAD, str(db), str(add)])
    out["add_1000"] = {"whoosh_s": round(wa_time, 1), "fts5_s": round(fa_time, 2),
                       "whoosh_peak_rss_mb": round(wa_rss)}
    print(f"[{size}] add 1,000: {out['add_1000']}", flush=True)
    return out


def _children_cpu() -> float:
    """CPU seconds used so far by this process's finished children (and theirs)."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def import_only(records: list[dict], sizes: list[int], work: Path, out_file: Path) -> None:
    """Only the import part of a run, on the same samples as a full run, into ``work``
    (not the full run's libraries, which other benchmarks read): import + index against
    FTS5 (median of 3), peak RSS of the process tree, then adding 1,000 new papers."""
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True)
    rng = random.Random(SEED)
    runs = {}
    for size in sizes:
        papers = records if size >= len(records) else rng.sample(records, size)
        extra = new_papers(records, 1000, rng)
        data = write_jsonl(work / f"papers-{size}.jsonl.gz", papers)
        add = write_jsonl(work / f"new-1000-{size}.jsonl.gz", extra)
        library, db = work / f"lib-{size}", work / f"fts-{size}.db"
        cli = [sys.executable, "-m", "paper_tui", "--library", str(library)]
        env = dict(os.environ, PAPER_TUI_HOME=str(library))
        f_times, f_cpu = [], []
        for _ in range(3):
            db.unlink(missing_ok=True)
            cpu = _children_cpu()
            f_times.append(run([sys.executable, "-c", FTS_LOAD, str(db), str(data)])[0])
            f_cpu.append(_children_cpu() - cpu)
        load_before = os.getloadavg()
        cpu = _children_cpu()
        w_time, w_rss, _ = run([*cli, "import", str(data)], env=env)
        w_cpu = _children_cpu() - cpu
        f_time = statistics.median(f_times)
        wa_time = run([*cli, "import", str(add)], env=env)[0]
        runs[str(len(papers))] = {
            "whoosh_s": round(w_time, 1), "fts5_s": round(f_time, 2),
            "ratio": round(w_time / f_time, 1), "whoosh_peak_rss_mb": round(w_rss),
            "whoosh_index_mb": round(du(library / "index"), 1),
            "add_1000_s": round(wa_time, 1),
            # CPU seconds (user + system, every process): what a busy machine changes least
            "whoosh_cpu_s": round(w_cpu, 1), "fts5_cpu_s": round(statistics.median(f_cpu), 2),
            "load_average_before_whoosh": load_before}
        print(f"[{size}] {runs[str(len(papers))]}", flush=True)
    result = {"command": "python bench/search.py " + " ".join(sys.argv[1:]),
              "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
              "load_average_at_end": os.getloadavg(), "runs": runs}
    out_file.write_text(json.dumps(result, indent=1) + "\n")
    print(json.dumps(result))


def latency_only(library: str, spec_file: str) -> None:
    out = json.loads(run([sys.executable, __file__, "--whoosh-worker", library, spec_file])[2])
    result = {"library": library, "spec": spec_file,
              "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
              "load_average": os.getloadavg(),
              "latency_first_time": {k: summarize(v) for k, v in out["latency"].items()},
              "latency_again": {k: summarize(v) for k, v in out["latency_warm"].items()},
              "cpu_first_time": {k: summarize(v) for k, v in out["cpu"].items()},
              "cpu_again": {k: summarize(v) for k, v in out["cpu_warm"].items()},
              "known_item": quality(out["ranks"]),
              # the known-item queries whose paper was not first: rank, or null if not in
              # the top 10
              "known_item_misses": [
                  {"query": " ".join(item["words"]), "rank": rank}
                  for item, rank in zip(json.loads(Path(spec_file).read_text())["known"],
                                        out["ranks"], strict=True) if rank != 1]}
    RESULTS.with_name("search-latency.json").write_text(json.dumps(result, indent=1) + "\n")
    print(json.dumps(result, indent=1))


def first_query(library: Path, query: str, out_file: Path) -> None:
    """``paper-tui search`` in a fresh process, median of 5: as this machine runs Python
    (PYTHONDONTWRITEBYTECODE=1: every paper_tui module compiled on each start) and as an
    installed app runs (bytecode cached, one warm-up run first)."""
    cmd = [sys.executable, "-m", "paper_tui", "--library", str(library), "search", query,
           "--limit", "20"]
    result = {"query": query, "library": str(library)}
    for label, env in (("no_bytecode_cache", dict(os.environ, PYTHONDONTWRITEBYTECODE="1")),
                       ("bytecode_cached", {k: v for k, v in os.environ.items()
                                            if k != "PYTHONDONTWRITEBYTECODE"})):
        run(cmd, env=env)  # warm-up: page cache, order files, .pyc when allowed
        times = [run(cmd, env=env)[0] for _ in range(5)]
        result[f"whoosh_median_s_{label}"] = round(statistics.median(times), 3)
    result["date"] = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    result["load_average"] = os.getloadavg()
    out_file.write_text(json.dumps(result, indent=1) + "\n")
    print(json.dumps(result))


def table(results: Path) -> str:
    """The README table (markdown) from a results file."""
    report = json.loads(results.read_text())
    runs = report["runs"]
    sizes = list(runs)
    head = "| | " + " | ".join(f"Whoosh {int(n):,} | FTS5 {int(n):,}" for n in sizes) + " |"
    rows = [head, "|---" * (1 + 2 * len(sizes)) + "|"]

    def row(label: str, pick) -> None:
        cells = []
        for n in sizes:
            w, f = pick(runs[n])
            cells += [w, f]
        rows.append(f"| {label} | " + " | ".join(cells) + " |")

    row("import + index", lambda r: (f"{r['import']['whoosh_s']} s "
                                     f"({r['import']['ratio']}x)",
                                     f"{r['import']['fts5_s']} s"))
    row("peak RSS (process tree)", lambda r: (f"{r['import']['whoosh_peak_rss_mb']} MB",
                                              f"{r['import']['fts5_peak_rss_mb']} MB"))
    row("index size", lambda r: (f"{r['import']['whoosh_index_mb']} MB",
                                 f"{r['import']['fts5_db_mb']} MB"))
    row("add 1,000 papers", lambda r: (f"{r['add_1000']['whoosh_s']} s",
                                       f"{r['add_1000']['fts5_s']} s"))
    row("open + first query (new process, median)",
        lambda r: (f"{r['open_first_query']['whoosh_median_s']} s",
                   f"{r['open_first_query']['fts5_median_s']} s"))
    for kind in runs[sizes[0]]["latency"]:
        def pick(r, kind=kind):
            lat = r["latency"][kind]
            w = f"{lat['whoosh']['p50_ms']} / {lat['whoosh']['p95_ms']} ms"
            f = (f"{lat['fts5']['p50_ms']} / {lat['fts5']['p95_ms']} ms" if "fts5" in lat
                 else "–")
            return w, f
        row(f"{kind}: p50 / p95", pick)
    row("known item: rank 1 / top 10",
        lambda r: (f"{r['known_item']['whoosh']['rank1']:.1%} / "
                   f"{r['known_item']['whoosh']['top10']:.1%}",
                   f"{r['known_item']['fts5']['rank1']:.1%} / "
                   f"{r['known_item']['fts5']['top10']:.1%}"))
    return "\n".join(rows)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[10_000, 10**9],
                        help="papers per run (anything above the corpus size means all)")
    parser.add_argument("--work", type=Path, default=Path("/tmp/paper-tui-bench-search"))
    parser.add_argument("--out", type=Path, default=RESULTS)
    parser.add_argument("--whoosh-worker", nargs=2, metavar=("LIBRARY", "SPEC"))
    parser.add_argument("--fts-worker", nargs=2, metavar=("DB", "SPEC"))
    parser.add_argument("--first-query", nargs=2, metavar=("LIBRARY", "QUERY"),
                        help="only time `paper-tui search QUERY` in fresh processes "
                             "(results to bench/results/search-first-query.json)")
    parser.add_argument("--import-memory", type=Path, metavar="FILE",
                        help="only measure one import's peak memory (RSS sum and PSS)")
    parser.add_argument("--latency", nargs=2, metavar=("LIBRARY", "SPEC"),
                        help="only the in-process latency and known-item part, on a library "
                             "and spec left by a full run (to bench/results/search-latency.json)")
    parser.add_argument("--import-only", action="store_true",
                        help="only import + index (and add 1,000) against FTS5, on the "
                             "--sizes samples, into /tmp/paper-tui-bench-import "
                             "(results to bench/results/search-import.json)")
    parser.add_argument("--table", action="store_true",
                        help="print the README table from the results file and stop")
    args = parser.parse_args()
    if args.table:
        return print(table(args.out))
    if args.latency:
        return latency_only(*args.latency)
    if args.import_memory:
        return import_memory(args.import_memory, RESULTS.with_name("search-import-memory.json"))
    if args.first_query:
        return first_query(Path(args.first_query[0]), args.first_query[1],
                           RESULTS.with_name("search-first-query.json"))
    if args.whoosh_worker:
        return whoosh_worker(*args.whoosh_worker)
    if args.fts_worker:
        return fts_worker(*args.fts_worker)

    sys.path.insert(0, str(REPO / "src"))
    records = [r for r in load_corpus() if str(r.get("abstract") or "").strip()]
    if args.import_only:
        return import_only(records, args.sizes, Path("/tmp/paper-tui-bench-import"),
                           RESULTS.with_name("search-import.json"))
    shutil.rmtree(args.work, ignore_errors=True)
    args.work.mkdir(parents=True)
    rng = random.Random(SEED)
    runs = {}
    for size in args.sizes:
        result = bench_size(records, size, args.work, rng)
        runs[str(result["papers"])] = result
    report = {
        "command": "python bench/search.py " + " ".join(sys.argv[1:]),
        "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
        "machine": f"{platform.processor() or platform.machine()}, {os.cpu_count()} cores, "
                   f"Python {platform.python_version()}, SQLite {sqlite3.sqlite_version}",
        "load_average_at_end": os.getloadavg(),
        "runs": runs,
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(report, indent=1) + "\n")
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
