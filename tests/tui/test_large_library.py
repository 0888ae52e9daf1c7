"""The app on a generated 50,000-paper library: the results list stays a handful of
widgets (it renders lines, not a widget per paper) and ``G`` reaches the last hit.

Building the library (writing 50,000 JSON lines, importing and indexing them through
``Library.import_paths``) is the slow part, so it happens once per test session.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from pathlib import Path

import pytest

from built_once import built_once
from paper_tui import config as config_mod
from paper_tui.library import Library
from paper_tui.tui.app import PaperApp

N_PAPERS = 50_000
WORDS = ("graph", "neural", "network", "policy", "gradient", "diffusion", "sparse", "attention",
         "transformer", "bandit", "kernel", "robust", "federated", "language", "vision")
VENUES = ("nips", "icml", "iclr", "acl", "cvpr")


def write_papers(path: Path, n: int) -> None:
    rnd = random.Random(8)
    with path.open("w") as out:
        for i in range(n):
            words = " ".join(rnd.choice(WORDS) for _ in range(4))
            out.write(json.dumps({
                "title": f"{words.title()} {i}", "abstract": f"We study {words} ({i}).",
                "venue": VENUES[i % len(VENUES)], "year": 2000 + i % 25}) + "\n")


@pytest.fixture(scope="session")
def big_library_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The 50,000-paper library, built once per run: under pytest-xdist the workers share
    the run's temp dir, and the first to get here builds it while the others wait (two
    workers each building it cost 20-40 s of CPU)."""
    def build(root: Path) -> None:
        source = root / "generated.jsonl"
        write_papers(source, N_PAPERS)
        with Library.open(root / "library", config=config_mod.defaults(),
                          bundled=False) as lib:
            report = lib.import_paths([source])
        assert report.papers == N_PAPERS, report.errors[:3]

    return built_once(tmp_path_factory, "big-50k", build) / "library"


@pytest.fixture
def big_app(big_library_dir: Path) -> Iterator[PaperApp]:
    cfg = config_mod.defaults()
    lib = Library.open(big_library_dir, config=cfg, bundled=False)
    yield PaperApp(lib, cfg)
    lib.close()


async def test_50k_results_are_lines_not_widgets_and_G_reaches_the_last(big_app, settle):
    app = big_app
    async with app.run_test(size=(160, 48)) as pilot:
        await settle(pilot)
        results = app.results_screen.results_list
        assert len(results) == N_PAPERS
        widgets = len(app.screen.query("*"))
        assert widgets < 100, f"{widgets} widgets for {N_PAPERS} results"
        assert not results.children  # the rows are rendered lines
        await pilot.press("G")
        await pilot.pause()
        assert results.cursor == N_PAPERS - 1
        last = results.results.paper(N_PAPERS - 1)
        assert app.results_screen.current_paper() == last
        assert results.scroll_offset.y >= N_PAPERS - results.size.height
        assert len(app.screen.query("*")) == widgets
