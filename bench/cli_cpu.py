"""CPU time of three commands as new processes, two source trees in turns (one sitting).

    python bench/cli_cpu.py BEFORE/src AFTER/src LIBRARY [--rounds N]

CPU seconds (user + sys of the child) hold on a shared machine where wall time does not.
"""
from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys

COMMANDS = {"search": ["search", "graph neural network", "--limit", "20"],
            "list --json": ["list", "--json"],
            "search by rating": ["search", "decision:oral rating:>=7", "--sort", "rating"]}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("before")
    parser.add_argument("after")
    parser.add_argument("library")
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    trees = {"before": args.before, "after": args.after}
    cpu: dict[tuple[str, str], list[float]] = {}
    for _ in range(args.rounds):
        for tree, src in trees.items():
            for name, words in COMMANDS.items():
                env = {**os.environ, "PYTHONPATH": src}
                start = resource.getrusage(resource.RUSAGE_CHILDREN)
                subprocess.run([sys.executable, "-m", "paper_tui", "--library", args.library,
                                *words], env=env, stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL, check=True)
                end = resource.getrusage(resource.RUSAGE_CHILDREN)
                cpu.setdefault((name, tree), []).append(
                    end.ru_utime - start.ru_utime + end.ru_stime - start.ru_stime)
    print("| command | before (ms CPU, median / min) | after |")
    print("|---|---|---|")
    for name in COMMANDS:
        cells = [f"{statistics.median(cpu[name, t]) * 1000:.0f} / {min(cpu[name, t]) * 1000:.0f}"
                 for t in trees]
        print(f"| `{name}` | {cells[0]} | {cells[1]} |")


if __name__ == "__main__":
    main()
