"""Servers on 127.0.0.1 that answer the way ``http.server`` cannot: any bytes, at any pace.

``RawServer(answer)`` accepts connections and, for each, reads the request and hands the
socket to ``answer(conn, request, stopped)`` in a thread of its own (a drip must not hold
up the next connection); ``stop()`` sets ``stopped`` (a slow answer gives up) and ends the
server. ``drip(data, every)`` is an answer sending ``data`` a
piece at a time.
"""

from __future__ import annotations

import contextlib
import socket
import threading
from collections.abc import Callable

Answer = Callable[[socket.socket, bytes, threading.Event], None]


class RawServer:
    def __init__(self, answer: Answer) -> None:
        self.answer = answer
        self.stopped = threading.Event()
        self.connections = 0
        self._listener = socket.create_server(("127.0.0.1", 0))
        self._listener.settimeout(0.05)
        self.url = f"http://127.0.0.1:{self._listener.getsockname()[1]}"
        self._threads = [threading.Thread(target=self._serve, daemon=True)]
        self._threads[0].start()

    def _serve(self) -> None:
        while not self.stopped.is_set():
            try:
                conn, _ = self._listener.accept()
            except TimeoutError:
                continue
            self.connections += 1
            thread = threading.Thread(target=self._answer, args=(conn,), daemon=True)
            self._threads.append(thread)
            thread.start()

    def _answer(self, conn: socket.socket) -> None:
        with conn, contextlib.suppress(OSError):
            conn.settimeout(5)
            request = b""
            while b"\r\n\r\n" not in request:
                got = conn.recv(65536)
                if not got:
                    return
                request += got
            self.answer(conn, request, self.stopped)

    def stop(self) -> None:
        self.stopped.set()
        for thread in list(self._threads):
            thread.join(timeout=10)
        self._listener.close()


def drip(head: bytes, body: bytes, every: float, piece: int = 1) -> Answer:
    """Send ``head`` at once, then ``body`` ``piece`` bytes every ``every`` seconds (until
    the client hangs up or the server stops)."""

    def answer(conn: socket.socket, _: bytes, stopped: threading.Event) -> None:
        conn.sendall(head)
        for at in range(0, len(body), piece):
            if stopped.wait(every):
                return
            conn.sendall(body[at:at + piece])

    return answer
