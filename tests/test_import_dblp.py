"""DBLP XML: records without abstracts are papers; markup and entities in titles."""

from __future__ import annotations

from pathlib import Path

from formats_helpers import DATA, read, without_extension
from paper_tui import config as config_mod
from paper_tui.library import Library


def test_dblp_record_field_by_field() -> None:
    fmt, papers, errors = read(DATA / "dblp-sample.xml")
    assert fmt == "dblp" and not errors  # <proceedings> records are volumes, not papers
    [paper] = papers
    assert paper.title == "Multi-CLS BERT: An Efficient Alternative to Traditional Ensembling"
    assert paper.authors == ("Haw-Shiuan Chang", "Ruei-Yao Sun", "Kathryn Ricci",
                             "Andrew McCallum")
    assert (paper.venue, paper.year) == ("ACL", 2023)  # "ACL (1)": volume 1 of ACL
    assert paper.url == "https://doi.org/10.18653/v1/2023.acl-long.48"
    assert paper.abstract == ""  # no abstract in the source, and still a paper
    assert paper.name == "Multi-CLS BERT"  # naming works on the title


def test_markup_entities_homonym_numbers_and_bad_records() -> None:
    _, papers, errors = read(DATA / "dblp-markup.xml")
    [paper] = papers
    assert paper.title == "On k-Means with O(n2) Updates & Few Passes"
    assert paper.authors == ("Jörg Müller", "Ana García")  # &ouml; …; "0002" dropped
    assert paper.venue == "J. Mach. Learn. Res." and paper.pdf.endswith(".pdf")
    assert [(e.line, e.record) for e in errors] == [(12, 2), (16, 3)]
    assert errors[0].message.startswith("invalid XML record")
    assert errors[1].message == "record 'conf/example/NoTitle20' has no title"


def test_title_only_papers_are_searchable(tmp_path: Path) -> None:
    lib = Library.open(tmp_path / "lib", config=config_mod.defaults(), bundled=False)
    try:
        report = lib.import_paths([DATA / "dblp-sample.xml"])
        assert (report.papers, report.skipped, report.errors) == (1, [], [])
        assert [h.paper.authors[-1] for h in lib.search("ensembling McCallum").hits] == [
            "Andrew McCallum"]
    finally:
        lib.close()


def test_sniffed_without_the_extension(tmp_path: Path) -> None:
    assert read(without_extension("dblp-sample.xml", tmp_path))[0] == "dblp"
