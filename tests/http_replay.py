"""A real HTTP server on 127.0.0.1 replaying recorded responses (never the network).

``replay = ReplayServer(); replay.route("/notes", Reply(body=...), Reply(status=500))``:
each request to a path (query string ignored unless the route names one) takes the next
reply of its route, the last one repeating. ``replay.url`` is the base; ``replay.requests``
what came in (method, path with query, headers). The ``http_replay`` fixture in
``conftest.py`` starts one per test and stops it after.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


@dataclass
class Reply:
    status: int = 200
    body: bytes = b""
    headers: dict[str, str] = field(default_factory=dict)


@dataclass
class Seen:
    method: str
    path: str
    headers: dict[str, str]


class ReplayServer:
    def __init__(self) -> None:
        self.routes: dict[str, list[Reply]] = {}
        self.requests: list[Seen] = []
        self._lock = threading.Lock()
        server = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                reply = server.take(self.path, self.headers)
                self.send_response(reply.status)
                for key, value in reply.headers.items():
                    self.send_header(key, value)
                if "Content-Length" not in reply.headers:
                    self.send_header("Content-Length", str(len(reply.body)))
                self.end_headers()
                self.wfile.write(reply.body)

            def log_message(self, *args: object) -> None:
                pass

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}"
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        self.thread.start()

    def route(self, path: str, *replies: Reply) -> None:
        self.routes[path] = list(replies)

    def take(self, path: str, headers) -> Reply:
        with self._lock:
            self.requests.append(Seen("GET", path, dict(headers.items())))
            replies = self.routes.get(path) or self.routes.get(path.split("?", 1)[0])
            if not replies:
                return Reply(404, b"not found")
            return replies.pop(0) if len(replies) > 1 else replies[0]

    def stop(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()
