"""TUI speed: start to first paint, and a triage key to the next paper shown.

    python bench/tui.py                      # the bundled list, in a fresh temp library
    python bench/tui.py --library DIR        # an existing (already indexed) library

First paint is measured on the installed ``paper-tui`` in a real terminal (a detached tmux
session, 120x40): from launching the command to the first screen showing the results
(the status line's "N hits"), polling the pane every 5 ms. Key latency is measured
in-process (Textual's headless driver, 120x40): from the key leaving the terminal driver
(``driver.send_message``, as a real terminal's keys do) to the end of the first frame that
shows its outcome, encoded as the escape sequences a terminal would be sent: for ``x``
the cursor on the next paper and the abstract view showing it, for ``s`` the star shown.
This includes Textual's frame batching (the app caps frames at 120/s: see
``paper_tui.tui.MAX_FPS``). ``frames`` counts the frames drawn while the keys were pressed
(one per key is the goal). ``--keys-only`` skips first paint.

Numbers go to bench/results/tui.json (merged under the ``"bundled"`` or ``"library"`` key).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import paper_tui.tui  # noqa: F401  (before textual: sets the app's frame cap, as paper-tui does)
import results_file

if TYPE_CHECKING:
    from paper_tui.config import Config
    from paper_tui.tui.app import PaperApp

SESSION = "paper-tui-bench"


def _tmux(*args: str) -> str:
    return subprocess.run(["tmux", *args], capture_output=True, text=True, check=False).stdout


def first_paint(library: Path, env: dict[str, str], runs: int, options: str = ""
                ) -> list[float]:
    """Seconds from launching ``paper-tui`` to the results on screen, per run.
    ``options``: more of the command line (``--config FILE``)."""
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
                        # the tree asked for, whatever tmux server (another's) is up
                        "-e", f"PYTHONPATH={os.environ.get('PYTHONPATH', '')}",
                        f"{exe} --library {library} {options}"], check=True)
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


async def key_latency(library: Path, key: str, presses: int, gap: float, *,
                      config: Config | None = None,
                      on_key: Callable[[PaperApp, float], None] | None = None,
                      on_frame: Callable[[PaperApp, float], None] | None = None,
                      around: Callable[[Any], contextlib.AbstractAsyncContextManager]
                      | None = None,
                      ) -> tuple[list[float], list[float], int]:
    """Seconds from ``key`` (a triage key, or ``s``) leaving the terminal driver to the
    frame that shows its outcome encoded for the terminal, per key press.

    The outcome: for ``i``/``r``/``x`` the cursor on the next paper and its abstract shown;
    for ``s`` the paper's star in its row and in the abstract view. Keys go in the way a
    terminal's do (the driver's ``send_message``, one every ``gap`` seconds), not through
    the test pilot, whose per-key bookkeeping would run inside the measured time.
    Returns the times, the UI thread's CPU time in each (what the app itself spent,
    whatever else runs on the machine) and the number of frames drawn while the keys were
    pressed.

    ``config``: the app's settings (default: the shipped ones). For measuring what a key
    sets off after its own frame: ``on_key(app, sent_at)`` runs as each key is sent,
    ``on_frame(app, drawn_at)`` after every frame drawn (encoded for the terminal) from the
    first key to ``gap`` after the last. ``around(app)``, when given, is entered just
    before the first press and left after the last one's frame, before the library is put
    back (e.g. a sync running meanwhile)."""
    from textual import events

    from paper_tui import config as config_mod
    from paper_tui.library import Library
    from paper_tui.tui.app import PaperApp

    times: list[float] = []
    cpu: list[float] = []

    class TimedApp(PaperApp):
        sent_at: float | None = None
        sent_cpu = 0.0
        done: Callable[[], bool] = staticmethod(lambda: False)
        frames = 0
        timing = False

        def _display(self, screen, renderable) -> None:
            super()._display(screen, renderable)
            if renderable is None or not (self.sent_at is not None
                                          or (on_frame and self.timing)):
                return
            if self.is_headless:  # what the terminal driver would write
                renderable.render_segments(self.console)
            now, now_cpu = time.perf_counter(), time.thread_time()
            if on_frame and self.timing:
                on_frame(self, now)
            if self.sent_at is None:
                return
            self.frames += 1
            if self.done():
                times.append(now - self.sent_at)
                cpu.append(now_cpu - self.sent_cpu)
                self.sent_at = None

    cfg = config if config is not None else config_mod.defaults()
    lib = Library.open(library, config=cfg)
    app = TimedApp(lib, cfg)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        while app.main.queries.busy:  # the first search, on the app's query thread
            await asyncio.sleep(0.01)
        await app.workers.wait_for_complete()
        await pilot.pause(0.3)
        results = app.results_screen.results_list
        presses = min(presses, len(results) - 1)
        view = app.query_one("#abstract")
        async with around(app) if around else contextlib.nullcontext():
            for _ in range(presses):
                paper = app.results_screen.current_paper()
                if key == "s":
                    starred = not app.library.annotation(paper.id).starred
                    app.done = lambda p=paper, s=starred: (
                        view.paper is p and view.annotation.starred == s)
                else:
                    target = results.cursor + 1
                    following = results.results.paper(target)
                    # the paper by id: a search again (after a sync) makes new objects
                    app.done = lambda t=target, p=following: (
                        results.cursor == t and getattr(view.paper, "id", None) == p.id)
                app.timing = True
                app.sent_at, app.sent_cpu = time.perf_counter(), time.thread_time()
                app._driver.send_message(events.Key(key, key))
                if on_key:
                    on_key(app, app.sent_at)
                await asyncio.sleep(gap)
            app.timing = False
            assert app.sent_at is None, f"no frame showed the outcome of {key!r}"
        frames = app.frames
        await pilot.press("g")
        for _ in range(presses):  # put the library back as it was
            await pilot.press("z")
    lib.close()
    assert len(times) == presses, f"{len(times)} frames timed for {presses} keys"
    return times, cpu, frames


def latency_summary(times: list[float], cpu: list[float], frames: int
                    ) -> dict[str, float | int]:
    return {"p50": round(statistics.median(times) * 1000, 2),
            "p95": round(p95(times) * 1000, 2), "max": round(max(times) * 1000, 2),
            "cpu_p50": round(statistics.median(cpu) * 1000, 2),
            "cpu_p95": round(p95(cpu) * 1000, 2),
            "presses": len(times), "frames": frames}


def p95(values: list[float]) -> float:
    return statistics.quantiles(values, n=20)[-1] if len(values) > 1 else values[0]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--library", type=Path, help="an existing library (default: bundled)")
    parser.add_argument("--runs", type=int, default=5, help="first-paint runs")
    parser.add_argument("--presses", type=int, default=30, help="presses of each key")
    parser.add_argument("--gap", type=float, default=0.1, help="seconds between presses")
    parser.add_argument("--keys-only", action="store_true",
                        help="measure the keys only and print (results file untouched)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        home = Path(tmp) / "home"
        env = {"HOME": str(home), "XDG_CONFIG_HOME": str(home / ".config")}
        os.environ.update(env)  # never read or write the real user's config
        library = args.library or Path(tmp) / "library"
        paint = not args.keys_only
        cold = first_paint(library, env, 1) if paint and args.library is None else []
        warm = first_paint(library, env, args.runs) if paint else []
        if args.library is None and not paint:
            from paper_tui import config as config_mod
            from paper_tui.library import Library

            Library.open(library, config=config_mod.defaults()).close()
        triage = asyncio.run(key_latency(library, "x", args.presses, args.gap))
        star = asyncio.run(key_latency(library, "s", args.presses, args.gap))
    key = "library" if args.library else "bundled"
    result: dict = {
        "library": str(args.library) if args.library else "bundled NeurIPS 2026 list"}
    if warm:
        result["first_paint_s"] = {"median": round(statistics.median(warm), 3),
                                   "max": round(max(warm), 3), "runs": len(warm)}
    result["triage_key_to_next_paper_ms"] = latency_summary(*triage)
    result["star_key_to_star_shown_ms"] = latency_summary(*star)
    result["load_average_1min"] = round(os.getloadavg()[0], 2)
    result["command"] = "python bench/tui.py" + (f" --library {args.library}"
                                                 if args.library else "")
    if cold:
        result["first_paint_new_library_s"] = round(cold[0], 3)
    if paint:
        results_file.save("tui", key, result)
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
