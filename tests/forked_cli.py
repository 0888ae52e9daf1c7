"""``python -m paper_tui ARGS`` as a real process of its own, without paying for a new
interpreter and its imports each time.

The suite runs paper-tui commands by the thousand; a new interpreter spends about 0.3 s of
CPU importing Whoosh, numpy, PyYAML and paper-tui before the command starts, most of each
call. Here one server process per test worker imports them once, then forks a child per
command: the child is a process of its own (its own pid, memory, files, signals; ``kill
-9`` works on it, two run at once), starts from the server's freshly imported state — never
the test's (nothing a test monkeypatches reaches it) —, takes the caller's argv, environment,
working directory and standard streams, runs ``paper_tui`` as ``python -m`` would, and exits
as the interpreter's shutdown does (threads joined, ``atexit`` run, streams flushed), all
but the modules' teardown, which only frees memory (:func:`_leave`).

What cannot be the same is what an interpreter decides as it starts: the locale's stream
and file-name encodings, ``-X`` options, which modules are loaded. Tests about those (the
startup imports, non-UTF-8 arguments under another locale) run ``sys.executable`` as
before. The server is started on first use and stopped at the end of the test session
(``tests/conftest.py``), with every command still running: it leads a process group of its
own, ended as one. Should the test process die without stopping it (killed, a worker
crashed), the server sees its pipe from the test process close and ends the group itself:
no process of the suite outlives it.
"""

from __future__ import annotations

import atexit
import contextlib
import gc
import io
import json
import os
import select
import selectors
import signal
import socket
import struct
import subprocess
import sys
import tempfile
import threading
import traceback
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import IO, Any

#: what a paper-tui command imports, loaded once by the server
PRELOAD = ("paper_tui.cli", "paper_tui.cli.papers", "paper_tui.cli.annotate",
           "paper_tui.cli.team", "paper_tui.cli.cite", "paper_tui.cli.terminal",
           "paper_tui.cli.streams", "paper_tui.library", "paper_tui.index.paper_index",
           "paper_tui.store.annotations", "paper_tui.team.sync", "paper_tui.importers.registry",
           "paper_tui.exports.formats", "paper_tui.citations", "numpy", "yaml", "whoosh")

_HEADER = struct.Struct("!I")
_OWNER = "owner"
"""What the server's selector holds for its standard input: a pipe whose other end only
the test process holds."""


# -- the server (a process of its own) --------------------------------------------------------
class _ChildDone(BaseException):
    """Raised in a forked child to leave the server's frames and exit the interpreter's
    normal way with ``code``."""

    def __init__(self, code: object) -> None:
        super().__init__(code)
        self.code = code


def _receive(conn: socket.socket) -> tuple[dict[str, Any], list[int]]:
    data, fds, _flags, _addr = socket.recv_fds(conn, _HEADER.size, 3)
    (size,) = _HEADER.unpack(data)
    body = b""
    while len(body) < size:
        chunk = conn.recv(size - len(body))
        if not chunk:
            raise EOFError
        body += chunk
    return json.loads(body), fds


def _become_the_command(request: dict[str, Any], fds: list[int]) -> None:
    """In the child: take the caller's streams, directory, environment and argv, run
    ``paper_tui`` as ``python -m paper_tui`` does, and leave through :class:`_ChildDone`."""
    for target, fd in enumerate(fds):
        os.dup2(fd, target)
        os.close(fd)
    os.chdir(request["cwd"])
    os.environ.clear()
    os.environ.update(request["env"])
    # the streams a new interpreter makes (stderr line-buffered, backslashreplace), on the
    # caller's files; they live as long as the process
    sys.stdin = open(0, encoding=sys.stdin.encoding,  # noqa: SIM115
                     errors=sys.stdin.errors, closefd=False)
    sys.stdout = open(1, "w", encoding=sys.stdout.encoding,  # noqa: SIM115
                      errors=sys.stdout.errors, closefd=False)
    sys.stderr = open(2, "w", encoding=sys.stderr.encoding,  # noqa: SIM115
                      errors="backslashreplace", closefd=False, buffering=1)
    sys.argv = [request["main"], *request["argv"]]
    sys.path[0] = os.getcwd()
    import runpy
    try:
        runpy.run_module("paper_tui", run_name="__main__", alter_sys=True)
    except SystemExit as done:
        raise _ChildDone(done.code) from None
    raise _ChildDone(0)


def serve(path: str) -> None:
    """Accept requests on the Unix socket ``path``; fork a child for each, tell the caller
    its pid, then its exit status (a negative signal number when a signal ended it)."""
    import importlib
    for name in PRELOAD:
        importlib.import_module(name)
    main = str(Path(importlib.import_module("paper_tui").__file__ or "").with_name(
        "__main__.py"))
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listener.bind(path)
    listener.listen(64)
    selector = selectors.DefaultSelector()
    selector.register(listener, selectors.EVENT_READ, None)
    selector.register(sys.stdin, selectors.EVENT_READ, _OWNER)
    children: dict[int, tuple[int, socket.socket]] = {}  # pidfd -> (pid, conn)
    # What is loaded now lasts as long as the server: the collector leaves it alone, in the
    # server and in every child (which would otherwise copy each page the collector reads).
    gc.collect()
    gc.freeze()
    print("ready", flush=True)
    while True:
        for key, _ in selector.select():
            if key.data is _OWNER:  # the test process's end of the pipe closed: it is gone
                os.killpg(0, signal.SIGKILL)  # the commands still running, and the server
            if key.data is None:  # a request
                conn, _ = listener.accept()
                try:
                    request, fds = _receive(conn)
                except (EOFError, OSError, ValueError):
                    conn.close()
                    continue
                request["main"] = main
                pid = os.fork()
                if pid == 0:
                    selector.close()
                    listener.close()
                    conn.close()  # (standard input, the owner's pipe: the caller's next)
                    _become_the_command(request, fds)
                for fd in fds:
                    os.close(fd)
                conn.sendall(f"{pid}\n".encode())
                pidfd = os.pidfd_open(pid)
                children[pidfd] = (pid, conn)
                selector.register(pidfd, selectors.EVENT_READ, pid)
            else:  # a child ended
                pidfd = key.fd
                pid, conn = children.pop(pidfd)
                selector.unregister(pidfd)
                os.close(pidfd)
                _, status = os.waitpid(pid, 0)
                with conn, contextlib.suppress(OSError):  # the caller may have given up
                    conn.sendall(f"{os.waitstatus_to_exitcode(status)}\n".encode())


def _leave(code: object) -> None:
    """End a child as the interpreter's own shutdown does in everything a command can see,
    then ``os._exit``: ``SystemExit``'s code (``None`` is 0, text is printed and is 1),
    non-daemon threads joined, ``atexit`` functions run, then standard output and error
    flushed — a failure there is the interpreter's: standard output's reported as an
    ignored exception, either makes the status 120.

    What it skips is the rest of ``Py_FinalizeEx``: tearing down every module and freeing
    every object. That only frees memory, and in a child forked from a server holding
    Whoosh, numpy and paper-tui it writes to every page it touches, each then copied from
    the server: 0.15 s of the 0.18 s of CPU a forked ``paper-tui tag`` took."""
    if code is None:
        status = 0
    elif isinstance(code, int):
        status = code
    else:
        print(code, file=sys.stderr)
        status = 1
    for thread in threading.enumerate():
        if thread is not threading.main_thread() and not thread.daemon:
            thread.join()
    atexit._run_exitfuncs()  # the interpreter's own call at shutdown; atexit has no public one
    out_flushed = _flushed(sys.stdout, report=True)
    err_flushed = _flushed(sys.stderr, report=False)
    if not (out_flushed and err_flushed):
        status = 120
    os._exit(status & 0xFF)


def _flushed(stream: IO[str] | None, report: bool) -> bool:
    """Flush ``stream`` as the interpreter does at exit: False if that failed (reported as
    the interpreter reports an ignored exception when ``report``)."""
    if stream is None or getattr(stream, "closed", False):
        return True
    try:
        stream.flush()
    except Exception as exc:  # whatever the stream raises
        if report:
            with contextlib.suppress(Exception):
                sys.stderr.write(f"Exception ignored in: {stream!r}\n"
                                 + "".join(traceback.format_exception_only(exc)))
                sys.stderr.flush()
        return False
    return True


def _main() -> None:
    try:
        serve(sys.argv[1])
    except _ChildDone as done:
        _leave(done.code)


# -- the client (in the test process) --------------------------------------------------------
class _Server:
    """The server of this test process, started on first use."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._proc: subprocess.Popen[str] | None = None
        self._folder = tempfile.mkdtemp(prefix="paper-tui-forks-")
        self.path = os.path.join(self._folder, "socket")

    def ensure(self) -> str:
        with self._lock:
            if self._proc is None or self._proc.poll() is not None:
                env = {k: v for k, v in os.environ.items() if k != "PYTEST_XDIST_WORKER"}
                self._proc = subprocess.Popen(  # its stdin: a pipe only we hold the end of
                    [sys.executable, __file__, self.path], stdin=subprocess.PIPE,
                    stdout=subprocess.PIPE, text=True, env=env, cwd=self._folder,
                    start_new_session=True)
                assert self._proc.stdout is not None
                line = self._proc.stdout.readline()
                if line != "ready\n":
                    raise RuntimeError(f"the fork server did not start: {line!r}")
                atexit.register(self.stop)
            return self.path

    def stop(self) -> None:
        """End the server and every command of it still running (its process group)."""
        if self._proc is not None:
            if self._proc.returncode is None:  # not reaped: its pid is its group's still
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(self._proc.pid, signal.SIGKILL)
            self._proc.wait()
            if self._proc.stdin is not None:
                self._proc.stdin.close()
        with contextlib.suppress(OSError):
            os.unlink(self.path)
            os.rmdir(self._folder)


_SERVER = _Server()


def stop_server() -> None:
    """End this test process's server and its commands (a session's end)."""
    _SERVER.stop()


def server_pid() -> int | None:
    """The pid of this test process's server, None before its first command."""
    proc = _SERVER._proc
    return proc.pid if proc is not None and proc.poll() is None else None


class Process:
    """A command started by the fork server: ``pid``, ``stdin``/``stdout``/``stderr`` (pipes
    where asked for), ``wait``, ``poll``, ``kill``, ``communicate`` — the parts of
    :class:`subprocess.Popen` the tests use, with the same meaning."""

    def __init__(self, command: Sequence[str | bytes | os.PathLike[str]], *,
                 env: Mapping[str, str] | None = None, cwd: str | os.PathLike[str] | None = None,
                 stdin: int | IO[Any] | None = None, stdout: int | IO[Any] | None = None,
                 stderr: int | IO[Any] | None = None, text: bool = False) -> None:
        self.args = list(command)
        args = _arguments(self.args)
        self.text = text
        self.returncode: int | None = None
        self.stdin: IO[Any] | None = None
        self.stdout: IO[Any] | None = None
        self.stderr: IO[Any] | None = None
        theirs: list[int] = []
        close_after: list[int] = []
        for number, spec in enumerate((stdin, stdout, stderr)):
            if spec == subprocess.PIPE:
                read, write = os.pipe()
                child_end, my_end = (read, write) if number == 0 else (write, read)
                theirs.append(child_end)
                close_after.append(child_end)
                stream: IO[Any] = open(my_end,  # noqa: SIM115 (closed by communicate)
                                       "wb" if number == 0 else "rb")
                if text:
                    stream = io.TextIOWrapper(stream, encoding="utf-8",
                                              write_through=number == 0)
                setattr(self, ("stdin", "stdout", "stderr")[number], stream)
            elif spec == subprocess.DEVNULL:
                fd = os.open(os.devnull, os.O_RDWR)
                theirs.append(fd)
                close_after.append(fd)
            elif spec == subprocess.STDOUT and number == 2:
                theirs.append(theirs[1])
            elif spec is None:
                theirs.append(number)
            elif isinstance(spec, int):
                theirs.append(spec)
            else:
                theirs.append(spec.fileno())
        request = json.dumps({
            "argv": [os.fsdecode(a) for a in args],
            "env": dict(os.environ if env is None else env),
            "cwd": os.fspath(cwd) if cwd is not None else os.getcwd()}).encode()
        self._conn = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            self._conn.connect(_SERVER.ensure())
            socket.send_fds(self._conn, [_HEADER.pack(len(request))], theirs)
            self._conn.sendall(request)
        finally:
            for fd in close_after:
                os.close(fd)
        self._replies = self._conn.makefile("r")
        self.pid = int(self._replies.readline())

    def poll(self) -> int | None:
        if self.returncode is None:
            ready, _, _ = select.select([self._conn], [], [], 0)
            if ready:
                self._done(self._replies.readline())
        return self.returncode

    def wait(self, timeout: float | None = None) -> int:
        if self.returncode is None:
            ready, _, _ = select.select([self._conn], [], [], timeout)
            if not ready:
                raise subprocess.TimeoutExpired(self.args, timeout or 0)
            self._done(self._replies.readline())
        assert self.returncode is not None
        return self.returncode

    def _done(self, line: str) -> None:
        self.returncode = int(line)
        self._replies.close()
        self._conn.close()

    def send_signal(self, number: int) -> None:
        if self.returncode is None:
            with contextlib.suppress(ProcessLookupError):
                os.kill(self.pid, number)

    def kill(self) -> None:
        self.send_signal(signal.SIGKILL)

    def terminate(self) -> None:
        self.send_signal(signal.SIGTERM)

    def communicate(self, input: str | bytes | None = None, timeout: float | None = None
                    ) -> tuple[Any, Any]:
        """Write ``input``, read both outputs to their end and wait, as Popen's does (text
        mode: line ends translated the same way)."""
        results: dict[int, bytes] = {}

        def drain(number: int, stream: IO[Any]) -> None:
            raw = stream.buffer if isinstance(stream, io.TextIOWrapper) else stream
            results[number] = raw.read()
            stream.close()

        readers = [threading.Thread(target=drain, args=(number, stream), daemon=True)
                   for number, stream in ((1, self.stdout), (2, self.stderr))
                   if stream is not None]
        for reader in readers:
            reader.start()
        if self.stdin is not None:
            with contextlib.suppress(BrokenPipeError):
                if input:
                    self.stdin.write(input)
                self.stdin.close()
        try:
            self.wait(timeout)
        except subprocess.TimeoutExpired:
            self.kill()
            self.wait()
            raise
        for reader in readers:
            reader.join()
        outputs = [results.get(number) if stream is not None else None
                   for number, stream in ((1, self.stdout), (2, self.stderr))]
        if self.text:
            return tuple(  # type: ignore[return-value]
                None if data is None else
                data.decode("utf-8").replace("\r\n", "\n").replace("\r", "\n")
                for data in outputs)
        return outputs[0], outputs[1]


def _arguments(command: Sequence[str | bytes | os.PathLike[str]]
               ) -> Sequence[str | bytes | os.PathLike[str]]:
    """The arguments of ``python -m paper_tui ARGS`` or of the installed ``paper-tui ARGS``."""
    if [os.fspath(word) for word in command[:3]] == [sys.executable, "-m", "paper_tui"]:
        return command[3:]
    if command and os.path.basename(os.fspath(command[0])) == "paper-tui":
        return command[1:]
    raise ValueError(f"not a paper-tui command: {command!r}")


Popen = Process


def run(command: Sequence[str | bytes | os.PathLike[str]], *,
        input: str | bytes | None = None,
        capture_output: bool = False, stdin: int | IO[Any] | None = None,
        stdout: int | IO[Any] | None = None, stderr: int | IO[Any] | None = None,
        text: bool = False, env: Mapping[str, str] | None = None,
        cwd: str | os.PathLike[str] | None = None, timeout: float | None = None,
        check: bool = False) -> subprocess.CompletedProcess[Any]:
    """``subprocess.run(command, …)`` for a paper-tui ``command``, forked."""
    if capture_output:
        stdout = stderr = subprocess.PIPE
    if input is not None:
        stdin = subprocess.PIPE
    process = Process(command, env=env, cwd=cwd, stdin=stdin, stdout=stdout, stderr=stderr,
                      text=text)
    out, err = process.communicate(input, timeout)
    done = subprocess.CompletedProcess(process.args, process.returncode, out, err)
    if check:
        done.check_returncode()
    return done


def run_on_terminal(command: Sequence[str | bytes | os.PathLike[str]], *,
                    timeout: float) -> tuple[subprocess.CompletedProcess[Any], bytes]:
    """:func:`run` with its stderr a pseudo-terminal (stdout piped, text): what it did
    and the bytes it drew on the terminal."""
    import pty

    main, child = pty.openpty()
    try:
        done = run(command, stdout=subprocess.PIPE, stderr=child, text=True,
                   timeout=timeout)
        seen = b""
        while select.select([main], [], [], 0.5)[0]:
            chunk = os.read(main, 65536)
            if not chunk:
                break
            seen += chunk
    finally:
        os.close(main)
        os.close(child)
    return done, seen


if __name__ == "__main__":
    _main()
