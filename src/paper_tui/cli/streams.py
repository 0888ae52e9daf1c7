"""The command line's standard output and error: inert on the way out, and a failed write
is one line (or silence), never a traceback.

While a command runs, ``sys.stdout`` and ``sys.stderr`` are :class:`InertStream`\\ s: all
that is printed goes through :func:`paper_tui.trust.inert.inert_text` (escape sequences and
control characters from data never reach the terminal; tabs and newlines do), so every
command, present and future, is covered without a call at each print. What a command
means to print as it is, JSON for scripts, holds no such character to begin with
(:func:`paper_tui.trust.inert.escape_in_strings`), so it passes unchanged. The CLI's own escape
sequences (the progress line's ``\\r\\x1b[K``) go around the filter through
:func:`write_control`; OSC 52 goes to ``/dev/tty`` itself (``clipboard.copy_or_send``).

A write that fails raises :class:`OutputError`; ``cli.main`` turns it into
``paper-tui: cannot write to standard output: No space left on device`` and exit status
1, or, for a closed pipe (``paper-tui list | head -1``), nothing and 0, as Unix tools do.
"""

from __future__ import annotations

import contextlib
import errno
import io
import os
import sys
from collections.abc import Iterator
from typing import TextIO

from paper_tui.trust.inert import inert_text
from paper_tui.trust.surrogates import escape_surrogates


class OutputError(Exception):
    """Writing to standard output or standard error failed."""

    def __init__(self, name: str, error: OSError, stream: TextIO) -> None:
        super().__init__(f"cannot write to {name}: {error.strerror or error}")
        self.error = error
        self.stream = stream
        """The stream that failed (the one :class:`InertStream` wraps)."""

    @property
    def closed_pipe(self) -> bool:
        """The reader went away (``| head``): not a failure to report."""
        return self.error.errno == errno.EPIPE


class InertStream(io.TextIOBase):
    """A text stream that makes what is written inert before the stream it wraps gets it,
    and reports a failed write as :class:`OutputError`."""

    def __init__(self, stream: TextIO, name: str) -> None:
        super().__init__()
        self.stream = stream
        self.label = name
        """``standard output`` or ``standard error``, for the error line."""

    def write(self, text: str) -> int:
        # a file name's undecodable bytes (lone surrogates) shown escaped: the real
        # stream's strict UTF-8 encoder would fail on them
        self._write(escape_surrogates(inert_text(text)))
        return len(text)

    def write_control(self, sequence: str) -> None:
        """Write the CLI's own escape sequence as it is."""
        self._write(sequence)

    def _write(self, text: str) -> None:
        try:
            self.stream.write(text)
        except OSError as exc:
            raise OutputError(self.label, exc, self.stream) from None

    def flush(self) -> None:
        try:
            self.stream.flush()
        except OSError as exc:
            raise OutputError(self.label, exc, self.stream) from None

    def isatty(self) -> bool:
        return self.stream.isatty()

    def fileno(self) -> int:
        return self.stream.fileno()

    def writable(self) -> bool:
        return True

    # Must stay: typeshed declares TextIOBase's encoding and errors as plain (writable)
    # attributes; at run time they are read-only properties, as these, the wrapped stream's.
    @property
    def encoding(self) -> str:  # type: ignore[override]
        return self.stream.encoding

    @property
    def errors(self) -> str | None:  # type: ignore[override]
        return self.stream.errors


def write_control(stream: TextIO, sequence: str) -> None:
    """Write one of the CLI's own escape sequences (``\\r\\x1b[K``) to ``stream`` (usually
    ``sys.stderr``) past its filter."""
    if isinstance(stream, InertStream):
        stream.write_control(sequence)
    else:
        stream.write(sequence)


@contextlib.contextmanager
def inert_stdio() -> Iterator[None]:
    """``sys.stdout`` and ``sys.stderr`` made :class:`InertStream`\\ s for the block (a
    missing one, None when Python started without it, stays None)."""
    saved = sys.stdout, sys.stderr
    if sys.stdout is not None and not isinstance(sys.stdout, InertStream):
        sys.stdout = InertStream(sys.stdout, "standard output")
    if sys.stderr is not None and not isinstance(sys.stderr, InertStream):
        sys.stderr = InertStream(sys.stderr, "standard error")
    try:
        yield
    finally:
        sys.stdout, sys.stderr = saved


def flush_output() -> None:
    """Flush what a command printed (a full disk shows here when output is buffered)."""
    for stream in (sys.stdout, sys.stderr):
        if stream is not None:
            stream.flush()


def output_failed(failure: OutputError) -> int:
    """Say that output failed (not for a closed pipe) and return the exit status: 0 for a
    closed pipe, else 1. The failed stream's file descriptor is pointed at ``/dev/null``,
    so that Python's own flush at exit neither fails again nor prints "Exception
    ignored … BrokenPipeError"."""
    _silence(failure.stream)
    if failure.closed_pipe:
        return 0
    try:
        print(f"paper-tui: {failure}", file=sys.stderr)
        sys.stderr.flush()
    except OutputError as again:  # standard error is gone too: nothing left to tell
        _silence(again.stream)
    return 1


def _silence(stream: TextIO) -> None:
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        try:
            os.dup2(devnull, stream.fileno())
        finally:
            os.close(devnull)
    except (OSError, ValueError):  # no descriptor to point anywhere (a closed stream)
        pass
