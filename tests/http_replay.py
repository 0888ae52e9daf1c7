"""A real HTTP server on 127.0.0.1 replaying recorded responses (never the network).

``replay = ReplayServer(); replay.route("/notes", Reply(body=...), Reply(status=500))``:
each request to a path takes the next reply of its route, the last one repeating. A route
naming a query string (``route("/notes?offset=1000", …)``) matches that exact request
first; otherwise the bare path's route answers whatever the query. ``replay.url`` is the
base; ``replay.requests`` what came in (method, path with query, headers, arrival time).
The ``http_replay`` fixture in ``conftest.py`` starts one per test and stops it after.

A :class:`Reply` can also misbehave the ways real servers do: answer late (``delay_s``: a
timeout), stop mid-body (``cut_at``), send ``gzip``, redirect, ask to wait
(:meth:`Reply.retry_after`), and answer a conditional request with a 304 when its
``etag`` / ``last_modified`` match the request's ``If-None-Match`` / ``If-Modified-Since``.

:class:`ForwardingProxy` is an HTTP proxy on 127.0.0.1 that records each request line
(absolute form: ``GET http://host:port/path HTTP/1.1``) and forwards it, for tests of
``HTTP_PROXY`` / ``NO_PROXY``.
"""

from __future__ import annotations

import functools
import gzip as gzip_module
import http.client
import threading
import time
import urllib.parse
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from email.message import Message
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


@dataclass
class Reply:
    status: int = 200
    body: bytes = b""
    headers: dict[str, str] = field(default_factory=dict)
    delay_s: float = 0.0
    """Sleep this long before answering (longer than the client's timeout: a timeout)."""
    cut_at: int | None = None
    """Announce the whole body's Content-Length, write only this many bytes, close."""
    etag: str | None = None
    """Sent as ``ETag``; a request whose ``If-None-Match`` names it gets a 304."""
    last_modified: str | None = None
    """Sent as ``Last-Modified``; a request whose ``If-Modified-Since`` is it gets a 304
    (when it sent no ``If-None-Match``: that one wins, as in RFC 9110)."""
    gzip: bool = False
    """Send ``body`` gzip-compressed, with ``Content-Encoding: gzip``."""

    @classmethod
    def gzipped(cls, body: bytes, **kwargs: object) -> Reply:
        return cls(body=body, gzip=True, **kwargs)  # type: ignore[arg-type]

    @classmethod
    def redirect(cls, location: str, status: int = 302) -> Reply:
        return cls(status=status, headers={"Location": location})

    @classmethod
    def retry_after(cls, value: float | str, status: int = 429, body: bytes = b"") -> Reply:
        """A 429 (or 503) asking to come back after ``value``: seconds, or an HTTP date."""
        seconds = f"{value:g}" if isinstance(value, int | float) else value
        return cls(status=status, body=body, headers={"Retry-After": seconds})

    def answering(self, request: Mapping[str, str]) -> Reply:
        """This reply, or a bodiless 304 when the request's validators match it."""
        asked_etag = _header(request, "If-None-Match")
        if asked_etag is not None:
            tags = {tag.strip() for tag in asked_etag.split(",")}
            fresh = self.etag is not None and ("*" in tags or self.etag in tags)
        else:
            since = _header(request, "If-Modified-Since")
            fresh = since is not None and since == self.last_modified
        if not fresh or self.status != 200:
            return self
        return replace(self, status=304, body=b"", gzip=False, cut_at=None)

    def wire(self) -> tuple[dict[str, str], bytes]:
        """The headers and body as sent."""
        headers = dict(self.headers)
        body = self.body
        if self.gzip:
            body = _packed(body)
            headers["Content-Encoding"] = "gzip"
        if self.etag is not None:
            headers["ETag"] = self.etag
        if self.last_modified is not None:
            headers["Last-Modified"] = self.last_modified
        if "Content-Length" not in headers and self.status != 304:
            headers["Content-Length"] = str(len(body))
        return headers, body


@dataclass
class Seen:
    method: str
    path: str
    """With its query string."""
    headers: dict[str, str]
    at: float = 0.0
    """``time.monotonic()`` when it arrived."""

    def header(self, name: str) -> str | None:
        """A request header, whatever the case of its name."""
        return _header(self.headers, name)


@functools.lru_cache(maxsize=16)
def _packed(body: bytes) -> bytes:
    """``body`` gzipped, once for all the requests it answers (gzip's default level 9
    takes seconds on a big list: a bench would time the server, not the client)."""
    return gzip_module.compress(body, compresslevel=6, mtime=0)


def _header(headers: Mapping[str, str], name: str) -> str | None:
    for key, value in headers.items():
        if key.lower() == name.lower():
            return value
    return None


class _QuietServer(ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request: object, client_address: object) -> None:
        pass  # a client that hung up on a delayed or cut reply is what the test wanted


def _serve(handler: type[BaseHTTPRequestHandler]) -> tuple[_QuietServer, str]:
    """A server on a free port of 127.0.0.1, answering in a daemon thread, and its URL."""
    httpd = _QuietServer(("127.0.0.1", 0), handler)
    threading.Thread(target=httpd.serve_forever, args=(0.05,), daemon=True).start()
    return httpd, f"http://127.0.0.1:{httpd.server_address[1]}"


class ReplayServer:
    def __init__(self) -> None:
        self.routes: dict[str, list[Reply]] = {}
        self.requests: list[Seen] = []
        self._lock = threading.Lock()
        server = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                reply = server.take(self.path, self.headers).answering(dict(self.headers))
                if reply.delay_s:
                    time.sleep(reply.delay_s)
                headers, body = reply.wire()
                self.send_response(reply.status)
                for key, value in headers.items():
                    self.send_header(key, value)
                self.end_headers()
                if reply.cut_at is not None:
                    body = body[:reply.cut_at]
                    self.close_connection = True
                self.wfile.write(body)
                self.wfile.flush()

            def log_message(self, *args: object) -> None:
                pass

        self.httpd, self.url = _serve(Handler)

    def route(self, path: str, *replies: Reply) -> None:
        self.routes[path] = list(replies)

    def take(self, path: str, headers: Message) -> Reply:
        with self._lock:
            self.requests.append(Seen("GET", path, dict(headers.items()), time.monotonic()))
            replies = self.routes.get(path) or self.routes.get(path.split("?", 1)[0])
            if not replies:
                return Reply(404, b"not found")
            return replies.pop(0) if len(replies) > 1 else replies[0]

    def stop(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


class ForwardingProxy:
    """A plain-HTTP forward proxy: records each request line, asks the server its
    absolute URL names (directly: no proxy, no redirects followed) and relays the answer.
    A ``CONNECT`` (an https:// URL's tunnel) is recorded and refused with a 502."""

    def __init__(self) -> None:
        self.request_lines: list[str] = []
        proxy = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                proxy.request_lines.append(self.requestline)
                target = urllib.parse.urlsplit(self.path)
                upstream = http.client.HTTPConnection(target.netloc, timeout=10)
                path = target.path + (f"?{target.query}" if target.query else "")
                upstream.request("GET", path, headers=dict(self.headers))
                answer = upstream.getresponse()
                body = answer.read()
                upstream.close()
                self.send_response(answer.status)
                for key, value in answer.getheaders():
                    if key.lower() not in ("content-length", "transfer-encoding", "connection"):
                        self.send_header(key, value)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def do_CONNECT(self) -> None:
                proxy.request_lines.append(self.requestline)
                self.send_error(502, "no tunnels here")

            def log_message(self, *args: object) -> None:
                pass

        self.httpd, self.url = _serve(Handler)

    def stop(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()
