"""Annotation search and a CLI change, before and after annotations left the index, in one run.

Two source trees (``--old-src``: a checkout of the commit before, e.g. ``git worktree add
/tmp/old b64bb45``; ``--new-src``: this one) each open their own copy of one library of
the 87,549-paper corpus with the same 20,000 annotated papers (statuses, stars, tags,
notes) and 20 reading lists. Workers of both trees run in turns (old, new, old, new …)
so the machine's noise falls on both. Measured per tree:

- in-process latency (p50 / p95 over repeats, after one warm-up) of ``tag:X learning``,
  ``status:to-read``, ``-status:skipped diffusion``, ``starred:yes year:2023``, and the
  facet panel's counts (``Library.facets`` of the empty query and of ``diffusion``);
- the same queries' latency right after a change (tag one more paper, then search): what a
  reader waits for after a key in the app;
- ``paper-tui tag ID x`` wall time in a new process (median).

    python bench/annotation_search.py --old-src /tmp/old/src --work /tmp/bench15

The first run builds the libraries under ``--work`` (an import of the corpus, ~2 minutes,
then the old tree mirrors the annotations into its index); later runs reuse them.
Results: bench/results/annotation_search.json.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

import results_file

REPO = Path(__file__).resolve().parents[1]
CORPUS = REPO.parent / "shared" / "corpus" / "papers-ml.jsonl.gz"
RESULTS = REPO / "bench" / "results" / "annotation_search.json"
ANNOTATED = 20_000
LISTS = 20
TAGS = [f"{a}-{b}" for a in ("kernels", "graphs", "rl", "nlp", "vision", "theory", "robots",
                             "causal", "bandits", "privacy")
        for b in ("core", "maybe", "later", "cite", "lab", "teach", "review", "ideas",
                  "code", "data")]
QUERIES = {
    "tag:X learning": "tag:kernels-core learning",
    "status:to-read": "status:to-read",
    "-status:skipped diffusion": "-status:skipped diffusion",
    "starred:yes year:2023": "starred:yes year:2023",
}
NOTE_WORDS = ["compare", "baseline", "proof", "reproduce", "dataset", "ablation", "cite",
              "related", "extend", "teaching"]

WORKER = r"""
import json, statistics, sys, time
from paper_tui import config as config_mod
from paper_tui.library import Library
root, queries, repeats = sys.argv[1], json.loads(sys.argv[2]), int(sys.argv[3])
lib = Library.open(root, config=config_mod.defaults())
flush = getattr(lib.index, "flush", None)  # the old tree mirrors changes into the index
def timed(fn):
    start = time.perf_counter(); fn(); return time.perf_counter() - start
out = {}
calls = {name: (lambda q=q: lib.search(q, limit=50)) for name, q in queries.items()}
calls["facets: everything"] = lambda: lib.facets("")
calls["facets: diffusion"] = lambda: lib.facets("diffusion")
for name, call in calls.items():
    call()
    out[name] = [timed(call) for _ in range(repeats)]
ids = lib.results("").ids()
for name, call in calls.items():
    after = []
    for i in range(repeats):
        lib.annotations.add_tags([ids[-1 - i]], ["kernels-core"])
        def changed_then_search():
            if flush is not None:
                flush()
            call()
        after.append(timed(changed_then_search))
    out[name + " (after a change)"] = after
lib.close()
print(json.dumps(out))
"""


def _env(src: Path) -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": str(src)}


def _paper_tui(src: Path, library: Path, *args: str, check: bool = True
               ) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "paper_tui", "--library", str(library),
                           *args], env=_env(src), capture_output=True, text=True, check=check)


def _all_ids(src: Path, library: Path) -> list[str]:
    code = ("import json, sys; from paper_tui.library import Library; "
            "lib = Library.open(sys.argv[1]); print(json.dumps(lib.results('').ids()))")
    out = subprocess.run([sys.executable, "-c", code, str(library)], env=_env(src),
                         capture_output=True, text=True, check=True)
    return json.loads(out.stdout)


def build(work: Path, old_src: Path, new_src: Path) -> tuple[Path, Path]:
    """Both libraries with the corpus and the same annotations (made once)."""
    old, new = work / "old", work / "new"
    if (work / "built").exists():
        return old, new
    if not (old / "sources").exists():
        _paper_tui(old_src, old, "import", str(CORPUS))
    ids = _all_ids(old_src, old)
    rng = random.Random(15)
    annotate = r"""
import json, sys, time
from pathlib import Path
from paper_tui.store import Annotations
root, plan = Path(sys.argv[1]), json.loads(Path(sys.argv[2]).read_text())
notes = Annotations(root)
notes.get("x")
now = time.time()
for pid, record in plan["papers"].items():
    notes.store.put(pid, {k: tuple(v) if isinstance(v, list) else v for k, v in record.items()},
                    now)
for name, members in plan["lists"].items():
    notes.lists.store.put(name, {"papers": tuple(members)}, now)
notes.close()
"""
    plan = {"papers": {}, "lists": {}}
    for pid in rng.sample(ids, ANNOTATED):
        record: dict = {"status": rng.choice(["to-read", "read", "skipped", "skipped"])}
        if rng.random() < 0.2:
            record["starred"] = True
        if rng.random() < 0.6:
            record["tags"] = rng.sample(TAGS, rng.randint(1, 4))
        if rng.random() < 0.25:
            record["note"] = " ".join(rng.choices(NOTE_WORDS, k=rng.randint(4, 14)))
        plan["papers"][pid] = record
    for i in range(LISTS):
        plan["lists"][f"reading list {i}"] = rng.sample(ids, rng.randint(50, 500))
    plan_file = work / "plan.json"
    plan_file.write_text(json.dumps(plan))
    subprocess.run([sys.executable, "-c", annotate, str(old), str(plan_file)],
                   env=_env(new_src), check=True)
    shutil.rmtree(new, ignore_errors=True)
    shutil.copytree(old, new, ignore=shutil.ignore_patterns("index"))
    # The old tree mirrors the 20,000 annotations into its index when it next opens; the
    # new one builds its index (schema 9) from the sources.
    started = time.perf_counter()
    _paper_tui(old_src, old, "search", "tag:kernels-core")
    print(f"old tree: annotations mirrored into its index in "
          f"{time.perf_counter() - started:.0f} s", flush=True)
    _paper_tui(new_src, new, "search", "tag:kernels-core")
    (work / "built").touch()
    return old, new


def summarize(values: list[float]) -> dict[str, float]:
    values = sorted(values)
    p95 = values[min(len(values) - 1, round(0.95 * (len(values) - 1)))]
    return {"p50_ms": round(statistics.median(values) * 1000, 2),
            "p95_ms": round(p95 * 1000, 2), "n": len(values)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--old-src", type=Path, required=True)
    parser.add_argument("--new-src", type=Path, default=REPO / "src")
    parser.add_argument("--work", type=Path, default=Path("/tmp/paper-tui-bench-annotations"))
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--repeats", type=int, default=15)
    parser.add_argument("--tag-runs", type=int, default=7)
    args = parser.parse_args()
    args.work.mkdir(parents=True, exist_ok=True)
    trees = {"before": args.old_src, "after": args.new_src}
    libraries = dict(zip(trees, build(args.work, args.old_src, args.new_src), strict=True))
    latency: dict[str, dict[str, list[float]]] = {name: {} for name in trees}
    tag_wall: dict[str, list[float]] = {name: [] for name in trees}
    ids = [row["id"] for row in json.loads(_paper_tui(
        args.new_src, libraries["after"], "search", "diffusion", "--json", "--limit",
        str(args.rounds * args.tag_runs)).stdout)]
    for round_ in range(args.rounds):
        for name, src in trees.items():
            out = subprocess.run([sys.executable, "-c", WORKER, str(libraries[name]),
                                  json.dumps(QUERIES), str(args.repeats)], env=_env(src),
                                 capture_output=True, text=True, check=True)
            for kind, values in json.loads(out.stdout.splitlines()[-1]).items():
                latency[name].setdefault(kind, []).extend(values)
        for i in range(args.tag_runs):
            pid = ids[round_ * args.tag_runs + i]
            for name, src in trees.items():
                start = time.perf_counter()
                _paper_tui(src, libraries[name], "tag", pid, f"bench-{round_}")
                tag_wall[name].append(time.perf_counter() - start)
        print(f"round {round_ + 1} of {args.rounds} done", flush=True)
    report = {
        **results_file.run_header("annotation_search.py", sys.argv[1:]),
        "library": f"{CORPUS.name}, {ANNOTATED:,} annotated papers, {LISTS} lists",
        "latency": {kind: {name: summarize(latency[name][kind]) for name in trees}
                    for kind in latency["after"]},
        "paper-tui tag, wall, median s": {name: round(statistics.median(v), 3)
                                          for name, v in tag_wall.items()},
    }
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    RESULTS.write_text(json.dumps(report, indent=1) + "\n")
    print(table(report))
    print(f"wrote {RESULTS}")


def table(report: dict) -> str:
    rows = ["| measure | before (index mirror) | after (overlay) |", "|---|---|---|"]
    for kind, by_tree in report["latency"].items():
        rows.append(f"| {kind}: p50 / p95 ms | {by_tree['before']['p50_ms']} / "
                    f"{by_tree['before']['p95_ms']} | {by_tree['after']['p50_ms']} / "
                    f"{by_tree['after']['p95_ms']} |")
    wall = report["paper-tui tag, wall, median s"]
    rows.append(f"| `paper-tui tag ID x`, wall, median | {wall['before']} s | "
                f"{wall['after']} s |")
    return "\n".join(rows)


if __name__ == "__main__":
    main()
