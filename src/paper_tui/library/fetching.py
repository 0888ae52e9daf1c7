"""Lists from the network into the library: each SOURCE fetched (``fetch/``), written
under ``fetched/`` and imported like any file (so its papers keep their ids, a re-fetch
replaces the source, annotations are never touched and a team sync shares it).

Each source is all or nothing: a list that cannot be had whole, or whose file does not
import, leaves the library as it was (the previous file of that source put back).
"""

from __future__ import annotations

import datetime
import functools
import hashlib
import json
import tempfile
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING

from paper_tui.config import FetchSettings
from paper_tui.errors import FetchError, PaperTuiError
from paper_tui.fetch import runner, spec
from paper_tui.fetch.report import (
    FetchProgress,
    FetchReport,
    FetchStatus,
    SourceFetch,
    contained,
)
from paper_tui.holdings.reviews import digest, digests_of, write_reviews
from paper_tui.holdings.sources import SourceStore, source_id
from paper_tui.index import PaperIndex
from paper_tui.trust import atomic
from paper_tui.venue.reviews import review_texts

if TYPE_CHECKING:
    from paper_tui.importers import Hints, ImportReport
    from paper_tui.venue.reviews import Review

ImportPaths = Callable[[list[Path], FetchProgress | None, "Hints"], "ImportReport"]
Reindex = Callable[[Collection[str]], int]
"""Write these papers into the index again (their reviews changed), under the library's
lock; how many the index holds."""
HINTS = ".hints.json"
"""Next to a fetched file (``fetched/<name>.hints.json``): the ``--venue`` and ``--year``
its fetch was given, for the fetches after it (a watch's, a plain re-fetch)."""


def fetch(root: Path, settings_fetch: FetchSettings, sources: SourceStore,
          index: PaperIndex, import_paths: ImportPaths, specs: Sequence[str], *,
          since: datetime.date | None, all_decisions: bool, dry_run: bool,
          progress: FetchProgress | None,
          warn: Callable[[str], None] | None, hints: Hints | None = None,
          reviews: bool = False, reindex: Reindex | None = None) -> FetchReport:
    """Each SOURCE fetched and imported in turn; one that fails, whatever the failure (a
    bug too: :func:`~paper_tui.fetch.report.contained`), is its line and the next goes
    on. ``hints`` (``--venue``, ``--year``) name what a list does not, kept with each
    source's fetched file for the fetches after. ``reviews``: an OpenReview venue's
    reviews too, kept beside the source (:mod:`paper_tui.holdings.reviews`), and the papers
    whose reviews' text changed written into the index again with ``reindex``."""
    done = []
    for text in specs:
        try:
            parsed = spec.parse(text)
        except FetchError as exc:
            done.append(SourceFetch(text, "failed", None, 0, (), 0, 0, str(exc)))
            continue
        named = spec.canonical(parsed, settings_fetch)  # one list, one source
        found = contained(named.text, functools.partial(
            _one, root, settings_fetch, sources, index, import_paths, named, since,
            all_decisions, dry_run, progress, warn, hints, reviews, reindex))
        done.append(found if named == parsed else
                    replace(found, spec=parsed.text, same_as=named.text))
    return FetchReport(tuple(done))


def _one(root: Path, settings_fetch: FetchSettings, sources: SourceStore,
         index: PaperIndex, import_paths: ImportPaths, source: spec.Spec,
         since: datetime.date | None, all_decisions: bool, dry_run: bool,
         progress: FetchProgress | None,
         warn: Callable[[str], None] | None, hints: Hints | None,
         reviews: bool = False, reindex: Reindex | None = None) -> SourceFetch:
    path = runner.target(root, source)
    sources.reload()
    sid = _source_of(sources, path)
    fetched = None
    try:
        with runner.source_lock(root, source):
            fetched = runner.start(source, root, settings_fetch, since=since,
                                   all_decisions=all_decisions, dry_run=dry_run,
                                   progress=progress, warn=warn, reviews=reviews)
            info = sources.get(sid) if sid is not None and path.is_file() else None
            # an unchanged list given a venue or year it was not given before is re-read
            relabel = info is not None and _merged(_kept_hints(path), hints) != _kept_hints(path)
            if info is not None and not dry_run and fetched.unchanged_at_once():
                if relabel:
                    return _imported(fetched, path.read_bytes(), import_paths, progress, warn,
                                     hints, sources, reindex)
                fetched.finish()
                return _report(fetched, "unchanged", sid, info.count, ())
            listing = fetched.run()
            if listing.notice and warn is not None:
                warn(listing.notice)
            if dry_run:
                return _dry_run(fetched, listing.body, sid, index)
            if fetched.unchanged and info is not None:
                if relabel:
                    return _imported(fetched, path.read_bytes(), import_paths, progress, warn,
                                     hints, sources, reindex)
                fetched.finish()
                return _report(fetched, "unchanged", sid, info.count, ())
            same = _same_content(root, sources, listing.body) if sid is None else None
            if same is not None and same.path.parent != (root / runner.FETCHED).resolve():
                fetched.finish()  # a file imported from elsewhere: not ours to write
                return replace(_report(fetched, "unchanged", same.id, same.count, ()),
                               same_as=same.id)
            if same is not None:  # another fetched source's list: that source is updated
                fetched.path = root / runner.FETCHED / same.path.name
                runner.same_list(root, source, fetched.path)
            found = _imported(fetched, listing.body, import_paths, progress, warn, hints,
                              sources, reindex)
            return found if same is None else replace(found, same_as=same.id)
    except PaperTuiError as exc:
        pages = fetched.pages if fetched is not None else None
        return SourceFetch(source.text, "failed", sid, 0, (), pages.requests if pages else 0,
                           pages.received if pages else 0, _line(exc))


def _imported(fetched: runner.Fetch, body: bytes, import_paths: ImportPaths,
              progress: FetchProgress | None, warn: Callable[[str], None] | None,
              given: Hints | None, sources: SourceStore, reindex: Reindex | None = None
              ) -> SourceFetch:
    path = fetched.path
    previous = path.read_bytes() if path.is_file() else None
    kept = _kept_hints(path)
    hints = _merged(kept, given)
    atomic.write_bytes(path, body)
    report = import_paths([path], progress, hints)
    if len(report.sources) != 1:  # the file did not import: as it was before
        if previous is None:
            path.unlink(missing_ok=True)
        else:
            atomic.write_bytes(path, previous)
        fetched.forget()
        why = report.errors[0] if report.errors else "no papers in it"
        raise FetchError(fetched.spec.text, f"the list does not import: {why}")
    if hints != kept:
        atomic.write_text(path.with_name(path.name + HINTS), json.dumps(
            {"venue": hints.venue, "year": hints.year}))
    for problem in [*report.errors, *report.skipped]:
        if warn is not None:
            warn(f"{fetched.spec.text}: {problem}")
    if warn is not None and (lacking := _unnamed(sources, report.sources[0], hints)):
        options = " ".join({"venue": "--venue NAME", "year": "--year N"}[w] for w in lacking)
        warn(f"{fetched.spec.text}: its papers have no {' and no '.join(lacking)} (neither "
             f"the file's name nor its content says): give {options}, as in `paper-tui "
             f"fetch {fetched.spec.text} {options}`")
    if fetched.listing is not None and fetched.listing.reviews is not None:
        changed = _keep_reviews(sources, report.sources[0], fetched.listing.reviews)
        if changed and reindex is not None:
            reindex(changed)
    fetched.finish()
    return _report(fetched, "fetched", report.sources[0], report.papers,
                   tuple(report.new_ids))


_FORUM = "/forum?id="


def _keep_reviews(sources: SourceStore, sid: str,
                  by_forum: dict[str, list[Review]]) -> list[str]:
    """The fetched reviews kept beside the source, by paper (a paper's forum is in its
    URL), replacing those of the fetch before; the ids of the papers whose reviews' text
    (what the index holds of them: ``review:``, ``meta:``) is not what it was. The import
    wrote the papers before their new reviews were kept: these are written again."""
    before = digests_of(sources.root, sid)
    kept = []
    for paper in sources.readable_papers(sid):
        forum = paper.url.partition(_FORUM)[2] if _FORUM in paper.url else ""
        if forum in by_forum:
            kept.append((paper.id, forum, by_forum[forum]))
    write_reviews(sources.root, sid, kept)  # atomic, under the source's fetch lock
    after = {pid: digest(texts) for pid, _, reviews in kept
             if any(texts := review_texts(reviews))}
    # in the file's order: the index reads the file forward as it writes them
    return [pid for pid in [*after, *before.keys() - after.keys()]
            if before.get(pid) != after.get(pid)]


@dataclass(frozen=True)
class _Same:
    id: str
    path: Path
    count: int


def _same_content(root: Path, sources: SourceStore, body: bytes) -> _Same | None:
    """The library source whose file was this very list (its checksum), if any."""
    digest = hashlib.sha256(body).hexdigest()
    for sid, info in sources.manifest.items():
        if info.checksum == digest:
            return _Same(sid, Path(info.path), info.count)
    return None


def _merged(kept: Hints, given: Hints | None) -> Hints:
    """The hints kept for a list with those given now laid over them."""
    return kept if given is None else replace(kept, **{k: v for k, v in vars(given).items() if v})


def _kept_hints(path: Path) -> Hints:
    """The ``--venue`` and ``--year`` an earlier fetch of this file was given (none when
    none was, or when what was kept cannot be read)."""
    from paper_tui.importers import NO_HINTS, Hints

    try:
        kept = json.loads(atomic.read_regular(path.with_name(path.name + HINTS))[0])
        venue, year = kept["venue"], kept["year"]
    except (OSError, ValueError, TypeError, KeyError):
        return NO_HINTS
    if not isinstance(venue, str) or not (year is None or (type(year) is int
                                          and 1800 <= year <= 2999)):
        return NO_HINTS
    return Hints(venue.strip(), year)


def _unnamed(sources: SourceStore, sid: str, hints: Hints) -> list[str]:
    """``venue``, ``year``: what no paper of the source has (the list named none and the
    user gave none)."""
    lacking = [what for what, given in (("venue", hints.venue), ("year", hints.year))
               if not given]
    for paper in sources.readable_papers(sid) if lacking else ():
        lacking = [what for what in lacking if not getattr(paper, what)]
        if not lacking:
            break
    return lacking


def _dry_run(fetched: runner.Fetch, body: bytes, sid: str | None, index: PaperIndex
             ) -> SourceFetch:
    """Count the papers the list holds and those new here, importing nothing."""
    from paper_tui.importers import import_file
    from paper_tui.model import Paper

    with tempfile.TemporaryDirectory(prefix="paper-tui-fetch-") as folder:
        path = Path(folder) / fetched.path.name
        path.write_bytes(body)
        try:
            sid, _, records = import_file(path, parallel=False)
            ids = {r.id for r in records if isinstance(r, Paper)}
        except PaperTuiError as exc:
            raise FetchError(fetched.spec.text, f"the list does not import: {exc}") from None
    new = tuple(sorted(pid for pid in ids if index.get(pid) is None))
    return _report(fetched, "dry-run", sid, len(ids), new)


def _report(fetched: runner.Fetch, status: FetchStatus, sid: str | None, papers: int,
            new: tuple[str, ...]) -> SourceFetch:
    pages = fetched.pages
    return SourceFetch(fetched.spec.text, status, sid, papers, new, pages.requests,
                       0 if status == "unchanged" else pages.received, None, pages.pages,
                       pages.extra)


def _source_of(sources: SourceStore, path: Path) -> str | None:
    """The library source a fetched file went into, if it was imported (and not replaced
    since by another file of its name)."""
    sid = source_id(path)
    info = sources.manifest.get(sid)
    return sid if info is not None and info.path == str(path.resolve()) else None


def _line(exc: PaperTuiError) -> str:
    return " ".join(str(exc).split())
