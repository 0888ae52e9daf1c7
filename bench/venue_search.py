"""What the venue says, searched, sorted and counted on the big library; before and after in
one run.

Two source trees (``--old-src``: a checkout of the commit before, e.g. ``git worktree add
/tmp/vs-old 5b0dd6c``; ``--new-src``: this one) each import the 87,549-paper corpus and the
eleven paperlists files (``--corpus``: the directory holding ``papers-ml.jsonl.gz`` and
``paperlists/``) into a library of their own, once (``--work``). Then, in turns (old, new,
old, new …) so that the machine's noise falls on both:

- in-process latency, p50 / p95 over ``--repeats`` after one warm-up, of the venue's words
  (``decision:oral``, ``rating:>=6 diffusion``, ``has:code area:…``), the facets of a few
  queries, every paper sorted by rating (and by citations, consensus, and a query's hits
  by rating), the first page of each read; queries both trees know (``diffusion``, its
  facets) for the cost of the new fields to what was there. A fresh process's first time
  of each is kept too (``first``: the column and facet tables read then);
- import, ms per paper: the eleven paperlists files (8,206 papers, the records carrying
  the venue's fields) into a fresh library, best of ``--import-runs``; and
  ``bench/import.py`` (3,000 corpus papers in each format) run by each tree in turns;
- first paint of the app on the big library (``bench/tui.py``'s tmux measure).

    python bench/venue_search.py --corpus /work/shared/corpus --old-src /tmp/vs-old/src \\
        --work /tmp/vs-bench

Results: bench/results/venue_search.json.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import results_file

REPO = Path(__file__).resolve().parents[1]
QUERIES = {
    "decision:oral": "decision:oral",
    "rating:>=6 diffusion": "rating:>=6 diffusion",
    'has:code area:"computer vision"': 'has:code area:"computer vision"',
    'has:code area:"vision and language"': 'has:code area:"vision and language"',
    "decision:accepted country:germany": "decision:accepted country:germany",
    "aff:tsinghua cites:>=100": "aff:tsinghua cites:>=100",
}
FACETS = {"facets: everything": "", "facets: diffusion": "diffusion",
          "facets: decision:oral": "decision:oral", "facets: learning": "learning"}
SORTS = {"every paper by rating": ("", "rating"), "every paper by citations": ("", "citations"),
         "every paper by consensus": ("", "consensus"),
         "learning by rating": ("learning", "rating")}
BOTH = {"diffusion": "diffusion", "year:2020 learning": "year:2020 learning"}
BOTH_FACETS = {"facets: diffusion": "diffusion"}

WORKER = r"""
import json, sys, time
from paper_tui import config as config_mod
from paper_tui.library import Library
root, plan, repeats = sys.argv[1], json.loads(sys.argv[2]), int(sys.argv[3])
lib = Library.open(root, config=config_mod.defaults())
def page(query, sort="relevance"):
    results = lib.results(query, sort=sort)
    for i in range(min(50, len(results))):
        results.paper(i)
    results.close()
calls = {}
for name, q in plan["queries"].items():
    calls[name] = lambda q=q: page(q)
for name, q in plan["facets"].items():
    calls[name] = lambda q=q: lib.facets(q)
for name, (q, sort) in plan["sorts"].items():
    calls[name] = lambda q=q, sort=sort: page(q, sort)
def timed(fn):
    start = time.perf_counter(); fn(); return time.perf_counter() - start
out = {"first": {}, "repeats": {}}
for name, call in calls.items():
    out["first"][name] = timed(call)
for name, call in calls.items():
    call()
    out["repeats"][name] = [timed(call) for _ in range(repeats)]
lib.close()
print(json.dumps(out))
"""


def _env(src: Path) -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": str(src)}


def _paper_tui(src: Path, library: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "paper_tui", "--library", str(library),
                           *args], env=_env(src), capture_output=True, text=True, check=True)


def _lists(corpus: Path) -> list[Path]:
    return sorted((corpus / "paperlists").glob("*.json"))


def build(work: Path, trees: dict[str, Path], corpus: Path) -> dict[str, Path]:
    """Each tree's library of the corpus and the paperlists files (made once)."""
    out = {}
    for name, src in trees.items():
        library = work / name
        if not (library / "built").exists():
            shutil.rmtree(library, ignore_errors=True)
            config = work / "no-bundled.yaml"
            config.write_text("bundled_lists: false\n")
            started = time.perf_counter()
            done = subprocess.run([sys.executable, "-m", "paper_tui", "--config", str(config),
                                   "--library", str(library), "import",
                                   str(corpus / "papers-ml.jsonl.gz"),
                                   *map(str, _lists(corpus))],
                                  env=_env(src), capture_output=True, text=True)
            # exit 1: a bad record named (iclr2017.json's record 303 has neither title nor
            # abstract), every other paper imported
            if done.returncode not in (0, 1) or " papers from " not in done.stdout:
                sys.exit(f"{name}: import failed: {done.stderr.strip()}")
            print(f"{name}: {done.stdout.strip()} {done.stderr.strip()}", flush=True)
            print(f"{name}: the corpus and the lists imported in "
                  f"{time.perf_counter() - started:.0f} s", flush=True)
            (library / "built").touch()
        out[name] = library
    return out


IMPORT = r"""
import sys, tempfile, time
from pathlib import Path
from paper_tui import config as config_mod
from paper_tui.library import Library
files = [Path(p) for p in sys.argv[1:]]
with tempfile.TemporaryDirectory() as tmp:
    lib = Library.open(Path(tmp) / "lib", config=config_mod.defaults(), bundled=False)
    start = time.perf_counter()
    report = lib.import_paths(files)
    took = time.perf_counter() - start
    print(took, lib.count())
    lib.close()
"""


def import_ms(src: Path, corpus: Path) -> tuple[float, int]:
    """Seconds to import the paperlists files into a fresh library, and the papers."""
    out = subprocess.run([sys.executable, "-c", IMPORT, *map(str, _lists(corpus))],
                         env=_env(src), capture_output=True, text=True, check=True)
    took, count = out.stdout.split()
    return float(took), int(count)


def import_formats(src: Path, corpus: Path) -> dict[str, float]:
    """``bench/import.py``'s import ms per paper of each format, run by ``src``'s tree."""
    subprocess.run([sys.executable, str(REPO / "bench" / "import.py"), "--repeat", "1",
                    "--corpus", str(corpus)], env=_env(src), capture_output=True, text=True,
                   check=True)
    found = json.loads((results_file.RESULTS_DIR / "import.json").read_text())
    return {name: row["import_ms_per_paper"]
            for name, row in found["3000-papers"]["formats"].items()}


def summarize(values: list[float]) -> dict[str, float]:
    values = sorted(values)
    p95 = values[min(len(values) - 1, round(0.95 * (len(values) - 1)))]
    return {"p50_ms": round(statistics.median(values) * 1000, 2),
            "p95_ms": round(p95 * 1000, 2), "n": len(values)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--corpus", type=Path, required=True,
                        help="the directory of papers-ml.jsonl.gz and paperlists/")
    parser.add_argument("--old-src", type=Path, required=True)
    parser.add_argument("--new-src", type=Path, default=REPO / "src")
    parser.add_argument("--work", type=Path, default=Path("/tmp/paper-tui-bench-venue"))
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--repeats", type=int, default=20)
    parser.add_argument("--import-runs", type=int, default=3)
    parser.add_argument("--paint-runs", type=int, default=5)
    args = parser.parse_args()
    args.work.mkdir(parents=True, exist_ok=True)
    trees = {"before": args.old_src.resolve(), "after": args.new_src.resolve()}
    libraries = build(args.work, trees, args.corpus)
    plans = {"before": {"queries": BOTH, "facets": BOTH_FACETS, "sorts": {}},
             "after": {"queries": {**QUERIES, **BOTH}, "facets": {**FACETS, **BOTH_FACETS},
                       "sorts": SORTS}}
    latency: dict[str, dict[str, list[float]]] = {name: {} for name in trees}
    first: dict[str, dict[str, list[float]]] = {name: {} for name in trees}
    imports: dict[str, list[float]] = {name: [] for name in trees}
    counts: dict[str, int] = {}
    for round_ in range(args.rounds):
        for name, src in trees.items():
            out = subprocess.run([sys.executable, "-c", WORKER, str(libraries[name]),
                                  json.dumps(plans[name]), str(args.repeats)], env=_env(src),
                                 capture_output=True, text=True, check=True)
            found = json.loads(out.stdout.splitlines()[-1])
            for kind, values in found["repeats"].items():
                latency[name].setdefault(kind, []).extend(values)
            for kind, value in found["first"].items():
                first[name].setdefault(kind, []).append(value)
        print(f"latency round {round_ + 1} of {args.rounds} done", flush=True)
    formats: dict[str, dict[str, list[float]]] = {name: {} for name in trees}
    for _ in range(args.import_runs):
        for name, src in trees.items():
            took, counts[name] = import_ms(src, args.corpus)
            imports[name].append(took)
            for fmt, ms in import_formats(src, args.corpus).items():
                formats[name].setdefault(fmt, []).append(ms)
    print("imports done", flush=True)
    paint: dict[str, list[float]] = {name: [] for name in trees}
    sys.path.insert(0, str(REPO / "bench"))
    from tui import first_paint  # tmux, the installed paper-tui on PYTHONPATH's tree

    with tempfile.TemporaryDirectory() as home:
        env = {**os.environ, "HOME": home, "XDG_CONFIG_HOME": f"{home}/.config"}
        for _ in range(args.paint_runs):
            for name, src in trees.items():
                os.environ["PYTHONPATH"] = str(src)
                paint[name] += first_paint(libraries[name], env, 1)
    os.environ.pop("PYTHONPATH", None)
    report = {
        **results_file.run_header("venue_search.py", sys.argv[1:]),
        "library": "papers-ml.jsonl.gz + the 11 paperlists files",
        "latency": {kind: {name: summarize(latency[name][kind]) for name in trees
                           if kind in latency[name]}
                    for kind in latency["after"]},
        "first_in_a_new_process_ms": {kind: {name: round(statistics.median(v) * 1000, 1)
                                             for name in trees
                                             if (v := first[name].get(kind))}
                                      for kind in first["after"]},
        "import_paperlists_ms_per_paper": {
            name: {"best": round(min(v) / counts[name] * 1000, 3),
                   "median": round(statistics.median(v) / counts[name] * 1000, 3),
                   "papers": counts[name]} for name, v in imports.items()},
        "bench_import_ms_per_paper_best": {
            fmt: {name: min(formats[name][fmt]) for name in trees}
            for fmt in formats["after"]},
        "first_paint_s": {name: {"median": round(statistics.median(v), 3),
                                 "runs": [round(x, 3) for x in v]}
                          for name, v in paint.items()},
    }
    path = results_file.RESULTS_DIR / "venue_search.json"
    path.write_text(json.dumps(report, indent=2) + "\n")
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
