"""Export: BibTeX (via the citations module), Markdown, CSV, YAML, JSON with annotations."""

from __future__ import annotations

import csv
import dataclasses
import io
import json
from pathlib import Path

import pytest
import yaml

from paper_tui import citations
from paper_tui import config as config_mod
from paper_tui.errors import StoreError
from paper_tui.exports import formats as export
from paper_tui.library import Library


@pytest.fixture
def annotated(library: Library):
    papers = list(library.papers())[:3]
    a, b, _ = papers
    library.annotations.set_status([a.id], "read")
    library.annotations.set_starred([a.id], True)
    library.annotations.add_tags([a.id, b.id], ["ml", "to discuss"])
    library.annotations.set_note(a.id, "why: it matters\n# not a heading\n  indented")
    library.create_list("Group", "Thursday's reading group")
    library.add_to_list("Group", [a.id, b.id])
    return library, papers


def test_bibtex_is_the_citations_modules(annotated) -> None:
    library, papers = annotated
    assert export.export(library, papers, "bibtex") == citations.cite(papers, "bibtex") + "\n"


def test_markdown_is_a_readable_reading_list(annotated) -> None:
    library, papers = annotated
    text = export.export(library, papers, "markdown", title="Group",
                         description="Thursday's reading group")
    lines = text.splitlines()
    assert lines[:3] == ["# Group", "", "Thursday's reading group"]
    assert f"1. {citations.markdown(papers[0])}" in lines
    assert "   ★ · read · tags: ml, to discuss" in lines
    assert lines[lines.index("   ★ · read · tags: ml, to discuss") + 1:][:3] == [
        "   > why: it matters", "   > # not a heading", "   >   indented"]
    assert "3. " + citations.markdown(papers[2]) in lines


def test_csv_json_and_yaml_carry_the_annotations(annotated) -> None:
    library, papers = annotated
    rows = list(csv.DictReader(io.StringIO(export.export(library, papers, "csv"))))
    assert [r["id"] for r in rows] == [p.id for p in papers]
    assert rows[0]["status"] == "read" and rows[0]["starred"] == "yes"
    assert rows[0]["tags"] == "ml; to discuss" and rows[0]["lists"] == "Group"
    assert rows[0]["note"] == "why: it matters\n# not a heading\n  indented"
    assert rows[2]["status"] == "new" and rows[2]["tags"] == ""
    for fmt, load in (("json", json.loads), ("yaml", yaml.safe_load)):
        data = load(export.export(library, papers, fmt))
        assert [d["id"] for d in data] == [p.id for p in papers]
        assert data[0]["tags"] == ["ml", "to discuss"]
        assert data[0]["lists"] == ["Group"]
        assert data[0]["note"].startswith("why: it matters")
        assert data[1]["starred"] is False
        assert "title_emphasis" not in data[0]


def test_empty_and_unknown(annotated) -> None:
    library, _ = annotated
    assert export.export(library, [], "json") == "[]\n"
    assert "(no papers)" in export.export(library, [], "markdown")
    with pytest.raises(StoreError, match="unknown export format 'docx'"):
        export.export(library, [], "docx")


def test_the_json_and_yaml_exports_import_again_as_the_same_papers(annotated,
                                                                   tmp_path: Path) -> None:
    library, papers = annotated
    config = tmp_path / "config.yaml"
    config.write_text("bundled_lists: false\n")

    def unsourced(paper):
        return dataclasses.replace(paper, source="")

    for fmt in ("json", "yaml"):
        exported = tmp_path / "out" / f"group.{fmt}"
        exported.parent.mkdir(exist_ok=True)
        exported.write_text(export.export(library, papers, fmt))
        with Library.open(tmp_path / fmt, config=config_mod.load(config)) as again:
            report = again.import_paths([exported])
            assert (report.errors, report.added) == ([], 3), fmt
            assert sorted(map(unsourced, again.papers()), key=lambda p: p.id) == sorted(
                map(unsourced, papers), key=lambda p: p.id), fmt


def test_a_yaml_list_from_elsewhere_is_plain_data(tmp_path: Path) -> None:
    config = tmp_path / "config.yaml"
    config.write_text("bundled_lists: false\n")
    hand = tmp_path / "hand.yaml"  # dates stay text, as in JSON; a record that is no mapping
    hand.write_text("- title: 2020-01-01\n  authors: [Ann Lee]\n  year: 2020\n- 5\n")
    bomb = tmp_path / "bomb.yaml"  # aliases are refused before anything is built
    bomb.write_text("- &a [x, x]\n- &b [*a, *a]\n- [*b, *b]\n")
    tagged = tmp_path / "tagged.yml"
    tagged.write_text("- title: !!python/object/apply:os.system [echo hi]\n")
    with Library.open(tmp_path / "lib", config=config_mod.load(config)) as lib:
        report = lib.import_paths([hand, bomb, tagged])
        assert [p.title for p in lib.papers()] == ["2020-01-01"]
    assert [str(e) for e in report.errors] == [
        f"{hand} (record 2): not a mapping",
        f"{bomb}:2: anchors and aliases (&name, *name) are not supported here",
        f"{tagged}:1: invalid YAML: could not determine a constructor for the tag "
        "'tag:yaml.org,2002:python/object/apply:os.system'"]
