"""The library: the one class both fronts call, for everything they do.

:meth:`Library.open` opens its parts (:mod:`.parts`) and builds the domains over them;
each method hands on to one: :mod:`.importing`, :mod:`.fetching`, :mod:`.holdings`,
:mod:`.finding`, :mod:`.details`, :mod:`.citing`, :mod:`.watching`, :mod:`.team_work`, or
a part itself. A front never reaches past these methods (``tests/test_import_graph.py``
checks), so a change behind this door stays there. The methods are grouped by concern:
opening; papers in; sources; papers out; the reader's marks; reading lists; export and
citations; watches; the team.
"""

from __future__ import annotations

import datetime
from collections.abc import Callable, Collection, Iterable, Iterator, Sequence
from contextlib import AbstractContextManager
from pathlib import Path
from typing import TYPE_CHECKING

from paper_tui import config as config_mod
from paper_tui import paths
from paper_tui.config import Settings
from paper_tui.errors import PaperTuiError
from paper_tui.holdings import sources as sources_mod
from paper_tui.index import Results, SearchPage
from paper_tui.library import importing
from paper_tui.library import reviews as reviews_mod
from paper_tui.library.citing import Citing, CitingDoor
from paper_tui.library.details import Details
from paper_tui.library.finding import Finding
from paper_tui.library.holdings import Holdings
from paper_tui.library.importing import Intake, Progress
from paper_tui.library.marks import ReaderMarks
from paper_tui.library.parts import Parts, open_parts
from paper_tui.library.records import PaperDetail, TeamCoverage
from paper_tui.library.reviews import ReviewsDoor
from paper_tui.library.team_work import TeamWork
from paper_tui.model import Paper
from paper_tui.store.watches import Watch

if TYPE_CHECKING:
    from paper_tui.fetch.report import FetchProgress, FetchReport
    from paper_tui.importers import Hints, ImportReport
    from paper_tui.library.pdfs import PdfReport, Pruned
    from paper_tui.library.watching import WatchesReport
    from paper_tui.pdfs.shelf import Held
    from paper_tui.recommend import Recommendations, Recommender
    from paper_tui.team.assign import SplitOutcome
    from paper_tui.team.sync import SyncReport


class Library(ReaderMarks, CitingDoor, ReviewsDoor):
    """A library directory: its papers (``sources/``), their index (``index/``, derived),
    the reader's annotations and reading lists (YAML), the team's (``team/``)."""

    def __init__(self, root: Path, settings: Settings, parts: Parts, *, intake: Intake,
                 holdings: Holdings, finding: Finding, details: Details, citing: Citing,
                 team_work: TeamWork, warn: Callable[[str], None] | None = None) -> None:
        """The parts and the domains over them, made by :meth:`open`."""
        self.root, self.settings, self.warn = root, settings, warn
        self.index, self.team, self.annotations = parts.index, parts.team, parts.annotations
        self.sources, self.arrivals = parts.sources, parts.arrivals
        self.watches_file, self.citekeys = parts.watches, citing.citekeys
        self._intake, self._holdings, self._finding = intake, holdings, finding
        self._details, self._citing, self._team_work = details, citing, team_work

    # -- opening ---------------------------------------------------------------------------
    @classmethod
    def open(cls, root: Path | str | None = None, *, config: config_mod.Config | None = None,
             bundled: bool | None = None, progress: Progress | None = None,
             warn: Callable[[str], None] | None = None) -> Library:
        """Open (creating if needed) the library at ``root`` (default: the ``library``
        setting, then the user data dir); a new one gets the bundled list as its demo when
        ``bundled`` (default: the setting; :func:`.importing.begin`). ``warn`` hears what
        the user should know (an unreadable index being rebuilt from the sources)."""
        settings = (config or config_mod.defaults()).settings
        root = paths.library_dir(root if root is not None else settings.library or None)
        parts = open_parts(root, warn)
        index, annotations = parts.index, parts.annotations
        citing = Citing(root, annotations.lists, index.get, settings.citation_style)
        annotations.add_pass_listener(citing.after_pass)
        team_work = TeamWork(root, parts.team, annotations, index, parts.coverage,
                             sync=lambda seen: library.sync_team(progress=seen),
                             citation_keys=citing.citation_keys,
                             histories=lambda: reviews_mod.all_histories(parts.sources))
        library = cls(root, settings, parts, warn=warn, citing=citing, team_work=team_work,
                      intake=Intake(parts.sources, index, parts.arrivals, parts.lock, warn,
                                    settings.import_.max_unpacked_gb),
                      holdings=Holdings(root, parts.sources, index, parts.lock),
                      finding=Finding(index, settings.search, team_work.lab,
                                      lambda: library._recommender()),
                      details=Details(index, annotations, team_work.marks))
        with parts.lock:
            library.reindex_changed_sources(progress)
            importing.begin(parts.sources, settings.bundled_lists if bundled is None
                            else bundled, lambda: library.import_paths(
                                [paths.bundled_data_dir()], progress=progress))
        return library

    def close(self) -> None:
        """Flush annotations (StoreError if that fails), bring the linked ``.bib`` files up
        to date (:meth:`.citing.Citing.close`), close the index."""
        try:
            self.annotations.close()
            self._citing.close()
        finally:
            self.index.close()

    def __enter__(self) -> Library:
        return self

    def __exit__(self, *exc: object) -> None:
        """Closes the library (see :meth:`close`)."""
        self.close()

    # -- papers in: import, and the index in step with the sources (:mod:`.importing`) -----
    def reindex_changed_sources(self, progress: Progress | None = None) -> None:
        """Bring the index in step with the sources (rebuilt if it cannot be read)."""
        self._intake.reindex(progress)

    def import_paths(self, targets: Iterable[Path | str], progress: Progress | None = None,
                     force: bool = False, hints: Hints | None = None) -> ImportReport:
        """Import files and directories; bad ones are reported, never raised."""
        return self._intake.import_paths(targets, progress, force, hints)

    def fetch(self, specs: Sequence[str], *, since: datetime.date | None = None,
              all_decisions: bool = False, dry_run: bool = False,
              progress: FetchProgress | None = None, hints: Hints | None = None,
              reviews: bool | None = None) -> FetchReport:
        """Fetch each SOURCE and import its list (:func:`.fetching.fetch` says how);
        ``reviews``: OpenReview's reviews too (default: the ``fetch.reviews`` setting)."""
        from paper_tui.library import fetching  # the HTTP client: only when fetching

        report = fetching.fetch(
            self.root, self.settings.fetch, self.sources, self.index,
            lambda found, seen, named: self.import_paths(found, progress=seen, hints=named),
            specs, since=since, all_decisions=all_decisions, dry_run=dry_run,
            progress=progress, warn=self.warn, hints=hints,
            reviews=self.settings.fetch.reviews if reviews is None else reviews,
            reindex=self.reindex_papers)
        self._holdings.record_fetched(report)
        return report

    def reindex_papers(self, ids: Collection[str]) -> int:
        """Write these papers into the index again (their PDF's text came or went, their
        reviews changed)."""
        return self._intake.rewrite(ids)

    # -- sources: what the library holds, and taking one out (:mod:`.holdings`) -----------
    def listed_sources(self) -> list[sources_mod.Listed]:
        """Every source, by name, as the disk has them now."""
        return self._holdings.listed()

    def remove_sources(self, names: Sequence[str]) -> sources_mod.Removed:
        """Take these sources out (all or none); the reader's marks stay (:meth:`orphans`)."""
        return self._holdings.remove(names)

    def shows_demo(self) -> bool:
        """Whether the library holds the bundled list alone (the app says it is a demo)."""
        return self._holdings.shows_demo()

    # -- papers out: look-up and search (:mod:`.finding`) ----------------------------------
    def resolve(self, id_or_prefix: str) -> str:
        """The full id for an id or a unique prefix of one (UnknownPaperError if not)."""
        return self._finding.resolve(id_or_prefix)

    def paper(self, id_or_prefix: str) -> Paper:
        """The paper with this id or unique id prefix (UnknownPaperError if none)."""
        return self._finding.paper(id_or_prefix)

    def lookup(self, paper_id: str) -> Paper | None:
        """The paper with exactly this id; None when the library does not hold it."""
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
        """A page of ``query``'s hits (:meth:`.finding.Finding.search`)."""
        return self._finding.search(query, sort=sort, limit=limit, offset=offset,
                                    all_versions=all_versions)

    def results(self, query: str = "", *, sort: str = "relevance",
                all_versions: bool | None = None) -> Results:
        """All hits of ``query``, loaded lazily; a query error is in their ``error``."""
        return self._finding.results(query, sort=sort, all_versions=all_versions)

    def sorts(self) -> tuple[str, ...]:
        """The sorts the app offers now (:meth:`.finding.Finding.sorts`)."""
        return self._finding.sorts()

    def similar(self, paper_id: str) -> Results:
        """Papers like this one ("more like this"), from its key terms, most similar first."""
        return self.index.similar(self.resolve(paper_id))

    def facets(self, query: str = "") -> dict[str, dict[str, int]]:
        """Hit counts of ``query`` per tag, status, venue, year, member, decision, …"""
        return self.index.facets(query)

    # -- papers out: what to read next (:mod:`paper_tui.recommend`) ------------------------
    def _recommender(self) -> Recommender:
        from paper_tui.recommend import recommender  # scipy: only when asked

        return recommender(self)

    def recommend(self, query: str = "", limit: int = 20) -> Recommendations:
        """The ``limit`` new papers (within ``query``) this reader is likeliest to want."""
        return self._recommender().recommend(query, limit)

    def refresh_recommendations(self) -> bool:
        """Learn again if the reader's labels changed; True when "for-you" may have."""
        return self._recommender().refresh()

    def why(self, paper_id: str) -> str:
        """What pushed a paper up and down for this reader ("" before anything was kept)."""
        rec = self._recommender()
        return rec.explain(paper_id).text() if rec.ready else ""

    # -- a paper's detail, orphans (marks: :class:`.marks.ReaderMarks`; reviews:
    # :class:`.reviews.ReviewsDoor`) -------------------------------------------------------
    def detail(self, paper_id: str, *, team: bool = False, fresh: bool = False) -> PaperDetail:
        """What the library holds of a paper beyond its record (:mod:`.details`)."""
        return self._details.detail(paper_id, team=team, fresh=fresh)

    def triaged_count(self) -> int:
        """How many papers have a status other than ``new``."""
        return self._details.triaged_count()

    def orphans(self) -> list[str]:
        """Annotated or listed ids whose paper is not in the library (kept, not dropped)."""
        return self._details.orphans()

    # -- reading lists (the rest: :class:`.marks.ReaderMarks`) -----------------------------
    # -- export (citations and keys: :class:`.citing.CitingDoor`) ------------------------
    def export(self, papers: Sequence[Paper], fmt: str, *, title: str = "",
               description: str = "", utf8: bool = False) -> str:
        """``papers`` with the reader's marks as text in ``fmt`` (:mod:`paper_tui.exports`)."""
        from paper_tui.exports import formats as export  # YAML dumper, citations: only when asked

        return export.export(self, papers, fmt, title=title, description=description, utf8=utf8)

    # -- watches: saved fetches, and when papers arrived (:mod:`.watching`) ----------------
    def watches(self) -> list[Watch]:
        """Every watch, by name, with its last run (a damaged file: its backup)."""
        self.watches_file.refresh()
        return self.watches_file.all()

    def watches_problem(self) -> str | None:
        """Why ``watches.yaml`` cannot be changed (one line), None when it can."""
        self.watches_file.refresh()
        return self.watches_file.problem

    def add_watch(self, name: str, source: str, query: str = "", reviews: bool = False
                  ) -> Watch:
        """Save a watch (:func:`.watching.add_watch`); PaperTuiError, one line."""
        from paper_tui.library import watching  # (it loads fetch/, to check the SOURCE)

        return watching.add_watch(self.watches_file, self.root, self.index, name, source, query,
                                  reviews)

    def remove_watch(self, name: str) -> Watch:
        """Drop a watch (its papers stay); PaperTuiError when there is none of that name."""
        self.watches_file.refresh()
        removed = self.watches_file.remove(name)
        if removed is None:
            raise PaperTuiError(f"there is no watch named {name!r} (`paper-tui watch` lists them)")
        return removed

    def fetch_watches(self, progress: FetchProgress | None = None) -> WatchesReport:
        """Fetch every watch's SOURCE (:func:`.watching.run_watches`)."""
        from paper_tui.library import watching  # the HTTP client: only now

        return watching.run_watches(
            self.watches_file,
            lambda specs, seen, reviews: self.fetch(specs, progress=seen, reviews=reviews),
            lambda query: watching.matching(self.index, query), progress,
            watching.arrived_from(self.arrivals))

    def first_seen(self) -> dict[str, float]:
        """Paper id -> when it entered this library (seconds since the epoch)."""
        return {pid: float(at) for pid, at in self.arrivals.first_seen().items()}

    # -- the team (:mod:`.team_work`) ------------------------------------------------------
    def in_team(self) -> bool:
        """Whether this library has synced with a team (``sync --remote URL --as NAME``)."""
        return self._team_work.in_team()

    def reload_team(self) -> None:
        """Read the other members' files that changed since last read (in a worker)."""
        self.team.reload()

    def team_syncing(self) -> AbstractContextManager[None]:
        """While a sync (in another process) rewrites the members' files."""
        return self.team.syncing()

    def sync_team(self, *, remote: str | None = None, name: str | None = None,
                  progress: Callable[[str], None] | None = None) -> SyncReport:
        """Share this library's work with the team through git (:mod:`paper_tui.team.sync`)."""
        from paper_tui.team.sync import sync  # git: only when asked

        return sync(self, remote=remote, name=name, progress=progress)

    def team_problems(self) -> list[str]:
        """Why a member's triage (or the split) is not shown, one line each."""
        return self._team_work.problems()

    def split_team(self, query: str = "", *, among: Sequence[str] = (), by: str = "area",
                   reassign: str | None = None, share: bool = True,
                   progress: Callable[[str], None] | None = None) -> SplitOutcome:
        """Split the untriaged papers of ``query`` among members (:meth:`TeamWork.split`)."""
        return self._team_work.split(query, among=among, by=by, reassign=reassign,
                                     share=share, progress=progress)

    def unassign_team(self, query: str, *, share: bool = True,
                      progress: Callable[[str], None] | None = None) -> SplitOutcome:
        """Take back the assignments of the papers of ``query``; synced as a split."""
        return self._team_work.unassign(query, share=share, progress=progress)

    def team_coverage(self, query: str = "") -> TeamCoverage:
        """``team status``: each member's share and triage, the untriaged, the picks."""
        return self._team_work.status(query)

    def team_digest(self, query: str = "", *, since: float | None = None,
                    fmt: str = "markdown", every_kept: bool = False) -> str:
        """The reading group's agenda (:mod:`paper_tui.team.digest`) in ``fmt``, with the
        biggest rating moves."""
        return self._team_work.digest(query, since=since, fmt=fmt, every_kept=every_kept)

    def share_progress(self) -> tuple[int, int] | None:
        """``(triaged, assigned)`` of your share; None when you hold none. Cheap."""
        return self._team_work.share_progress()

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

    def pdf_held(self, paper_id: str) -> tuple[Path, Held] | None:
        """The paper's PDF and what is known of it (pages, …); None when none is held."""
        from paper_tui.library import pdfs
        return pdfs.held_pdf(self, paper_id)

    def pdf_list(self) -> list[Held]:
        """Every PDF the library holds."""
        from paper_tui.library import pdfs
        return pdfs.listing(self)

    def pdf_ids(self) -> frozenset[str]:
        """The ids of the papers whose PDF the library holds (cheap: no PDF is read)."""
        from paper_tui.library import pdfs
        return pdfs.held_ids(self)

    def pdf_prune(self, max_mb: float, *, everything: bool = False) -> Pruned:
        """Remove the least recently opened PDFs until they fill at most ``max_mb``."""
        from paper_tui.library import pdfs
        return pdfs.prune(self, max_mb, everything=everything)

