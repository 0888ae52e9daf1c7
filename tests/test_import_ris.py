"""RIS: rispy's and manubot's sample files, any line ending, a BOM, Latin-1, bad records."""

from __future__ import annotations

import gzip
from pathlib import Path

from formats_helpers import DATA, read, without_extension
from paper_tui.errors import SourceNotice


def test_rispy_full_example_field_by_field() -> None:
    fmt, papers, errors = read(DATA / "rispy-example-full.ris")
    assert fmt == "ris" and not errors  # the "1." / "2." lines between records are not tags
    first, second = papers
    assert first.title == "Title of reference"  # T1
    assert first.authors == ("Karl Marx", "Astrid Lindgren")  # A1, written "Marx, Karl"
    assert first.abstract.startswith("BACKGROUND: Lorem ipsum dolor sit amet")  # N2
    assert first.year == 2014  # Y1 "2014//"
    assert first.venue == "Lorem"  # JF
    assert first.keywords == ("Pippi", "Nordwind", "Piraten")
    assert first.url == "http://example_url.com"
    assert second.keywords[0] == "Pippi Langstrumpf" and second.year == 2006


def test_manubot_ris_with_doi_and_a_record_without_authors() -> None:
    _, papers, errors = read(DATA / "manubot-bibliography.ris")
    assert not errors
    scihub, blog = papers
    assert scihub.title == "Sci-Hub provides access to nearly all scholarly literature"
    assert scihub.authors[0] == "Daniel S Himmelstein"
    assert scihub.authors[-1] == "Casey S Greene"
    assert (scihub.venue, scihub.year) == ("eLife", 2018)  # T2, PY
    assert scihub.url == "https://elifesciences.org/articles/32822"  # UR before DO
    assert blog.authors == () and blog.url.startswith("http://blogs.nature.com/")


def test_any_line_ending_and_a_bom(tmp_path: Path) -> None:
    text = (DATA / "rispy-example-full.ris").read_text()
    for name, ending in (("crlf.ris", "\r\n"), ("cr.ris", "\r")):
        path = tmp_path / name
        path.write_bytes(text.replace("\n", ending).encode())
        assert [p.title for p in read(path)[1]] == ["Title of reference",
                                                     "The title of the reference"]
    bom = tmp_path / "bom.ris"
    bom.write_bytes(b"\xef\xbb\xbf" + text.encode())
    assert len(read(bom)[1]) == 2
    # rispy's own BOM sample: the BOM does not hide its first tag (its only record has a
    # DOI and no title, which is named as such)
    _, papers, [error] = read(DATA / "rispy-example-bom.ris")
    assert papers == [] and "neither title" in error.message and error.line == 1


def test_latin1_is_read_and_said() -> None:
    _, [paper], [notice] = read(DATA / "latin1.ris")
    assert paper.title == "Café au lait: a study of Müller"
    assert paper.authors == ("Jörg Müller",)
    assert isinstance(notice, SourceNotice) and "Latin-1" in notice.message


def test_bad_records_are_named_by_line_and_the_rest_imports() -> None:
    _, papers, errors = read(DATA / "bad.ris")
    assert [p.title for p in papers] == ["Second record, the first one had no ER",
                                         "Third record is fine"]
    assert [(e.line, e.message) for e in errors] == [
        (1, "record has no ER line before the next TY (line 4)"),
        (8, "record has neither title (TI/T1) nor abstract (AB/N2)")]


def test_sniffed_without_the_extension_and_gzipped(tmp_path: Path) -> None:
    assert read(without_extension("manubot-bibliography.ris", tmp_path))[0] == "ris"
    for name in ("refs.ris.gz", "refs.gz"):
        path = tmp_path / name
        path.write_bytes(gzip.compress((DATA / "manubot-bibliography.ris").read_bytes()))
        fmt, papers, _ = read(path)
        assert fmt == "ris" and len(papers) == 2
