"""``paper-tui cite``: formats, the configured default style, ids and prefixes, errors."""

from __future__ import annotations

from pathlib import Path

import pytest

from paper_tui import citations
from paper_tui.cli import main
from paper_tui.library import Library
from paper_tui.model import Paper


@pytest.fixture
def papers(library: Library) -> list[Paper]:
    found = list(library.papers())
    library.close()
    return found


def cite(capsys: pytest.CaptureFixture[str], library_dir: Path, *args: str
         ) -> tuple[int, str, str]:
    status = main(["--library", str(library_dir), *args])
    out = capsys.readouterr()
    return status, out.out, out.err


@pytest.mark.parametrize("style", citations.STYLES)
def test_each_format_prints_the_core_citation(style: str, papers: list[Paper],
                                              library_dir: Path,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = cite(capsys, library_dir, "cite", papers[0].id, papers[1].id,
                            "--format", style)
    assert (status, err) == (0, "")
    assert out == citations.cite(papers[:2], style) + "\n"


def test_default_style_comes_from_config(papers: list[Paper], library_dir: Path,
                                         tmp_path: Path,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _err = cite(capsys, library_dir, "cite", papers[0].id)
    assert status == 0 and out.startswith("@inproceedings{")
    config = tmp_path / "config.yaml"
    config.write_text("citation_style: key\n", "utf-8")
    status, out, _err = cite(capsys, library_dir, "--config", str(config), "cite",
                             papers[0].id)
    assert out == citations.citation_key(papers[0]) + "\n"
    config.write_text("citation_style: apa\n", "utf-8")
    status, out, err = cite(capsys, library_dir, "--config", str(config), "cite",
                            papers[0].id)
    assert status == 0 and out.startswith("@inproceedings{")
    assert "citation_style 'apa' is not one of bibtex, plain, markdown, key; using bibtex" in err


def test_prefixes_duplicates_and_unknown_ids(papers: list[Paper], library_dir: Path,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    paper = papers[0]
    status, out, _err = cite(capsys, library_dir, "cite", paper.id[:-3], paper.id, "-f", "key")
    assert (status, out) == (0, citations.citation_key(paper) + "\n")  # one paper, once
    status, out, err = cite(capsys, library_dir, "cite", "nosuchpaper")
    assert (status, out) == (1, "")
    assert err == "paper-tui: no paper with id 'nosuchpaper'\n"
    status, out, err = cite(capsys, library_dir, "cite", "neurips2026-")
    assert status == 1 and "ambiguous" in err and "Traceback" not in err
