"""A result row asks for the title's highlights only; the abstract view for both."""

from __future__ import annotations

from pathlib import Path

from paper_tui import config as config_mod
from paper_tui.library import Library
from test_search import PAPERS, write_jsonl


def test_highlights_for_the_fields_asked(tmp_path: Path) -> None:
    lib = Library.open(tmp_path / "lib", config=config_mod.defaults(), bundled=False)
    try:
        lib.import_paths([write_jsonl(tmp_path / "in" / "papers.jsonl", PAPERS)])
        results = lib.results("graph passing")
        both = results.highlights(0)
        assert set(both) == {"title", "abstract"}
        assert results.highlights(0, fields=("title",)) == {"title": both["title"]}
        assert results.highlights(0, fields=("abstract",)) == {"abstract": both["abstract"]}
    finally:
        lib.close()
