"""The papers' PDFs (:mod:`paper_tui.pdfs`) joined to the library: which papers a ``pdf
get`` asks for (ids, a query, a reading list), their links, ``prune``'s sparing of the
papers in reading lists. :class:`~paper_tui.library.facade.Library`'s ``pdf_*`` methods
call these with itself (:class:`Papers` names what they use of it).
"""

from __future__ import annotations

import shutil
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from paper_tui.config import Settings
from paper_tui.errors import PaperTuiError
from paper_tui.library.importing import Progress
from paper_tui.model import Paper
from paper_tui.pdfs import reader, viewer
from paper_tui.pdfs.download import Job, Outcome, allowed_kinds, fetch_all
from paper_tui.pdfs.links import pdf_url
from paper_tui.pdfs.shelf import Held, Shelf
from paper_tui.store import ReadingList

if TYPE_CHECKING:
    from paper_tui.index import Results

MB = 1 << 20


class Papers(Protocol):
    """What these functions use of the library."""

    root: Path
    settings: Settings

    def paper(self, id_or_prefix: str) -> Paper: ...
    def lookup(self, paper_id: str) -> Paper | None: ...
    def resolve(self, id_or_prefix: str) -> str: ...
    def results(self, query: str = ..., *, sort: str = ...,
                all_versions: bool | None = ...) -> Results: ...
    def reading_list(self, name: str) -> ReadingList | None: ...
    def reading_lists(self) -> list[ReadingList]: ...
    def reindex_papers(self, ids: Collection[str]) -> int: ...


@dataclass(frozen=True)
class PdfReport:
    """What a ``pdf get`` did, one outcome per paper asked for."""

    outcomes: tuple[Outcome, ...]

    @property
    def failed(self) -> list[Outcome]:
        return [o for o in self.outcomes if o.status == "failed"]

    @property
    def fetched(self) -> list[Outcome]:
        return [o for o in self.outcomes if o.status == "fetched"]

    @property
    def kept(self) -> list[Outcome]:
        return [o for o in self.outcomes if o.status == "kept"]


@dataclass(frozen=True)
class Pruned:
    removed: tuple[Held, ...]
    size: int
    """Bytes held after the prune."""
    spared: int
    """PDFs kept because a reading list holds their paper (without ``--all``)."""


def shelf(lib: Papers) -> Shelf:
    return Shelf(lib.root)


def chosen(lib: Papers, ids: Sequence[str], query: str | None,
           list_name: str | None) -> list[Paper]:
    """The papers ``ids`` name (an id or a unique prefix), ``query`` finds and the reading
    list ``list_name`` holds, each once, in that order."""
    if not ids and query is None and list_name is None:
        raise PaperTuiError("name papers: IDs, --query QUERY or --list NAME")
    found = [lib.paper(key) for key in ids]
    if query is not None:
        results = lib.results(query)
        found += [results.paper(i) for i in range(len(results))]
    if list_name is not None:
        listed = lib.reading_list(list_name)
        if listed is None:
            raise PaperTuiError(f"no reading list named {list_name!r}")
        found += [p for p in map(lib.lookup, listed.ids) if p is not None]
    return list({p.id: p for p in found}.values())


def get(lib: Papers, papers: Sequence[Paper], *, force: bool = False,
        progress: Progress | None = None) -> PdfReport:
    """Each paper's PDF fetched, checked and its text extracted (one already held is not
    asked for again unless ``force``)."""
    held = shelf(lib)
    jobs, kept = [], {}
    for paper in papers:
        if held.has(paper.id) and not force:
            kept[paper.id] = Outcome(paper.id, "kept", held=held.get(paper.id))
        else:
            jobs.append(Job(paper.id, pdf_url(paper, lib.settings.fetch)))
    fetched = {o.paper_id: o for o in fetch_all(
        jobs, held, lib.settings.fetch, lib.settings.pdf.max_mb, progress,
        allowed_kinds(lib.settings.fetch, lib.settings.pdf.private_hosts))}
    # their text in the index (a paper in no source any more has none to be found by)
    lib.reindex_papers([pid for pid, o in fetched.items() if o.status == "fetched"])
    return PdfReport(tuple(kept.get(p.id) or fetched[p.id] for p in papers))


def add(lib: Papers, key: str, file: Path, *, link: bool = False) -> Held:
    """The reader's own PDF ``file`` as the paper's: copied into the library, or linked
    (``link``: the library keeps a symbolic link to it)."""
    paper_id = lib.resolve(key)
    held = shelf(lib)
    try:
        reader.sniff(file)
        pages, text = reader.text(file)
    except reader.NotAPdf as exc:
        raise PaperTuiError(f"{file}: {exc}") from None
    except OSError as exc:
        raise PaperTuiError(f"{file}: cannot read it ({exc.strerror or exc})") from None
    if link:
        added = held.link(paper_id, file, pages, text)
    else:
        part = held.new_part(paper_id)
        try:
            shutil.copyfile(file, part)
            added = held.put(paper_id, part, pages, text, str(file.resolve()))
        finally:
            part.unlink(missing_ok=True)
    lib.reindex_papers([paper_id])
    return added


def held_id(lib: Papers, key: str) -> str:
    """The id of the paper ``key`` names whose PDF is held: the id itself (a paper whose
    source was removed keeps its PDF), else resolved (:class:`UnknownPaperError`), else
    :class:`PaperTuiError` saying how to get it."""
    held = shelf(lib)
    paper_id = key if held.has(key) else lib.resolve(key)
    if not held.has(paper_id):
        raise PaperTuiError(f"no PDF of {paper_id}: `paper-tui pdf get {paper_id}` "
                            "fetches it")
    return paper_id


def path(lib: Papers, key: str) -> Path:
    return shelf(lib).pdf_path(held_id(lib, key))


def text(lib: Papers, key: str) -> str:
    """The text of the paper's PDF: the cached one, else extracted now (and cached)."""
    paper_id = held_id(lib, key)
    held = shelf(lib)
    cached = held.text(paper_id)
    if cached is not None:
        return cached
    try:
        _, found = reader.text(held.pdf_path(paper_id))
    except reader.NotAPdf as exc:
        raise PaperTuiError(f"{paper_id}: {exc}") from None
    held.keep_text(paper_id, found)
    lib.reindex_papers([paper_id])  # indexed without its text, which was not cached then
    return found


def open_command(lib: Papers, key: str) -> tuple[Path, list[str] | None]:
    """The paper's PDF (marked as opened now) and the command that opens it (None: no
    viewer; the path is what to show)."""
    paper_id = held_id(lib, key)
    held = shelf(lib)
    held.opened(paper_id)
    target = held.pdf_path(paper_id)
    try:
        return target, viewer.command(lib.settings.pdf.viewer, target)
    except ValueError as exc:  # shlex: an unclosed quote
        raise PaperTuiError(f"pdf.viewer or $PDF_VIEWER: {exc}") from None


def remove(lib: Papers, keys: Sequence[str]) -> list[str]:
    """Take these papers' PDFs out (all named first: one without a PDF is an error and
    nothing is removed); their ids."""
    ids = [held_id(lib, key) for key in keys]
    held = shelf(lib)
    removed = [pid for pid in dict.fromkeys(ids) if held.remove(pid)]
    lib.reindex_papers(removed)  # their text out of the index, has:pdf off
    return removed


def held_ids(lib: Papers) -> frozenset[str]:
    """The ids of the papers whose PDF is held (the index read once, no parse): what
    the app marks in its rows."""
    return frozenset(shelf(lib).held())


def listing(lib: Papers) -> list[Held]:
    """Every PDF held, by paper id (one left out of the index by a crash is counted)."""
    held = shelf(lib)
    lib.reindex_papers(held.adopt(reader.check))
    return sorted(held.held().values(), key=lambda h: h.paper_id)


def held_pdf(lib: Papers, paper_id: str) -> tuple[Path, Held] | None:
    """The paper's PDF and what is known of it; None when the library holds none."""
    held = shelf(lib)
    entry = held.get(paper_id)
    return (held.pdf_path(paper_id), entry) if entry is not None else None


def prune(lib: Papers, max_mb: float, *, everything: bool = False) -> Pruned:
    """Remove PDFs, least recently opened first (never opened: oldest fetched first),
    until they take at most ``max_mb`` MB; one whose paper is in a reading list stays
    unless ``everything``."""
    held = listing(lib)
    listed = {pid for rl in lib.reading_lists() for pid in rl.ids}
    size = sum(h.bytes for h in held if not h.linked)
    removed, spared = [], 0
    shelf_ = shelf(lib)
    for entry in sorted(held, key=lambda h: (h.opened is not None, h.last_used)):
        if size <= max_mb * MB:
            break
        if entry.linked:  # the reader's own file: removing the link frees nothing
            continue
        if entry.paper_id in listed and not everything:
            spared += 1
            continue
        if shelf_.remove(entry.paper_id):
            removed.append(entry)
            size -= entry.bytes
    lib.reindex_papers([entry.paper_id for entry in removed])
    return Pruned(tuple(removed), size, spared)
