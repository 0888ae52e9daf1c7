"""Many papers' PDFs fetched into the shelf: several hosts at once, one request at a
time per host (each host its own :class:`~paper_tui.fetch.http.HttpClient`, so arXiv's
pace, ``Retry-After`` and the rest are kept per host), each PDF written to a temporary
file, checked (:func:`~paper_tui.pdfs.reader.check`) and its text extracted before it is
renamed into place. A paper that fails is one :class:`Outcome` saying why; the others go
on.

A paper's link comes from a list, which anyone may have written: it is never asked for
when its host is a link-local address (``169.254.169.254``: a cloud's metadata), nor a
loopback or private one unless :func:`allowed_kinds` says so (``pdf.private_hosts``, or a
source the reader configured at such an address): checked on the link's host before the
request, and by the client on every address it connects to, redirects included
(:mod:`paper_tui.fetch.addresses`).
"""

from __future__ import annotations

import threading
import urllib.parse
from collections.abc import Callable, Collection, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Literal

from paper_tui.config import FetchSettings
from paper_tui.errors import FetchError
from paper_tui.fetch import addresses
from paper_tui.fetch.http import HttpClient
from paper_tui.pdfs import reader
from paper_tui.pdfs.shelf import Held, Shelf

MAX_HOSTS = 4
"""Hosts asked at once."""
Progress = Callable[[str, int, int | None], None]


@dataclass(frozen=True)
class Job:
    paper_id: str
    url: str | None
    """None: the paper has no PDF link (a failure, said as such)."""


@dataclass(frozen=True)
class Outcome:
    paper_id: str
    status: Literal["fetched", "kept", "failed"]
    """``kept``: the shelf had it already (not asked for again)."""
    why: str = ""
    url: str = ""
    held: Held | None = None

    def line(self) -> str:
        """A failure in one line: the paper, why, and the URL asked."""
        where = f" ({self.url})" if self.url else ""
        return f"{self.paper_id}: {self.why}{where}"


def allowed_kinds(settings: FetchSettings, private_hosts: bool) -> frozenset[str]:
    """The kinds of address a PDF link may lead to: public ones; loopback and private
    ones when ``private_hosts`` (``pdf.private_hosts``), or the kind of a source the
    reader configured (``fetch.arxiv_url`` and the others) when that is written as such
    an address (``localhost``, ``127.0.0.1``, ``10.0.0.5``: a local mirror); never a
    link-local one."""
    kinds = {addresses.PUBLIC}
    if private_hosts:
        kinds |= {addresses.LOOPBACK, addresses.PRIVATE}
    for url in (settings.openreview_url, settings.openreview_v1_url,
                settings.paperlists_url, settings.arxiv_url, settings.dblp_url):
        host = (urllib.parse.urlsplit(url).hostname or "").lower()
        if host == "localhost":
            kinds.add(addresses.LOOPBACK)
            continue
        try:
            kind = addresses.kind(host)
        except ValueError:  # a name: not looked up (only an address written as one counts)
            continue
        if kind in (addresses.LOOPBACK, addresses.PRIVATE):
            kinds.add(kind)
    return frozenset(kinds)


def refusal(url: str, allowed: Collection[str]) -> str | None:
    """Why the link ``url`` is not asked for (its host is, or resolves to, an address of
    a kind not ``allowed``; link-local never is); None when it may be."""
    parts = urllib.parse.urlsplit(url)
    try:
        port = parts.port or (443 if parts.scheme == "https" else 80)
    except ValueError:
        port = 80  # (the request says what is wrong with it)
    for address, kind in addresses.host_kinds(parts.hostname or "", port).items():
        if kind == addresses.LINK_LOCAL:
            return (f"refused: the link is to a link-local address ({address}), where a "
                    "cloud keeps its metadata; never asked")
        if kind not in allowed:
            return (f"refused: the link is to a {kind} address ({address}); "
                    "`pdf.private_hosts: true` allows links to this machine and private "
                    "networks")
    return None


def fetch_all(jobs: Sequence[Job], shelf: Shelf, settings: FetchSettings, max_mb: float,
              progress: Progress | None = None,
              allowed: Collection[str] = frozenset({addresses.PUBLIC})) -> list[Outcome]:
    """Each job's PDF fetched into ``shelf`` (none larger than ``max_mb`` MB; none whose
    host is an address of a kind not ``allowed``: :func:`refusal`); one :class:`Outcome`
    per job, in the jobs' order."""
    shelf.sweep()
    by_host: dict[str, list[int]] = {}
    outcomes: list[Outcome | None] = [None] * len(jobs)
    refused: dict[str, str | None] = {}  # host -> why (each host looked up once)
    for n, job in enumerate(jobs):
        if job.url is None:
            outcomes[n] = Outcome(job.paper_id, "failed", "no PDF link in its source")
            continue
        host = _host(job.url)
        if host not in refused:
            refused[host] = refusal(job.url, allowed)
        why = refused[host]
        if why is not None:
            outcomes[n] = Outcome(job.paper_id, "failed", why, job.url)
        else:
            by_host.setdefault(host, []).append(n)
    done = [sum(o is not None for o in outcomes)]
    lock = threading.Lock()
    arxiv_host = _host(settings.arxiv_url)

    stop = threading.Event()

    def one_host(host: str, indexes: list[int]) -> None:
        pace = settings.arxiv_delay_s if host == arxiv_host else 0.0
        client = HttpClient(settings, min_interval_s=pace,
                            max_bytes=int(max_mb * (1 << 20)), allowed=allowed)
        for n in indexes:
            if stop.is_set():  # interrupted: the download under way ends, no other starts
                return
            job = jobs[n]
            assert job.url is not None
            outcomes[n] = fetch_one(client, shelf, job.paper_id, job.url, max_mb)
            with lock:
                done[0] += 1
                if progress is not None:
                    progress(f"PDFs ({host})", done[0], len(jobs))

    if by_host:
        with ThreadPoolExecutor(max_workers=min(MAX_HOSTS, len(by_host)),
                                thread_name_prefix="pdf") as pool:
            futures = [pool.submit(one_host, host, indexes)
                       for host, indexes in by_host.items()]
            try:
                for future in futures:
                    future.result()
            except BaseException:  # Ctrl-C, or a bug in one: the others stop too
                stop.set()
                raise
    return [outcome for outcome in outcomes if outcome is not None]


def fetch_one(client: HttpClient, shelf: Shelf, paper_id: str, url: str,
              max_mb: float) -> Outcome:
    """One paper's PDF from ``url`` into ``shelf``, or why not."""
    part = shelf.new_part(paper_id)
    try:
        with part.open("r+b") as sink:
            client.download(url, sink)
            sink.flush()
        reader.sniff(part)
        pages, text = reader.text(part)
        if pages < 1:
            raise reader.NotAPdf("a PDF of no pages")
        held = shelf.put(paper_id, part, pages, text, url)
    except FetchError as exc:
        why = exc.message
        if why.startswith("too big"):
            why = f"{why}; pdf.max_mb is {max_mb:g}"
        return Outcome(paper_id, "failed", why, url)
    except reader.NotAPdf as exc:
        return Outcome(paper_id, "failed", str(exc), url)
    except OSError as exc:  # the library's disk: full, read-only
        return Outcome(paper_id, "failed", f"cannot write it ({exc.strerror or exc})", url)
    finally:
        part.unlink(missing_ok=True)
    return Outcome(paper_id, "fetched", url=url, held=held)


def _host(url: str) -> str:
    return urllib.parse.urlsplit(url).netloc.lower()
