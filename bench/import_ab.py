"""``paper-tui import FILE`` with two (or more) source trees in turn, into a new library
each time: wall time and peak RSS of the process tree, for an old-vs-new comparison in one
sitting (the machine is shared: alternate the trees and repeat).

    python bench/import_ab.py FILE OLD/src NEW/src [--repeat 2] [--work DIR]

One JSON line per import on stdout (nothing is written to bench/results/: quote the lines).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from search import du, run  # this folder's helpers


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("file")
    parser.add_argument("trees", nargs="+", help="src folders (each holding paper_tui/)")
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument("--work", type=Path)
    args = parser.parse_args()
    work = args.work or Path(tempfile.mkdtemp(prefix="paper-tui-ab-"))
    for _ in range(args.repeat):
        for src in args.trees:
            lib = work / "lib"
            shutil.rmtree(lib, ignore_errors=True)
            env = dict(os.environ, PYTHONPATH=src, PAPER_TUI_HOME=str(lib))
            before = os.getloadavg()[0]
            seconds, rss, out = run([sys.executable, "-m", "paper_tui", "--library",
                                     str(lib), "import", args.file], env=env)
            print(json.dumps({"src": src, "file": args.file, "s": round(seconds, 1),
                              "peak_tree_rss_mb": round(rss), "load": [before,
                                                                        os.getloadavg()[0]],
                              "index_mb": round(du(lib / "index"), 1),
                              "out": out.strip().splitlines()[-1:]}), flush=True)
    shutil.rmtree(work / "lib", ignore_errors=True)


if __name__ == "__main__":
    main()
