"""Nothing in the index names a paper-tui class: Whoosh pickles the schema and each
segment's codec into the TOC, and each posting block, and a class path that moved would make
every index unreadable."""

from __future__ import annotations

import pickle
from pathlib import Path

from whoosh import index as windex
from whoosh.codec.whoosh3 import W3Codec
from whoosh.fields import TEXT
from whoosh.formats import Positions

from paper_tui.index import PaperIndex
from paper_tui.index.schema import CODEC, FoldedText, build_schema
from paper_tui.model import Paper


def test_the_toc_names_only_whooshs_classes(tmp_path: Path) -> None:
    index = PaperIndex(tmp_path / "index")
    index.open()
    for i in range(3):  # three segments (small ones are merged), a deletion
        index.add([Paper(id=f"p{i}", title=f"Graph networks {i}", abstract="Rodolà's model",
                         source="s", display_title=f"Graph networks {i}",
                         display_abstract="Rodolà's model")])
    index.delete(["p0"])
    index.close()
    tocs = list((tmp_path / "index").glob("_MAIN_*.toc"))
    assert tocs and all(b"paper_tui" not in toc.read_bytes() for toc in tocs)
    # nor in the posting blocks (stdlib arrays, bytes and struct.unpack), nor any file
    assert all(b"paper_tui" not in path.read_bytes() for path in (tmp_path / "index").iterdir())
    # Whoosh alone reads it: its own classes in place of ours
    ix = windex.open_dir(str(tmp_path / "index"))
    assert type(ix.schema["abstract"]) is TEXT and type(ix.schema["abstract"].format) is Positions
    assert {type(segment.codec()) for segment in ix._segments()} == {W3Codec}
    assert sorted(ix.schema.names()) == sorted(build_schema().names())
    # and we read it with our schema
    index = PaperIndex(tmp_path / "index")
    assert index.open() is False
    assert index.search('"graph networks"').total == 2 and index.search("rodola").total == 2
    index.close()


def test_our_classes_pickle_as_whooshs() -> None:
    schema = pickle.loads(pickle.dumps(build_schema(), 2))
    assert type(schema["abstract"]) is TEXT and not isinstance(schema["abstract"], FoldedText)
    assert schema["abstract"].format.field_boost == build_schema()["abstract"].format.field_boost
    codec = pickle.loads(pickle.dumps(CODEC, 2))
    assert type(codec) is W3Codec
    assert (codec._blocklimit, codec._compression, codec._inlinelimit) == (1024, 0, 1)
