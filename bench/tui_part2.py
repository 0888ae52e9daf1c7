"""TUI part 2: opening the tag / note editor, and memory while browsing a big library.

    python bench/tui_part2.py                    # the bundled list, in a fresh temp library
    python bench/tui_part2.py --library DIR      # an existing (already indexed) library

In-process, Textual's headless driver at 120x40 (the same method as bench/tui.py):

* editor open: from the ``t`` (or ``n``) key event reaching the app to the first frame
  rendered with the tag (or note) editor on screen; Esc closes it between presses.
* memory: peak RSS of the process (VmHWM, reset once the library is open, so an index
  rebuild on open is not counted) while browsing:
  ``G`` to the last hit, 40 page-ups, 300 cursor moves, ten searches, marking all hits
  (``V``/``u``), the facets panel, and the editors above.

Numbers go to bench/results/tui_part2.json (under ``"bundled"`` or ``"library"``).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import resource
import statistics
import tempfile
import time
from pathlib import Path

import results_file

QUERIES = ("graph neural", "diffusion model", "reinforcement learning", "year:2020",
           "venue:icml", "transformer attention", "causal", "robot*", "bandit", "language")


def p95(values: list[float]) -> float:
    return statistics.quantiles(values, n=20)[-1] if len(values) > 1 else values[0]


def reset_peak_rss() -> None:
    """Start the peak (VmHWM) afresh, so opening or rebuilding the index is not counted."""
    Path("/proc/self/clear_refs").write_text("5")


def peak_rss_mb() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


async def run(library: Path, presses: int) -> dict:
    from textual import events

    from paper_tui import config as config_mod
    from paper_tui.library import Library
    from paper_tui.tui.app import PaperApp
    from paper_tui.tui.screens.note_editor import NoteEditor
    from paper_tui.tui.screens.tag_editor import TagEditor

    opened: dict[str, list[float]] = {"t": [], "n": []}
    editors = {"t": TagEditor, "n": NoteEditor}

    class TimedApp(PaperApp):
        key_at: float | None = None
        key: str = ""

        async def on_event(self, event: events.Event) -> None:
            if isinstance(event, events.Key) and event.key in editors:
                self.key_at, self.key = time.perf_counter(), event.key
            await super().on_event(event)

        def _display(self, screen, renderable) -> None:  # the frame is rendered by now
            if (self.key_at is not None and renderable is not None
                    and isinstance(screen, editors[self.key]) and screen.is_mounted):
                opened[self.key].append(time.perf_counter() - self.key_at)
                self.key_at = None
            super()._display(screen, renderable)

    cfg = config_mod.defaults()
    start = time.perf_counter()
    lib = Library.open(library, config=cfg)
    opened_s = time.perf_counter() - start
    reset_peak_rss()
    app = TimedApp(lib, cfg)
    async with app.run_test(size=(120, 40)) as pilot:
        async def settle() -> None:
            await pilot.pause()
            await app.workers.wait_for_complete()
            await pilot.pause()

        await settle()
        hits = len(app.results_list)
        for _ in range(presses):
            for key in ("t", "n"):
                await pilot.press(key)
                await pilot.pause(0.05)
                await pilot.press("escape")
                await pilot.pause(0.02)
        await pilot.press("G")
        for _ in range(40):
            await pilot.press("pageup")
        for i in range(300):
            await pilot.press("j" if i % 3 else "k")
        for query in QUERIES:
            app.set_query(query)
            await settle()
        app.set_query("")
        await settle()
        await pilot.press("V")
        await settle()  # the ids are read in a worker
        marked = len(app.results_list.marked)
        await pilot.press("u", "f")
        await settle()
        peak = peak_rss_mb()
    lib.close()
    for key, times in opened.items():
        assert len(times) == presses, f"{len(times)} frames timed for {presses} {key} presses"
    return {
        "papers": hits,
        "tag_editor_open_ms": {"p50": round(statistics.median(opened["t"]) * 1000, 2),
                               "p95": round(p95(opened["t"]) * 1000, 2), "presses": presses},
        "note_editor_open_ms": {"p50": round(statistics.median(opened["n"]) * 1000, 2),
                                "p95": round(p95(opened["n"]) * 1000, 2), "presses": presses},
        "peak_rss_mb_browsing": round(peak, 1),
        "marked_all": marked,
        "library_open_s": round(opened_s, 2),
        "seconds": round(time.perf_counter() - start, 1),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--library", type=Path, help="an existing library (default: bundled)")
    parser.add_argument("--presses", type=int, default=20)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        home = Path(tmp) / "home"
        os.environ.update({"HOME": str(home), "XDG_CONFIG_HOME": str(home / ".config"),
                           "XDG_DATA_HOME": str(home / ".local/share")})
        result = asyncio.run(run(args.library or Path(tmp) / "library", args.presses))
    key = "library" if args.library else "bundled"
    result["library"] = str(args.library) if args.library else "bundled NeurIPS 2026 list"
    result["command"] = "python bench/tui_part2.py" + (
        f" --library {args.library}" if args.library else "")
    results_file.save("tui_part2", key, result)
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
