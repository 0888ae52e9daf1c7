"""Outside the app too, a source's title is shown as the source gave it: ``search`` lines
carry a derived name after the title, labelled, and every export writes the title alone."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from paper_tui import config as config_mod
from paper_tui.cli.output import line
from paper_tui.exports import formats as export
from paper_tui.library import Library

DATA = Path(__file__).parent / "data"


@pytest.fixture
def sample(tmp_path: Path) -> Iterator[Library]:
    lib = Library.open(tmp_path / "library", config=config_mod.defaults(), bundled=False)
    lib.import_paths([DATA / "papers-ml-sample.jsonl"])
    yield lib
    lib.close()


def test_a_search_line_labels_the_name_after_the_title(sample: Library) -> None:
    paper = next(p for p in sample.papers() if p.name == "DMTrack")
    assert line(paper) == (f"{paper.id}  Diffusion Mask-Driven Visual-language Tracking  "
                           "[IJCAI 2024]  name: DMTrack")
    titled = next(p for p in sample.papers() if p.name and not p.badge)
    assert line(titled) == f"{titled.id}  {titled.display_title}  [{titled.venue} {titled.year}]"


@pytest.mark.parametrize("fmt", export.FORMATS)
def test_exports_write_the_source_title_without_the_name(sample: Library, fmt: str) -> None:
    named = [p for p in sample.papers() if p.badge]
    assert len(named) == 3
    out = export.export(sample, named, fmt)
    for paper in named:
        assert paper.display_title in out, fmt
        assert f"{paper.name}: " not in out, fmt
