"""CSL-JSON: manubot's bibliography (family/given and literal names, date-parts)."""

from __future__ import annotations

from pathlib import Path

import pytest

from formats_helpers import DATA, read, without_extension
from paper_tui.errors import SourceError


def test_manubot_items_field_by_field() -> None:
    fmt, papers, errors = read(DATA / "manubot-bibliography.json")
    assert fmt == "csl-json" and not errors
    fermi, bees, review = papers
    assert fermi.title == "Generalization of the Fermi Pseudopotential"
    assert fermi.authors[:2] == ("Trang T. Le", "Zach Osman")  # literal names
    assert fermi.year == 2018  # issued.date-parts [[2018, 6, 14]]
    assert fermi.venue == "arXiv"  # container-title
    assert fermi.url == "https://arxiv.org/abs/1806.05726v1"  # URL before DOI
    assert fermi.abstract.startswith("Introduced eighty years ago, the Fermi")
    assert bees.authors == ("Michael L. Smith",)  # family / given
    assert (bees.venue, bees.year) == ("PeerJ", 2014)
    assert review.venue == "Journal of the Royal Society, Interface"


def test_a_doi_without_url_is_the_link(tmp_path: Path) -> None:
    path = tmp_path / "one.json"
    path.write_text('{"id": "a", "type": "article-journal", "title": "T", '
                    '"DOI": "10.7717/peerj.338", "issued": {"date-parts": [["2014"]]}}')
    _, [paper], _ = read(path)
    assert paper.url == "https://doi.org/10.7717/peerj.338" and paper.year == 2014


def test_bad_items_are_named_and_the_rest_imports() -> None:
    _, papers, errors = read(DATA / "bad-csl.json")
    assert [(p.title, p.authors, p.year) for p in papers] == [("A Fine Item", ("Jane Doe",),
                                                               2021)]
    assert [(e.record, e.message) for e in errors] == [
        (2, "not a CSL-JSON item (a JSON object)"),
        (3, "item 'empty' has neither title nor abstract")]


def test_broken_json_names_its_line() -> None:
    with pytest.raises(SourceError, match=r"truncated-csl.json:1: invalid JSON"):
        read(DATA / "truncated-csl.json")


def test_sniffed_without_the_extension(tmp_path: Path) -> None:
    assert read(without_extension("manubot-bibliography.json", tmp_path))[0] == "csl-json"
