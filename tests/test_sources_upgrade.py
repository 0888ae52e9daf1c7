"""An older library gets the venue's signals: its sources are re-read from the original
files when they are still there and unchanged, the rebuild is announced, annotations are
untouched; a source whose file is gone keeps its papers, said once."""

from __future__ import annotations

import gzip
import json
import shutil
from pathlib import Path

from paper_tui import config as config_mod
from paper_tui.holdings.sources import MANIFEST, VERSION, SourceStore
from paper_tui.importers import Hints
from paper_tui.library import Library

VENUE = Path(__file__).parent / "data" / "venue"
# What a stored line held before the venue's signals (sources version 1).
_NEW_FIELDS = ("decision_text", "ratings", "confidences", "rating", "rating_spread",
               "confidence", "area", "award", "citations", "citations_date", "code",
               "project", "affiliations", "countries")
_OLD_DEFAULTS = {"name": "", "authors": [], "venue": "", "year": None, "url": "", "pdf": "",
                 "keywords": [], "bibtex": "", "source": "", "tldr": "", "track": "",
                 "decision": "", "truncated": False, "title_generated": False,
                 "display_title": "", "display_abstract": "", "title_emphasis": [],
                 "abstract_emphasis": []}


def open_lib(root: Path, warnings: list[str] | None = None) -> Library:
    return Library.open(root, config=config_mod.defaults(), bundled=False,
                        warn=None if warnings is None else warnings.append)


def make_old(root: Path) -> None:
    """Turn a library into what paper-tui stored before the venue's signals: every field
    written, the decision as the source's word, no record without an abstract, manifest
    version 1; its index rebuilt from those sources."""
    for path in (root / "sources").glob("*.jsonl.gz"):
        old = []
        for line in gzip.decompress(path.read_bytes()).splitlines():
            record = json.loads(line)
            if not record["abstract"] and record.get("source") != "dblp":
                continue  # the old importers skipped these
            record["decision"] = record.get("decision_text", "")
            old.append({**_OLD_DEFAULTS, **{k: v for k, v in record.items()
                                            if k not in _NEW_FIELDS}})
        path.write_bytes(gzip.compress(b"".join(json.dumps(r).encode() + b"\n" for r in old)))
    shutil.rmtree(root / "index")
    with open_lib(root):  # the index rebuilt from the old sources
        pass
    manifest = json.loads((root / "sources" / MANIFEST).read_text())
    manifest["version"] = 1
    (root / "sources" / MANIFEST).write_text(json.dumps(manifest))


def test_an_old_library_is_reread_from_its_files(tmp_path: Path) -> None:
    files = tmp_path / "lists"
    shutil.copytree(VENUE, files)
    root = tmp_path / "lib"
    with open_lib(root) as lib:
        lib.import_paths([files])
        total = lib.count()
        oral = lib.search('title:"Spectral Normalization for Generative Adversarial"').hits[0]
        lib.set_status([oral.paper.id], "to-read")
    make_old(root)
    old = {p.id: p for p in SourceStore(root / "sources").all_papers()}
    assert len(old) < total  # what the old importers left out
    assert (old[oral.paper.id].decision, old[oral.paper.id].ratings) == ("Oral", ())
    annotations = (root / "annotations.yaml").read_bytes()

    warnings: list[str] = []
    with open_lib(root, warnings) as lib:
        assert lib.count() == total  # papers without an abstract are back
        paper = lib.search('title:"Spectral Normalization for Generative Adversarial"').hits[0]
        assert paper.paper.id == oral.paper.id  # same ids: annotations stay attached
        assert (paper.paper.decision, paper.paper.ratings) == ("oral", (7.0, 7.0, 8.0))
        assert lib.detail(paper.paper.id).status == "to-read"
    assert len(warnings) == 1 and "older paper-tui: re-reading 7 source file(s)" in warnings[0]
    assert (root / "annotations.yaml").read_bytes() == annotations
    assert json.loads((root / "sources" / MANIFEST).read_text())["version"] == VERSION

    again: list[str] = []
    with open_lib(root, again) as lib:  # once only
        assert lib.count() == total
    assert again == []


def test_a_source_whose_file_is_gone_or_whose_ids_differ_keeps_its_papers(
        tmp_path: Path) -> None:
    files = tmp_path / "lists"
    files.mkdir()
    shutil.copy(VENUE / "iclr2018.json", files)
    shutil.copy(VENUE / "nips2017.json", files)
    csv_file = files / "picks.csv"
    csv_file.write_text("title,abstract,status,rating\n"
                        "Kept Paper,An abstract long enough to be one.,Oral,7\n")
    root = tmp_path / "lib"
    with open_lib(root) as lib:
        lib.import_paths([files / "iclr2018.json", files / "nips2017.json"])
        lib.import_paths([csv_file], hints=Hints(venue="ICML", year=2024))
    make_old(root)
    (files / "iclr2018.json").unlink()  # gone
    before = {p.id: p for p in SourceStore(root / "sources").all_papers()}

    warnings: list[str] = []
    with open_lib(root, warnings) as lib:
        after = {h.paper.id: h.paper for h in lib.search("", limit=None).hits}
    assert len(warnings) == 2
    assert "re-reading 3 source file(s)" in warnings[0]
    # iclr2018: the file is gone; picks: re-read without --venue/--year the ids would differ
    assert warnings[1].startswith("2 source(s) keep the papers they had")
    assert "iclr2018" in warnings[1] and "picks" in warnings[1] and "re-import" in warnings[1]
    kept = [p for p in after.values() if p.venue in ("ICLR", "ICML")]
    assert len(kept) == 29 and all(before[p.id] == p for p in kept)
    nips = [p for p in after.values() if p.venue == "NeurIPS"]
    assert {p.decision for p in nips} <= {"oral", "spotlight", "poster"}
    assert len(nips) > len([p for p in before.values() if p.venue == "NeurIPS"])
