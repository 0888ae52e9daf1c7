"""Where the reader's queries run: one daemon thread, the newest query of each kind next.

A query costs what was typed (or pasted) into it: seconds, for a long one, and no query
can be stopped half-way. Textual's thread workers do not serve here: they run in the
event loop's default executor, which the loop joins as the app exits, so quitting would
wait for the query to finish (Textual issue #3966); and two at once would fight for the
interpreter. So every query the app runs (the search as you type, "like this", the facet
counts) goes to one thread of the app's own, a daemon one: quitting never waits for it,
and what a query finds after the app has stopped the thread is dropped.

Jobs are kept by kind (``"search"``, ``"facets"``): a new job takes the place of the one
of its kind still waiting, so a burst of keys costs one search per search time, not one
per key. Jobs only compute and post messages; they never touch widgets.
"""

from __future__ import annotations

import threading
from collections.abc import Callable

Job = Callable[[], None]


class QueryThread:
    """One daemon thread running the newest job of each kind, one at a time."""

    def __init__(self, name: str, failed: Callable[[Exception], object]) -> None:
        """``failed``: called (on the thread) with a job's exception while the thread
        runs; an exception after :meth:`stop` is a query the app no longer wants."""
        self.name = name
        self._failed = failed
        self._wake = threading.Condition()
        self._waiting: dict[str, Job] = {}
        """The newest job of each kind not started yet, kinds in the order first asked for."""
        self._thread: threading.Thread | None = None
        self._running = False
        self._stopped = False

    @property
    def busy(self) -> bool:
        """A job runs or waits (what tests and benches wait out before they look)."""
        with self._wake:
            return self._running or bool(self._waiting)

    @property
    def stopped(self) -> bool:
        """The app is done with the thread: a job finding this drops what it found."""
        return self._stopped

    def submit(self, kind: str, job: Job) -> None:
        """Run ``job`` after the one running, in place of any ``kind`` job still waiting."""
        with self._wake:
            if self._stopped:
                return
            self._waiting[kind] = job  # in the place of the one it replaces
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name=self.name, daemon=True)
                self._thread.start()
            self._wake.notify()

    def stop(self) -> None:
        """No more jobs: the waiting ones are dropped, the running one finishes unseen."""
        with self._wake:
            self._stopped = True
            self._waiting.clear()
            self._wake.notify()

    def _run(self) -> None:
        while True:
            with self._wake:
                self._running = False
                while not self._waiting and not self._stopped:
                    self._wake.wait()
                if self._stopped:
                    return
                kind = next(iter(self._waiting))
                job = self._waiting.pop(kind)
                self._running = True
            try:
                job()
            except Exception as exc:  # a bug: the app says so and stops (exit 70)
                if not self._stopped:
                    self._failed(exc)
