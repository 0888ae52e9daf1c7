"""arXiv Atom: API results and listing feeds; one paper per arXiv id, the newest text."""

from __future__ import annotations

from pathlib import Path

from formats_helpers import DATA, read, without_extension
from paper_tui import config as config_mod
from paper_tui.library import Library


def test_api_results_field_by_field() -> None:
    fmt, [paper], errors = read(DATA / "arxiv-api.atom")
    assert fmt == "arxiv" and not errors
    assert paper.id == "arxiv-1707.08567"  # the arXiv id without its version
    assert paper.title == ("Proceedings of Workshop AEW10: Concepts in Information Theory "
                           "and Communications")
    assert paper.abstract.startswith('The 10th Asia-Europe workshop in "Concepts in')
    assert "\n" not in paper.abstract
    assert paper.authors[:2] == ("Kees A. Schouhamer Immink", "Stan Baggen")
    assert len(paper.authors) == 34
    assert (paper.venue, paper.year) == ("arXiv", 2017)
    assert paper.keywords == ("cs.IT",)  # the primary category, once
    assert paper.url == "https://arxiv.org/abs/1707.08567"
    assert paper.pdf == "https://arxiv.org/pdf/1707.08567"


def test_old_style_ids() -> None:
    _, [paper], _ = read(DATA / "arxiv-api-old-id.atom")
    assert paper.id == "arxiv-astro-ph-0601001"
    assert paper.url == "https://arxiv.org/abs/astro-ph/0601001"
    assert paper.keywords[0] == "astro-ph"


def test_a_listing_feed() -> None:
    fmt, [paper], _ = read(DATA / "arxiv-listing.atom")
    assert fmt == "arxiv"
    assert paper.id == "arxiv-2203.01250"
    assert paper.title == "Mass concentration in rescaled first order integral functionals"
    # "arXiv:2203.01250v3 Announce Type: replace-cross Abstract:" is the feed's, not the paper's
    assert paper.abstract.startswith("We consider first order local minimization problems")
    assert paper.authors == ("Antonin Monteil", "Paul Pegon")
    assert paper.keywords == ("math.AP", "math.OC")
    assert paper.year == 2024


def test_two_versions_are_one_paper_the_newer_text_winning(tmp_path: Path) -> None:
    text = (DATA / "arxiv-api.atom").read_text()
    entry = text[text.index("  <entry>"):text.index("</entry>") + len("</entry>")]
    newer = entry.replace("1707.08567v1", "1707.08567v3").replace(
        "<summary>The 10th", "<summary>Revised: the 10th")
    both = tmp_path / "versions.atom"
    both.write_text(text.replace(entry, newer + "\n" + entry))  # v3 before v1 in the file
    _, papers, _ = read(both)
    assert [p.id for p in papers] == ["arxiv-1707.08567"]
    assert papers[0].abstract.startswith("Revised: the 10th")


def test_an_annotation_holds_across_versions(tmp_path: Path) -> None:
    lib = Library.open(tmp_path / "lib", config=config_mod.defaults(), bundled=False)
    feed = tmp_path / "in" / "feed.atom"
    feed.parent.mkdir()
    text = (DATA / "arxiv-api.atom").read_text()
    feed.write_text(text)
    try:
        lib.import_paths([feed])
        lib.annotations.set_note("arxiv-1707.08567", "read the v1")
        feed.write_text(text.replace("1707.08567v1", "1707.08567v2")
                        .replace("<summary>The 10th", "<summary>Revised: the 10th"))
        lib.import_paths([feed])
        paper = lib.paper("arxiv-1707.08567")
        assert paper.abstract.startswith("Revised")
        assert lib.detail(paper.id).note == "read the v1"
        assert lib.count() == 1
    finally:
        lib.close()


def test_sniffed_without_the_extension(tmp_path: Path) -> None:
    assert read(without_extension("arxiv-listing.atom", tmp_path))[0] == "arxiv"
    assert read(without_extension("arxiv-api.atom", tmp_path))[0] == "arxiv"


def test_bad_feeds() -> None:
    # The API's own answer to a malformed id: an entry that is no paper.
    _, papers, [error] = read(DATA / "arxiv-api-error.atom")
    assert papers == [] and error.record == 1 and error.message == "entry has no arXiv id"
    # A feed cut off: what came before the cut imports; the cut is named by its line.
    _, papers, errors = read(DATA / "bad.atom")
    assert [p.id for p in papers] == ["arxiv-2401.00001"]
    assert [(e.record, e.line) for e in errors] == [(2, None), (None, 15)]
    assert errors[1].message.startswith("invalid XML")
