"""Export: BibTeX (via the citations module), Markdown, CSV, YAML, JSON with annotations."""

from __future__ import annotations

import csv
import io
import json

import pytest
import yaml

from paper_tui import citations, export
from paper_tui.errors import StoreError
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
