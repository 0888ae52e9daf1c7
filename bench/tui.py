"""TUI speed: start to first paint, and a triage key to the next paper shown.

    python bench/tui.py                      # the bundled list, in a fresh temp library
    python bench/tui.py --library DIR        # an existing (already indexed) library

First paint is measured on the installed ``paper-tui`` in a real terminal (a detached tmux
session, 120x40): from launching the command to the first screen showing the results
(the status line's "N hits"), polling the pane every 5 ms. The triage latency is measured
in-process (Textual's headless driver, 120x40): from the ``x`` key event reaching the app
to the first frame rendered (the compositor's update, just before it goes to the terminal)
with the cursor on the next paper and the abstract view showing it. This includes
Textual's frame batching (up to 1/60 s).

Numbers go to bench/results/tui.json (merged under the ``"bundled"`` or ``"library"`` key).
"""

from __future__ import annotations

import argparse
import asyncio
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

SESSION = "paper-tui-bench"


def _tmux(*args: str) -> str:
    return subprocess.run(["tmux", *args], capture_output=True, text=True, check=False).stdout


def first_paint(library: Path, env: dict[str, str], runs: int) -> list[float]:
    """Seconds from launching ``paper-tui`` to the results on screen, per run."""
    exe = shutil.which("paper-tui")
    if exe is None:
        sys.exit("paper-tui is not installed (pip install -e .)")
    times = []
    for _ in range(runs):
        _tmux("kill-session", "-t", SESSION)
        start = time.perf_counter()
        subprocess.run(["tmux", "new-session", "-d", "-s", SESSION, "-x", "120", "-y", "40",
                        "-e", f"HOME={env['HOME']}",
                        "-e", f"XDG_CONFIG_HOME={env['XDG_CONFIG_HOME']}",
                        f"{exe} --library {library}"], check=True)
        while time.perf_counter() - start < 30:
            screen = _tmux("capture-pane", "-p", "-t", SESSION)
            if " hits" in screen:
                times.append(time.perf_counter() - start)
                break
            time.sleep(0.005)
        else:
            raise SystemExit("no first paint within 30 s:\n" + screen)
        _tmux("send-keys", "-t", SESSION, "q")
        time.sleep(0.5)
        _tmux("kill-session", "-t", SESSION)
    return times


async def triage_latency(library: Path, presses: int) -> list[float]:
    """Seconds from a triage key reaching the app to the first frame rendered with the
    cursor on the next paper and the abstract view showing it, per key press."""
    from textual import events

    from paper_tui import config as config_mod
    from paper_tui.library import Library
    from paper_tui.tui.app import PaperApp

    times: list[float] = []

    class TimedApp(PaperApp):
        key_at: float | None = None
        target: int = -1

        async def on_event(self, event: events.Event) -> None:
            if isinstance(event, events.Key) and event.key == "x":
                self.key_at = time.perf_counter()
                self.target = self.results_list.cursor + 1
            await super().on_event(event)

        def _display(self, screen, renderable) -> None:  # the frame is rendered by now
            if (self.key_at is not None and renderable is not None
                    and self.results_list.cursor == self.target
                    and self.shown_id == self.results_list.results.paper(self.target).id):
                times.append(time.perf_counter() - self.key_at)
                self.key_at = None
            super()._display(screen, renderable)

        def show_current(self) -> None:
            super().show_current()
            paper = self.current_paper()
            self.shown_id = paper.id if paper else None

    cfg = config_mod.defaults()
    lib = Library.open(library, config=cfg)
    app = TimedApp(lib, cfg)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        await app.workers.wait_for_complete()
        await pilot.pause()
        results = app.results_list
        presses = min(presses, len(results) - 1)
        for _ in range(presses):
            await pilot.press("x")
            await pilot.pause(0.05)
        assert results.cursor == presses, "triage did not advance"
        await pilot.press("g")
        for _ in range(presses):  # put the library back as it was
            await pilot.press("z")
    lib.close()
    assert len(times) == presses, f"{len(times)} frames timed for {presses} keys"
    return times


def p95(values: list[float]) -> float:
    return statistics.quantiles(values, n=20)[-1] if len(values) > 1 else values[0]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--library", type=Path, help="an existing library (default: bundled)")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--presses", type=int, default=30)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        home = Path(tmp) / "home"
        env = {"HOME": str(home), "XDG_CONFIG_HOME": str(home / ".config")}
        os.environ.update(env)  # never read or write the real user's config
        library = args.library or Path(tmp) / "library"
        cold = first_paint(library, env, 1) if args.library is None else []
        warm = first_paint(library, env, args.runs)
        triage = asyncio.run(triage_latency(library, args.presses))
    key = "library" if args.library else "bundled"
    result = {
        "library": str(args.library) if args.library else "bundled NeurIPS 2026 list",
        "first_paint_s": {"median": round(statistics.median(warm), 3),
                          "max": round(max(warm), 3), "runs": len(warm)},
        "triage_key_to_next_paper_ms": {"p50": round(statistics.median(triage) * 1000, 2),
                                        "p95": round(p95(triage) * 1000, 2),
                                        "presses": len(triage)},
        "load_average_1min": round(os.getloadavg()[0], 2),
        "command": "python bench/tui.py" + (f" --library {args.library}" if args.library
                                             else ""),
    }
    if cold:
        result["first_paint_new_library_s"] = round(cold[0], 3)
    results_file.save("tui", key, result)
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
