"""The library as the fronts use it: one door, whose methods hand back records (a paper's
detail, a team member's marks, citations), never a part of the library."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from paper_tui import citations
from paper_tui import config as config_mod
from paper_tui.cli import main
from paper_tui.library import Library, MemberMarks, PaperDetail


def _member_file(library_dir: Path, name: str, paper_id: str, fields: str) -> None:
    """A team member's file as a sync leaves it in the team work tree."""
    people = library_dir / "team" / "people"
    people.mkdir(parents=True, exist_ok=True)
    (people / f"{name}.yaml").write_text(
        f'version: 1\npapers:\n  "{paper_id}":\n{fields}', "utf-8")


def test_a_papers_detail_is_one_frozen_record(library: Library, library_dir: Path) -> None:
    paper = next(library.papers())
    library.set_status([paper.id], "to-read")
    library.add_tags([paper.id], ["kernels"])
    library.create_list("Group")
    library.add_to_list("Group", [paper.id])
    _member_file(library_dir, "bob", paper.id, "    starred: true\n    tags:\n    - rl\n")
    detail = library.detail(paper.id)
    assert detail == PaperDetail(paper.id, library.annotation(paper.id), ("Group",))
    assert (detail.status, detail.tags) == ("to-read", ("kernels",))
    assert detail.as_json() == {"status": "to-read", "starred": False, "tags": ["kernels"],
                                "note": "", "lists": ["Group"], "also_in": []}
    with pytest.raises(dataclasses.FrozenInstanceError):
        detail.lists = ()  # type: ignore[misc]
    library.reload_team()
    assert library.detail(paper.id, team=True).team == (
        MemberMarks("bob", "new", True, ("rl",), ""),)


def test_show_says_each_members_marks_as_the_app_does(library: Library, library_dir: Path,
                                                      capsys: pytest.CaptureFixture[str]
                                                      ) -> None:
    paper = next(library.papers())
    _member_file(library_dir, "bob", paper.id,
                 "    status: to-read\n    starred: true\n    tags:\n    - kernels\n")
    library.flush()
    assert main(["--library", str(library_dir), "show", paper.id]) == 0
    assert "Team:    bob: to read ★ #kernels\n" in capsys.readouterr().out


def test_citations_follow_the_configured_style(library_dir: Path, tmp_path: Path) -> None:
    user = tmp_path / "config.yaml"
    user.write_text("citation_style: key\n", "utf-8")
    with Library.open(library_dir, config=config_mod.load(user)) as lib:
        papers = list(lib.papers())[:2]
        keys = citations.cite(papers, "key")
        assert lib.cite(papers).text == keys
        assert lib.cite(papers, "bibtex").style == "bibtex"
        assert lib.cite(papers[:1]).what == f"citation key for {keys.split(',')[0]}"
