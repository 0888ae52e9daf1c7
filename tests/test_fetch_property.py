"""Property (issue 34): whatever a server answers — any status, any headers with any values
(numbers of any length, dates out of range, malformed and hostile ``Location``s, unknown
encodings), any body (gzip whole, cut or fake) — the client ends in a response or one
line (:class:`FetchError`), never another exception, and within its bounds: the
deadline per request times the requests it may make (a hang guard, not a timing)."""

from __future__ import annotations

import gzip
import socket
import threading
from collections.abc import Iterator
from dataclasses import replace

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hostile_servers import RawServer
from paper_tui import config as config_mod
from paper_tui.errors import FetchError
from paper_tui.fetch.http import MAX_WAITS, HttpClient, Response

SETTINGS = replace(config_mod.defaults().settings.fetch, timeout_s=1.0, deadline_s=2.0,
                   retries=1, retry_delay_s=0.0, max_wait_s=0.2)
BOUND = (MAX_WAITS + 1) * (SETTINGS.retries + 1) * (SETTINGS.deadline_s
                                                    + SETTINGS.max_wait_s) + 30


class Scripted:
    """A raw server answering every request with the example's bytes."""

    def __init__(self) -> None:
        self.reply = b""
        self.server = RawServer(self._answer)

    def _answer(self, conn: socket.socket, _: bytes, __: threading.Event) -> None:
        conn.sendall(self.reply)


@pytest.fixture(scope="module")
def scripted() -> Iterator[Scripted]:
    with pytest.MonkeyPatch.context() as env:  # straight to 127.0.0.1, whatever the machine says
        for name in ("http_proxy", "https_proxy", "all_proxy", "no_proxy"):
            env.delenv(name, raising=False)
            env.delenv(name.upper(), raising=False)
        server = Scripted()
        yield server
        server.server.stop()


NAMES = ["Retry-After", "Content-Length", "Location", "Content-Encoding",
         "Transfer-Encoding", "ETag", "Last-Modified", "Content-Type", "X-Other"]
SPECIAL = ["0", "1", "²", "9" * 400, "-1", "1e999", "gzip", "x-gzip", "br", "chunked",
           "identity", "http://[::1", "http://127.0.0.1:99999/", "/relative", "//x/y",
           "file:///etc/passwd", "http://169.254.169.254/latest/", "http://[fe80::1]/",
           "http://10.0.0.1/", "http://例え.テスト/", "/été", "Mon, 01 Jan 99999 00:00:00 GMT",
           "Mon, 01 Jan 9999 23:59:59 -2359", "\x1b]0;PWNED\x07", ""]
values = st.one_of(st.sampled_from(SPECIAL), st.text(max_size=30),
                   st.from_regex(r"[0-9]{1,500}", fullmatch=True))
headers = st.lists(st.tuples(st.sampled_from(NAMES), values), max_size=6)
statuses = st.one_of(st.sampled_from([200, 204, 301, 302, 303, 304, 307, 308, 400, 404,
                                      429, 500, 503]), st.integers(0, 1000))


@st.composite
def bodies(draw: st.DrawFn) -> bytes:
    raw = draw(st.binary(max_size=3000))
    how = draw(st.sampled_from(["raw", "gzip", "cut gzip"]))
    if how == "raw":
        return raw
    packed = gzip.compress(raw)
    return packed if how == "gzip" else packed[:draw(st.integers(0, len(packed)))]


def _wire(status: int, reason: bytes, pairs: list[tuple[str, str]], body: bytes,
          lie: bool) -> bytes:
    head = b"HTTP/1.1 %d %s\r\n" % (status, reason)
    for name, value in pairs:
        head += name.encode() + b": " + value.encode("utf-8", "surrogatepass") + b"\r\n"
    if not lie and not any(name == "Content-Length" for name, _ in pairs):
        head += b"Content-Length: %d\r\n" % len(body)
    return head + b"\r\n" + body


@settings(max_examples=150, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(status=statuses, reason=st.binary(max_size=20).map(lambda b: b.replace(b"\n", b"")),
       pairs=headers, body=bodies(), lie=st.booleans())
def test_any_answer_is_a_response_or_one_line(scripted: Scripted, status: int, reason: bytes,
                                              pairs: list[tuple[str, str]], body: bytes,
                                              lie: bool) -> None:
    scripted.reply = _wire(status, reason, pairs, body, lie)
    ended: list[object] = []

    def run() -> None:
        try:
            ended.append(HttpClient(SETTINGS).get(f"{scripted.server.url}/list.json"))
        except Exception as exc:  # what it raised is the property
            ended.append(exc)

    worker = threading.Thread(target=run, daemon=True)
    worker.start()
    worker.join(BOUND)
    assert not worker.is_alive(), f"still asking after {BOUND:g} s"
    [outcome] = ended
    if isinstance(outcome, FetchError):
        assert "\n" not in str(outcome) and "\x1b" not in str(outcome)
    else:
        assert isinstance(outcome, Response), repr(outcome)
