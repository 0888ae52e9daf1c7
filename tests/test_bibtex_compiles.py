"""The BibTeX we write compiles: real ``bibtex`` (plain.bst), ``biber`` (biblatex) and
``pdflatex`` on the entries of the hard cases of four venues' lists.

``data/bibtex-hard/`` holds 57 records copied from the corpus's paperlists (iclr2018,
nips2018, acl2022, icml2019), chosen for what broke before: ``&``, ``_``, ``%`` in titles,
math (``$\\ell_∞$``, a broken ``$\\sqrtT$``), names T1 cannot set (``Hồ nhật``), dotless
``ı`` with an accent, the source's ``and and`` and ``Roeder, Geoffrey, and`` names, PMLR's
``month = {09--15 Jun}``. Skips (saying so) only when the TeX tools are missing.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from paper_tui import citations
from paper_tui import config as config_mod
from paper_tui.cli import main
from paper_tui.importers import import_file
from paper_tui.library import Library
from paper_tui.model import Paper
from tex_compile import compile_bib, missing_tools

HARD = Path(__file__).parent / "data" / "bibtex-hard"

needs_tex = pytest.mark.skipif(bool(missing_tools()), reason=(
    f"TeX tools missing ({', '.join(missing_tools())}): apt-get install texlive-latex-extra "
    "texlive-bibtex-extra biber"))


def hard_papers() -> list[Paper]:
    papers: list[Paper] = []
    for path in sorted(HARD.glob("*.json")):
        _source, _fmt, records = import_file(path)
        papers.extend(r for r in records if isinstance(r, Paper))
    return papers


@needs_tex
def test_hard_cases_compile_without_error_or_warning(tmp_path: Path) -> None:
    papers = hard_papers()
    assert len(papers) == 57
    bib = tmp_path / "refs.bib"
    bib.write_text(citations.cite(papers, "bibtex") + "\n", encoding="utf-8")
    report = compile_bib(bib, tmp_path / "work", timeout=300)
    assert report.counts() == {"bibtex": (0, 0), "pdflatex (bibtex)": (0, 0),
                               "biber": (0, 0), "pdflatex (biber)": (0, 0)}, \
        {**report.errors, **report.warnings}


def test_entries_are_in_our_layout_with_ascii_keys() -> None:
    papers = hard_papers()
    text = citations.cite(papers, "bibtex")
    keys = re.findall(r"^@\w+\{([^,]*),$", text, re.MULTILINE)
    assert len(keys) == len(papers)
    assert all(re.fullmatch(r"[a-z0-9]+", key) for key in keys), keys
    assert "pmlr-v97" not in text and "month = {" not in text and "month = jun" in text
    names = re.findall(r"^  (?:author|editor) = \{(.*)\},$", text, re.MULTILINE)
    assert names and not any(re.search(r"\band and\b|,\s*(and\b|$)", n) for n in names)
    assert text.isascii()
    fields = re.findall(r"^(.*) = ", text, re.MULTILINE)
    assert set(fields) <= {"  title", "  author", "  booktitle", "  editor", "  volume",
                           "  series", "  pages", "  publisher", "  address", "  month",
                           "  year", "  url", "  doi", "  journal", "  note"}


@needs_tex
def test_utf8_for_biblatex_reads_cleanly_in_biber(tmp_path: Path) -> None:
    """``--utf8``: letters stay UTF-8 (``Hồ``), which biber reads without a warning."""
    bib = tmp_path / "refs.bib"
    bib.write_text(citations.cite(hard_papers(), "bibtex", utf8=True) + "\n", "utf-8")
    assert "Hồ" in bib.read_text("utf-8")
    report = compile_bib(bib, tmp_path / "work", timeout=300)
    assert (report.errors["biber"], report.warnings["biber"]) == ([], [])


def test_export_utf8_choice(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    lib = Library.open(tmp_path / "lib", config=config_mod.defaults(), bundled=False)
    try:
        lib.import_paths([HARD / "icml2019-hard.json"])
    finally:
        lib.close()
    base = ["--library", str(tmp_path / "lib"), "export", "--query", "", "-f"]
    assert main([*base, "bibtex"]) == 0
    escaped = capsys.readouterr().out
    assert main([*base, "bibtex", "--utf8"]) == 0
    utf8 = capsys.readouterr().out
    assert escaped.isascii() and "Rockt{\\\"a}schel" in escaped
    assert "Rocktäschel" in utf8
    assert main([*base, "csv", "--utf8"]) == 1
    assert capsys.readouterr().err.strip().endswith("--utf8 is for the bibtex format, not csv")
