"""The app's re-read of a member's people file after a sync brings 1,000 changes: the whole
file parsed again (as before 2026-12-01) against only its changed blocks (now).

The app does this in a worker thread, sharing the interpreter with the reader's keys, so
its length is how long a key may wait behind it. Records as bench/sync.py makes them,
each with a title beside its id, as a sync writes them; median of 5 runs.

    python bench/team_reload.py    # results in bench/results/team_reload.json
"""

from __future__ import annotations

import random
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

from paper_tui.team import repo
from paper_tui.team.layer import Team
from results_file import run_header, save
from sync import changes

SIZES = (1_000, 5_000, 10_000, 20_000)
CHANGED = 1_000
RUNS = 5


def main() -> None:
    rng = random.Random(16)
    root = Path(tempfile.mkdtemp(prefix="paper-tui-team-reload-"))
    path = root / repo.TEAM_DIR / repo.person_file("bob")
    path.parent.mkdir(parents=True)
    result: dict = {**run_header("team_reload.py", sys.argv[1:]), "changed": CHANGED}
    try:
        for size in SIZES:
            ids = [f"conf2026-{rng.getrandbits(40):010x}" for _ in range(size)]
            titles = {pid: "A study of " + " ".join(rng.sample(WORDS, 8)) for pid in ids}
            records = changes(ids, rng)
            whole, blocks = [], []
            for _ in range(RUNS):
                path.write_text(repo.write(repo.PEOPLE_SCHEMA, records, titles))
                team = Team(root)
                team.reload()
                records = changes(rng.sample(ids, CHANGED), rng, records)
                time.sleep(1.1)  # a new `updated` stamp: every one of the 1,000 is a change
                path.write_text(repo.write(repo.PEOPLE_SCHEMA, records, titles))
                start = time.perf_counter()
                team.reload()  # what the app does at a sync's end
                blocks.append(time.perf_counter() - start)
                start = time.perf_counter()
                Team(root).reload()  # the whole file, as read the first time
                whole.append(time.perf_counter() - start)
                assert team.annotations_of("bob") == Team(root).annotations_of("bob")
            row = {"whole_file_ms": round(statistics.median(whole) * 1000, 2),
                   "changed_blocks_ms": round(statistics.median(blocks) * 1000, 2)}
            result[f"{size}_papers"] = row
            print(f"{size:>6,} papers, {CHANGED:,} changed: whole file "
                  f"{row['whole_file_ms']:.1f} ms, "
                  f"changed blocks {row['changed_blocks_ms']:.1f} ms")
    finally:
        shutil.rmtree(root, ignore_errors=True)
    print(f"wrote {save('team_reload', 'people_file_after_1000_changes', result)}")


WORDS = ["learning", "neural", "networks", "graph", "diffusion", "models", "language",
         "reinforcement", "policy", "optimization", "robust", "adversarial", "causal",
         "inference", "bayesian", "kernel", "transformer", "attention", "sparse", "efficient",
         "scalable", "theory", "bounds", "generalization", "benchmark"]

if __name__ == "__main__":
    main()
