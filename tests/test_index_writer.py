"""The index writer (posting buffer instead of Whoosh's pool) writes Whoosh's files
byte for byte, but for packed positions, and keeps replacing, deleting and merging segments
right."""

from __future__ import annotations

import io
from array import array
from pathlib import Path

import numpy as np
import pytest
from whoosh import index as windex
from whoosh.filedb.structfile import StructFile
from whoosh.writing import SegmentWriter

from paper_tui.index import PaperIndex
from paper_tui.index.schema import CODEC, build_schema
from paper_tui.index.snapshot import Snapshot
from paper_tui.index.whoosh_internals import FieldFiles, SpilledNumbers
from paper_tui.index.writer import _TermWriter, add_document, document, open_writer
from paper_tui.model import Paper


def papers(n: int, tag: str = "") -> list[Paper]:
    """``n`` papers sharing common words (posting lists longer than one 1,024 block)."""
    out = []
    for i in range(n):
        title = f"Graph networks {tag}{i} for Rodolà's MemR³ model"
        abstract = (f"We study graph networks and running models; item {i} of {n}. "
                    f"{'Diffusion ' * (i % 3)}Results: state-of-the-art, 3.5 datasets.")
        out.append(Paper(id=f"p{tag}{i}", title=title, abstract=abstract, name=f"Net{i % 7}",
                         authors=(f"Ann Author{i % 11}", "Bob Builder"), venue="NeurIPS",
                         year=2000 + i % 20, keywords=("graphs", f"kw{i % 5}"), source="s",
                         display_title=title, display_abstract=abstract))
    return out


def segment_files(path: Path) -> dict[str, bytes]:
    """The files of an index's only segment, by extension (segment names are random)."""
    ix = windex.open_dir(str(path))
    (segment,) = ix._segments()
    prefix = segment.make_filename("")
    return {f.name[len(prefix):]: f.read_bytes() for f in path.iterdir()
            if f.name.startswith(prefix)}


@pytest.mark.parametrize("block", [None, 7])  # the columns' numbers spilled to disk by 7s
def test_segments_are_whooshs_byte_for_byte(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                           block: int | None) -> None:
    if block:
        monkeypatch.setattr(SpilledNumbers, "BLOCK", block)
    docs = [document(p) for p in papers(1100)]
    whoosh_dir, ours_dir = tmp_path / "whoosh", tmp_path / "ours"
    for path in (whoosh_dir, ours_dir):
        path.mkdir()
        windex.create_in(str(path), build_schema())
    writer = SegmentWriter(windex.open_dir(str(whoosh_dir), schema=build_schema()), codec=CODEC,
                           compound=False)
    for doc in docs:
        writer.add_document(**doc)
    writer.commit()
    words: set[str] = set()
    with open_writer(windex.open_dir(str(ours_dir), schema=build_schema()), ours_dir) as writer:
        for doc in docs:
            add_document(writer, doc, words)
    theirs, ours = segment_files(whoosh_dir), segment_files(ours_dir)
    assert sorted(ours) == sorted(theirs)
    # The posting blocks of positional fields differ (their values packed), and so do the
    # term infos (offsets into the postings): every other file is Whoosh's.
    for ext in set(theirs) - {".pst", ".trm"}:
        assert ours[ext] == theirs[ext], ext
    assert ours[".pst"] != theirs[".pst"]
    assert {"graph", "networks", "rodola", "memr3", "for", "ann", "author3"} <= words
    # and Whoosh reads the same postings from both, values included
    readers = [windex.open_dir(str(path)).reader() for path in (whoosh_dir, ours_dir)]
    lexicons = [sorted(reader.all_terms()) for reader in readers]
    assert lexicons[0] == lexicons[1]
    for fieldname, btext in lexicons[0]:
        postings = []
        for reader in readers:
            m = reader.postings(fieldname, btext)
            found = []
            while m.is_active():
                found.append((m.id(), m.weight(), m.value()))
                m.next()
            postings.append(found)
        assert postings[0] == postings[1], (fieldname, btext)
    # and our readers read Whoosh's own blocks (tuples; single postings inlined in the term
    # info) as they read ours: postings, positions, phrases
    snaps = [Snapshot(windex.open_dir(str(path), schema=build_schema()))
             for path in (whoosh_dir, ours_dir)]
    every = np.arange(len(docs))
    for fieldname, btext in lexicons[0]:
        if fieldname in ("abstract", "title"):
            theirs, ours = (s.postings(fieldname, btext) for s in snaps)
            assert theirs.ids.tolist() == ours.ids.tolist()
            assert theirs.weights.tolist() == ours.weights.tolist()
            found = [[a.tolist() for a in s._candidate_positions(fieldname, btext, every)]
                     for s in snaps]
            assert found[0] == found[1], (fieldname, btext)
    found = {}
    for words in (["graph", "network"], ["run", "model"], ["item", "1099"], ["1099", "item"]):
        hits = [np.flatnonzero(s._phrase_docs("abstract", words)).tolist() for s in snaps]
        assert hits[0] == hits[1]
        found[" ".join(words)] = hits[0]
    assert len(found["graph network"]) == len(found["run model"]) == len(docs)
    assert found["item 1099"] == [1099] and found["1099 item"] == []


def test_replacing_deleting_and_merging_through_the_buffer(tmp_path: Path) -> None:
    index = PaperIndex(tmp_path / "index")
    index.open()
    index.add(papers(30))
    index.add(papers(5, tag="b"))  # small segments are merged at commit, through the buffer
    changed = [Paper(**{**p.to_dict(), "authors": ("Carol Changed",), "keywords": ()})
               for p in papers(3)]
    index.add(changed)  # same ids: replaced
    index.delete(["p10"])
    assert index.count() == 34
    assert index.get("p1").authors == ("Carol Changed",)
    assert index.get("p10") is None
    assert index.search('author:changed').total == 3
    assert index.search('"graph networks"').total == 34
    assert index.search("diffusion").total == len([i for i in range(30) if i % 3 and i != 10]) \
        + len([i for i in range(5) if i % 3])
    index.close()


def test_postings_written_out_in_runs_make_the_same_segment(tmp_path: Path) -> None:
    """A buffer written out as runs every few hundred postings (:mod:`posting_runs`) and
    merged at commit writes the same files as one held whole, byte for byte."""
    docs = [document(p) for p in papers(1100)]
    segments = []
    for name, run_postings in (("whole", None), ("runs", 700)):
        path = tmp_path / name
        path.mkdir()
        windex.create_in(str(path), build_schema())
        ix = windex.open_dir(str(path), schema=build_schema())
        with open_writer(ix, path, run_postings=run_postings) as writer:
            for doc in docs:
                add_document(writer, doc)
            if run_postings:
                assert writer.pool.runs_written > 50
        segments.append(segment_files(path))
    assert segments[0] == segments[1]
    assert not [f for f in (tmp_path / "runs").iterdir() if "postings" in f.name]


class _Terms:
    """A term table that keeps what it is given."""

    def __init__(self) -> None:
        self.added: list[tuple[bytes, bytes]] = []

    def add(self, key: bytes, value: bytes) -> None:
        self.added.append((key, value))


@pytest.mark.parametrize("fieldname", ["id", "abstract", "year"])
@pytest.mark.parametrize("doc", [0, 255, 256, 65_535, 65_536, 2**31])
@pytest.mark.parametrize("weight", [1.0, 0.0, 2.5])
@pytest.mark.parametrize("value", [b"", b"\x01\x02\x03"])
def test_a_term_in_one_document_is_written_as_a_longer_one_is(
        fieldname: str, doc: int, weight: float, value: bytes) -> None:
    """The short way for a term in one document writes the bytes the general one does."""
    written = []
    for way in ("_one", "_blocks"):
        postfile = StructFile(io.BytesIO())
        postfile.write(b"before")
        terms = _Terms()
        writer = _TermWriter(FieldFiles(postfile, terms, 3, 128),
                             build_schema()[fieldname].format)
        if way == "_blocks":  # what every term went through before there were two ways
            writer._one = lambda doc, weight, sizes, blob, w=writer: w._blocks(  # type: ignore
                array("I", [doc]), array("f", [weight]), sizes, blob)
        writer(b"term", array("I", [doc]), array("f", [weight]), array("I", [len(value)]),
               value)
        written.append((postfile.file.getvalue(), terms.added))
    assert written[0] == written[1]
