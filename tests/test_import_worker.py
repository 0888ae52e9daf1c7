"""The import worker's outbox: chunks ready ahead of a slow reader, none lost or reordered,
and a worker whose reader has gone ends instead of waiting for it."""

from __future__ import annotations

import multiprocessing
import threading
from collections.abc import Callable

import pytest

from paper_tui.importers import parallel

MORE_THAN_A_PIPE = 1 << 20  # a pipe holds 64 KiB: a send of this waits for its reader


def finishes(work: Callable[[], None]) -> bool:
    """Whether ``work`` returns within 30 s (run in a thread: a wait that never ends fails
    the test instead of hanging it)."""
    thread = threading.Thread(target=work, daemon=True)
    thread.start()
    thread.join(30)
    return not thread.is_alive()


def test_the_worker_has_chunks_ready_before_the_reader_takes_any() -> None:
    receive, send = multiprocessing.Pipe(duplex=False)
    outbox = parallel.Outbox(send)
    chunks = [bytes([i]) * MORE_THAN_A_PIPE for i in range(parallel.AHEAD + 1)]
    # Nothing is read yet: with a plain send, the first would wait for the reader.
    assert finishes(lambda: [outbox.put(chunk) for chunk in chunks])
    assert receive.poll(30)
    got = [receive.recv_bytes() for _ in chunks]
    assert got == chunks  # all of them, in order
    assert finishes(outbox.close)
    with pytest.raises(EOFError):
        receive.recv_bytes()


def test_a_worker_whose_reader_has_gone_ends() -> None:
    receive, send = multiprocessing.Pipe(duplex=False)
    outbox = parallel.Outbox(send)
    receive.close()
    raised: list[OSError] = []

    def put_more_than_it_holds() -> None:
        try:
            for _ in range(parallel.AHEAD + 3):
                outbox.put(b"x" * MORE_THAN_A_PIPE)
        except OSError as exc:
            raised.append(exc)

    assert finishes(put_more_than_it_holds)
    assert [type(exc) for exc in raised] == [BrokenPipeError]
    assert finishes(outbox.close)  # what was left queued is dropped
