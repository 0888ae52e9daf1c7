"""Getting papers in: a file read, stored in ``sources/`` and indexed in one pass; and the
index kept in step with ``sources/`` (rebuilt when it cannot be read, a source whose file
changed re-indexed alone). :class:`Intake` calls these under the library's lock, for
:class:`~paper_tui.library.Library`.
"""

from __future__ import annotations

import contextlib
import itertools
from collections.abc import Callable, Collection, Iterable, Iterator, Sequence
from contextlib import AbstractContextManager
from pathlib import Path
from typing import TYPE_CHECKING

from paper_tui.errors import SkippedRecord, SourceError, SourceNotice, TooBig
from paper_tui.holdings.arrivals import Arrivals
from paper_tui.holdings.reviews import record_ratings
from paper_tui.holdings.sources import MANIFEST, SourceStore, checksum, encode
from paper_tui.index import PaperIndex
from paper_tui.index.writer import Prepared, prepare
from paper_tui.library.seen_ids import DigestMap, IdLog, SeenIds
from paper_tui.library.upgrade import upgrade_sources
from paper_tui.model import Paper
from paper_tui.venue.reviews import stamp

if TYPE_CHECKING:
    from paper_tui.importers import Hints, ImportReport

Progress = Callable[[str, int, int | None], None]
"""``progress(stage, done, total)``; total is None when unknown."""


def prepare_import(papers: list[Paper]) -> tuple[list[bytes], Prepared]:
    """What an import's worker process does besides parsing (see :func:`_import_one`): the
    papers' stored lines and their text fields' postings."""
    return [encode(paper) for paper in papers], prepare(papers)


# -- the index in step with the sources ----------------------------------------------------
def reindex_changed_sources(sources: SourceStore, index: PaperIndex,
                            progress: Progress | None,
                            warn: Callable[[str], None] | None = None,
                            arrivals: Arrivals | None = None) -> None:
    """Bring an older library's sources up to date (:mod:`.upgrade`); open the index; fill
    it from every source when it had to be made anew; else re-index the sources whose
    checksum changed since they were indexed or that the upgrade rewrote, and drop the
    papers of sources that are gone. Then give ``arrivals`` the first-seen times of
    sources that have none (a library from before them)."""
    _reindex(sources, index, progress, warn)
    sources.discard_unlisted()
    if arrivals is not None:
        arrivals.fill_missing(sources.manifest, index.ids_of_source)


def _reindex(sources: SourceStore, index: PaperIndex, progress: Progress | None,
             warn: Callable[[str], None] | None) -> None:
    rewritten = upgrade_sources(sources, warn, progress)
    manifest = sources.manifest
    if index.open():
        if manifest:
            total = sources.total()
            report = (lambda n: progress("indexing", n, total)) if progress else None
            index.add(sources.all_papers(), progress=report)
        index.mark_sources({sid: info.checksum for sid, info in manifest.items()})
        return
    indexed = index.indexed_sources()
    for sid, info in sorted(manifest.items()):
        if indexed.get(sid) != info.checksum or sid in rewritten:
            _reindex_source(sources, index, sid, info.checksum, progress)
    drop_from_index(sources, index, indexed.keys() - manifest.keys())


def _reindex_source(sources: SourceStore, index: PaperIndex, source_id: str, digest: str,
                    progress: Progress | None) -> None:
    total = sources.manifest[source_id].count
    report = (lambda n: progress(f"indexing {source_id}", n, total)) if progress else None
    index.delete_source(source_id)
    index.add(sources.readable_papers(source_id), progress=report)
    index.mark_sources({source_id: digest})


def begin(sources: SourceStore, demo: bool, import_bundled: Callable[[], object]) -> None:
    """A new library (no source was ever imported into it: no manifest) starts with the
    bundled list as its demo when ``demo``, else with nothing; either way it is new no
    more (an empty manifest is written), so the bundled list never comes later: not
    after its own lists were removed, not when the command that started it brought its
    own list (``import``, ``fetch``, ``sync``) and failed."""
    if (sources.root / MANIFEST).exists():
        return
    if demo:
        import_bundled()
    if not (sources.root / MANIFEST).exists():
        with contextlib.suppress(OSError):  # a library that cannot be written stays new
            sources.forget(())


# -- sources removed -----------------------------------------------------------------------
def remove_sources(sources: SourceStore, index: PaperIndex, source_ids: Sequence[str]) -> int:
    """Take sources out of the library: their papers leave the index, but a paper another
    source holds too stays, as that source's. Annotations are not touched (``orphans``
    lists them; importing the list again brings its papers back to them).

    Safe against a kill at any point: the manifest goes first, in one atomic write, and
    from then on the sources are gone; what is left to do (the index, the copies) is
    what every opening does for a source the index holds and the manifest does not
    (:func:`reindex_changed_sources`). How many papers left the library."""
    sources.forget(source_ids)
    left = drop_from_index(sources, index, set(source_ids))
    sources.discard_unlisted()
    return left


def drop_from_index(sources: SourceStore, index: PaperIndex, gone: Collection[str]) -> int:
    """Take the papers of the sources ``gone`` (no longer in the manifest) out of the
    index, in one commit; those another source holds too are indexed again from it (the
    index keeps one document per id, of the source imported last). Then record that the
    sources are not indexed. Done again after a kill, it finds what is left. How many
    papers left the index."""
    if not gone:
        return 0
    ids: set[str] = set()
    for sid in gone:
        ids |= index.ids_of_source(sid)
    kept: dict[str, Paper] = {}
    if ids:
        for paper in sources.all_papers(among=ids):
            kept.setdefault(paper.id, paper)
        with index.adding() as adder:
            for paper in kept.values():
                adder.add(paper)
            adder.delete(ids - kept.keys())
    index.mark_sources(dict.fromkeys(gone))
    return len(ids - kept.keys())


# -- import --------------------------------------------------------------------------------
def import_paths(sources: SourceStore, index: PaperIndex, targets: Iterable[Path | str],
                 report: ImportReport, progress: Progress | None, force: bool,
                 hints: Hints, arrivals: Arrivals | None = None) -> None:
    """Import files and directories into ``report``; bad files and records are reported
    there, never raised. ``arrivals`` records when each imported paper entered the
    library."""
    from paper_tui.importers import iter_files

    for item in iter_files([Path(t) for t in targets]):
        if isinstance(item, SourceError):
            report.errors.append(item)
            continue
        try:
            _import_one(sources, index, item, report, progress, force, hints, arrivals)
        except SourceError as exc:
            report.errors.append(exc)


def _import_one(sources: SourceStore, index: PaperIndex, path: Path, report: ImportReport,
                progress: Progress | None, force: bool, hints: Hints,
                arrivals: Arrivals | None) -> None:
    from paper_tui.importers import Prepare, import_file
    from paper_tui.importers.reading import counting
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
    # The checksum reads the whole file: only to tell an unchanged source before parsing
    # it; a new one is summed once its first paper was read (a file refused at once, such
    # as a plain list over 1 GiB, is then never read through).
    known = not force and sources.get(source_id) is not None
    digest = checksum(path) if known else ""
    if known and sources.is_current(source_id, digest):
        count = sources.manifest[source_id].count
        report.unchanged += count
        report.papers += count
        report.sources.append(source_id)
        return
    # One pass: records are read, stored and indexed as they stream, so a big file is
    # never held in memory and parsing overlaps the index's writer processes.
    seen = SeenIds()  # a few bytes an id, not a string: a list may hold millions

    def papers() -> Iterator[Paper]:
        for record in records:
            if isinstance(record, TooBig):  # all or nothing: the writers are cancelled
                raise TooBig(record.path, f"{record.message}; nothing of it was imported "
                             f"(not the {len(seen):,} papers read before it)", record.line) \
                    if seen else record
            if isinstance(record, SourceNotice):
                report.notices.append(record)
            elif isinstance(record, SkippedRecord):
                report.skipped.append(record)
            elif isinstance(record, SourceError):
                report.errors.append(record)
            elif seen.add(record.id):  # identical records are one paper
                yield record
            else:  # what the worker prepared of the repeat (the first's went with it)
                prepared.pop(record.id, None)
                lines.pop(record.id, None)

    stream = papers()
    old_ids = SeenIds()  # the source's papers as the index holds them, by digest
    index.each_id_of_source(source_id, old_ids.add)
    # what the venue said of each paper last time: a paper whose reviews or decision
    # changed (a rebuttal, decision day) keeps its id, and is indexed again
    said_before = _venue_said(sources, source_id) if len(old_ids) else DigestMap()
    report_progress = counting(progress, f"importing {path.name}", path) if progress else None
    kept = IdLog()  # every paper's id, and whether it was new to the library
    try:
        with index.adding(report_progress) as adder:
            first = next(stream, None)
            if first is None:
                raise SourceError(path, "no papers could be imported from this file")
            digest = digest or checksum(path)

            replace = fmt in STABLE_ID_FORMATS  # an arXiv id's text may be a newer version
            replaced = 0
            rated: dict[str, tuple[tuple[float, ...], tuple[float, ...]]] = {}

            def indexed() -> Iterator[Paper]:
                nonlocal replaced
                for paper in itertools.chain([first], stream):
                    ahead = prepared.pop(paper.id, None)
                    if paper.ratings:
                        rated[paper.id] = (paper.ratings, paper.confidences)
                    new = False
                    if paper.id not in old_ids:
                        new = adder.add(paper, ahead)
                    elif replace or said_before.same(paper.id, _paper_said(paper)) is False:
                        adder.add(paper, ahead)
                        replaced += 1
                    kept.append(paper.id, new)
                    yield paper

            def encoded(paper: Paper) -> bytes:
                return lines.pop(paper.id, None) or encode(paper)

            try:
                sources.write(source_id, path, digest, fmt, indexed(), encoded)
            finally:  # stopped by a cap: the worker stops now, not when collected
                close = getattr(records, "close", None)
                if close is not None:
                    close()
            if len(old_ids):  # the papers the source no longer has
                index.each_id_of_source(source_id, lambda pid: None if pid in seen
                                        else adder.delete([pid]))
        index.mark_sources({source_id: digest})
        if rated:  # each paper whose ratings moved since the source's last import: a point
            record_ratings(sources.root, source_id, rated,
                           stamp(sources.manifest[source_id].imported_at))
        if arrivals is not None:
            arrivals.record(source_id, kept.ids(), sources.manifest[source_id].imported_at)
    finally:
        kept.close()
    report.new_from.append(kept.new_ids)
    # new: to the library, not only to this source (a paper another list brought is
    # already in the library, though this source indexes it again)
    report.added += kept.new_count
    report.updated += replaced
    report.unchanged += len(seen) - kept.new_count - replaced
    report.papers += len(seen)
    report.sources.append(source_id)


def _said(ratings: object, confidences: object, decision: object, text: object) -> bytes:
    """What may change of a paper whose id does not (its reviews' scores and decision), as
    bytes to compare: numbers as floats, so ``6`` read from a file is the paper's ``6.0``."""

    def numbers(values: object) -> object:
        if not isinstance(values, list):
            return repr(values)
        return [float(v) if isinstance(v, int | float) and not isinstance(v, bool)
                else repr(v) for v in values]

    return repr((numbers(ratings), numbers(confidences), decision, text)).encode(
        "utf-8", "surrogateescape")


def _paper_said(paper: Paper) -> bytes:
    return _said(list(paper.ratings), list(paper.confidences), paper.decision,
                 paper.decision_text)


def _venue_said(sources: SourceStore, source_id: str) -> DigestMap:
    """:func:`_said` of each paper in the source's copy as it is (before it is replaced),
    read from the stored lines without making papers, a digest a paper; nothing when it
    cannot be read."""
    import json

    from paper_tui.trust.bounded_gzip import open_gzip

    said = DigestMap()
    if not sources.file(source_id).is_file():
        return said
    try:
        with open_gzip(sources.file(source_id)) as fh:
            for line in fh:
                record = json.loads(line)
                if isinstance(record, dict) and isinstance(record.get("id"), str):
                    said.put(record["id"], _said(record.get("ratings", []),
                                                 record.get("confidences", []),
                                                 record.get("decision", ""),
                                                 record.get("decision_text", "")))
    except (OSError, ValueError, SourceError, RecursionError):
        return DigestMap()  # unreadable: the import goes on as before
    return said


# -- the library's intake ------------------------------------------------------------------
class Intake:
    """Papers into one library (what :class:`~paper_tui.library.Library` hands its imports
    and re-indexing to), each under the library's ``lock``: two commands started at once
    on a fresh or damaged library must not both rebuild, nor lose each other's manifest
    entries."""

    def __init__(self, sources: SourceStore, index: PaperIndex, arrivals: Arrivals,
                 lock: AbstractContextManager[object],
                 warn: Callable[[str], None] | None, max_unpacked_gb: float | None = None
                 ) -> None:
        """``max_unpacked_gb``: the setting ``import.max_unpacked_gb`` (None: its
        default), the biggest list an import reads."""
        self.max_unpacked_gb = max_unpacked_gb
        self.sources = sources
        self.index = index
        self.arrivals = arrivals
        self.lock = lock
        self.warn = warn

    def reindex(self, progress: Progress | None) -> None:
        """:func:`reindex_changed_sources`, announcing what the user should know."""
        with self.lock:
            reindex_changed_sources(self.sources, self.index, progress, self.warn,
                                    self.arrivals)

    def import_paths(self, targets: Iterable[Path | str], progress: Progress | None,
                     force: bool, hints: Hints | None) -> ImportReport:
        """Import files and directories. Bad files and records are reported, never raised.

        ``hints`` name the venue and year for files that do not (the files are re-read)."""
        # Imported here: the importers (LaTeX, BibTeX parsers) cost a search ~0.3 s to load.
        from paper_tui.importers import NO_HINTS, ImportReport
        from paper_tui.importers.common import limited, limits, limits_of

        report = ImportReport()
        hints = hints or NO_HINTS
        caps = limits() if self.max_unpacked_gb is None else limits_of(self.max_unpacked_gb)
        with self.lock, limited(caps):
            self.sources.reload()  # another process may have imported since we read it
            import_paths(self.sources, self.index, targets, report, progress,
                         force or hints != NO_HINTS, hints, self.arrivals)
        return report

    def rewrite(self, ids: Collection[str]) -> int:
        """Write these papers into the index again (the text of their PDF came or went:
        :meth:`PaperIndex.rewrite`); how many the index holds."""
        if not ids:
            return 0
        with self.lock:
            return self.index.rewrite(ids)
