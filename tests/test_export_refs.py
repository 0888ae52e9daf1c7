"""CSL-JSON, RIS and Org exports, read back by real consumers (citeproc-py, pandoc, rispy),
and the round trips: exported as RIS or CSL-JSON, imported into a fresh library."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
import rispy
from citeproc import Citation, CitationItem, CitationStylesBibliography, CitationStylesStyle
from citeproc import formatter as citeproc_formatter
from citeproc.source.json import CiteProcJSON

from formats_helpers import DATA
from paper_tui import citations
from paper_tui import config as config_mod
from paper_tui.exports import formats as export
from paper_tui.library import Library
from paper_tui.model import Paper

SOURCES = ("openreview-v2-iclr2018.json", "arxiv-api.atom", "dblp-sample.xml",
           "manubot-bibliography.ris", "miniconf-papers.csv")
NOTE = "Read for the reading group.\n* not a heading\nKW  - not a tag either"


@pytest.fixture
def annotated(tmp_path: Path) -> Iterator[tuple[Library, list[Paper]]]:
    lib = Library.open(tmp_path / "lib", config=config_mod.defaults(), bundled=False)
    report = lib.import_paths([DATA / name for name in SOURCES])
    assert not report.errors
    papers = list(lib.papers())
    spectral = next(p for p in papers if p.title.startswith("Spectral Normalization"))
    lib.annotations.set_status([spectral.id], "read")
    lib.annotations.set_starred([spectral.id], True)
    lib.annotations.add_tags([spectral.id], ["gans", "to cite"])
    lib.annotations.set_note(spectral.id, NOTE)
    lib.annotations.set_status(["arxiv-1707.08567"], "to-read")
    yield lib, papers
    lib.close()


def _by_title(items: list[dict], key: str = "title") -> dict[str, dict]:
    return {item[key]: item for item in items}


def test_csl_json_items(annotated) -> None:
    lib, papers = annotated
    items = _by_title(json.loads(export.export(lib, papers, "csl-json")))
    assert len(items) == len(papers)
    spectral = items["Spectral Normalization for Generative Adversarial Networks"]
    keys = citations.citation_keys(papers)
    assert spectral["id"] in keys.values()  # the BibTeX export's key: [@key] cites either
    assert spectral["type"] == "paper-conference"
    assert spectral["author"][0] == {"family": "Miyato", "given": "Takeru"}
    assert spectral["issued"] == {"date-parts": [[2018]]}
    # the venue as BibTeX's booktitle names it, the short name beside it
    assert spectral["container-title"] == "International Conference on Learning Representations"
    assert spectral["container-title-short"] == "ICLR"
    assert spectral["URL"] == "https://openreview.net/forum?id=B1QRgziT-"
    assert spectral["abstract"].startswith("One of the challenges")
    workshop = items["Proceedings of Workshop AEW10: Concepts in Information Theory and "
                     "Communications"]
    assert workshop["type"] == "article"  # an arXiv preprint
    assert {"family": "With", "given": "Peter H. N.", "non-dropping-particle": "de"} in \
        workshop["author"]
    scihub = items["Sci-Hub provides access to nearly all scholarly literature"]
    assert "DOI" not in scihub  # its link is the article's page, not a DOI
    bert = items["Multi-CLS BERT: An Efficient Alternative to Traditional Ensembling"]
    assert bert["DOI"] == "10.18653/v1/2023.acl-long.48"
    assert "abstract" not in bert


@pytest.mark.filterwarnings("ignore:The following arguments for Reference are unsupported")
def test_csl_json_is_read_by_citeproc_py(annotated, tmp_path: Path) -> None:
    lib, papers = annotated
    data = json.loads(export.export(lib, papers, "csl-json"))
    source = CiteProcJSON(data)
    style = CitationStylesStyle("harvard-cite-them-right", validate=False)
    bibliography = CitationStylesBibliography(style, source, citeproc_formatter.plain)
    bibliography.register(Citation([CitationItem(item["id"]) for item in data]))
    rendered = "\n".join(str(entry) for entry in bibliography.bibliography())
    assert "Miyato, T." in rendered and "(2018)" in rendered
    assert "spectral normalization for generative adversarial networks" in rendered.lower()
    assert "Chang, H.-S." in rendered or "Chang, H." in rendered


@pytest.mark.skipif(shutil.which("pandoc") is None, reason="pandoc is not installed")
def test_csl_json_is_read_by_pandoc_citeproc(annotated, tmp_path: Path) -> None:
    lib, papers = annotated
    bib = tmp_path / "refs.json"
    bib.write_text(export.export(lib, papers, "csl-json"))
    key = citations.citation_keys(papers)[
        next(p.id for p in papers if p.title.startswith("Spectral"))]
    doc = tmp_path / "doc.md"
    doc.write_text(f"---\nnocite: '@*'\n---\n\nAs shown [@{key}].\n")
    done = subprocess.run(["pandoc", "--citeproc", "--bibliography", str(bib), "-t", "plain",
                           str(doc)], capture_output=True, text=True, timeout=120, check=True)
    text = " ".join(done.stdout.split())
    assert "(Miyato et al. 2018)" in text
    assert "“Multi-CLS BERT: An Efficient Alternative to Traditional Ensembling.”" in text
    assert "[WARNING]" not in done.stderr


def test_ris_carries_the_triage_and_is_read_by_rispy(annotated) -> None:
    lib, papers = annotated
    entries = _by_title(rispy.loads(export.export(lib, papers, "ris")))
    assert len(entries) == len(papers)
    spectral = entries["Spectral Normalization for Generative Adversarial Networks"]
    assert spectral["type_of_reference"] == "CPAPER"
    assert spectral["authors"][:2] == ["Miyato, Takeru", "Kataoka, Toshiki"]
    assert spectral["year"] == "2018" and spectral["secondary_title"] == "ICLR"
    assert spectral["urls"] == ["https://openreview.net/forum?id=B1QRgziT-"]
    assert spectral["file_attachments1"] == "https://openreview.net/pdf/B1QRgziT-.pdf"
    assert spectral["keywords"][-4:] == ["gans", "to cite", "status: read", "starred"]
    assert spectral["notes"] == NOTE.split("\n")  # a note line is never read as a tag
    workshop = entries["Proceedings of Workshop AEW10: Concepts in Information Theory and "
                       "Communications"]
    assert workshop["type_of_reference"] == "UNPB"
    assert "status: to-read" in workshop["keywords"]
    assert "de With, Peter H. N." in workshop["authors"]


def test_org_headings_properties_links_and_note(annotated) -> None:
    lib, papers = annotated
    text = export.export(lib, papers, "org", title="Reading group", description="Thursdays")
    lines = text.splitlines()
    assert lines[:3] == ["#+TITLE: Reading group", "", "Thursdays"]
    heading = ("* DONE Spectral Normalization for Generative Adversarial Networks"
               "  :gans:to_cite:")
    at = lines.index(heading)
    block = lines[at:lines.index(":END:", at) + 1]
    assert block[1] == ":PROPERTIES:"
    assert ":AUTHORS: Takeru Miyato, Toshiki Kataoka, Masanori Koyama, Yuichi Yoshida" in block
    assert ":STATUS: read" in block and ":STARRED: yes" in block and ":YEAR: 2018" in block
    after = lines[at + len(block):]
    assert after[0] == ("[[https://openreview.net/forum?id=B1QRgziT-][page]] · "
                        "[[https://openreview.net/pdf/B1QRgziT-.pdf][PDF]]")
    assert after[2:5] == ["Read for the reading group.", " * not a heading",
                          "KW  - not a tag either"]
    assert "* TODO Proceedings of Workshop AEW10: Concepts in Information Theory and " \
        "Communications" in lines
    assert sum(1 for line in lines if line.startswith("* ")) == len(papers)


def test_org_keeps_no_link_but_to_the_web_a_file_or_a_doi(tmp_path: Path) -> None:
    hostile = [{"title": "[[elisp:(delete-file \"~/x\")][Click]] and shell:rm",
                "author": "Eve", "abstract": "Abstract with <elisp:(kill-emacs)>.",
                "site": "elisp:(shell-command \"id\")", "pdf": "https://example.org/p.pdf",
                "keywords": "x"}]
    source = tmp_path / "iclr2026.json"
    source.write_text(json.dumps(hostile))
    lib = Library.open(tmp_path / "lib", config=config_mod.defaults(), bundled=False)
    try:
        assert not lib.import_paths([source]).errors
        paper = next(lib.papers())
        lib.annotations.add_tags([paper.id], ["shell:x"])
        lib.annotations.set_note(paper.id, "[[shell: rm -rf ~]] then file:notes.org")
        lib.annotations.lists.create("[[elisp:(x)]]")
        lib.annotations.lists.add("[[elisp:(x)]]", [paper.id])
        org = export.export(lib, [paper], "org", title="[[elisp:(y)]]",
                            description="see help:x")
    finally:
        lib.close()
    assert not re.search(r"(elisp|shell|help) *:", org), org
    assert "[[elisp\u200b:(delete-file" in org and "[[shell\u200b: rm -rf ~]]" in org
    assert "[[https://example.org/p.pdf][PDF]]" in org and "file:notes.org" in org
    assert "][page]]" not in org  # an address of another type is no link


@pytest.mark.parametrize("fmt", ["ris", "csl-json"])
def test_round_trip_into_a_fresh_library(annotated, tmp_path: Path, fmt: str) -> None:
    lib, papers = annotated
    out = tmp_path / f"export{export.EXTENSIONS[fmt]}"
    out.write_text(export.export(lib, papers, fmt))
    fresh = Library.open(tmp_path / "fresh", config=config_mod.defaults(), bundled=False)
    try:
        report = fresh.import_paths([out])
        assert not report.errors and report.papers == len(papers)
        back = list(fresh.papers())
    finally:
        fresh.close()

    def facts(paper: Paper) -> tuple:
        return (paper.display_title, paper.authors, paper.year, paper.url, paper.pdf)

    assert sorted(map(facts, back)) == sorted(map(facts, papers))
