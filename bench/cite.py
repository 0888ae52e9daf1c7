"""Citations in CSL styles: how long a reader waits.

- ``paper-tui cite ID -f apa`` in a new process (target <= 0.6 s), beside the plain
  ``paper-tui cite ID`` (BibTeX) it is compared with;
- ``paper-tui cite ID×400 -f apa`` in a new process (target <= 2 s);
- the app's ``C`` picker: the preview after the highlighted style changes, once a CSL
  style is loaded (target <= 100 ms), and the first load of each style.

Medians of several runs, wall-clock (and the children's CPU time, which load on a shared
machine does not inflate). The library: the bundled list plus 1,000 corpus papers from
``tests/data`` (no network, nothing from ``../shared``).

    python bench/cite.py [--runs N]    # -> bench/results/cite.json
"""

from __future__ import annotations

import argparse
import asyncio
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from paper_tui import config as config_mod
from paper_tui.library import Library
from results_file import run_header, save

REPO = Path(__file__).resolve().parent.parent
DATA = REPO / "tests" / "data"
PICKER_STYLES = ("apa", "ieee", "chicago-author-date", "nature", "vancouver", "bibtex")


def _timed(argv: list[str]) -> tuple[float, float]:
    """Wall and CPU seconds of one new process."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    subprocess.run(argv, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def _median_of(argv: list[str], runs: int) -> dict[str, float]:
    _timed(argv)  # warm the page cache and the styles' titles
    walls, cpus = zip(*(_timed(argv) for _ in range(runs)), strict=True)
    return {"median_s": round(statistics.median(walls), 3), "min_s": round(min(walls), 3),
            "median_cpu_s": round(statistics.median(cpus), 3)}


def _library(root: Path) -> list[str]:
    lib = Library.open(root, config=config_mod.defaults())
    lib.import_paths([DATA / "papers-ml-1000.jsonl.gz"])
    ids = [p.id for p in lib.papers()]
    lib.close()
    return ids


async def _picker(root: Path, rounds: int) -> dict[str, object]:
    """Time the picker's preview in the real app (headless): the reader's favourite styles
    listed first (``citation_styles``), the highlight moved from style to style; the first
    round loads each style, the others only render."""
    from textual.widgets import OptionList, Static

    from paper_tui.tui.app import PaperApp
    from paper_tui.tui.screens.style_picker import StylePicker

    user = root.parent / "config.yaml"
    user.write_text("citation_styles: [" + ", ".join(PICKER_STYLES) + "]\n", "utf-8")
    cfg = config_mod.load(user)
    lib = Library.open(root, config=cfg)
    app = PaperApp(lib, cfg)
    first_loads: dict[str, float] = {}
    after_load: list[float] = []
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        await app.workers.wait_for_complete()
        await pilot.press("v", "v")  # two papers marked: the preview shows both
        await pilot.press("C")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, StylePicker)
        await app.workers.wait_for_complete()
        await pilot.pause()
        preview = screen.query_one("#style-preview", Static)
        box = screen.query_one(OptionList)
        ids = [str(o.id) for o in box.options]
        for round_ in range(rounds):
            for style in PICKER_STYLES[1:] + PICKER_STYLES[:1]:
                before = str(preview.render())
                started = time.perf_counter()
                box.highlighted = ids.index(style)
                while str(preview.render()) == before and time.perf_counter() - started < 10:
                    await asyncio.sleep(0.001)
                took = (time.perf_counter() - started) * 1000
                if round_ == 0:
                    first_loads[style] = round(took, 1)
                else:
                    after_load.append(took)
        await pilot.press("escape")
    lib.close()
    after_load.sort()
    return {"first_preview_ms": first_loads,
            "after_load_median_ms": round(statistics.median(after_load), 1),
            "after_load_p95_ms": round(after_load[int(0.95 * (len(after_load) - 1))], 1),
            "after_load_max_ms": round(after_load[-1], 1),
            "previews_timed": len(after_load)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()
    result = run_header("cite.py", sys.argv[1:])
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / "library"
        env_home = {**os.environ, "XDG_CACHE_HOME": str(Path(tmp) / "cache")}
        ids = _library(root)
        cli = [sys.executable, "-m", "paper_tui", "--library", str(root), "cite"]

        def run(argv: list[str]) -> dict[str, float]:
            os.environ.update(env_home)
            # As installed by pip: the warm-up run leaves each module's .pyc (with
            # PYTHONDONTWRITEBYTECODE set, every run compiled ~120 modules again: ~0.3 s)
            os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
            return _median_of(argv, args.runs)

        result["papers_in_library"] = len(ids)
        result["cite_one_bibtex"] = run([*cli, ids[0]])
        result["cite_one_apa"] = run([*cli, ids[0], "-f", "apa"])
        result["cite_one_ieee"] = run([*cli, ids[0], "-f", "ieee"])
        result["cite_400_bibtex"] = run([*cli, *ids[:400]])
        result["cite_400_apa"] = run([*cli, *ids[:400], "-f", "apa"])
        result["cite_400_chicago"] = run([*cli, *ids[:400], "-f", "chicago-author-date"])
        result["picker"] = asyncio.run(_picker(root, rounds=4))
    result["load_average_at_end"] = os.getloadavg()
    print(save("cite", "latest", result))
    for key, value in result.items():
        print(f"{key}: {value}")


if __name__ == "__main__":
    main()
