"""What a fetch did, source by source: what both fronts print and the watches build on."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import asdict, dataclass
from typing import Any, Literal

from paper_tui.errors import PaperTuiError

FetchStatus = Literal["fetched", "unchanged", "failed", "dry-run"]

FetchProgress = Callable[[str, int, int | None], None]
"""``progress(stage, done, total)``, the shape of the import's ``Progress``: stages like
``openreview:X page 2/5`` (done, total: papers so far, papers expected or None) and
``openreview:X waiting 30 s (HTTP 429)``."""


@dataclass(frozen=True)
class SourceFetch:
    """One SOURCE of a fetch."""

    spec: str
    """The SOURCE as canonicalised, e.g. ``arxiv:cs.LG``."""
    status: FetchStatus
    source_id: str | None
    """The library source (``sources/`` manifest id) it went into; None when it failed
    before one was named (a SOURCE that could not be read)."""
    papers: int
    """Papers in the fetched list."""
    new_ids: tuple[str, ...]
    """Ids this library did not hold before this fetch."""
    requests: int
    bytes: int
    """Bytes of the bodies received (0 when unchanged)."""
    error: str | None = None
    """One line, for ``failed``."""
    pages: int = 0
    """Pages the list came in (asked now or kept from a fetch that was cut off)."""
    forums: int = 0
    """Requests besides the pages: OpenReview forums asked for the replies their pages
    lacked (``GET /notes?forum=ID``, one per such paper)."""
    same_as: str | None = None
    """The SOURCE or library source this one is the same list as (a URL of a Paper
    Copilot file and ``paperlists:NAMEYEAR``, a list whose content another source
    holds): that source was updated, no second one made."""

    def as_json(self) -> dict[str, Any]:
        found = asdict(self)
        found["new_ids"] = list(self.new_ids)
        return found


@dataclass(frozen=True)
class FetchReport:
    sources: tuple[SourceFetch, ...]

    @property
    def failed(self) -> bool:
        return any(s.status == "failed" for s in self.sources)

    def as_json(self) -> dict[str, Any]:
        return {"sources": [s.as_json() for s in self.sources], "failed": self.failed}


def contained(spec: str, work: Callable[[], SourceFetch],
              source_id: str | None = None) -> SourceFetch:
    """``work()``, one SOURCE's fetch, or a ``failed`` :class:`SourceFetch` with one line
    whatever it raised: a user's or a server's error as its message says, the library's
    disk as ``cannot write``, and a bug (any other exception) as an internal error whose
    traceback goes to a crash log, as the app's and the command line's do. So one source
    never stops the others (``fetch A B``, ``fetch --watches``)."""
    try:
        return work()
    except PaperTuiError as exc:
        line = _one_line(str(exc))
    except OSError as exc:  # the library's disk: full, read-only
        where = f"{exc.filename}: " if exc.filename else ""
        line = f"{spec}: cannot write {where}{exc.strerror or exc}"
    except Exception as exc:  # a bug in one source: that source fails, not the run
        from paper_tui.crash import internal_error_line, write_crash_log

        log = write_crash_log(exc)
        line = f"{spec}: " + internal_error_line(exc, log).removeprefix("paper-tui: ")
    return SourceFetch(spec, "failed", source_id, 0, (), 0, 0, _one_line(line))


def _one_line(text: str) -> str:
    return " ".join(text.split())
