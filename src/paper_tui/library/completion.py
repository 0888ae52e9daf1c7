"""What a shell's Tab asks of a library: its reading-list names or its tags, read from the
YAML files alone — no index opened, no bundled list imported, nothing created (a Tab on a
machine without a library must not make one); and the citation styles' ids."""

from __future__ import annotations

from pathlib import Path
from typing import Literal

from paper_tui.store.annotations import Annotations

Kind = Literal["lists", "tags", "sources"]
_FILES: dict[Kind, str] = {"lists": "reading-lists.yaml", "tags": "annotations.yaml",
                           "sources": "sources/manifest.json"}
"""The file of the library each kind is read from (a directory without it is left alone)."""


def library_words(root: Path, kind: Kind) -> list[str]:
    """The reading-list names (``lists``), tags (``tags``) or sources (``sources``) of the
    library at ``root``; none when it has no such file."""
    if not (root / _FILES[kind]).is_file():
        return []
    if kind == "sources":
        from paper_tui import paths
        from paper_tui.holdings.sources import source_names

        return source_names(root / _FILES[kind], paths.bundled_data_dir())
    annotations = Annotations(root)
    try:
        if kind == "lists":
            return [reading_list.name for reading_list in annotations.lists.all()]
        return list(annotations.tag_counts())
    finally:
        annotations.close()


def style_words() -> list[str]:
    """Every citation style's id: the built-in ones, then the CSL styles collection's (its
    file names: no style is read, the CSL processor is not imported)."""
    from paper_tui.citations.styles import style_ids

    return style_ids()
