"""Choose an importer for a file (by extension, then by sniffing) and run it."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType

from paper_tui.errors import SkippedRecord, SourceError, SourceNotice
from paper_tui.holdings.sources import source_id
from paper_tui.importers import (
    arxiv,
    bibtex,
    csljson,
    csvfile,
    dblp,
    jsonl,
    openreview,
    paperlists,
    plaintext,
    ris,
)
from paper_tui.importers.common import NO_HINTS, Hints, bare_suffix, read_head
from paper_tui.importers.parallel import PARALLEL_BYTES, Prepare, read_in_worker
from paper_tui.model import Paper

# Order matters for sniffing: the most specific signatures first (an OpenReview or CSL-JSON
# array before the paperlists array, arXiv's Atom before DBLP's XML).
IMPORTERS: tuple[ModuleType, ...] = (jsonl, openreview, csljson, paperlists, bibtex, ris,
                                     arxiv, dblp, csvfile, plaintext)
STABLE_ID_FORMATS = frozenset({arxiv.FORMAT})
"""Formats whose paper ids are the source's own (arXiv's), not derived from the text: a
paper re-imported under such an id may have new text, so it replaces the indexed one."""
_IGNORED = {".yaml", ".yml", ".md", ".py", ".lock", ".pdf"}


@dataclass
class ImportReport:
    """What one import did, for the fronts to print."""

    added: int = 0
    updated: int = 0
    unchanged: int = 0
    papers: int = 0
    sources: list[str] = field(default_factory=list)
    new_from: list[Callable[[], Iterable[str]]] = field(default_factory=list, repr=False)
    """Each source's new ids, read when asked (:attr:`new_ids`): a list of a million
    strings would be most of what an import of a million new papers holds at its end."""
    errors: list[SourceError] = field(default_factory=list)
    skipped: list[SkippedRecord] = field(default_factory=list)
    notices: list[SourceNotice] = field(default_factory=list)

    @property
    def failed(self) -> bool:
        return bool(self.errors)

    @property
    def new_ids(self) -> list[str]:
        """The ids of papers the library did not hold before (in any source), in the
        order read."""
        return [pid for ids in self.new_from for pid in ids()]


def sniff(path: Path) -> ModuleType:
    """The importer for ``path``; raises :class:`SourceError` when none fits."""
    suffix = bare_suffix(path)
    candidates = [m for m in IMPORTERS if suffix in m.EXTENSIONS]
    head_bytes = read_head(path, 4096)
    head = head_bytes.decode("utf-8-sig", errors="replace")
    if len(candidates) == 1:
        return candidates[0]
    for module in candidates or IMPORTERS:
        if module.sniff(head):
            return module
    if candidates:  # the most general reader of this extension says what is wrong
        return candidates[-1]
    raise SourceError(path, "unknown format (expected a paper list: .txt, .json, .jsonl, "
                      ".bib, .csv, .ris, OpenReview or CSL-JSON .json, arXiv Atom or DBLP "
                      ".xml)")


def iter_files(paths: list[Path]) -> Iterator[Path | SourceError]:
    """Files named, and every file below named directories (hidden and known non-lists
    skipped). A path that does not exist is an error, not an exception."""
    for path in paths:
        if path.is_dir():
            for child in sorted(path.rglob("*")):
                if child.is_file() and not child.name.startswith(".") and \
                        bare_suffix(child) not in _IGNORED:
                    yield child
        elif path.is_file():
            yield path
        else:
            yield SourceError(path, "no such file or directory")


def import_file(path: Path, prepare: Prepare | None = None, parallel: bool | None = None,
                hints: Hints = NO_HINTS) -> tuple[str, str, Iterator[Paper | SourceError]]:
    """``(source_id, format, records)``: records are papers, or errors for bad records;
    ``hints`` name the venue and year where the file does not.

    A big file (or any, with ``parallel=True``) is read and parsed in a worker process,
    which also runs ``prepare.compute`` on each paper (see :mod:`.parallel`)."""
    module = sniff(path)
    sid = source_id(path)
    if parallel is None:
        parallel = path.stat().st_size >= PARALLEL_BYTES
    if parallel:
        return sid, module.FORMAT, read_in_worker(module.__name__, path, sid, prepare, hints)
    return sid, module.FORMAT, module.read(path, sid, hints)
