"""Import cost in CPU time, for before/after comparisons on a shared machine.

``bench/import.py`` times imports by the wall clock, which the machine's load (2 cores, often
10 other processes) moves by 2x from one minute to the next. This counts the CPU seconds of
this process and its children (the parsing worker) for one ``Library.import_paths`` into a
fresh library, per paper, on two files: ``corpus``, bench/import.py's paperlists file (the
first 3,000 corpus papers with an abstract), and ``iclr2018``, the real
``shared/corpus/paperlists/iclr2018.json`` (995 papers with decisions, reviews, links,
citations). To compare two versions, run each from its own checkout in turn, with
``PYTHONPATH=CHECKOUT/src``:

    python bench/import_cpu.py corpus iclr2018 --repeat 4
"""

from __future__ import annotations

import argparse
import importlib
import json
import resource
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

from paper_tui import config as config_mod
from paper_tui.library import Library

HERE = Path(__file__).resolve().parent
PAPERLISTS = HERE.parents[1] / "shared" / "corpus" / "paperlists"


def cpu_seconds() -> float:
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def write_input(which: str, folder: Path) -> Path:
    folder.mkdir(parents=True)
    if which == "corpus":
        sys.path.insert(0, str(HERE))
        bench = importlib.import_module("import")  # bench/import.py: its file, as it is
        path = folder / "nips2018.json"
        path.write_text(bench.paperlists(bench.load(3000)), encoding="utf-8")
        return path
    path = folder / f"{which}.json"
    shutil.copy(PAPERLISTS / f"{which}.json", path)
    return path


def one_import(path: Path, work: Path) -> dict:
    with Library.open(work, config=config_mod.defaults(), bundled=False) as lib:
        cpu, wall = cpu_seconds(), time.perf_counter()
        report = lib.import_paths([path])
        cpu, wall = cpu_seconds() - cpu, time.perf_counter() - wall
    stored = sum(f.stat().st_size for f in (work / "sources").glob("*.gz"))
    return {"papers": report.papers, "cpu_ms_per_paper": cpu / report.papers * 1000,
            "wall_ms_per_paper": wall / report.papers * 1000, "stored_bytes": stored}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("inputs", nargs="+", help="corpus, or a paperlists file's stem")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        paths = {which: write_input(which, Path(tmp) / "in" / which) for which in args.inputs}
        runs: dict[str, list[dict]] = {which: [] for which in args.inputs}
        for round_ in range(args.repeat):
            for which, path in paths.items():
                runs[which].append(one_import(path, Path(tmp) / f"lib-{which}-{round_}"))
    for which, found in runs.items():
        cpu = [r["cpu_ms_per_paper"] for r in found]
        print(json.dumps({"input": which, "papers": found[0]["papers"],
                          "cpu_ms_per_paper_min": round(min(cpu), 3),
                          "cpu_ms_per_paper_median": round(statistics.median(cpu), 3),
                          "stored_bytes_per_paper": round(found[0]["stored_bytes"]
                                                          / found[0]["papers"], 1)}))


if __name__ == "__main__":
    main()
