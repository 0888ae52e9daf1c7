"""Stable citation keys (``citekeys.yaml``): a key once given out never changes — as a
list grows, after a re-import, across processes, a sync and a second machine — and a new
key collides with none given before."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

import yaml

from paper_tui import config as config_mod
from paper_tui.library import Library
from paper_tui.model import Paper
from team_helpers import Member, bare_repo

SMITHS = [{"title": f"Deep {topic} Networks", "authors": ["John Smith", "Ada Lovelace"],
           "abstract": f"We study deep {topic.lower()} networks.", "venue": "ICML",
           "year": 2020, "url": f"https://example.org/{topic.lower()}"}
          for topic in ("Spiking", "Sparse", "Shallow", "Stochastic", "Spectral")]
"""Five papers whose own key is the same: smith2020deep."""


def write_smiths(folder: Path, count: int = len(SMITHS)) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "smiths.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in SMITHS[:count]), "utf-8")
    return path


def smith_library(root: Path, count: int = len(SMITHS)) -> tuple[Library, list[Paper]]:
    lib = Library.open(root, config=config_mod.defaults(), bundled=False)
    lib.import_paths([write_smiths(root.parent / "input", count)])
    by_title = {p.title: p for p in lib.papers()}
    return lib, [by_title[r["title"]] for r in SMITHS[:count]]


def test_a_key_given_out_never_changes_as_a_list_grows(tmp_path: Path) -> None:
    lib, (spiking, sparse, shallow, *_) = smith_library(tmp_path / "lib")
    try:
        # The second paper is cited first, alone: it gets the plain key...
        assert lib.cite([sparse], "key").text == "smith2020deep"
        # ...and keeps it when the list it is cited in grows to hold an earlier paper
        # (per batch, it used to become smith2020deepa here).
        assert lib.cite([spiking, sparse, shallow], "key").text == \
            "smith2020deepa,smith2020deep,smith2020deepb"
        assert lib.cite([shallow, sparse], "bibtex").text.startswith("@inproceedings{"
                                                                        "smith2020deepb,")
        exported = json.loads(lib.export([sparse, spiking], "csl-json"))
        assert [item["id"] for item in exported] == ["smith2020deep", "smith2020deepa"]
    finally:
        lib.close()
    stored = yaml.safe_load((tmp_path / "lib" / "citekeys.yaml").read_text("utf-8"))
    assert {pid: rec["key"] for pid, rec in stored["keys"].items()} == {
        sparse.id: "smith2020deep", spiking.id: "smith2020deepa",
        shallow.id: "smith2020deepb"}


def test_a_preview_gives_out_no_key(tmp_path: Path) -> None:
    lib, (spiking, sparse, *_) = smith_library(tmp_path / "lib")
    try:
        assert lib.cite([spiking], "apa", preview=True).text.startswith("Smith, J.")
        assert lib.cite([sparse], "key").text == "smith2020deep"
    finally:
        lib.close()


def test_keys_survive_a_re_import_and_a_new_process(tmp_path: Path) -> None:
    root = tmp_path / "lib"
    lib, papers = smith_library(root, count=2)
    keys = lib.cite(papers[::-1], "key").text
    lib.close()
    assert keys == "smith2020deep,smith2020deepa"
    member = Member(root, "ada")
    member.run("import", str(write_smiths(tmp_path / "input")), "--force")
    ids = [p.id for p in papers]
    assert member.run("cite", ids[1], ids[0], "-f", "key").stdout.strip() == keys
    assert member.run("cite", *ids, "-f", "key").stdout.strip() == \
        "smith2020deepa,smith2020deep"


def test_processes_giving_keys_at_once_never_give_one_key_twice(tmp_path: Path) -> None:
    root = tmp_path / "lib"
    lib, papers = smith_library(root)
    lib.close()
    running = [subprocess.Popen([sys.executable, "-m", "paper_tui", "--library", str(root),
                                 "cite", paper.id, "-f", "key"], stdout=subprocess.PIPE,
                                text=True) for paper in papers]
    keys = [proc.communicate(timeout=300)[0].strip() for proc in running]
    assert all(proc.returncode == 0 for proc in running)
    assert sorted(keys) == ["smith2020deep", "smith2020deepa", "smith2020deepb",
                            "smith2020deepc", "smith2020deepd"]
    member = Member(root, "ada")
    assert member.run("cite", *[p.id for p in papers], "-f", "key").stdout.strip() == \
        ",".join(keys)


def test_a_sync_shares_the_keys_and_a_second_machine_keeps_them(tmp_path: Path) -> None:
    remote = bare_repo(tmp_path / "team.git")
    for name in ("alice", "bob", "alice-laptop"):
        smith_library(tmp_path / name)[0].close()
    alice, bob, laptop = (Member(tmp_path / n, n.split("-")[0])
                          for n in ("alice", "bob", "alice-laptop"))
    ids = [p.id for p in smith_library(tmp_path / "ids")[1]]
    assert alice.run("cite", ids[2], "-f", "key").stdout.strip() == "smith2020deep"
    alice.sync(remote)
    bob.sync(remote)
    # Bob cites the paper under Alice's key, and his new paper gets a key of its own.
    assert bob.run("cite", ids[2], ids[0], "-f", "key").stdout.strip() == \
        "smith2020deep,smith2020deepa"
    bob.sync()
    # Alice's laptop gave a key before it ever synced: the older key wins the merge.
    time.sleep(1.1)  # keys are stamped to the second: the laptop's is a second younger
    assert laptop.run("cite", ids[3], "-f", "key").stdout.strip() == "smith2020deep"
    time.sleep(1.1)  # keys are stamped to the second
    alice.sync()
    assert alice.run("cite", ids[3], "-f", "key").stdout.strip() == "smith2020deepb"
    alice.sync()
    laptop.sync(remote)
    # The laptop's key for ids[3] collided with the team's key for ids[2], given first:
    # the team's stands, and ids[3] takes the key the team gave it.
    assert laptop.run("cite", ids[2], ids[0], ids[3], "-f", "key").stdout.strip() == \
        "smith2020deep,smith2020deepa,smith2020deepb"
    laptop.sync()
    team_keys = yaml.safe_load((laptop.team / "citekeys.yaml").read_text("utf-8"))["keys"]
    assert {pid: rec["key"] for pid, rec in team_keys.items()} == {
        ids[2]: "smith2020deep", ids[0]: "smith2020deepa", ids[3]: "smith2020deepb"}


OPENREVIEW = [
    {"title": "Emergence of grid-like representations by training recurrent neural networks",
     "authors": ["Christopher J. Cueva", "Xue-Xin Wei"], "venue": "ICLR", "year": 2018,
     "abstract": "Grid cells.", "url": "https://openreview.net/forum?id=B17JTOe0-",
     "bibtex": "@inproceedings{\nj.2018emergence,\ntitle={Emergence of grid-like "
               "representations by training recurrent neural networks},\nauthor={"
               "Christopher J. Cueva and Xue-Xin Wei},\nbooktitle={International Conference "
               "on Learning Representations},\nyear={2018},\n}"},
    {"title": "Ørsted's Law of Deep Nets", "authors": ["Anders Sørensen"], "venue": "ICLR",
     "year": 2018, "abstract": "Law."},
    {"title": "The Robust Models", "authors": ["Juan Rodríguez"], "venue": "ICLR",
     "year": 2018, "abstract": "Robust."},
    {"title": "A Graph Theory", "authors": ["Amir Do-Omri"], "venue": "ICLR", "year": 2018,
     "abstract": "Graphs."},
    {"title": "A comparison of second-order methods", "authors": ["Patrick H. Chen"],
     "venue": "ICLR", "year": 2018, "abstract": "Second order."},
]


def test_one_ascii_key_scheme_whatever_the_source_key(tmp_path: Path) -> None:
    """Better BibTeX's kind of key (family name folded to ASCII, year, first significant
    title word) for every paper, never the source's own key (``j.2018emergence``); the
    entry is written in our layout, not the source's."""
    (tmp_path / "in").mkdir()
    source = tmp_path / "in" / "iclr2018.jsonl"
    source.write_text("".join(json.dumps(r) + "\n" for r in OPENREVIEW), "utf-8")
    lib = Library.open(tmp_path / "lib", config=config_mod.defaults(), bundled=False)
    try:
        lib.import_paths([source])
        by_title = {p.title: p for p in lib.papers()}
        papers = [by_title[r["title"]] for r in OPENREVIEW]
        assert lib.cite(papers, "key").text == (
            "cueva2018emergence,sorensen2018orsteds,rodriguez2018robust,doomri2018graph,"
            "chen2018comparison")
        entry = lib.cite(papers[:1], "bibtex").text
        assert entry.startswith("@inproceedings{cueva2018emergence,\n  title = {Emergence")
        assert "j.2018emergence" not in entry and "\ntitle={" not in entry
    finally:
        lib.close()


def test_a_key_given_out_under_the_old_scheme_stays(tmp_path: Path) -> None:
    """Keys already given out keep their old form (the stable-keys rule); only new papers
    get the new scheme, and never a key already taken."""
    (tmp_path / "in").mkdir()
    source = tmp_path / "in" / "iclr2018.jsonl"
    source.write_text("".join(json.dumps(r) + "\n" for r in OPENREVIEW[:3]), "utf-8")
    lib = Library.open(tmp_path / "lib", config=config_mod.defaults(), bundled=False)
    try:
        lib.import_paths([source])
        by_title = {p.title: p for p in lib.papers()}
        cueva, sorensen, rodriguez = (by_title[r["title"]] for r in OPENREVIEW[:3])
    finally:
        lib.close()
    (tmp_path / "lib" / "citekeys.yaml").write_text(
        "# paper-tui citation keys: once given out, a paper keeps its key.\nversion: 1\n"
        f"keys:\n  \"{cueva.id}\":\n    key: j.2018emergence\n"
        "    updated: \"2026-12-01T10:00:00Z\"\n"
        f"  \"{sorensen.id}\":\n    key: rodriguez2018robust\n"
        "    updated: \"2026-12-01T10:00:01Z\"\n", "utf-8")
    lib = Library.open(tmp_path / "lib", config=config_mod.defaults(), bundled=False)
    try:
        assert lib.cite([cueva, sorensen, rodriguez], "key").text == \
            "j.2018emergence,rodriguez2018robust,rodriguez2018robusta"
        assert lib.cite([cueva], "bibtex").text.startswith("@inproceedings{j.2018emergence,")
    finally:
        lib.close()
