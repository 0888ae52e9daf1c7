"""Every importer on real files (bundled list, samples cut from real data, hand-made files)."""

from __future__ import annotations

import gzip
import json
import shutil
from pathlib import Path

import pytest

from paper_tui.errors import SourceError
from paper_tui.importers import import_file
from paper_tui.library import Library
from paper_tui.model import Paper, make_id

DATA = Path(__file__).parent / "data"


def read_all(path: Path) -> tuple[list[Paper], list[SourceError]]:
    _, _, records = import_file(path)
    papers, errors = [], []
    for record in records:
        (errors if isinstance(record, SourceError) else papers).append(record)
    return papers, errors


# -- the bundled plain-text list --------------------------------------------------------------

def test_bundled_chunks_merge_into_one_venue(bundled_dir: Path) -> None:
    files = sorted(bundled_dir.glob("*.txt"))
    assert [f.name[:3] for f in files] == ["000", "003"]
    papers = [p for f in files for p in read_all(f)[0]]
    assert len(papers) == 38
    assert {(p.venue, p.year) for p in papers} == {("NeurIPS", 2026)}
    assert len({p.id for p in papers}) == 38
    assert all(p.title and p.abstract and not p.authors for p in papers)


def test_chunk_starting_mid_word_is_kept_and_marked(bundled_dir: Path) -> None:
    papers, errors = read_all(next(bundled_dir.glob("003_*.txt")))
    assert not errors
    assert papers[0].abstract.startswith("rocess Reward Models")
    assert papers[0].truncated
    assert not any(p.truncated for p in papers[1:])


def test_bundled_abstract_keeps_raw_and_renders_display(bundled_dir: Path) -> None:
    papers, _ = read_all(next(bundled_dir.glob("000_*.txt")))
    first = papers[0]
    assert "L$^2$EAP" in first.abstract
    assert "L²EAP" in first.display_abstract


def test_plain_text_without_header_is_an_error(tmp_path: Path) -> None:
    bad = tmp_path / "list.txt"
    bad.write_text("Just some text without a venue header line at the top of the file.\n\n"
                   "And a paragraph that would be an abstract, long enough to count.\n")
    with pytest.raises(SourceError, match=r"list\.txt:1: first line names no venue"):
        read_all(bad)


# -- paperlists JSON ----------------------------------------------------------------------------

def test_paperlists_fields() -> None:
    papers, errors = read_all(DATA / "nips2018-sample.json")
    assert len(papers) == 24 and not errors  # every record is a paper, with an abstract or not
    assert len({p.id for p in papers}) == 23  # the sample repeats one record verbatim
    no_abstract = papers[20]  # record 21: the source has no abstract for it
    assert no_abstract.title == "A loss framework for calibrated anomaly detection"
    assert (no_abstract.abstract, no_abstract.decision) == ("", "spotlight")
    first = papers[0]
    assert first.title == "$\\ell_1$-regression with Heavy-tailed Distributions"
    assert first.display_title == "ℓ₁-regression with Heavy-tailed Distributions"
    assert first.authors == ("Lijun Zhang", "Zhi-Hua Zhou")
    assert (first.venue, first.year) == ("NeurIPS", 2018)
    assert first.url == "https://nips.cc/virtual/2018/poster/11127"
    assert first.bibtex.startswith("@inproceedings{NEURIPS2018_8b16ebc0")
    assert (first.decision, first.decision_text) == ("poster", "Poster")


@pytest.mark.parametrize(("name", "venue", "year"), [
    ("iclr2018-sample.json", "ICLR", 2018),
    ("icml2019-sample.json", "ICML", 2019),
    ("acl2022-sample.json", "ACL", 2022),
    ("nips2017-sample.json", "NeurIPS", 2017),
])
def test_paperlists_venues(name: str, venue: str, year: int) -> None:
    papers, _ = read_all(DATA / name)
    assert papers
    assert {(p.venue, p.year) for p in papers} == {(venue, year)}
    assert all(p.title and p.abstract and p.authors for p in papers)
    assert all(not p.abstract.startswith(" ") for p in papers)


def test_paperlists_repeated_source_id_keeps_both_papers(tmp_path: Path) -> None:
    records = json.loads((DATA / "nips2018-sample.json").read_text())[:2]
    for record in records:
        record["id"] = "same-id"
    path = tmp_path / "nips2018.json"
    path.write_text(json.dumps(records))
    papers, _ = read_all(path)
    assert len({p.id for p in papers}) == 2


# -- JSON Lines ---------------------------------------------------------------------------------

def test_jsonl_sample_including_line_separators() -> None:
    papers, errors = read_all(DATA / "papers-ml-sample.jsonl")
    assert not errors
    raw_lines = [line for line in (DATA / "papers-ml-sample.jsonl").read_bytes().split(b"\n")
                 if line.strip()]
    assert len(papers) == len(raw_lines) == 41
    # One record's title holds U+2028: it stays one record, the separator folds to a space.
    odd = [json.loads(line) for line in raw_lines if "\u2028".encode() in line]
    assert odd
    assert " ".join(odd[0]["title"].split()) in {p.title for p in papers}
    record = json.loads(raw_lines[0])
    assert papers[0].title == " ".join(record["title"].split())
    assert list(papers[0].authors) == record["authors"]
    assert papers[0].year == record["year"]


def test_gzip_is_read_transparently(tmp_path: Path) -> None:
    gz = tmp_path / "papers.jsonl.gz"
    gz.write_bytes(gzip.compress((DATA / "papers-ml-sample.jsonl").read_bytes()))
    plain_ids = [p.id for p in read_all(DATA / "papers-ml-sample.jsonl")[0]]
    assert [p.id for p in read_all(gz)[0]] == plain_ids


def test_jsonl_bad_lines_are_reported_and_the_rest_imports(tmp_path: Path) -> None:
    good = (DATA / "papers-ml-sample.jsonl").read_bytes().split(b"\n")[:3]
    path = tmp_path / "mixed.jsonl"
    path.write_bytes(b"\n".join([good[0], b"{not json", good[1], b"[1, 2]",
                                 b'{"title": "no abstract"}', good[2]]) + b"\n")
    papers, errors = read_all(path)
    assert len(papers) == 4  # a record with a title and no abstract is a paper
    assert [p.title for p in papers if not p.abstract] == ["no abstract"]
    messages = [str(e) for e in errors]
    assert len(messages) == 2
    assert any("mixed.jsonl:2: invalid JSON" in m for m in messages)
    assert any("mixed.jsonl:4: not a JSON object" in m for m in messages)


# -- BibTeX and CSV -----------------------------------------------------------------------------

def test_bibtex() -> None:
    papers, errors = read_all(DATA / "sample.bib")
    assert [p.title for p in papers] == ["Attention Is All You Need",
                                         "Functional Maps for Shape Correspondence"]
    attention, maps = papers
    # names as prose, LaTeX resolved; a proceedings title names its venue; and the ids are
    # the ones these entries have always had (annotations on them stay theirs)
    assert attention.authors == ("Ashish Vaswani", "Noam Shazeer", "Niki Parmar")
    assert maps.authors == ("Emanuele Rodolà", "Luca Cosmo")
    assert (attention.venue, maps.venue) == ("NeurIPS", "Computer Graphics Forum")
    assert [p.id for p in papers] == ["advancesinne2017-796a33d558",
                                      "computergrap2019-215ffa905a"]
    assert attention.year == 2017 and attention.keywords == ("attention", "transformers")
    assert attention.url == "https://arxiv.org/abs/1706.03762"
    assert "@inproceedings{vaswani2017attention" in attention.bibtex
    assert maps.url == "https://doi.org/10.1111/cgf.13599"
    assert len(errors) == 1 and "empty2020" in str(errors[0])


def test_bibtex_names_and_titles_are_read_as_bibtex_reads_them(tmp_path: Path) -> None:
    bib = tmp_path / "refs.bib"
    bib.write_text(r"""@article{m2020,
  title = {{\"U}ber die {M}ethode: $O(n \log n)$ Bounds \& \emph{More}},
  author = {M{\"u}ller, J{\"o}rg and de la Fuente, Ana and Smith, Jr., John and
            {Barnes and Noble, Inc.} and Kaiser, {\L}ukasz and Veli{\v{c}}kovi{\'c}, Petar
            and others},
  journal = {Journal of Machine Learning Research}, year = 2020,
}
""", "utf-8")
    (paper,), errors = read_all(bib)
    assert errors == []
    assert paper.authors == ("Jörg Müller", "Ana de la Fuente", "John Smith Jr.",
                             "Barnes and Noble, Inc.", "Łukasz Kaiser", "Petar Veličković")
    assert paper.display_title == "Über die Methode: O(n log n) Bounds & More"
    start, end, style = paper.title_emphasis[0]
    assert (paper.display_title[start:end], style) == ("More", "italic")
    assert paper.venue == "JMLR"


def test_csv() -> None:
    papers, errors = read_all(DATA / "sample.csv")
    assert [p.year for p in papers] == [2016, 2015]
    assert papers[0].authors == ("Kaiming He", "Xiangyu Zhang", "Shaoqing Ren", "Jian Sun")
    assert papers[1].authors == ("Diederik P. Kingma", "Jimmy Ba")
    assert papers[0].venue == "CVPR" and papers[0].keywords == ("residual", "vision")
    assert len(errors) == 1 and "sample.csv:4" in str(errors[0])


# -- bad files ----------------------------------------------------------------------------------

@pytest.mark.parametrize(("name", "content", "message"), [
    ("empty.json", b"", "file is empty"),
    ("blank.txt", b"\n\n  \n", "file is empty"),
    ("binary.jsonl", b"\x00\x01\x02\xff" * 100, "binary file"),
    ("latin1.txt", "NeurIPS 2026\n\nCaf\u00e9 abstract that is long enough to be one.".encode(
        "latin-1"), "not UTF-8"),
    ("broken.json", b'[{"title": "x", ', "invalid JSON"),
    ("object.json", b'{"title": "x"}', "expected a JSON array"),
    ("broken.bib", b"@article{x, title = {unclosed", "BibTeX"),
    ("nocols.csv", b"foo,bar\n1,2\n", "header row names neither"),
    ("notes.xyz", b"hello there", "unknown format"),
], ids=lambda value: value if isinstance(value, str) and "." in value else "")
def test_bad_files_give_one_clear_error(tmp_path: Path, name: str, content: bytes,
                                         message: str) -> None:
    path = tmp_path / name
    path.write_bytes(content)
    with pytest.raises(SourceError) as info:
        read_all(path)
    assert message in str(info.value)
    assert name in str(info.value)


# -- through the library: ids, idempotence, directories -------------------------------------

@pytest.mark.parametrize(("fields", "expected"), [
    (("NeurIPS", 2026, "Attention Is All You Need", ["A. Vaswani", "N. Shazeer"],
      "The dominant  sequence\ttransduction models.\n"), "neurips2026-a5adbcec81"),
    (("ICML", 2024, "\ufb01ne-Tuning \uff2c\uff2c\uff2d\uff53\u2003at\u00a0Scale",
      ["Zo\u00eb \u00c7elik"], "\u00dcber\u2028gro\u00df\x1fSTRASSE \u1680 x"),
     "icml2024-ef6375b005"),
    (("", None, "  Leading and trailing  ", [], ""), "paper-9ce6cbae74"),
    (("ICLR", 2025, "\u2168 \u338f \u00bd \ufb00", ["\u0130stanbul"],
      "\u03a3\u0391\u03a3 \u03c2"),
     "iclr2025-e615a73e92"),
])
def test_ids_are_the_ones_earlier_versions_made(fields: tuple, expected: str) -> None:
    """An id names a paper in every reader's annotations: the same text must always make
    the same id (pinned from the version before ids skipped NFKC for ASCII text)."""
    assert make_id(*fields) == expected


def test_every_kind_of_white_space_is_one_space_in_an_id() -> None:
    spaces = [chr(c) for c in range(0x110000) if chr(c).isspace()]
    plain = make_id("V", 2020, "a b", ["x"], "c d")
    assert {make_id("V", 2020, f"a{s}{s}b{s}", ["x"], f"{s}c{s}d") for s in spaces} == {plain}


def test_reimport_is_idempotent_and_ids_are_stable(tmp_path: Path, copy_data) -> None:
    lib = Library.open(tmp_path / "lib", bundled=False)
    source = copy_data("papers-ml-sample.jsonl")
    first = lib.import_paths([source])
    assert (first.added, first.failed) == (41, False)
    again = lib.import_paths([source], force=True)
    assert (again.added, again.unchanged) == (0, 41)
    assert lib.count() == 41
    # Same papers in another order, from a moved file: same ids.
    moved = tmp_path / "elsewhere" / "papers-ml-sample.jsonl"
    moved.parent.mkdir()
    lines = [ln for ln in source.read_bytes().split(b"\n") if ln.strip()]
    moved.write_bytes(b"\n".join(reversed(lines)) + b"\n")
    source.unlink()
    report = lib.import_paths([moved])
    assert report.added == 0 and lib.count() == 41
    lib.close()


def test_directory_import_keeps_going_past_bad_files(tmp_path: Path) -> None:
    folder = tmp_path / "lists"
    folder.mkdir()
    shutil.copy(DATA / "sample.csv", folder)
    shutil.copy(DATA / "sample.bib", folder)
    (folder / "broken.json").write_text("[{")
    lib = Library.open(tmp_path / "lib", bundled=False)
    report = lib.import_paths([folder, tmp_path / "missing.json"])
    assert report.added == 4
    assert report.failed
    assert any("broken.json" in str(e) for e in report.errors)
    assert any("missing.json: no such file" in str(e) for e in report.errors)
    lib.close()


def test_papers_survive_the_original_file(tmp_path: Path, copy_data) -> None:
    lib = Library.open(tmp_path / "lib", bundled=False)
    source = copy_data("sample.csv")
    lib.import_paths([source])
    source.unlink()
    shutil.rmtree(tmp_path / "lib" / "index")
    lib.close()
    reopened = Library.open(tmp_path / "lib", bundled=False)
    assert reopened.count() == 2
    reopened.close()


def test_id_prefix_resolution(library: Library) -> None:
    paper = next(iter(library.papers()))
    assert library.paper(paper.id[:16]).id == paper.id
    with pytest.raises(Exception, match="ambiguous"):
        library.resolve("neurips2026-")
    with pytest.raises(Exception, match="no paper"):
        library.resolve("nosuchpaper")
