"""The façade both fronts call: open a library directory, import, search, look up papers.

A library directory holds ``sources/`` (the papers), ``index/`` (derived, rebuildable) and
the reader's annotations. The CLI and the TUI go through this class only.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import filelock

from paper_tui import config as config_mod
from paper_tui import paths
from paper_tui.errors import SkippedRecord, SourceError, SourceNotice, UnknownPaperError
from paper_tui.index import SORTS as INDEX_SORTS
from paper_tui.index import PaperIndex, ResultSet, SearchPage, page_of
from paper_tui.index.schema import note_terms
from paper_tui.index.writer import Prepared, prepare
from paper_tui.model import Paper
from paper_tui.sources import SourceStore, checksum, encode
from paper_tui.store import Annotations
from paper_tui.team.layer import People, Team

if TYPE_CHECKING:
    from paper_tui.importers import Hints, ImportReport
    from paper_tui.recommend import Recommendations

FOR_YOU = "for-you"
SORTS = (*INDEX_SORTS, FOR_YOU)
"""How results can be ordered: the index's sorts, and the recommender's."""
# A rebuild of a big library takes minutes: wait that long for another process's.
_SYNC_LOCK_TIMEOUT = 1800
Progress = Callable[[str, int, int | None], None]
"""``progress(stage, done, total)``; total is None when unknown."""


def prepare_import(papers: list[Paper]) -> tuple[list[bytes], Prepared]:
    """What an import's worker process does besides parsing (see ``_import_one``): the
    papers' stored lines and their text fields' postings."""
    return [encode(paper) for paper in papers], prepare(papers)


class Library:
    def __init__(self, root: Path, config: config_mod.Config | None = None) -> None:
        self.root = root
        self.config = config or config_mod.defaults()
        self.sources = SourceStore(root / "sources")
        self.index = PaperIndex(root / "index")
        # Held (re-entrantly) while the index is rebuilt or sources are imported, so two
        # processes never rebuild at once or lose each other's manifest entries.
        self._lock = filelock.FileLock(str(root / ".library.lock"), timeout=_SYNC_LOCK_TIMEOUT)
        self.team = Team(root)
        # The annotation service's thread, which watches the library's files for changes
        # made elsewhere, watches the team's too.
        self.annotations = Annotations(root, note_terms=note_terms,
                                       watch=self.team.reload_if_stale)
        self.lists = self.annotations.lists
        # The index never holds the reader's work: its annotation words are answered from
        # the store's in-memory sets, so a change is seen by the next search at once.
        self.annotations.versions_of = self.index.versions_of
        store = self.annotations.store
        self.index.use_annotations(self.annotations.overlay, People(
            self.team, self.annotations.annotated_ids, lambda: store.version))

    @classmethod
    def open(cls, root: Path | str | None = None, *, config: config_mod.Config | None = None,
             bundled: bool | None = None, progress: Progress | None = None,
             warn: Callable[[str], None] | None = None) -> Library:
        """Open (creating if needed) a library; a new one gets the bundled list when asked.

        ``warn(message)`` hears of what the user should know, such as an unreadable index
        being rebuilt from the sources."""
        cfg = config or config_mod.defaults()
        if root is None:
            root = cfg.get("library") or None
        lib = cls(paths.library_dir(root), cfg)
        lib.index.on_rebuild = warn
        lib.root.mkdir(parents=True, exist_ok=True)
        # Left by versions that mirrored annotations into the index.
        (lib.root / ".annotations-indexed.json").unlink(missing_ok=True)
        if bundled is None:
            bundled = bool(cfg.get("bundled_lists", True))
        with lib._lock:
            lib.sync(progress)
            if bundled and not lib.sources.manifest:
                lib.import_paths([paths.bundled_data_dir()], progress=progress)
        return lib

    def close(self) -> None:
        """Flush annotations to disk (raising StoreError if that fails), close the index."""
        try:
            self.annotations.close()
        finally:
            self.index.close()

    def __enter__(self) -> Library:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- keeping the index in step with the sources ------------------------------------------
    def sync(self, progress: Progress | None = None) -> None:
        """Open the index; rebuild it from the sources when it is missing, old or corrupt;
        re-index only the sources whose checksum changed since they were indexed.

        Serialised across processes: two commands started at once on a fresh or damaged
        library must not both rebuild (one would delete what the other is writing)."""
        with self._lock:
            self._sync(progress)

    def _sync(self, progress: Progress | None) -> None:
        manifest = self.sources.manifest
        if self.index.open():
            if manifest:
                total = self.sources.total()
                report = (lambda n: progress("indexing", n, total)) if progress else None
                self.index.add(self.sources.all_papers(), progress=report)
            self.index.mark_sources({sid: info.checksum for sid, info in manifest.items()})
            return
        indexed = self.index.indexed_sources()
        for sid, info in sorted(manifest.items()):
            if indexed.get(sid) != info.checksum:
                self._reindex_source(sid, info.checksum, progress)
        gone = indexed.keys() - manifest.keys()
        for sid in gone:
            self.index.delete_source(sid)
        if gone:
            self.index.mark_sources(dict.fromkeys(gone))

    def _reindex_source(self, source_id: str, digest: str, progress: Progress | None) -> None:
        total = self.sources.manifest[source_id].count
        report = (lambda n: progress(f"indexing {source_id}", n, total)) if progress else None
        self.index.delete_source(source_id)
        self.index.add(self.sources.papers(source_id), progress=report)
        self.index.mark_sources({source_id: digest})

    # -- import ----------------------------------------------------------------------------
    def import_paths(self, targets: Iterable[Path | str], progress: Progress | None = None,
                     force: bool = False, hints: Hints | None = None) -> ImportReport:
        """Import files and directories. Bad files and records are reported, never raised.

        ``hints`` name the venue and year for files that do not (the files are re-read)."""
        # Imported here: the importers (LaTeX, BibTeX parsers) cost a search ~0.3 s to load.
        from paper_tui.importers import NO_HINTS, ImportReport

        report = ImportReport()
        hints = hints or NO_HINTS
        with self._lock:
            self.sources.reload()  # another process may have imported since we read it
            self._import_items(targets, report, progress, force or hints != NO_HINTS, hints)
        return report

    def _import_items(self, targets: Iterable[Path | str], report: ImportReport,
                      progress: Progress | None, force: bool, hints: Hints) -> None:
        from paper_tui.importers import iter_files

        for item in iter_files([Path(t) for t in targets]):
            if isinstance(item, SourceError):
                report.errors.append(item)
                continue
            try:
                self._import_one(item, report, progress, force, hints)
            except SourceError as exc:
                report.errors.append(exc)

    def _import_one(self, path: Path, report: ImportReport, progress: Progress | None,
                    force: bool, hints: Hints) -> None:
        from paper_tui.importers import Prepare, import_file
        from paper_tui.importers.registry import STABLE_ID_FORMATS

        # A big file is parsed in a worker process, which also encodes and analyses some
        # chunks of papers (``prepare_import``) when it has time to spare (see
        # ``parallel.EVERY``); this process does the others.
        lines: dict[str, bytes] = {}
        prepared: dict[str, tuple[Prepared, int]] = {}

        def sink(papers: list[Paper], result: tuple[list[bytes], Prepared] | None) -> None:
            if result is not None:  # a repeated id is the first paper's (it is left out)
                for i, paper in enumerate(papers):
                    lines.setdefault(paper.id, result[0][i])
                    prepared.setdefault(paper.id, (result[1], i))

        source_id, fmt, records = import_file(path, Prepare(prepare_import, sink), hints=hints)
        digest = checksum(path)
        if not force and self.sources.is_current(source_id, digest):
            count = self.sources.manifest[source_id].count
            report.unchanged += count
            report.papers += count
            report.sources.append(source_id)
            return
        # One pass: records are read, stored and indexed as they stream, so a big file is
        # never held in memory and parsing overlaps the index's writer processes.
        seen: set[str] = set()

        def papers() -> Iterator[Paper]:
            for record in records:
                if isinstance(record, SourceNotice):
                    report.notices.append(record)
                elif isinstance(record, SkippedRecord):
                    report.skipped.append(record)
                elif isinstance(record, SourceError):
                    report.errors.append(record)
                elif record.id not in seen:  # identical records are one paper
                    seen.add(record.id)
                    yield record

        stream = papers()
        old_ids = self.index.ids_of_source(source_id)
        report_progress = (lambda n: progress(f"importing {path.name}", n, None)) \
            if progress else None
        with self.index.adding(report_progress) as adder:
            first = next(stream, None)
            if first is None:
                raise SourceError(path, "no papers could be imported from this file")

            replace = fmt in STABLE_ID_FORMATS  # an arXiv id's text may be a newer version
            replaced = 0

            def indexed() -> Iterator[Paper]:
                nonlocal replaced
                for paper in itertools.chain([first], stream):
                    ahead = prepared.pop(paper.id, None)
                    if paper.id not in old_ids:
                        adder.add(paper, ahead)
                    elif replace:
                        adder.add(paper, ahead)
                        replaced += 1
                    yield paper

            def encoded(paper: Paper) -> bytes:
                return lines.pop(paper.id, None) or encode(paper)

            self.sources.write(source_id, path, digest, fmt, indexed(), encoded)
            adder.delete(old_ids - seen)
        self.index.mark_sources({source_id: digest})
        report.added += adder.count - replaced
        report.updated += replaced
        report.unchanged += len(seen) - adder.count
        report.papers += len(seen)
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
               offset: int = 0, all_versions: bool | None = None) -> SearchPage:
        """A page of ``query``'s hits; ``all_versions``: list every version of a paper
        from two sources (default: config ``search.all_versions``, else the fullest)."""
        if sort != FOR_YOU:
            return self.index.search(query, sort=sort, limit=limit, offset=offset,
                                     all_versions=self._all_versions(all_versions))
        return page_of(self.results(query, sort=sort, all_versions=all_versions), limit,
                       offset)

    def _all_versions(self, asked: bool | None) -> bool:
        return bool(self.config.get("search.all_versions", False)) if asked is None \
            else asked

    def results(self, query: str = "", *, sort: str = "relevance",
                all_versions: bool | None = None) -> ResultSet:
        """All hits of ``query``, loaded lazily (for the TUI's virtual results list), in
        one of :data:`SORTS` ("for-you": what this reader is likeliest to want first).

        A query error does not raise: it is in ``ResultSet.error`` with no hits."""
        every = self._all_versions(all_versions)
        if sort != FOR_YOU:
            return self.index.results(query, sort=sort, all_versions=every)
        from paper_tui.recommend import recommender  # scipy: only when this sort is on
        from paper_tui.recommend.for_you import ForYouResults

        rec = recommender(self)
        rec.refresh()
        return ForYouResults(self.index.results(query, sort="relevance", all_versions=every),
                             rec)

    def refresh_recommendations(self) -> bool:
        """Learn again from the reader's labels if they changed (a worker's call after a
        triage key); True when the "for-you" order may have changed."""
        from paper_tui.recommend import recommender

        return recommender(self).refresh()

    def why(self, paper_id: str) -> str:
        """What pushed a paper up and down for this reader (one line; "" before anything
        was kept)."""
        from paper_tui.recommend import recommender

        rec = recommender(self)
        return rec.explain(paper_id).text() if rec.ready else ""

    def similar(self, paper_id: str) -> ResultSet:
        """Papers like this one ("more like this"), from its key terms, most similar first."""
        return self.index.similar(self.resolve(paper_id))

    def recommend(self, query: str = "", limit: int = 20) -> Recommendations:
        """The ``limit`` new papers (within ``query``) this reader is likeliest to want,
        learned from what they kept and skipped (see :mod:`paper_tui.recommend`)."""
        from paper_tui.recommend import recommend  # scipy: only when asked

        return recommend(self, query, limit)

    def facets(self, query: str = "") -> dict[str, dict[str, int]]:
        """Hit counts of ``query`` per tag, status, venue and year (empty for a bad query)."""
        return self.index.facets(query)

    def papers(self) -> Iterator[Paper]:
        """Every paper, in list order (venue, newest year, title)."""
        results = self.results("")
        yield from (results.paper(i) for i in range(len(results)))

    def count(self) -> int:
        return self.index.count()

    def paper_extras(self, paper_id: str) -> dict:
        """What the library knows of a paper beyond its record (annotations, lists)."""
        note = self.annotations.get(paper_id)
        return {"status": note.status, "starred": note.starred, "tags": list(note.tags),
                "note": note.note, "lists": self.lists.lists_of(paper_id),
                "also_in": [other for other in self.index.versions_of(paper_id)
                            if other != paper_id]}

    def also_in(self, paper_id: str) -> list[str]:
        """The other versions of a paper from another source, as the reader would name
        them: ``arXiv 2401.01234``, ``NeurIPS 2024`` (none for most papers)."""
        out = []
        for other in self.index.versions_of(paper_id):
            if other == paper_id:
                continue
            paper = self.index.get(other)
            if paper is None:
                continue
            if other.startswith("arxiv-"):
                out.append(f"arXiv {other.removeprefix('arxiv-')}")
            else:
                out.append(" ".join(x for x in (paper.venue, str(paper.year or "")) if x)
                           or paper.source or other)
        return out

    def team_lines(self, paper_id: str) -> tuple[str, ...]:
        """One short line per other team member who triaged a paper (``alice: to read ★
        #kernels``), from their files as last read (:meth:`Team.reload` reads them: a
        sync's worker, the app's start), so drawing a paper never parses a file."""
        lines = []
        for name, seen in self.team.annotators(paper_id, fresh=False).items():
            parts = [seen.status.replace("-", " ")] if seen.status != "new" else []
            parts += ["★"] if seen.starred else []
            parts += [f"#{t}" for t in seen.tags]
            parts += ["note"] if seen.note else []
            if parts:
                lines.append(f"{name}: {' '.join(parts)}")
        return tuple(lines)

    def orphans(self) -> list[str]:
        """Annotated or listed ids whose paper is not in the library (kept, not dropped)."""
        return self.annotations.orphans(_Known(self.index))


class _Known:
    """Membership in the index, asked one id at a time."""

    def __init__(self, index: PaperIndex) -> None:
        self.index = index

    def __contains__(self, paper_id: object) -> bool:
        return isinstance(paper_id, str) and self.index.get(paper_id) is not None
