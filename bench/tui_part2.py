"""TUI part 2: opening the editors, typing in the search box, memory, first paint.

    python bench/tui_part2.py                    # the bundled list, in a fresh temp library
    python bench/tui_part2.py --library DIR      # an existing (already indexed) library

In-process, Textual's headless driver at 120x40 (the same method as bench/tui.py):

* editor open: from the ``t`` (or ``n``) key event reaching the app to the first frame
  rendered with the tag (or note) editor on screen and its input focused; Esc closes it
  between presses.
* search typing: queries made of words from the library's own titles (one word, and two
  words of one title) typed into the search box character by character, at human speed
  (one key every 125 ms, 8 keys/s) and in a fast burst (one key every 25 ms). Per
  keystroke: from its key event to the first frame showing the results of that text, or of
  a text typed after it (in a burst a later key may overtake it): the results list and the
  status line (drawn with it) for that text. The core's share is the time of
  ``Library.results`` + ``Library.count`` for the text shown (measured around the calls).
* CPU: beside each latency, the CPU time spent in it (the UI thread's for the editors, the
  whole process's for typing): on a loaded machine the latency also holds waiting for a core.
* memory: peak RSS of the process (VmHWM, reset once the library is open, so an index
  rebuild on open is not counted) while browsing:
  ``G`` to the last hit, 40 page-ups, 300 cursor moves, ten searches, the typing above,
  marking all hits (``V``/``u``), the facets panel, and the editors above.
* first paint: the installed ``paper-tui`` in tmux, from launch to the results on screen
  (bench/tui.py's measurement; ``--first-paint-runs 0`` skips it).

Numbers go to bench/results/tui_part2.json (under ``"bundled"`` or ``"library"``).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import resource
import statistics
import tempfile
import time
from pathlib import Path

import paper_tui.tui  # noqa: F401  (before textual: sets the app's frame cap, as paper-tui does)
import results_file

QUERIES = ("graph neural", "diffusion model", "reinforcement learning", "year:2020",
           "venue:icml", "transformer attention", "causal", "robot*", "bandit", "language")
HUMAN_GAP = 0.125
BURST_GAP = 0.025
STOP = {"about", "after", "based", "between", "beyond", "through", "towards", "under", "using",
        "their", "there", "these", "where", "which", "while", "without", "with", "from",
        "into", "over", "via", "when", "what", "your", "does", "more", "than"}


def p95(values: list[float]) -> float:
    return statistics.quantiles(values, n=20)[-1] if len(values) > 1 else values[0]


def summary(seconds: list[float]) -> dict:
    ms = [s * 1000 for s in seconds]
    return {"p50": round(statistics.median(ms), 2), "p95": round(p95(ms), 2),
            "max": round(max(ms), 2), "n": len(ms)}


def reset_peak_rss() -> None:
    """Start the peak (VmHWM) afresh, so opening or rebuilding the index is not counted."""
    Path("/proc/self/clear_refs").write_text("5")


def peak_rss_mb() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def typed_queries(titles: list[str], singles: int = 8, pairs: int = 4) -> list[str]:
    """Words of the library's titles, as a reader would type them: ``singles`` one-word
    queries and ``pairs`` two words of one title (so they have hits)."""
    one: list[str] = []
    two: list[str] = []
    for title in titles:
        words = [w for w in re.findall(r"\b[a-z]{5,12}\b", title.lower()) if w not in STOP]
        words = list(dict.fromkeys(words))
        if len(one) < singles and words and words[0] not in one:
            one.append(words[0])
        elif len(two) < pairs and len(words) >= 2:
            two.append(f"{words[0]} {words[1]}")
    return one + two


async def run(library: Path, presses: int, typing: bool) -> dict:
    from textual import events

    from paper_tui import config as config_mod
    from paper_tui.library import Library
    from paper_tui.tui.app import PaperApp
    from paper_tui.tui.screens.note_editor import NoteEditor
    from paper_tui.tui.screens.tag_editor import TagEditor
    from paper_tui.tui.widgets.search_box import SearchBox

    opened: dict[str, list[float]] = {"t": [], "n": []}
    opened_cpu: dict[str, list[float]] = {"t": [], "n": []}
    """The UI thread's CPU time in those intervals (the part that is not waiting under load)."""
    editors = {"t": (TagEditor, "tag-input"), "n": (NoteEditor, "note-text")}
    core: dict[str, float] = {}
    """Seconds the core took for each text (the last search of that text, with its count)."""

    class TimedApp(PaperApp):
        key_at: float | None = None
        key_cpu = 0.0
        key: str = ""
        typed: list[str] = []
        """The text the search box will hold after each key still to come."""
        pending: list[tuple[float, float, str]] = []
        """(key event time, process CPU time then, text after the key) of keys whose
        results are not shown yet."""
        keystrokes: list[tuple[float, float, str, str, float | None]] = []
        """(latency, process CPU in it, text typed, text shown, the core's time for it)."""

        async def on_event(self, event: events.Event) -> None:
            if isinstance(event, events.Key):
                if event.key in editors and not isinstance(self.focused, SearchBox):
                    self.key_at, self.key = time.perf_counter(), event.key
                    self.key_cpu = time.thread_time()
                elif self.typed and isinstance(self.focused, SearchBox):
                    self.pending.append((time.perf_counter(), time.process_time(),
                                         self.typed.pop(0)))
            await super().on_event(event)

        def _display(self, screen, renderable) -> None:
            super()._display(screen, renderable)
            if renderable is None:
                return
            now = time.perf_counter()
            if self.key_at is not None:
                kind, focus = editors[self.key]
                focused = screen.focused
                if (isinstance(screen, kind) and screen.is_mounted and focused is not None
                        and focused.id == focus):
                    opened[self.key].append(now - self.key_at)
                    opened_cpu[self.key].append(time.thread_time() - self.key_cpu)
                    self.key_at = None
            if self.pending and screen is self.screen_stack[0]:
                # the results list and the status line (drawn with it) show ``shown``
                shown = self.main.results_list.results
                texts = [text for _, _, text in self.pending]
                if shown is not None and shown.query in texts:  # this key's text or a later
                    last = len(texts) - 1 - texts[::-1].index(shown.query)
                    cpu = time.process_time()
                    for at, cpu_at, text in self.pending[:last + 1]:
                        self.keystrokes.append((now - at, cpu - cpu_at, text, shown.query,
                                                core.get(shown.query)))
                    del self.pending[:last + 1]

    cfg = config_mod.defaults()
    start = time.perf_counter()
    lib = Library.open(library, config=cfg)
    opened_s = time.perf_counter() - start
    searches, counts = lib.results, lib.count

    last_query = [""]

    def timed_results(query: str = "", **kwargs):
        began = time.perf_counter()
        results = searches(query, **kwargs)
        core[query] = time.perf_counter() - began
        last_query[0] = query
        return results

    def timed_count() -> int:  # the app counts right after each search, in the same thread
        began = time.perf_counter()
        n = counts()
        core[last_query[0]] = core.get(last_query[0], 0.0) + time.perf_counter() - began
        return n

    lib.results, lib.count = timed_results, timed_count  # the app calls these
    reset_peak_rss()
    app = TimedApp(lib, cfg)
    async with app.run_test(size=(120, 40)) as pilot:
        async def settle() -> None:
            await pilot.pause()
            while app.main.queries.busy:  # searches run on the app's query thread
                await asyncio.sleep(0.01)
            await app.workers.wait_for_complete()
            await pilot.pause()

        async def type_text(text: str, gap: float) -> None:
            """Keys sent as a terminal would, one every ``gap`` seconds, not waiting for
            the app (Pilot.press waits until the app is idle: a search would hold it)."""
            app.typed = [text[:i + 1] for i in range(len(text))]
            due = time.perf_counter()
            for ch in text:
                key = "space" if ch == " " else ch
                app._driver.send_message(events.Key(key, ch))
                due += gap
                await asyncio.sleep(max(0.0, due - time.perf_counter()))
            for _ in range(200):  # the last key's results, at most 2 s later
                if not app.pending:
                    break
                await asyncio.sleep(0.01)

        await settle()
        hits = len(app.main.results_list)
        await pilot.pause(0.5)  # the editors are built just after the first paint
        for _ in range(presses):
            for key in ("t", "n"):
                await pilot.press(key)
                await pilot.pause(0.05)
                await pilot.press("escape")
                await pilot.pause(0.02)
        typing_result: dict = {}
        if typing:
            shown = app.main.results_list.results
            titles = [shown.paper(i).title for i in range(0, len(shown), max(1, len(shown) // 60))]
            queries = typed_queries(titles)
            speeds = (("human_8_keys_per_s", HUMAN_GAP), ("burst_40_keys_per_s", BURST_GAP))
            for name, gap in speeds:
                app.keystrokes = []
                for query in queries:
                    await pilot.press("slash")
                    await type_text(query, gap)
                    app.pending = []
                    app.main.set_query("")
                    await settle()
                    await pilot.press("escape")
                lat = [x[0] for x in app.keystrokes]
                own = sum(1 for x in app.keystrokes if x[2] == x[3])
                core_shown = [x[4] for x in app.keystrokes if x[4] is not None]
                typing_result[name] = {
                    "keystroke_to_results_ms": summary(lat),
                    "process_cpu_ms_in_it": summary([x[1] for x in app.keystrokes]),
                    "own_text_shown": own,
                    "core_search_ms_of_the_text_shown": summary(core_shown),
                }
            typing_result["queries"] = queries
        await pilot.press("G")
        for _ in range(40):
            await pilot.press("pageup")
        for i in range(300):
            await pilot.press("j" if i % 3 else "k")
        for query in QUERIES:
            app.main.set_query(query)
            await settle()
        app.main.set_query("")
        await settle()
        await pilot.press("V")
        await settle()  # the ids are read in a worker
        marked = len(app.main.results_list.marked)
        await pilot.press("u", "f")
        await settle()
        peak = peak_rss_mb()
    lib.close()
    for key, times in opened.items():
        assert len(times) == presses, f"{len(times)} frames timed for {presses} {key} presses"
    return {
        "papers": hits,
        "tag_editor_open_ms": summary(opened["t"]),
        "note_editor_open_ms": summary(opened["n"]),
        "tag_editor_open_cpu_ms": summary(opened_cpu["t"]),
        "note_editor_open_cpu_ms": summary(opened_cpu["n"]),
        "search_typing": typing_result,
        "peak_rss_mb_browsing": round(peak, 1),
        "marked_all": marked,
        "library_open_s": round(opened_s, 2),
        "seconds": round(time.perf_counter() - start, 1),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--library", type=Path, help="an existing library (default: bundled)")
    parser.add_argument("--presses", type=int, default=20)
    parser.add_argument("--no-typing", action="store_true", help="skip the search typing")
    parser.add_argument("--first-paint-runs", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        home = Path(tmp) / "home"
        env = {"HOME": str(home), "XDG_CONFIG_HOME": str(home / ".config"),
               "XDG_DATA_HOME": str(home / ".local/share")}
        os.environ.update(env)
        library = args.library or Path(tmp) / "library"
        result = asyncio.run(run(library, args.presses, not args.no_typing))
        if args.first_paint_runs:
            from tui import first_paint  # bench/tui.py's measurement, the same numbers

            paints = first_paint(library, env, args.first_paint_runs)
            result["first_paint_s"] = {"median": round(statistics.median(paints), 3),
                                       "max": round(max(paints), 3), "runs": len(paints)}
    key = "library" if args.library else "bundled"
    result["load_average_1min"] = round(os.getloadavg()[0], 2)
    result["library"] = str(args.library) if args.library else "bundled NeurIPS 2026 list"
    result["command"] = "python bench/tui_part2.py" + (
        f" --library {args.library}" if args.library else "")
    results_file.save("tui_part2", key, result)
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
