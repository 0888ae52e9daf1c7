"""The library: the one class both fronts call, for everything they do.

Its parts (the sources, the index, the annotation store, the team layer, the first-seen
times and the watches) are built by
:meth:`Library.open` and handed in; a front never reaches past the methods below to a part
(``tests/test_import_graph.py`` checks), so a change inside a part stays behind this door.
The methods are grouped by concern, in this order: opening; papers in (import, the index
kept in step with the sources); papers out (look-up, search, recommend); the reader's
marks; reading lists; export and citations; watches (and when papers arrived); the team;
the team's split, coverage and agenda.
"""

from __future__ import annotations

import datetime
import re
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import AbstractContextManager
from pathlib import Path
from typing import TYPE_CHECKING

import filelock

from paper_tui import config as config_mod
from paper_tui import paths
from paper_tui.config import Settings
from paper_tui.errors import PaperTuiError, QueryError, StoreError, StyleError, UnknownPaperError
from paper_tui.holdings import sources as sources_mod
from paper_tui.holdings.arrivals import Arrivals
from paper_tui.holdings.sources import SourceStore
from paper_tui.index import PaperIndex, Results, SearchPage, page_of
from paper_tui.index.schema import note_terms
from paper_tui.library import importing
from paper_tui.library.arrival_sets import ArrivalSets
from paper_tui.library.importing import Progress
from paper_tui.library.records import (
    Citation,
    MemberCoverage,
    MemberMarks,
    PaperDetail,
    TeamCoverage,
)
from paper_tui.model import Paper
from paper_tui.store import Annotation, Annotations, ReadingList
from paper_tui.store.bib_links import BibLinks
from paper_tui.store.citekeys import CiteKeys
from paper_tui.store.watches import Watch, Watches
from paper_tui.team.coverage import Coverage, Lab, verdict
from paper_tui.team.layer import People, Team
from paper_tui.trust import atomic
from paper_tui.trust.inert import shown_name
from paper_tui.vocabulary import FOR_YOU, TEAM_SORT

if TYPE_CHECKING:
    from paper_tui.fetch.report import FetchProgress, FetchReport
    from paper_tui.importers import Hints, ImportReport
    from paper_tui.library.pdfs import PdfReport, Pruned
    from paper_tui.library.watching import WatchesReport
    from paper_tui.pdfs.shelf import Held
    from paper_tui.recommend import Recommendations
    from paper_tui.team.assign import SplitOutcome
    from paper_tui.team.split import Candidate
    from paper_tui.team.sync import SyncReport

# A rebuild of a big library takes minutes: wait that long for another process's.
_LOCK_TIMEOUT = 1800


class Library:
    """A library directory: its papers (``sources/``), their index (``index/``, derived),
    the reader's annotations and reading lists (YAML), the team's (``team/``)."""

    def __init__(self, root: Path, settings: Settings, *, sources: SourceStore,
                 index: PaperIndex, annotations: Annotations, team: Team,
                 arrivals: Arrivals, watches: Watches,
                 warn: Callable[[str], None] | None = None) -> None:
        """The parts, made and connected by :meth:`open`; ``warn`` as there."""
        self.root = root
        self.warn = warn
        self.settings = settings
        self.sources = sources
        self.arrivals = arrivals
        self.watches_file = watches
        self.index = index
        self.annotations = annotations
        self.team = team
        # What the team made of each paper: the team's query words, status, sort, digest.
        self._coverage = Coverage(team, annotations.records,
                                  lambda: annotations.store.version)
        self.citekeys = CiteKeys(root)
        self.bib_links = BibLinks(root)
        self._bib_state: tuple[int, int] | None = None
        self.bib_problems: list[str] = []
        """What the last look at the linked ``.bib`` files could not write (one line each)."""
        self._lists_at_open = self._linked_lists()
        annotations.add_pass_listener(self._linked_bibs_after_pass)
        # Held (re-entrantly) while the index is rebuilt or sources are imported, so two
        # processes never rebuild at once or lose each other's manifest entries.
        self._lock = filelock.FileLock(str(root / ".library.lock"), timeout=_LOCK_TIMEOUT)

    # -- opening ---------------------------------------------------------------------------
    @classmethod
    def open(cls, root: Path | str | None = None, *, config: config_mod.Config | None = None,
             bundled: bool | None = None, progress: Progress | None = None,
             warn: Callable[[str], None] | None = None) -> Library:
        """Open (creating if needed) a library; a new one (no list ever imported) gets
        the bundled list as its demo when asked (default: the ``bundled_lists`` setting),
        and never later (:func:`~paper_tui.library.importing.begin`).

        ``root`` defaults to the ``library`` setting, then the user data dir. ``warn``
        hears of what the user should know, such as an unreadable index being rebuilt
        from the sources."""
        settings = (config or config_mod.defaults()).settings
        root = paths.library_dir(root if root is not None else settings.library or None)
        index = PaperIndex(root / "index", on_rebuild=warn)
        team = Team(root)
        # A change to one version of a paper from two sources is made to every version.
        # The store's thread, which watches the library's files for changes made
        # elsewhere, watches the team's too.
        annotations = Annotations(root, note_terms=note_terms, versions_of=index.versions_of,
                                  watch=team.reload_if_stale)
        store = annotations.store
        # The index never holds the reader's work: its annotation words are answered from
        # the store's in-memory sets, so a change is seen by the next search at once.
        sources = SourceStore(root / "sources", indexed=index.indexed_sources, on_problem=warn)
        # When each paper entered the library (added:, watch:): beside the sources.
        arrivals = Arrivals(root / "sources", on_problem=warn)
        watches = Watches(root)
        library = cls(root, settings, sources=sources, index=index,
                      annotations=annotations, team=team, arrivals=arrivals,
                      watches=watches, warn=warn)
        index.use_annotations(annotations.overlay, People(
            team, annotations.annotated_ids, lambda: store.version), library._coverage,
            ArrivalSets(arrivals, watches))
        root.mkdir(parents=True, exist_ok=True)
        # Left by versions that mirrored annotations into the index.
        (root / ".annotations-indexed.json").unlink(missing_ok=True)
        with library._lock:
            library.reindex_changed_sources(progress)
            importing.begin(library.sources,
                            settings.bundled_lists if bundled is None else bundled,
                            lambda: library.import_paths([paths.bundled_data_dir()],
                                                         progress=progress))
        return library

    def close(self) -> None:
        """Flush annotations to disk (raising StoreError if that fails), bring the linked
        ``.bib`` files up to date (StoreError naming one that could not be, when this
        session changed its list: a broken link is no failure of a ``list`` or a
        ``search``), close the index."""
        try:
            self.annotations.close()
            if self.bib_links.all():
                before = self._lists_at_open
                problems = [problem for name, problem in self._update_bibs().items()
                            if self.annotations.lists.get(name) != before.get(name)]
                if problems:
                    raise StoreError(" · ".join(problems))
        finally:
            self.index.close()

    def __enter__(self) -> Library:
        return self

    def __exit__(self, *exc: object) -> None:
        """Closes the library (see :meth:`close`)."""
        self.close()

    # -- papers in: import, and the index in step with the sources -------------------------
    def reindex_changed_sources(self, progress: Progress | None = None) -> None:
        """Bring an older library's sources up to date (re-read from their original files,
        announced through ``warn``); open the index; rebuild it from the sources when it is
        missing, old or corrupt; re-index only the sources whose checksum changed since
        they were indexed or that were re-read.

        Serialised across processes: two commands started at once on a fresh or damaged
        library must not both rebuild (one would delete what the other is writing)."""
        with self._lock:
            importing.reindex_changed_sources(self.sources, self.index, progress, self.warn,
                                              self.arrivals)

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
            importing.import_paths(self.sources, self.index, targets, report, progress,
                                   force or hints != NO_HINTS, hints, self.arrivals)
        return report

    def fetch(self, specs: Sequence[str], *, since: datetime.date | None = None,
              all_decisions: bool = False, dry_run: bool = False,
              progress: FetchProgress | None = None,
              hints: Hints | None = None) -> FetchReport:
        """Fetch each SOURCE (``openreview:VENUE_ID``, ``paperlists:NAMEYEAR``,
        ``arxiv:CATEGORY``, ``arxiv:ID[,ID…]``, ``dblp:KEY``, a URL) and import its list
        (:mod:`paper_tui.library.fetching`). One failing source does not stop the others;
        each is all or nothing. ``since``: an arXiv category's oldest submission (default:
        its last fetch, else 7 days ago); ``all_decisions``: OpenReview's rejected,
        withdrawn and pending submissions too; ``dry_run``: fetch and count, import
        nothing; ``hints``: the venue and year of lists that name none (kept for the
        source's next fetches)."""
        from paper_tui.library import fetching  # the HTTP client: only when fetching

        def import_paths(paths: list[Path], seen: FetchProgress | None,
                         named: Hints) -> ImportReport:
            return self.import_paths(paths, progress=seen, hints=named)

        report = fetching.fetch(self.root, self.settings.fetch, self.sources, self.index,
                                import_paths, specs, since=since,
                                all_decisions=all_decisions, dry_run=dry_run,
                                progress=progress, warn=self.warn,
                                hints=hints)
        with self._lock:  # what each source was fetched from, for `paper-tui sources`
            sources_mod.record_fetched(
                self.sources.root, [(s.source_id, s.spec) for s in report.sources
                                    if s.source_id and s.status in ("fetched", "unchanged")],
                datetime.date.today().isoformat())
        return report

    # -- sources: what the library holds, and taking one out -------------------------------
    def listed_sources(self) -> list[sources_mod.Listed]:
        """Every source (the bundled list's files as one), by name, as the disk has them
        now (read under the lock: an import in another thread is writing the manifest)."""
        with self._lock:
            self.sources.reload()
            return sources_mod.listed(self.sources, self.root, paths.bundled_data_dir())

    def remove_sources(self, names: Sequence[str]) -> sources_mod.Removed:
        """Take the sources of these names out of the library (all, or none when a name
        is unknown: :class:`PaperTuiError`); the reader's marks stay (:meth:`orphans`)."""
        with self._lock:
            chosen = sources_mod.named(self.listed_sources(), names)
            ids = [sid for source in chosen for sid in source.ids]
            left = importing.remove_sources(self.sources, self.index, ids)
            sources_mod.forget_origins(self.sources.root, ids)
        return sources_mod.Removed(tuple(chosen), left)

    def shows_demo(self) -> bool:
        """Whether the library holds the bundled list alone (the app says it is a demo)."""
        return sources_mod.only_bundled(self.sources, paths.bundled_data_dir())

    # -- papers out: look-up and search ----------------------------------------------------
    def resolve(self, id_or_prefix: str) -> str:
        """The full id for an id or a unique prefix of one (:class:`UnknownPaperError`
        for none or several)."""
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
        """The paper with this id or unique id prefix (:class:`UnknownPaperError` if none)."""
        paper = self.index.get(self.resolve(id_or_prefix))
        assert paper is not None
        return paper

    def lookup(self, paper_id: str) -> Paper | None:
        """The paper with exactly this id; None when the library does not hold it (a
        listed or annotated paper whose source was removed)."""
        return self.index.get(paper_id)

    def papers(self) -> Iterator[Paper]:
        """Every paper, in list order (venue, newest year, title)."""
        results = self.results("")
        yield from (results.paper(i) for i in range(len(results)))

    def count(self) -> int:
        """How many papers the library holds."""
        return self.index.count()

    def search(self, query: str = "", *, sort: str = "relevance", limit: int | None = 50,
               offset: int = 0, all_versions: bool | None = None) -> SearchPage:
        """A page of ``query``'s hits; ``all_versions``: list every version of a paper
        from two sources (default: the ``search.all_versions`` setting)."""
        if sort not in (FOR_YOU, TEAM_SORT):
            return self.index.search(query, sort=sort, limit=limit, offset=offset,
                                     all_versions=self._all_versions(all_versions))
        return page_of(self.results(query, sort=sort, all_versions=all_versions), limit,
                       offset)

    def _all_versions(self, asked: bool | None) -> bool:
        return self.settings.search.all_versions if asked is None else asked

    def results(self, query: str = "", *, sort: str = "relevance",
                all_versions: bool | None = None) -> Results:
        """All hits of ``query``, loaded lazily (for the app's results list), in one of
        :data:`~paper_tui.vocabulary.SORTS` ("for-you": what this reader is likeliest to
        want first).

        A query error does not raise: it is in the results' ``error``, with no hits."""
        every = self._all_versions(all_versions)
        if sort == TEAM_SORT:
            from paper_tui.team.sort import TeamOrder

            return TeamOrder(self.index.results(query, all_versions=every),
                             self._coverage.lab())
        if sort != FOR_YOU:
            return self.index.results(query, sort=sort, all_versions=every)
        from paper_tui.recommend import recommender  # scipy: only when this sort is on
        from paper_tui.recommend.for_you import ForYouResults

        rec = recommender(self)
        rec.refresh()
        return ForYouResults(self.index.results(query, sort="relevance", all_versions=every),
                             rec)

    def similar(self, paper_id: str) -> Results:
        """Papers like this one ("more like this"), from its key terms, most similar first."""
        return self.index.similar(self.resolve(paper_id))

    def facets(self, query: str = "") -> dict[str, dict[str, int]]:
        """Hit counts of ``query`` per tag, status, venue, year and team member, and per
        what the venue says: ``decision``, ``area``, ``country``, affiliation (``aff``) and
        ``has`` (code, reviews, award); most first (empty for a bad query)."""
        return self.index.facets(query)

    # -- papers out: what to read next -----------------------------------------------------
    def recommend(self, query: str = "", limit: int = 20) -> Recommendations:
        """The ``limit`` new papers (within ``query``) this reader is likeliest to want,
        learned from what they kept and skipped (see :mod:`paper_tui.recommend`)."""
        from paper_tui.recommend import recommend  # scipy: only when asked

        return recommend(self, query, limit)

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

    # -- the reader's marks: status, star, tags, note ----------------------------------------
    # A change is made in memory and saved off the caller's path (flush() waits for it);
    # the next search sees it at once. A change to one version of a paper is made to all.
    def annotation(self, paper_id: str) -> Annotation:
        """The reader's marks on a paper (all defaults when it has none)."""
        return self.annotations.get(paper_id)

    def detail(self, paper_id: str, *, team: bool = False, fresh: bool = False
               ) -> PaperDetail:
        """What the library holds of a paper beyond its record. ``team``: with the other
        members' marks — as last read (:meth:`reload_team` reads what changed, in the
        app's worker), so a draw never parses a file; ``fresh``: read now, parsing only
        this paper's block of a member's file that changed (a command's ``show``)."""
        versions = tuple(v for v in self.index.versions_of(paper_id) if v != paper_id)
        return PaperDetail(paper_id, self.annotations.get(paper_id), self.lists_of(paper_id),
                           versions, self._also_in(versions),
                           self._team_marks(paper_id, fresh) if team else ())

    def _also_in(self, versions: Sequence[str]) -> tuple[str, ...]:
        """Other versions as the reader would name them: ``arXiv 2401.01234``,
        ``NeurIPS 2024``."""
        names = []
        for other in versions:
            paper = self.index.get(other)
            if paper is None:
                continue
            if other.startswith("arxiv-"):
                names.append(f"arXiv {other.removeprefix('arxiv-')}")
            else:
                names.append(" ".join(x for x in (paper.venue, str(paper.year or "")) if x)
                             or paper.source or other)
        return tuple(names)

    def set_status(self, ids: Sequence[str], status: str) -> None:
        """Set the triage status (one of :data:`~paper_tui.vocabulary.STATUSES`)."""
        self.annotations.set_status(ids, status)

    def set_starred(self, ids: Sequence[str], starred: bool) -> None:
        """Star (``starred``) or unstar papers."""
        self.annotations.set_starred(ids, starred)

    def toggle_star(self, ids: Sequence[str]) -> bool:
        """Star all of ``ids`` unless all are starred already (then unstar them); True
        when they are starred now."""
        return self.annotations.toggle_star(ids)

    def add_tags(self, ids: Sequence[str], tags: Iterable[str]) -> None:
        """Add tags (split at commas, matched ignoring case: an existing spelling wins)."""
        self.annotations.add_tags(ids, tags)

    def remove_tags(self, ids: Sequence[str], tags: Iterable[str]) -> None:
        """Take tags off papers (matched ignoring case)."""
        self.annotations.remove_tags(ids, tags)

    def set_note(self, paper_id: str, text: str) -> None:
        """Replace the note ("" clears it)."""
        self.annotations.set_note(paper_id, text)

    def append_note(self, paper_id: str, text: str) -> None:
        """Add ``text`` to the note, on a line of its own."""
        self.annotations.append_note(paper_id, text)

    def undo(self) -> str | None:
        """Undo the last change to annotations or reading lists (of the last 100); what it
        was, None when there was none."""
        return self.annotations.undo()

    @property
    def read_only_reason(self) -> str | None:
        """Why annotations cannot be changed now (a broken file), None when they can."""
        return self.annotations.read_only_reason

    def flush(self) -> None:
        """Block until every change is on disk (:class:`StoreError` if it cannot be)."""
        self.annotations.flush()

    def tag_counts(self) -> dict[str, int]:
        """Every tag with how many papers carry it, most used first."""
        return self.annotations.tag_counts()

    def triaged_count(self) -> int:
        """How many papers have a status other than ``new``."""
        return sum(self.annotations.status_counts().values())

    def orphans(self) -> list[str]:
        """Annotated or listed ids whose paper is not in the library (kept, not dropped)."""
        return self.annotations.orphans(_Known(self.index))

    def on_save_outcome(self, callback: Callable[[str | None], None]) -> None:
        """``callback(error)`` when saving annotations fails (the message) or works again
        (None); called from the saver thread."""
        self.annotations.add_save_listener(callback)

    def on_changed_elsewhere(self, callback: Callable[[set[str]], None]) -> None:
        """``callback(paper_ids)`` when another process, a sync or a hand edit changed
        annotations or lists; called from the saver thread."""
        self.annotations.add_change_listener(callback)

    # -- reading lists ---------------------------------------------------------------------
    # A list is named ignoring case and spacing; changes are saved and undone as marks are.
    def reading_lists(self) -> list[ReadingList]:
        """Every reading list, by name (ignoring case)."""
        return self.annotations.lists.all()

    def reading_list(self, name: str) -> ReadingList | None:
        """The list of that name, None when there is none."""
        return self.annotations.lists.get(name)

    def lists_of(self, paper_id: str) -> tuple[str, ...]:
        """The names of the lists holding a paper."""
        return tuple(self.annotations.lists.lists_of(paper_id))

    def create_list(self, name: str, description: str = "") -> ReadingList:
        """A new, empty list (:class:`StoreError` when the name is taken or empty)."""
        return self.annotations.lists.create(name, description)

    def add_to_list(self, name: str, ids: Sequence[str]) -> int:
        """Append papers not in the list yet; how many were added."""
        return self.annotations.lists.add(name, ids)

    def remove_from_list(self, name: str, ids: Iterable[str]) -> int:
        """Take papers out of a list; how many were in it."""
        return self.annotations.lists.remove(name, ids)

    def move_in_list(self, name: str, paper_id: str, position: int) -> None:
        """Move a paper to ``position`` (0-based, clamped to the list)."""
        self.annotations.lists.move(name, paper_id, position)

    def rename_list(self, old: str, new: str) -> None:
        """Rename a list (:class:`StoreError` when the new name is taken or empty); its
        linked ``.bib`` file, if any, follows it."""
        found = self.annotations.lists.get(old)
        self.annotations.lists.rename(old, new)
        renamed = self.annotations.lists.get(new)
        linked = self.bib_links.all().get(found.name) if found is not None else None
        if found is not None and renamed is not None and linked is not None:
            self.bib_links.unlink(found.name)
            self.bib_links.link(renamed.name, linked)

    def describe_list(self, name: str, text: str) -> None:
        """Set a list's description ("" clears it)."""
        self.annotations.lists.describe(name, text)

    def delete_list(self, name: str) -> None:
        """Delete a list; its papers stay in the library (and its linked ``.bib`` file,
        if any, stays as it was, no longer kept up to date)."""
        found = self.annotations.lists.get(name)
        self.annotations.lists.delete(name)
        if found is not None:
            self.bib_links.unlink(found.name)

    # -- export and citations --------------------------------------------------------------
    def export(self, papers: Sequence[Paper], fmt: str, *, title: str = "",
               description: str = "", utf8: bool = False) -> str:
        """``papers`` with the reader's marks as text in ``fmt`` (one of
        :data:`paper_tui.exports.formats.FORMATS`); ``title`` and ``description`` head a list;
        ``utf8``: BibTeX with UTF-8 letters (biblatex)."""
        from paper_tui.exports import formats as export  # YAML dumper, citations: only when asked

        return export.export(self, papers, fmt, title=title, description=description,
                             utf8=utf8)

    def citation_keys(self, papers: Sequence[Paper]) -> dict[str, str]:
        """Paper id -> the key each of ``papers`` is cited under, given out now: a key
        once given out is remembered (``citekeys.yaml``) and never changes; a new one
        collides with none given before."""
        from paper_tui import citations  # the LaTeX encoder: only when asked

        batch = list(papers)
        return self.citekeys.give(lambda given: citations.citation_keys(batch, given))

    def cite(self, papers: Sequence[Paper], style: str | None = None, *,
             in_text: bool = False, preview: bool = False) -> Citation:
        """The citations of ``papers`` in ``style`` (default: the ``citation_style``
        setting): a built-in style, a CSL style's id or a ``.csl`` file; one entry per
        paper; ``in_text``: the in-text form. Their keys are given out (see
        :meth:`citation_keys`), unless this is only a ``preview``. StyleError (one line)
        for a style that cannot be used."""
        from paper_tui import citations

        configured = style is None
        style = style or self.settings.citation_style
        try:
            citations.check_style(style)
            given = self.citekeys.given() if preview else self.citation_keys(papers)
            cited = citations.render(papers, style, given=given, in_text=in_text)
        except StyleError as exc:
            if configured:
                raise StyleError(f"{exc} (citation_style in the config)") from None
            raise
        return Citation(cited.text, style,
                        citations.describe(list(cited.keys.values()), style), cited.html)

    @staticmethod
    def citation_styles(words: str = "") -> list[tuple[str, str]]:
        """``(id, title)`` of every citation style whose id or title holds ``words``: the
        built-in ones, then the CSL styles collection's (no library needed)."""
        from paper_tui.citations import styles

        return styles.search(words)

    @staticmethod
    def load_citation_style(style: str) -> None:
        """Parse a CSL style now, so that rendering it later is quick (the app's picker
        does it in a worker); StyleError when it cannot be used."""
        from paper_tui.citations import csl, styles

        csl.load(styles.resolve(style))

    # -- linked .bib files -----------------------------------------------------------------
    def link_bib(self, name: str, file: Path | str) -> Path:
        """Keep ``file`` a ``.bib`` of list ``name`` from now on (written now): returns
        the file as remembered (an absolute path)."""
        found = self.annotations.lists.get(name)
        if found is None:
            raise StoreError(f"no reading list named {name!r}")
        path = Path(file).expanduser().resolve()
        if path.is_dir():
            raise StoreError(f"{shown_name(path)}: is a directory; give a .bib file's name")
        try:
            atomic.refuse_special(path)  # nothing read, the link not saved
        except atomic.NotARegularFileError as exc:
            raise StoreError(f"{shown_name(path)}: {exc.strerror}; give a .bib "
                             "file's name") from None
        problem = self._write_bib(found.name, path)
        if problem is not None:
            raise StoreError(problem)
        self.bib_links.link(found.name, path)
        return path

    def unlink_bib(self, name: str) -> Path | None:
        """Stop keeping list ``name``'s ``.bib`` up to date (the file stays); the file it
        had, None when it had none."""
        found = self.annotations.lists.get(name)
        return self.bib_links.unlink(found.name if found is not None else name)

    def linked_bibs(self) -> dict[str, Path]:
        """List name -> its linked ``.bib`` file."""
        return self.bib_links.all()

    def update_linked_bibs(self) -> list[str]:
        """Rewrite each linked ``.bib`` file whose list changed (atomically; a file that
        holds its text already is left alone); one line per file that could not be
        written."""
        return list(self._update_bibs().values())

    def _update_bibs(self) -> dict[str, str]:
        """:meth:`update_linked_bibs`, by list name."""
        problems = {}
        for name, path in self.bib_links.all().items():
            problem = self._write_bib(name, path)
            if problem is not None:
                problems[name] = problem
        return problems

    def _linked_lists(self) -> dict[str, ReadingList | None]:
        """Each linked list as it is now: what tells :meth:`close` whether this session
        changed it."""
        return {name: self.annotations.lists.get(name) for name in self.bib_links.all()}

    def _write_bib(self, name: str, path: Path) -> str | None:
        """Bring list ``name``'s ``.bib`` at ``path`` up to date; why it could not be (one
        line), None when it is (or the list is gone)."""
        from paper_tui.citations import bib_file

        listed = self.annotations.lists.get(name)
        if listed is None:
            return None
        papers = [p for p in map(self.lookup, listed.ids) if p is not None]
        missing = [pid for pid in listed.ids if self.lookup(pid) is None]
        try:
            keys = self.citation_keys(papers)
            bib_file.write_if_changed(path, bib_file.bib_text(listed.name, papers, keys,
                                                              missing))
        except OSError as exc:
            return (f"{shown_name(path)}: cannot write the .bib of list {listed.name!r} "
                    f"({exc.strerror or exc})")
        except PaperTuiError as exc:
            return (f"{shown_name(path)}: the .bib of list {listed.name!r} is not up to "
                    f"date: {exc}")
        return None

    def _linked_bibs_after_pass(self) -> None:
        """After each pass of the annotation saver (within a second of a change, from
        its thread): rewrite the linked ``.bib`` files if a list, a link or a key
        changed since the last look."""
        self.bib_links.refresh()  # a link made by a command while this library is open
        state = (self.annotations.lists.store.version, self.bib_links.version)
        if state == self._bib_state or not self.bib_links.all():
            self._bib_state = state
            return
        self._bib_state = state
        self.bib_problems = self.update_linked_bibs()

    # -- watches: saved fetches, and when papers arrived ------------------------------------
    def watches(self) -> list[Watch]:
        """Every watch, by name, with what its last run found (as the file holds them now;
        a damaged file: its backup, and :meth:`watches_problem` says why)."""
        self.watches_file.refresh()
        return self.watches_file.all()

    def watches_problem(self) -> str | None:
        """Why ``watches.yaml`` cannot be changed (one line), None when it can."""
        self.watches_file.refresh()
        return self.watches_file.problem

    def add_watch(self, name: str, source: str, query: str = "") -> Watch:
        """Save a watch: ``source`` as ``paper-tui fetch`` takes it, the new papers it
        brings matched against ``query``. :class:`PaperTuiError` (one line) for a name
        taken or not a name, an empty source, a query that cannot be read."""
        from paper_tui.query.added import NAME

        name, source, query = name.strip(), source.strip(), " ".join(query.split())
        if not NAME.fullmatch(name):
            raise PaperTuiError(f"watch name {name!r}: use letters, digits, '.', '_' and "
                                "'-' (at most 64), e.g. cs.LG or iclr-orals")
        if not source:
            raise PaperTuiError("a watch needs a SOURCE, e.g. arxiv:cs.LG")
        from paper_tui.fetch import spec  # (the watch command may load fetch/)
        from paper_tui.fetch.runner import target
        from paper_tui.holdings.sources import source_id

        parsed = spec.parse(source)  # FetchError, one line, for none of the forms
        # the source its fetches go into is known now: watch:NAME finds a list fetched
        # before the watch was added, without waiting for its first run
        into = source_id(target(self.root, parsed))
        if re.search(r"(?<![\w\"-])watch:", query, re.IGNORECASE):
            raise QueryError("a watch's query cannot name a watch (watch:)")
        if query:
            self._matching(query)  # QueryError, one line, as its runs and a search read it
        self.watches_file.refresh()
        taken = self.watches_file.get(name)
        if taken is not None:
            raise PaperTuiError(f"there is a watch named {taken.name} already "
                                f"({taken.source}): `paper-tui watch remove {taken.name}` "
                                "first")
        watch = Watch(name, parsed.text, query, into)
        self.watches_file.add(watch)
        return watch

    def remove_watch(self, name: str) -> Watch:
        """Drop a watch (the papers it brought stay); :class:`PaperTuiError` when there
        is none of that name."""
        self.watches_file.refresh()
        removed = self.watches_file.remove(name)
        if removed is None:
            raise PaperTuiError(f"there is no watch named {name!r} (`paper-tui watch` "
                                "lists them)")
        return removed

    def fetch_watches(self, progress: FetchProgress | None = None) -> WatchesReport:
        """Fetch every watch's SOURCE (:meth:`fetch`; a source two watches share, once)
        and say per watch how many papers are new to the library and how many of those
        match its query; what each found is kept with it (:meth:`watches`)."""
        from paper_tui.library.watching import run_watches  # the HTTP client: only now

        def fetch(specs: Sequence[str], seen: FetchProgress | None) -> FetchReport:
            return self.fetch(specs, progress=seen)

        def arrived(source_id: str, after: float) -> set[str]:
            seen = self.arrivals.first_seen()
            return {pid for pid in self.arrivals.of_source(source_id)
                    if seen.get(pid, 0) > after}

        return run_watches(self.watches_file, fetch, self._matching, progress, arrived)

    def _matching(self, query: str) -> list[str]:
        """The ids of the papers ``query`` finds, as a search finds them; QueryError when
        it cannot be read."""
        results = self.index.results(query)
        try:
            if results.error:
                raise QueryError(results.error)
            return results.ids() if len(results) else []  # (an empty index has no ids)
        finally:
            results.close()

    def first_seen(self) -> dict[str, float]:
        """Paper id -> when it entered this library (seconds since the epoch)."""
        return {pid: float(at) for pid, at in self.arrivals.first_seen().items()}

    # -- the team --------------------------------------------------------------------------
    def in_team(self) -> bool:
        """Whether this library has synced with a team (``sync --remote URL --as NAME``)."""
        from paper_tui.team.repo import State

        try:
            return State.load(self.root).name is not None
        except PaperTuiError:
            return False

    def reload_team(self) -> None:
        """Read the other members' files that changed since they were last read (the app
        calls it in a worker)."""
        self.team.reload()

    def team_syncing(self) -> AbstractContextManager[None]:
        """While a sync (in another process) rewrites the members' files: what is drawn
        keeps what was last read, and the files that changed are read once at the end."""
        return self.team.syncing()

    def sync_team(self, *, remote: str | None = None, name: str | None = None,
                  progress: Callable[[str], None] | None = None) -> SyncReport:
        """Share this library's triage, lists and paper lists with the team through git
        and take in theirs (:class:`PaperTuiError`, one line, when it cannot);
        ``progress(step)`` hears what it is doing."""
        from paper_tui.team.sync import sync  # git: only when asked

        return sync(self, remote=remote, name=name, progress=progress)

    def team_problems(self) -> list[str]:
        """Why a member's triage (or the split) is not shown (their file broken, too big, a
        link), one line each."""
        problems = list(self.team.problems.values())
        if self.team.assignments_problem:
            problems.append(self.team.assignments_problem)
        return problems

    def _team_marks(self, paper_id: str, fresh: bool) -> tuple[MemberMarks, ...]:
        return tuple(MemberMarks(name, seen.status, seen.starred, tuple(seen.tags), seen.note)
                     for name, seen in self.team.annotators(paper_id, fresh=fresh).items())

    # -- the team's split, coverage and agenda ---------------------------------------------
    # Who reads which paper lives in the team repo (assignments.yaml); a split is committed
    # there and shared by a sync around it. What each member kept and skipped comes from
    # their files (yours from your store): see paper_tui.team.coverage.
    def split_team(self, query: str = "", *, among: Sequence[str] = (), by: str = "area",
                   reassign: str | None = None, share: bool = True,
                   progress: Callable[[str], None] | None = None) -> SplitOutcome:
        """Assign the papers of ``query`` no member has triaged and nobody holds yet among
        ``among`` (default: the members holding a share), balanced, grouped ``by`` area,
        venue or at random; ``reassign``: hand that member's untriaged share (within
        ``query``) to the others instead. ``share``: sync before (take in the team's latest
        split) and after (send this one); a sync that fails is said in the outcome's notes,
        the split stays committed here. :class:`PaperTuiError` (one line) when this library
        is not in a team, a name or the query is wrong, or the assignments file is
        broken (never written over)."""
        from paper_tui.team import assign, split

        if by not in split.BY:
            raise PaperTuiError(f"--by {by!r}: use one of {', '.join(split.BY)}")
        me = self._team_name()
        outcome = assign.SplitOutcome()
        lab = self._latest_split(share, outcome.notes, progress)
        if reassign is not None:
            reassign = "" if reassign == "me" and not me else \
                me if reassign == "me" else reassign.strip().lower()
        names = assign.members(lab, among, reassign)
        demo = frozenset() if query.strip() or reassign is not None else self._demo_ids()
        results = self._query_results(query)
        try:
            ids = results.ids()
            position = {pid: i for i, pid in enumerate(ids)}
            chosen = assign.candidates(lab, [pid for pid in ids if pid not in demo], reassign,
                                       outcome)
            papers, titles, areas = [], {}, False
            for pid in chosen:
                paper = results.paper(position[pid])
                papers.append(_candidate(paper, by))
                titles[pid] = paper.title or paper.display_title
                areas = areas or bool(paper.area.strip())
        finally:
            results.close()
        left_out = sum(1 for pid in ids if pid in demo)
        if left_out:
            outcome.notes.append(assign.demo_note(left_out))
        if by == "area" and papers and not areas:
            outcome.notes.append(assign.AREA_NOTE)
        holding = {name: len(lab.assignments.share(name)) for name in names}
        changes = split.split(papers, names, holding, by)
        given = {name: 0 for name in names}
        for member in changes.values():
            given[member] += 1
        what = (f"handed {reassign}'s untriaged share to" if reassign is not None else
                "split")
        message = (f"{what} {', '.join(n for n in names if given[n])}: "
                   f"{', '.join(f'{n} {given[n]:,}' for n in names if given[n])}"
                   f"{f' (by {by})' if reassign is None else ''}")
        written, outcome.shares = assign.write(self.root, me, changes, titles, message) \
            if changes else (0, _shares(lab.assignments.shares))
        outcome.assigned = given
        outcome.not_synced = tuple(n for n in names if n != me and n not in lab.members)
        if share and written:
            self._sync_around("sending the split", outcome.notes, progress)
        return outcome

    def _demo_ids(self) -> frozenset[str]:
        """The papers of the bundled demo list (left out of a split with no query)."""
        from paper_tui.team import assign

        query = assign.demo_query()
        if not query:
            return frozenset()
        results = self._query_results(query)
        try:
            return frozenset(results.ids())
        finally:
            results.close()

    def unassign_team(self, query: str, *, share: bool = True,
                      progress: Callable[[str], None] | None = None) -> SplitOutcome:
        """Take back the assignments of the papers of ``query`` (their blocks keep a time
        stamp, so an older copy never brings them back); synced as :meth:`split_team`."""
        from paper_tui.team import assign
        from paper_tui.team.assignments import NOBODY

        if not query.strip():
            raise PaperTuiError("name the papers to take back: paper-tui team unassign "
                                "QUERY (assigned:bob, a venue, …)")
        me = self._team_name()
        outcome = assign.SplitOutcome()
        lab = self._latest_split(share, outcome.notes, progress)
        results = self._query_results(query)
        try:
            ids = results.ids()
        finally:
            results.close()
        held = lab.assignments.member_of
        changes = {pid: NOBODY for pid in ids if pid in held}
        outcome.considered = len(ids)
        outcome.unassigned, outcome.shares = assign.write(
            self.root, me, changes, {}, f"took back {len(changes):,} papers") if changes \
            else (0, _shares(lab.assignments.shares))
        if share and outcome.unassigned:
            self._sync_around("sending the change", outcome.notes, progress)
        return outcome

    def _team_name(self) -> str:
        from paper_tui.team.repo import State

        name = State.load(self.root).name
        if name is None or not (self.team.root / ".git").is_dir():
            raise PaperTuiError("this library is not in a team yet: run `paper-tui sync "
                                "--remote URL --as NAME` once (URL: any git remote)")
        return name

    def _latest_split(self, share: bool, notes: list[str],
                      progress: Callable[[str], None] | None) -> Lab:
        """The team's work as it stands, after taking in the team's latest split when
        ``share``; :class:`PaperTuiError` when the assignments file is broken (it is never
        written over)."""
        if share:
            self._sync_around("taking in the team's latest split", notes, progress)
        lab = self._coverage.lab()
        if self.team.assignments_problem:
            raise PaperTuiError(self.team.assignments_problem)
        return lab

    def _sync_around(self, what: str, notes: list[str],
                     progress: Callable[[str], None] | None) -> None:
        """A sync around a change of the split; a fault is a note (the change stays)."""
        try:
            report = self.sync_team(progress=progress)
        except PaperTuiError as exc:
            notes.append(f"{what}: {exc}")
            return
        notes.extend(report.notes)

    def _query_results(self, query: str) -> Results:
        results = self.index.results(query)
        if results.error:
            results.close()
            raise QueryError(results.error)
        return results

    def team_coverage(self, query: str = "") -> TeamCoverage:
        """``team status``: per member their share, what they triaged of it, kept and
        skipped, when they last changed anything and last synced; then the papers no one
        triaged, the picks and the disputed (counts within ``query``)."""
        from paper_tui.team import history

        results = self._query_results(query)
        try:
            ids = results.ids()
        finally:
            results.close()
        lab = self._coverage.lab()
        shown = self._shown_of()
        papers = frozenset(ids)

        def within(found: frozenset[str]) -> frozenset[str]:
            return frozenset(shown(pid) for pid in found) & papers

        share = {name: within(lab.assignments.share(name)) for name in lab.assignments.shares}
        names = sorted({*(n for n in lab.members if n), *share}, key=lambda n: (n != lab.me, n))
        synced = history.last_commits(self.team.root, names)
        had_files = history.had_files(self.team.root) if any(
            name not in lab.members for name in names) else frozenset()
        rows = []
        for name in names:
            work = lab.members.get(name)
            mine = share.get(name, frozenset())
            state = "member"
            if work is None:
                state = "left" if name in had_files else "not synced yet"
            touched = within(work.touched) if work is not None else frozenset()
            rows.append(MemberCoverage(
                name, len(mine), len(mine & touched),
                len(within(work.kept)) if work else 0, len(within(work.skipped)) if work else 0,
                work.last_change if work else None, synced.get(name), name == lab.me, state))
        assigned_any = frozenset().union(*share.values())
        return TeamCoverage(query, len(papers), tuple(rows),
                            len(papers - within(lab.touched)),
                            len(within(lab.kept_by_at_least(2))), len(within(lab.disputed)),
                            len(papers - assigned_any), tuple(self.team_problems()))

    def _shown_of(self) -> Callable[[str], str]:
        """A paper id -> the id of the version of it the results show."""
        def shown(pid: str) -> str:
            return self.index.versions_of(pid)[0]

        return shown

    def team_digest(self, query: str = "", *, since: float | None = None,
                    fmt: str = "markdown", every_kept: bool = False) -> str:
        """The reading group's agenda (:mod:`paper_tui.team.digest`): the picks of
        ``query`` (``every_kept``: every kept paper) kept since ``since`` (seconds since
        the epoch), and the disputed papers, in ``fmt`` (markdown, org, html)."""
        from paper_tui.team import digest

        results = self._query_results(query)
        try:
            ids = results.ids()
        finally:
            results.close()
        gathered = digest.gather(self._coverage.lab(), ids, self.lookup, self.citation_keys,
                                 since, every_kept)
        return digest.render(gathered, fmt)

    def share_progress(self) -> tuple[int, int] | None:
        """``(triaged, assigned)`` of your share (``your share: 120 / 400`` in the app's
        status line); None when you hold none. From the split as last read (the app's
        worker reads it) and your store as it is: cheap enough for a key's frame."""
        me = self.team.me
        if me is None:
            return None
        share = self.team.assignments(fresh=False).share(me)
        if not share:
            return None
        records = self.annotations.records()
        done = 0
        for pid in share:
            record = records.get(pid)
            if record is not None and verdict(record.get("status", "new"),
                                              bool(record.get("starred")),
                                              bool(record.get("tags"))):
                done += 1
        return done, len(share)

    # -- PDFs (library/pdfs.py; pypdfium2 and the HTTP client only when called) ----------
    def pdf_get(self, ids: Sequence[str] = (), *, query: str | None = None,
                list_name: str | None = None, force: bool = False,
                progress: Progress | None = None) -> PdfReport:
        """Fetch the PDFs of the papers ``ids``, ``query`` and ``list_name`` name."""
        from paper_tui.library import pdfs
        papers = pdfs.chosen(self, ids, query, list_name)
        return pdfs.get(self, papers, force=force, progress=progress)

    def pdf_add(self, paper_id: str, file: Path, *, link: bool = False) -> Held:
        """The reader's own PDF as the paper's: copied, or linked (``link``)."""
        from paper_tui.library import pdfs
        return pdfs.add(self, paper_id, file, link=link)

    def pdf_path(self, paper_id: str) -> Path:
        """Where the paper's PDF is (:class:`PaperTuiError` when it is not held)."""
        from paper_tui.library import pdfs
        return pdfs.path(self, paper_id)

    def pdf_text(self, paper_id: str) -> str:
        """The text of the paper's PDF (cached beside it; extracted when it is not)."""
        from paper_tui.library import pdfs
        return pdfs.text(self, paper_id)

    def pdf_open(self, paper_id: str) -> tuple[Path, list[str] | None]:
        """The paper's PDF, marked as opened, and the viewer command to run (or None)."""
        from paper_tui.library import pdfs
        return pdfs.open_command(self, paper_id)

    def pdf_remove(self, paper_ids: Sequence[str]) -> list[str]:
        """Take these papers' PDFs out (all or none); the ids removed."""
        from paper_tui.library import pdfs
        return pdfs.remove(self, paper_ids)

    def pdf_list(self) -> list[Held]:
        """Every PDF the library holds."""
        from paper_tui.library import pdfs
        return pdfs.listing(self)

    def pdf_prune(self, max_mb: float, *, everything: bool = False) -> Pruned:
        """Remove the least recently opened PDFs until they fill at most ``max_mb``."""
        from paper_tui.library import pdfs
        return pdfs.prune(self, max_mb, everything=everything)


def _shares(shares: Mapping[str, frozenset[str]]) -> dict[str, int]:
    return {name: len(ids) for name, ids in sorted(shares.items())}


def _candidate(paper: Paper, by: str) -> Candidate:
    """A paper to split, with its group: its area (else its first keyword, else its venue)
    or its venue and year."""
    from paper_tui.team.split import Candidate

    keyword = paper.keywords[0].strip().casefold() if paper.keywords else ""
    area = paper.area.strip().casefold() or keyword or paper.venue.casefold()
    if by == "venue":
        return Candidate(paper.id, f"{paper.venue.casefold()} {paper.year or ''}", area)
    if by == "area":
        return Candidate(paper.id, area, keyword)
    return Candidate(paper.id)


class _Known:
    """Membership in the index, asked one id at a time."""

    def __init__(self, index: PaperIndex) -> None:
        self.index = index

    def __contains__(self, paper_id: object) -> bool:
        return isinstance(paper_id, str) and self.index.get(paper_id) is not None
