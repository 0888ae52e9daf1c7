"""What the format tests share: the sample files and reading one as an import would."""

from __future__ import annotations

import shutil
from pathlib import Path

from paper_tui.errors import SourceError
from paper_tui.importers import registry
from paper_tui.model import Paper

DATA = Path(__file__).parent / "data" / "formats"


def read(path: Path, **hints) -> tuple[str, list[Paper], list[SourceError]]:
    """``(format, papers, errors and notices)`` of a file, sniffed as an import sniffs it."""
    from paper_tui.importers import Hints

    module = registry.sniff(path)
    papers: list[Paper] = []
    errors: list[SourceError] = []
    for record in module.read(path, registry.source_id(path), Hints(**hints)):
        (papers if isinstance(record, Paper) else errors).append(record)
    return module.FORMAT, papers, errors


def without_extension(name: str, tmp_path: Path) -> Path:
    """A copy of a sample named with no extension, so only its content can tell."""
    dest = tmp_path / "noext" / name.split(".")[0]
    dest.parent.mkdir(parents=True, exist_ok=True)
    shutil.copy(DATA / name, dest)
    return dest
