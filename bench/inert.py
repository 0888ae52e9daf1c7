"""How much making text inert costs (``paper_tui.trust.inert``), and that it stays linear.

    python bench/inert.py

* ``clean``: inert_line / inert_text over the bundled list's titles and abstracts (text
  without a control character: the fast path every drawn row and printed line takes), per
  call; inert_paper per paper (what a citation or an export for reading pays); and the
  app's last line filter over a results row's segments.
* ``hostile``: the same titles with escape sequences in them (the slow path).
* ``linear``: worst cases a list author could write (many unterminated strings, C1
  introducers, endless CSI parameters, control characters only), 100,000 and 1,000,000
  characters: time per character stays flat (no pattern scans past the next control
  character, so nothing is quadratic).

Prints JSON; nothing is written.
"""

from __future__ import annotations

import json
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from rich.segment import Segment
from rich.style import Style
from textual.color import Color

from paper_tui import config
from paper_tui.library import Library
from paper_tui.trust.inert import inert_line, inert_paper, inert_text
from paper_tui.tui.inert_lines import InertLines

EVIL = "\x1b]0;title\x07\x1b]52;c;aGk=\x07\x1b[2J\x9d2;x\x9c\u202e"


def per_call_ns(function: Callable[[str], str], texts: list[str], rounds: int = 20) -> float:
    start = time.perf_counter()
    for _ in range(rounds):
        for text in texts:
            function(text)
    return (time.perf_counter() - start) / (rounds * len(texts)) * 1e9


def per_char_ns(function: Callable[[str], str], text: str) -> float:
    start = time.perf_counter()
    function(text)
    return (time.perf_counter() - start) / len(text) * 1e9


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:  # a new library imports the bundled list
        lib = Library.open(Path(tmp) / "library", config=config.defaults())
        papers = list(lib.papers())
        lib.close()
    titles = [p.display_title for p in papers]
    abstracts = [p.display_abstract for p in papers]
    hostile = [t[:len(t) // 2] + EVIL + t[len(t) // 2:] for t in titles]
    row = [Segment(" ", Style()), Segment("+", Style(bold=True)), Segment("★ "),
           Segment(titles[0][:60], Style(color="red")), Segment(" #tag  NeurIPS 2026")]
    line_filter = InertLines()
    background = Color(0, 0, 0)
    start = time.perf_counter()
    for _ in range(200):
        inert_paper.cache_clear()
        for paper in papers:
            inert_paper(paper)
    paper_ns = (time.perf_counter() - start) / (200 * len(papers)) * 1e9
    rounds = 200_000
    start = time.perf_counter()
    for _ in range(rounds):
        line_filter.apply(row, background)
    filter_ns = (time.perf_counter() - start) / rounds * 1e9

    worst = {
        "unterminated OSC": "\x1b]0;" + "a" * 9,
        "8-bit OSC introducers": "\x9d",
        "CSI parameters": "\x1b[" + "1;" * 4,
        "ESC ESC": "\x1b",
        "controls": "\x01\x02\x03",
        "breaks": "\r\n\u2028",
    }
    linear = {}
    for name, unit in worst.items():
        times = {}
        for size in (100_000, 1_000_000):
            text = (unit * (size // len(unit) + 1))[:size]
            times[f"{size:,} chars"] = {
                "inert_line ns/char": round(per_char_ns(inert_line, text), 2),
                "inert_text ns/char": round(per_char_ns(inert_text, text), 2)}
        linear[name] = times

    print(json.dumps({
        "clean": {
            "titles": len(titles),
            "inert_line(title) ns": round(per_call_ns(inert_line, titles)),
            "inert_text(abstract) ns": round(per_call_ns(inert_text, abstracts)),
            "inert_paper ns": round(paper_ns),
            "line filter over a results row (5 segments) ns": round(filter_ns),
        },
        "hostile": {
            "inert_line(title with sequences) ns": round(per_call_ns(inert_line, hostile)),
        },
        "linear": linear,
        "command": "python bench/inert.py",
    }, indent=2))


if __name__ == "__main__":
    main()
