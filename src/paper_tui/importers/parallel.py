"""Reading a big file in a second process, while this one stores and indexes its papers.

Parsing a paper (JSON, LaTeX display text, naming, its id) costs about as much as
indexing it; on two cores the two overlap. The worker is a fresh (spawned) interpreter,
so it never inherits a lock held by one of this process's threads (the TUI has several).
"""

from __future__ import annotations

import importlib
import multiprocessing
import queue
import threading
import time
import traceback
from collections.abc import Callable, Iterator
from contextlib import suppress
from dataclasses import dataclass
from multiprocessing.reduction import ForkingPickler
from pathlib import Path
from typing import Any

from paper_tui.errors import SkippedRecord, SourceError, SourceNotice, TooBig
from paper_tui.importers.common import NO_HINTS, Hints, Limits, limited, limits
from paper_tui.importers.reading import reading, through
from paper_tui.model import Paper

CHUNK = 256  # records per message: few messages, little held in the pipe
AHEAD = 4
"""Chunks the worker may have ready before this process takes them. With none, each side
waited for the other about a fifth of the time (the pipe holds less than a chunk, so the
worker could not start a chunk until this process took the last one, and a chunk's cost
differs on either side from one to the next); 4 import 175,000 papers as fast as 8, and a
chunk held is 0.4 MB, 1.8 MB with its texts analysed."""
PARALLEL_BYTES = 4 << 20  # files at least this big (as stored on disk) are read in a worker
EVERY: int | None = None
"""Which chunks the worker prepares: None, a chunk whenever the worker has so far waited
longer for this process (to take a chunk) than this process has waited for the worker (so
the two share the work whatever the machine's load or the cost of parsing); n, every n-th
chunk (tests, to make either side do the work)."""


@dataclass(frozen=True)
class Prepare:
    """Extra work the worker may take on for a chunk of papers (see :data:`EVERY`):
    ``compute(papers)`` runs there (a module-level function, so it can be sent);
    ``sink(papers, result)`` gets its result here (None for the chunks left to this
    process) before the papers are yielded."""

    compute: Callable[[list[Paper]], Any]
    sink: Callable[[list[Paper], Any], None]


class WorkerError(RuntimeError):
    """A bug in the import worker: one line; the worker's traceback is its cause (a
    :class:`WorkerTraceback`), so it lands in the crash log, not on the screen."""


class WorkerTraceback(Exception):
    """The worker process's traceback, as text (as :mod:`concurrent.futures` does)."""

    def __init__(self, text: str) -> None:
        super().__init__(text)
        self.text = text

    def __str__(self) -> str:
        return f"in the import worker:\n{self.text}"


_KINDS = {SourceError: "error", SkippedRecord: "skipped", SourceNotice: "notice",
          TooBig: "too big"}
_CLASSES = {kind: cls for cls, kind in _KINDS.items()}


def _error(err: SourceError) -> tuple:
    return (_KINDS.get(type(err), "error"), err.path, err.message, err.line, err.record)


def _rebuild(data: tuple) -> SourceError:
    kind, path, message, line, record = data
    return _CLASSES[kind](path, message, line, record)


def _work(module: str, path: str, source: str, hints: Hints,
          compute: Callable[[list[Paper]], Any] | None, every: int | None, waited, conn,
          caps: Limits) -> None:
    """The worker: ``module.read(path, source, hints)`` (within ``caps``, the reading
    thread's :class:`~paper_tui.importers.common.Limits`), sent in chunks: ``(records,
    result of compute(the chunk's papers) or None, end, read)``, end being None,
    ``("raise", error)`` or ``("bug", traceback)`` on the last chunk, read the bytes of
    the file read so far (None: not known, see :mod:`.reading`). ``waited.value``: the
    seconds the reading process has waited for chunks so far."""
    with limited(caps):
        _read(module, path, source, hints, compute, every, waited, conn)


class Outbox:
    """Chunks sent by a thread of their own, up to :data:`AHEAD` of the reader. If the
    reader has gone (its end of the pipe closed), :meth:`put` raises the error the send
    met, and the chunks still put are dropped, so the worker ends rather than waits."""

    def __init__(self, conn) -> None:
        self._conn = conn
        self._chunks: queue.Queue[bytes | memoryview | None] = queue.Queue(AHEAD)
        self._error: OSError | None = None
        self._thread = threading.Thread(target=self._send, name="paper-tui-send",
                                        daemon=True)
        self._thread.start()

    def _send(self) -> None:
        while (data := self._chunks.get()) is not None:
            if self._error is None:
                try:
                    self._conn.send_bytes(data)
                except OSError as exc:
                    self._error = exc

    def put(self, data: bytes | memoryview) -> float:
        """Queue a chunk; the seconds waited for room."""
        if self._error is not None:
            raise self._error
        start = time.perf_counter()
        self._chunks.put(data)
        return time.perf_counter() - start

    def close(self) -> None:
        """Send what is queued, then close the pipe."""
        self._chunks.put(None)
        self._thread.join()
        self._conn.close()


def _read(module: str, path: str, source: str, hints: Hints,
          compute: Callable[[list[Paper]], Any] | None, every: int | None, waited, conn
          ) -> None:
    chunk: list[Paper | tuple] = []
    number = 0
    file = Path(path)
    blocked = 0.0  # seconds this process waited for the reader to take a chunk
    outbox = Outbox(conn)

    def send(end: tuple | None) -> None:
        nonlocal chunk, number, blocked
        papers = [r for r in chunk if isinstance(r, Paper)]
        share = blocked > waited.value if every is None else number % every == 0
        result = compute(papers) if compute and papers and share else None
        at = through(file)
        data = ForkingPickler.dumps((chunk, result, end, at and at[0]))
        blocked += outbox.put(data)
        chunk = []
        number += 1

    try:
        for record in importlib.import_module(module).read(Path(path), source, hints):
            chunk.append(record if isinstance(record, Paper) else ("e", _error(record)))
            if len(chunk) >= CHUNK:
                send(None)
        send(("end",))
    except SourceError as exc:
        send(("raise", _error(exc)))
    except BaseException:
        with suppress(OSError):  # (the reader has gone, stopped early: no one to tell)
            outbox.put(ForkingPickler.dumps(([], None, ("bug", traceback.format_exc()), None)))
    outbox.close()


def read_in_worker(module: str, path: Path, source: str, prepare: Prepare | None = None,
                   hints: Hints = NO_HINTS) -> Iterator[Paper | SourceError]:
    """What ``module.read(path, source, hints)`` yields, read and parsed in a worker process
    (which starts on the first ``next``, and is stopped when the caller stops early)."""
    ctx = multiprocessing.get_context("spawn")
    receive, send = ctx.Pipe(duplex=False)
    waited = ctx.Value("d", 0.0, lock=False)  # written here only
    worker = ctx.Process(target=_work, name="paper-tui-import", daemon=True,
                         args=(module, str(path), source, hints, prepare and prepare.compute,
                               EVERY, waited, send, limits()))
    worker.start()
    send.close()
    started = False
    read = 0  # the bytes of the file the worker has read (as far as it said)
    try:
        with reading(path, lambda: read):
            while True:
                try:
                    start = time.perf_counter()
                    receive.poll(None)  # waiting, not unpickling
                    if started:  # (the wait for the worker to start says nothing of balance)
                        waited.value += time.perf_counter() - start
                    started = True
                    chunk = receive.recv()
                except EOFError:
                    raise WorkerError(f"the import worker for {path} stopped "
                                      f"(exit code {worker.exitcode})") from None
                records, result, end, at = chunk
                read = at if at is not None else read
                if prepare is not None:
                    prepare.sink([r for r in records if isinstance(r, Paper)], result)
                for record in records:
                    yield record if isinstance(record, Paper) else _rebuild(record[1])
                if end is None:
                    continue
                if end[0] == "raise":
                    raise _rebuild(end[1])
                if end[0] == "bug":
                    summary = end[1].rstrip().rpartition("\n")[2]  # "ValueError: …"
                    raise WorkerError(f"the import worker for {path} failed: {summary}") \
                        from WorkerTraceback(end[1])
                return
    finally:
        receive.close()
        if worker.is_alive():
            worker.terminate()
        worker.join()
