"""Import CPU time per paper, before and after, in turns: a few paperlists files into a
fresh library, the user + system time of the whole process tree (Python's start included),
which a loaded machine disturbs less than wall time.

    python bench/venue_import_cpu.py --old-src OLD/src --rounds 4 \\
        /work/shared/corpus/paperlists/{iclr2018,acl2022,corl2022}.json

Prints each run and the median and best per tree (no results file: quoted in
bench/README.md)."""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
IMPORT = r"""
import sys, tempfile
from pathlib import Path
from paper_tui import config as config_mod
from paper_tui.library import Library
with tempfile.TemporaryDirectory() as tmp:
    lib = Library.open(Path(tmp) / "lib", config=config_mod.defaults(), bundled=False)
    lib.import_paths([Path(p) for p in sys.argv[1:]])
    print(lib.count())
    lib.close()
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("files", nargs="+", type=Path)
    parser.add_argument("--old-src", type=Path, required=True)
    parser.add_argument("--new-src", type=Path, default=REPO / "src")
    parser.add_argument("--rounds", type=int, default=4)
    args = parser.parse_args()
    trees = {"before": args.old_src.resolve(), "after": args.new_src.resolve()}
    cpu: dict[str, list[float]] = {name: [] for name in trees}
    papers = 0
    for _ in range(args.rounds):
        for name, src in trees.items():
            start = resource.getrusage(resource.RUSAGE_CHILDREN)
            done = subprocess.run([sys.executable, "-c", IMPORT, *map(str, args.files)],
                                  env={**os.environ, "PYTHONPATH": str(src)},
                                  capture_output=True, text=True, check=True)
            end = resource.getrusage(resource.RUSAGE_CHILDREN)
            took = end.ru_utime - start.ru_utime + end.ru_stime - start.ru_stime
            papers = int(done.stdout.split()[-1])
            cpu[name].append(took)
            print(f"{name}: {took:.2f} s CPU, {papers} papers", flush=True)
    for name, values in cpu.items():
        print(f"{name}: CPU ms per paper, median {statistics.median(values) / papers * 1000:.3f}"
              f", best {min(values) / papers * 1000:.3f}")


if __name__ == "__main__":
    main()
