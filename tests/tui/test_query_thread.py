"""The app's query thread: one job at a time, the newest of each kind next, a daemon that
nothing waits for, a job's exception handed on while the app wants results."""

from __future__ import annotations

import threading

from paper_tui.tui.query_thread import QueryThread

WAIT = 10.0


def _thread(failures: list[Exception] | None = None) -> QueryThread:
    return QueryThread("test queries", (failures if failures is not None else []).append)


def test_a_job_waiting_is_replaced_by_a_newer_one_of_its_kind():
    queries = _thread()
    running, release, done = threading.Event(), threading.Event(), threading.Event()
    ran: list[str] = []

    def first() -> None:
        running.set()
        release.wait(WAIT)
        ran.append("first")

    queries.submit("search", first)
    assert running.wait(WAIT)
    queries.submit("search", lambda: ran.append("stale"))
    queries.submit("facets", lambda: ran.append("facets"))
    queries.submit("search", lambda: ran.append("newest"))
    queries.submit("probe", done.set)
    assert queries.busy
    release.set()
    assert done.wait(WAIT)
    # one at a time, only the newest search, in the place of the search it replaced
    assert ran == ["first", "newest", "facets"]
    queries.stop()


def test_the_thread_is_a_daemon_so_leaving_never_waits_for_it():
    queries = _thread()
    started, release = threading.Event(), threading.Event()

    def endless() -> None:
        started.set()
        release.wait(WAIT)

    queries.submit("search", endless)
    assert started.wait(WAIT)
    worker = next(t for t in threading.enumerate() if t.name == "test queries")
    assert worker.daemon
    queries.stop()
    queries.submit("search", lambda: None)  # after stop: dropped
    release.set()
    worker.join(WAIT)
    assert not worker.is_alive() and not queries.busy


def test_an_exception_is_handed_on_until_stopped():
    failures: list[Exception] = []
    queries = _thread(failures)
    done = threading.Event()
    queries.submit("search", lambda: {}["a bug"])
    queries.submit("probe", done.set)
    assert done.wait(WAIT)
    assert [type(e) for e in failures] == [KeyError]

    release, started = threading.Event(), threading.Event()

    def fails_after_stop() -> None:
        started.set()
        release.wait(WAIT)
        raise RuntimeError("the library was closed under it")

    queries.submit("search", fails_after_stop)
    assert started.wait(WAIT)
    queries.stop()
    release.set()
    worker = next((t for t in threading.enumerate() if t.name == "test queries"), None)
    if worker is not None:
        worker.join(WAIT)
    assert len(failures) == 1  # a query the app no longer wants: nothing to say
