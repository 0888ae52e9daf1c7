"""The app on a library whose papers' PDFs are real (``tests/data/pdfs``), for the PDF
tests of the app: served from 127.0.0.1, or added to the library beforehand."""

from __future__ import annotations

from pathlib import Path

from paper_tui import config as config_mod
from paper_tui.library import Library
from paper_tui.tui.app import PaperApp
from pdf_helpers import write_config, write_list

TITLES = ("Preemptive IE", "Words with vectors", "Nowhere to be had")


def pdf_app(tmp_path: Path, links: dict[str, str | None], **pdf: object) -> PaperApp:
    """The app on a new library of ``links`` (title -> its PDF's URL), ``pdf:`` config."""
    root = tmp_path / "lib"
    config = config_mod.load(write_config(tmp_path / "config", **pdf))
    assert not config.problems, config.problems
    lib = Library.open(root, config=config, bundled=False)
    lib.import_paths([write_list(tmp_path / "papers.jsonl", links)])
    return PaperApp(lib, config)


def ids_by_title(app: PaperApp) -> dict[str, str]:
    return {paper.title: paper.id for paper in app.library.papers()}
