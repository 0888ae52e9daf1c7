"""What a very long query costs: one word of 10,000-200,000 characters, 100 KB of many
words (issue 23's findings), 1,000 words (the most a query may have), then queries of one
shape each — words, runs of the characters the query language gives a meaning (``[``,
``'``, ``-``, ``"``…) — at 50 and 500 repeats, so that time against length shows whether
the cost is linear (ten times the length about ten times the time) or worse.

``Library.search(q, limit=20)`` in this process on a fresh library of the bundled list
(or ``--library DIR``), the best of ``--runs`` (default 3); a query the language refuses
(:class:`QueryError`) counts as answered: its time is the time to say so. ``--before REV``
first runs this script on the source tree of git revision ``REV`` (``git archive`` into a
temporary directory, on ``PYTHONPATH``; key ``before REV``), then on this one (key ``after``):

    python bench/long_query.py --before 28b7872    # results in bench/results/long_query.json
    python bench/long_query.py --app              # the app's search box (key: "app")

``--app``: the app (headless, 120x40) on the same library; a query of each length pasted
into the search box, timed until the status line has its answer, then one more key typed
at its end, timed the same way: the box's own work on a long value (Textual's Input, the
status line) is this minus the library's time above.
"""

from __future__ import annotations

import argparse
import os
import random
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from paper_tui.errors import QueryError
from paper_tui.library import Library
from results_file import run_header, save

WORD_LENGTHS = (10_000, 25_000, 50_000, 100_000, 200_000)
MANY_WORDS_BYTES = 100_000
SHAPES = {  # name -> the unit repeated to make the query
    "words 'ab '": "ab ", "'[' …": "[", "' 'a' …": " 'a", "'-a ' …": "-a ",
    "'a~2 ' …": "a~2 ", "'(a) ' …": "(a) ", "'title:a ' …": "title:a ", "'\"a\" ' …": '"a" ',
    "'a* ' …": "a* ",
}
SHAPE_REPEATS = (50, 500)
"""Within the query language's caps (1,000 words, 1,000 symbols) for every shape."""
SLOW = 60.0
"""A query that took longer than this is not run at longer lengths."""


def timed(lib: Library, query: str, runs: int) -> tuple[float, float, str]:
    """Best wall and CPU time in seconds, and what came back (hits, or the refusal)."""
    best, cpu, answer = float("inf"), float("inf"), ""
    for _ in range(runs):
        start, start_cpu = time.perf_counter(), time.process_time()
        try:
            page = lib.search(query, limit=20)
            answer = f"error: {page.error[:70]}" if page.error else f"{page.total} hits"
        except QueryError as exc:
            answer = f"error: {str(exc)[:70]}"
        best = min(best, time.perf_counter() - start)
        cpu = min(cpu, time.process_time() - start_cpu)
        if best > SLOW:
            break
    return best, cpu, answer


def many_words(lib: Library, size: int) -> str:
    """``size`` characters of real words (the library's abstracts, shuffled)."""
    abstracts = [hit.paper.abstract for hit in lib.search("", limit=None).hits]
    words = [w for text in abstracts for w in re.findall(r"[A-Za-z]{3,}", text)]
    random.Random(23).shuffle(words)
    text = " ".join(words)
    while len(text) < size:
        text += " " + text
    return text[:size].rsplit(" ", 1)[0]


PASTE_LENGTHS = (1_000, 10_000, 25_000, 50_000, 100_000)


async def app_rows(root: Path) -> dict[str, dict[str, float]]:
    """Paste, then one more key, for each length of :data:`PASTE_LENGTHS`."""
    from textual import events

    from paper_tui import config as config_mod
    from paper_tui.tui.app import PaperApp
    from paper_tui.tui.widgets.search_box import SearchBox

    cfg = config_mod.defaults()
    lib = Library.open(root, config=cfg)
    app = PaperApp(lib, cfg)
    rows: dict[str, dict[str, float]] = {}
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause(0.5)
        while app.main.queries.busy:  # the first search, on the app's query thread
            await pilot.pause(0.01)
        await app.workers.wait_for_complete()
        box = app.query_one(SearchBox)
        box.focus()
        status = app.query_one("#status")

        async def answered(action, length: int) -> float:
            """Seconds from ``action`` until the status line answers a query this long."""
            before = app.main.search.shown_generation
            start = time.perf_counter()
            await action()
            while app.main.search.shown_generation == before or app.main.search.searching:
                await pilot.pause(0.001)
            await pilot.pause()  # the frame that shows it
            seconds = time.perf_counter() - start
            assert len(box.value) == length and status.render_line(0) is not None
            return seconds

        for length in PASTE_LENGTHS:
            box.value = ""
            await pilot.pause(0.05)
            while app.main.queries.busy:  # searches run on the app's query thread
                await pilot.pause(0.01)
            await app.workers.wait_for_complete()

            async def paste(text: str = "a" * (length - 1)) -> None:
                box.post_message(events.Paste(text))

            async def key() -> None:
                await pilot.press("b")

            pasted = await answered(paste, length - 1)
            typed = await answered(key, length)
            rows[f"paste {length:,}"] = {"paste_seconds": round(pasted, 4),
                                         "next_key_seconds": round(typed, 4)}
            print(f"app: paste of {length - 1:>7,} chars {pasted:7.3f} s, the next key "
                  f"{typed:7.3f} s  ({app.main.search.error or 'searched'})", flush=True)
    lib.close()
    return rows


def run_before(revision: str, args: argparse.Namespace) -> None:
    """This script on the source tree of ``revision``, in a process of its own."""
    root = Path(__file__).resolve().parent.parent
    with tempfile.TemporaryDirectory(prefix="paper-tui-before-") as tree:
        archive = subprocess.run(["git", "-C", str(root), "archive", revision, "src",
                                  "config.yaml", "data", "themes"],
                                 capture_output=True, check=True).stdout
        subprocess.run(["tar", "-x", "-C", tree], input=archive, check=True)
        command = [sys.executable, __file__, "--label", f"before {revision}",
                   "--runs", str(args.runs), "--revision", revision]
        if args.library:
            command += ["--library", str(args.library)]
        env = {**os.environ, "PYTHONPATH": str(Path(tree) / "src")}
        subprocess.run(command, env=env, check=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--library", type=Path, help="an existing library (default: a "
                        "fresh one holding the bundled list)")
    parser.add_argument("--label", default="after", help="the key the results go under")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--app", action="store_true", help="time the app's search box")
    parser.add_argument("--before", metavar="REV", help="first run the code of git "
                        "revision REV (key: before REV)")
    parser.add_argument("--revision", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.before:
        run_before(args.before, args)
    root = args.library or Path(tempfile.mkdtemp(prefix="paper-tui-long-query-")) / "lib"
    if args.app:
        import asyncio

        Library.open(root).close()
        result = {**run_header("long_query.py", sys.argv[1:]),
                  "queries": asyncio.run(app_rows(root))}
        print(f"results in {save('long_query', 'app', result)}")
        return
    import paper_tui

    lib = Library.open(root)
    lib.search("warm up")
    result: dict = {**run_header("long_query.py", sys.argv[1:]),
                    "code": args.revision or "this tree",
                    "paper_tui": str(Path(paper_tui.__file__).parent),
                    "papers": sum(1 for _ in lib.papers())}
    rows: dict[str, dict[str, object]] = {}
    print(f"-- {result['code']} ({result['papers']:,} papers)", flush=True)

    def measure(name: str, query: str) -> float:
        seconds, cpu, answer = timed(lib, query, args.runs)
        rows[name] = {"characters": len(query), "seconds": round(seconds, 4),
                      "cpu_seconds": round(cpu, 4), "answer": answer}
        print(f"{name:<32} {len(query):>8,} chars {seconds:8.3f} s (CPU {cpu:7.3f} s)  "
              f"{answer}", flush=True)
        return seconds

    for length in WORD_LENGTHS:
        if measure(f"one word of {length:,}", "a" * length) > SLOW:
            break
    measure("one word 'ééé…' of 100,000", "é" * 100_000)
    words = many_words(lib, MANY_WORDS_BYTES)
    measure(f"{len(words.split()):,} words", words)
    thousand = " ".join(words.split()[:1_000])
    measure("1,000 words of abstracts", thousand)
    distinct = list(dict.fromkeys(words.lower().split()))[:1_000]
    measure(f"{len(distinct):,} distinct words", " ".join(distinct))
    measure("1,000 distinct words of 100", " ".join(f"{i}{'x' * 99}" for i in range(1_000)))
    for name, unit in SHAPES.items():
        for repeats in SHAPE_REPEATS:
            if measure(f"{name} x {repeats:,}", unit * repeats) > SLOW:
                break
    lib.close()
    result["queries"] = rows
    print(f"results in {save('long_query', args.label, result)}")


if __name__ == "__main__":
    main()
