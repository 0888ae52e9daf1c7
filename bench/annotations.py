"""Annotation store at scale: 87,549 papers, 20,000 of them annotated, 20 reading lists.

Measures loading both YAML files, how long one change takes to be on disk (the background
saver, as the TUI uses it), a save that must first merge another process's change, and the
store's memory. Ids are synthesised in the corpus's shape; no index is built.

    python bench/annotations.py            # writes bench/results/annotations.json
    python bench/annotations.py --readers  # the uncached load with the line reader of the
                                           # store's own layout and with libyaml's events
                                           # only, runs interleaved: annotations-readers.json
"""

from __future__ import annotations

import json
import os
import random
import statistics
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

from paper_tui.store import STATUSES, Annotations, file_store
from paper_tui.store.file_store import YamlStore
from paper_tui.store.yaml_format import emit_fragments, parse, read_yaml
from paper_tui.trust.atomic import identity

PAPERS = 87_549
ANNOTATED = 20_000
LISTS = 20
RESULTS = Path(__file__).resolve().parent / "results" / "annotations.json"
VENUES = ["nips", "icml", "iclr", "acl", "emnlp", "cvpr", "aaai", "ijcai", "corl", "icra"]
WORDS = ["model", "learning", "graph", "robust", "sparse", "attention", "policy", "reward",
         "bandit", "kernel", "transfer", "diffusion", "causal", "language", "vision", "proof",
         "bound", "agent", "memory", "planning"]


def synthesise(root: Path, rng: random.Random) -> list[str]:
    """Write the two files as paper-tui would after a long triage; return every id."""
    ids = [f"{rng.choice(VENUES)}{rng.randint(1987, 2025)}-{rng.getrandbits(40):010x}"
           for _ in range(PAPERS)]
    tags = [f"{a}-{b}" for a in WORDS for b in WORDS[:10]][:200]
    service = Annotations(root)
    store = service.store
    service.get("x")  # loads the files, starts the saver
    now = time.time()
    for pid in rng.sample(ids, ANNOTATED):
        record: dict = {"status": rng.choice(STATUSES[1:])}
        if rng.random() < 0.2:
            record["starred"] = True
        if rng.random() < 0.6:
            record["tags"] = tuple(rng.sample(tags, rng.randint(1, 4)))
        if rng.random() < 0.25:
            lines = [" ".join(rng.choices(WORDS, k=rng.randint(4, 14)))
                     for _ in range(rng.randint(1, 4))]
            record["note"] = "\n".join(lines)
        store.put(pid, record, now)
    lists = service.lists.store
    for i in range(LISTS):
        lists.put(f"reading list {i}", {"description": f"papers for topic {i}",
                                        "papers": tuple(rng.sample(ids, rng.randint(50, 500)))},
                  now)
    service.flush()
    service.close()
    return ids


def time_load(root: Path, cached: bool, runs: int = 5) -> tuple[list[float], list[float]]:
    """Wall and CPU seconds to load both files (CPU time shows the cost on a busy machine):
    parsing the YAML, or from the cache a clean close leaves (checked against the file)."""
    wall, cpu = [], []
    for _ in range(runs):
        service = Annotations(root)
        if not cached:
            for store in (service.store, service.lists.store):
                store.cache.unlink(missing_ok=True)
        start, start_cpu = time.perf_counter(), time.thread_time()
        service.get("x")  # loads both files
        wall.append(time.perf_counter() - start)
        cpu.append(time.thread_time() - start_cpu)
        service.close()
    return wall, cpu


def time_change_on_disk(root: Path, ids: list[str], rng: random.Random, runs: int = 20
                        ) -> list[float]:
    """From the call that makes a change to the moment the file on disk holds it."""
    service = Annotations(root)
    service.get("x")
    path = service.store.path
    out = []
    for i in range(runs):
        before = identity(path)
        start = time.perf_counter()
        service.set_status([rng.choice(ids)], STATUSES[1 + i % 3])
        while identity(path) == before:
            time.sleep(0.002)
        out.append(time.perf_counter() - start)
        time.sleep(0.1)
    service.close()
    return out


def time_merge_save(root: Path, ids: list[str], rng: random.Random, runs: int = 3
                    ) -> list[float]:
    """A save that must re-read and merge the file another writer changed meanwhile."""
    ours = Annotations(root)
    ours.get("x")
    out = []
    for _ in range(runs):
        theirs = Annotations(root)
        theirs.add_tags([rng.choice(ids)], ["from-the-other-terminal"])
        theirs.close()
        ours.add_tags([rng.choice(ids)], ["from-this-one"])
        start = time.perf_counter()
        ours.flush()
        out.append(time.perf_counter() - start)
    ours.close()
    return out


def store_memory(root: Path) -> tuple[int, int]:
    tracemalloc.start()
    service = Annotations(root)
    service.get("x")
    current, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    service.close()
    return current, peak


def full_emit_time(root: Path) -> float:
    """Emitting every record afresh (what the first save would cost without the kept text)."""
    store = YamlStore(root / "annotations.yaml", Annotations(root).store.schema)
    records = sorted(store.snapshot().items())
    start = time.perf_counter()
    emit_fragments(store.schema, records)
    return time.perf_counter() - start


def compare_readers(rounds: int = 10) -> dict:
    """Uncached loads with the store's reader (its own layout line by line, anything else
    through libyaml's events) against libyaml's events only, alternating which goes first."""
    readers = {"line_reader": parse, "libyaml_events_only": read_yaml}
    wall: dict[str, list[float]] = {name: [] for name in readers}
    cpu: dict[str, list[float]] = {name: [] for name in readers}
    with tempfile.TemporaryDirectory(prefix="paper-tui-bench-") as tmp:
        root = Path(tmp)
        synthesise(root, random.Random(5))
        try:
            for i in range(rounds + 1):  # the first round warms the caches, not counted
                for name in list(readers)[::1 if i % 2 else -1]:
                    file_store.parse = readers[name]
                    (w,), (c,) = time_load(root, cached=False, runs=1)
                    if i:
                        wall[name].append(w)
                        cpu[name].append(c)
        finally:
            file_store.parse = parse
    return {name: {"load_s_median": round(statistics.median(wall[name]), 3),
                   "load_s_min": round(min(wall[name]), 3),
                   "load_cpu_s_median": round(statistics.median(cpu[name]), 3),
                   "load_cpu_s_min": round(min(cpu[name]), 3)} for name in readers} | {
        "rounds": rounds, "load_average_1min": round(os.getloadavg()[0], 2)}


def main() -> int:
    if sys.argv[1:] == ["--readers"]:
        result = compare_readers()
        out = RESULTS.with_name("annotations-readers.json")
        runs = json.loads(out.read_text()) if out.exists() else []
        out.write_text(json.dumps([*runs, result], indent=2) + "\n")
        print(json.dumps(result, indent=2))
        return 0
    rng = random.Random(5)
    with tempfile.TemporaryDirectory(prefix="paper-tui-bench-") as tmp:
        root = Path(tmp)
        ids = synthesise(root, rng)
        size = (root / "annotations.yaml").stat().st_size
        load, load_cpu = time_load(root, cached=False)
        warm, warm_cpu = time_load(root, cached=True)
        change = time_change_on_disk(root, ids, rng)
        merge = time_merge_save(root, ids, rng)
        current, peak = store_memory(root)
        emit = full_emit_time(root)
    result = {
        "papers": PAPERS, "annotated": ANNOTATED, "lists": LISTS,
        "annotations_yaml_bytes": size,
        "load_s_median": round(statistics.median(load), 3), "load_s_max": round(max(load), 3),
        "load_cpu_s_median": round(statistics.median(load_cpu), 3),
        "cached_load_s_median": round(statistics.median(warm), 3),
        "cached_load_cpu_s_median": round(statistics.median(warm_cpu), 3),
        "change_on_disk_s_median": round(statistics.median(change), 3),
        "change_on_disk_s_max": round(max(change), 3),
        "merge_save_s_median": round(statistics.median(merge), 3),
        "store_memory_mb": round(current / 2**20, 1), "load_peak_memory_mb": round(peak / 2**20, 1),
        "full_emit_s": round(emit, 3),
        "targets": {"load_s": 0.5, "change_on_disk_s": 0.2, "store_memory_mb": 100},
        "python": sys.version.split()[0], "cpus": os.cpu_count(),
        "load_average_1min": round(os.getloadavg()[0], 2),
    }
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    RESULTS.write_text(json.dumps(result, indent=2) + "\n")
    print(json.dumps(result, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
