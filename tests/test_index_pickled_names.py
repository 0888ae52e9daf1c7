"""An index's TOC names our classes by import path (Whoosh pickles the schema and codec):
those paths must keep resolving, or an existing index reads as corrupt and is rebuilt."""

from __future__ import annotations

import pickle

import pytest

from paper_tui.index.schema import Codec, FoldedText, FoldFilter, build_schema


@pytest.mark.parametrize(("path", "cls"), [
    # written before the index became a package (schema 6, until this split)
    ("paper_tui.index\nFoldedText", FoldedText),
    ("paper_tui.index\nFoldFilter", FoldFilter),
    ("paper_tui.index\n_Codec", Codec),
    # written since
    ("paper_tui.index.schema\nFoldedText", FoldedText),
    ("paper_tui.index.schema\nFoldFilter", FoldFilter),
    ("paper_tui.index.schema\nCodec", Codec),
])
def test_pickled_class_paths_resolve(path: str, cls: type) -> None:
    assert pickle.loads(f"c{path}\n.".encode()) is cls  # protocol 0 GLOBAL opcode


def test_the_schema_round_trips_through_pickle() -> None:
    schema = pickle.loads(pickle.dumps(build_schema(), 2))
    assert isinstance(schema["abstract"], FoldedText)
