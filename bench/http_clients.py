"""Which HTTP library ``paper-tui fetch`` should use: install size and import time, side by
side in one run (issue 25: "decide with numbers").

Each candidate is installed on its own into ``TARGETS/<name>`` (nothing added to the
project's environment)::

    python -m venv /tmp/httpbench
    for p in requests httpx urllib3 aiohttp arxiv openreview-py; do
        /tmp/httpbench/bin/pip install --target /tmp/hb/$p $p; done
    python bench/http_clients.py --targets /tmp/hb

Measured per candidate, each import in a new interpreter (``PYTHONPATH=TARGETS/<name>``),
the candidates taking turns so the machine's noise falls on all of them:

- install size: everything ``pip install`` put in its directory (the library and what it
  pulls in), and the part of it that paper-tui's environment does not have already;
- ``python -X importtime -c "import M"``: M's cumulative import time, best of ``--runs``;
- wall: ``python -c "import M"`` minus ``python -c pass``, best of ``--runs``;
- the same after ``import paper_tui.config, whoosh.index`` (what every command has loaded
  and what ``fetch`` and ``search`` load anyway: whoosh imports ``urllib.request``): the
  cost ``fetch`` pays on top of them.

Results: printed, and written to bench/results/http_clients.txt.
"""

from __future__ import annotations

import argparse
import importlib.metadata
import os
import re
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
RESULTS = REPO / "bench" / "results" / "http_clients.txt"
# (name, what to import); name is the pip --target directory ("" for the standard library)
CANDIDATES = [
    ("", "urllib.request"),
    ("", "paper_tui.fetch.http"),
    ("urllib3", "urllib3"),
    ("requests", "requests"),
    ("httpx", "httpx"),
    ("aiohttp", "aiohttp"),
    ("arxiv", "arxiv"),
    ("openreview-py", "openreview"),
]
WARM = "import paper_tui.config, whoosh.index"


def installed_kib(target: Path) -> tuple[int, int]:
    """(all, new to this environment) KiB that pip put in ``target``."""
    total = new = 0
    for info in target.glob("*.dist-info"):
        name = info.name.split("-")[0]
        try:
            importlib.metadata.distribution(name)
            present = True
        except importlib.metadata.PackageNotFoundError:
            present = False
        size = 0
        for line in (info / "RECORD").read_text("utf-8").splitlines():
            path = target / line.split(",")[0]
            if path.is_file():
                size += path.stat().st_size
        total += size
        new += 0 if present else size
    return total // 1024, new // 1024


def import_us(module: str, env: dict[str, str], before: str = "") -> int:
    """``module``'s cumulative import time in microseconds (``-X importtime``)."""
    code = f"{before}\nimport {module}" if before else f"import {module}"
    err = subprocess.run([sys.executable, "-X", "importtime", "-c", code], env=env,
                         capture_output=True, text=True, check=True).stderr
    top = re.compile(rf"import time:\s+\d+ \|\s+(\d+) \| {re.escape(module)}$")
    return sum(int(m.group(1)) for line in err.splitlines() if (m := top.match(line)))


def wall_s(code: str, env: dict[str, str]) -> float:
    start = time.perf_counter()
    subprocess.run([sys.executable, "-c", code], env=env, check=True)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--targets", type=Path, required=True,
                        help="a directory of pip --target installs, one per candidate")
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    rows = []
    envs = {}
    for name, module in CANDIDATES:
        env = dict(os.environ)
        if name:
            target = args.targets / name
            if not target.is_dir():
                print(f"skipped {module}: no {target}", file=sys.stderr)
                continue
            env["PYTHONPATH"] = str(target)
        envs[module] = env
    best: dict[str, dict[str, float]] = {m: {} for m in envs}
    for _ in range(args.runs):  # in turns: noise falls on every candidate alike
        for module, env in envs.items():
            got = {"importtime": import_us(module, env) / 1e6,
                   "warm": import_us(module, env, WARM) / 1e6,
                   "wall": wall_s(f"import {module}", env) - wall_s("pass", env)}
            for key, value in got.items():
                best[module][key] = min(best[module].get(key, value), value)
    for name, module in CANDIDATES:
        if module not in envs:
            continue
        sizes = installed_kib(args.targets / name) if name else (0, 0)
        rows.append((module, *sizes, best[module]["importtime"] * 1000,
                     best[module]["wall"] * 1000, best[module]["warm"] * 1000))
    lines = [
        f"python bench/http_clients.py --targets {args.targets} --runs {args.runs}",
        f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}; Python "
        f"{sys.version.split()[0]}, {os.cpu_count()} cores, load {os.getloadavg()[0]:.2f}",
        "best of each; install = what pip put in its own directory (new = not already in "
        "paper-tui's environment)",
        "",
        f"{'import':<22}{'install KiB':>12}{'new KiB':>9}{'importtime ms':>15}"
        f"{'wall ms':>9}{'on top ms':>11}",
    ]
    lines += [f"{m:<22}{total:>12,}{new:>9,}{it:>15.1f}{wall:>9.1f}{warm:>11.1f}"
              for m, total, new, it, wall, warm in rows]
    text = "\n".join(lines) + "\n"
    print(text, end="")
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    RESULTS.write_text(text, "utf-8")


if __name__ == "__main__":
    main()
