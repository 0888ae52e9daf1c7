"""The façade both fronts call: open a library directory, import, search, look up papers.

A library directory holds ``sources/`` (the papers), ``index/`` (derived, rebuildable) and
the reader's annotations. The CLI and the TUI go through this class only.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from pathlib import Path

from paper_tui import config as config_mod
from paper_tui import paths
from paper_tui.errors import SkippedRecord, SourceError, UnknownPaperError
from paper_tui.importers import ImportReport, import_file, iter_files
from paper_tui.index import PaperIndex, ResultSet, SearchPage
from paper_tui.model import Paper
from paper_tui.sources import SourceStore, checksum

Progress = Callable[[str, int, int | None], None]
"""``progress(stage, done, total)``; total is None when unknown."""


class Library:
    def __init__(self, root: Path, config: config_mod.Config | None = None) -> None:
        self.root = root
        self.config = config or config_mod.defaults()
        self.sources = SourceStore(root / "sources")
        self.index = PaperIndex(root / "index")

    @classmethod
    def open(cls, root: Path | str | None = None, *, config: config_mod.Config | None = None,
             bundled: bool | None = None, progress: Progress | None = None) -> Library:
        """Open (creating if needed) a library; a new one gets the bundled list when asked."""
        cfg = config or config_mod.defaults()
        if root is None:
            root = cfg.get("library") or None
        lib = cls(paths.library_dir(root), cfg)
        lib.root.mkdir(parents=True, exist_ok=True)
        lib.sync(progress)
        if bundled is None:
            bundled = bool(cfg.get("bundled_lists", True))
        if bundled and not lib.sources.manifest:
            lib.import_paths([paths.bundled_data_dir()], progress=progress)
        return lib

    def close(self) -> None:
        self.index.close()

    def __enter__(self) -> Library:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- keeping the index in step with the sources ------------------------------------------
    def sync(self, progress: Progress | None = None) -> None:
        """Open the index; rebuild it from the sources when it is missing, old or corrupt."""
        if self.index.open() and self.sources.manifest:
            total = self.sources.total()
            report = (lambda n: progress("indexing", n, total)) if progress else None
            self.index.add(self.sources.all_papers(), progress=report)

    # -- import ----------------------------------------------------------------------------
    def import_paths(self, targets: Iterable[Path | str], progress: Progress | None = None,
                     force: bool = False) -> ImportReport:
        """Import files and directories. Bad files and records are reported, never raised."""
        report = ImportReport()
        for item in iter_files([Path(t) for t in targets]):
            if isinstance(item, SourceError):
                report.errors.append(item)
                continue
            try:
                self._import_one(item, report, progress, force)
            except SourceError as exc:
                report.errors.append(exc)
        return report

    def _import_one(self, path: Path, report: ImportReport, progress: Progress | None,
                    force: bool) -> None:
        source_id, fmt, records = import_file(path)
        digest = checksum(path)
        if not force and self.sources.is_current(source_id, digest):
            count = self.sources.manifest[source_id].count
            report.unchanged += count
            report.papers += count
            report.sources.append(source_id)
            return
        papers: dict[str, Paper] = {}
        for record in records:
            if isinstance(record, SkippedRecord):
                report.skipped.append(record)
            elif isinstance(record, SourceError):
                report.errors.append(record)
            else:
                papers.setdefault(record.id, record)  # identical records are one paper
                if progress and len(papers) % 1000 == 0:
                    progress(f"reading {path.name}", len(papers), None)
        if not papers:
            raise SourceError(path, "no papers could be imported from this file")
        old_ids = self.index.ids_of_source(source_id)
        self.sources.write(source_id, path, digest, fmt, papers.values())
        new = [p for pid, p in papers.items() if pid not in old_ids]
        gone = old_ids - papers.keys()
        if gone:
            self.index.delete(gone)
        total = len(new)
        self.index.add(new, progress=(lambda n: progress(f"indexing {path.name}", n, total))
                       if progress else None)
        report.added += len(new)
        report.unchanged += len(papers) - len(new)
        report.papers += len(papers)
        report.sources.append(source_id)

    # -- reading ---------------------------------------------------------------------------
    def resolve(self, id_or_prefix: str) -> str:
        """The full id for an id or a unique prefix of one."""
        key = id_or_prefix.strip()
        if not key:
            raise UnknownPaperError("empty paper id")
        if self.index.get(key) is not None:
            return key
        matches = self.index.ids_with_prefix(key, limit=3)
        if not matches:
            raise UnknownPaperError(f"no paper with id {key!r}")
        if len(matches) > 1:
            raise UnknownPaperError(f"id prefix {key!r} is ambiguous: {', '.join(matches)}, …")
        return matches[0]

    def paper(self, id_or_prefix: str) -> Paper:
        paper = self.index.get(self.resolve(id_or_prefix))
        assert paper is not None
        return paper

    def search(self, query: str = "", *, sort: str = "relevance", limit: int | None = 50,
               offset: int = 0) -> SearchPage:
        return self.index.search(query, sort=sort, limit=limit, offset=offset)

    def results(self, query: str = "", *, sort: str = "relevance") -> ResultSet:
        """All hits of ``query``, loaded lazily (for the TUI's virtual results list).

        A query error does not raise: it is in ``ResultSet.error`` with no hits."""
        return ResultSet(self.index, query, sort)

    def papers(self) -> Iterator[Paper]:
        """Every paper, in list order (venue, newest year, title)."""
        yield from (hit.paper for hit in self.search("", limit=None).hits)

    def count(self) -> int:
        return self.index.count()

    def paper_extras(self, paper_id: str) -> dict:
        """What the library knows of a paper beyond its record (annotations, lists)."""
        return {}
