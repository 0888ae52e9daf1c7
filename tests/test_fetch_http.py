"""The HTTP client every source uses (``paper_tui.fetch.http``), against a real server on
127.0.0.1 (``http_replay``) that misbehaves the ways real ones do. Delays are config values
of a few hundredths of a second, so the waits are real but short."""

from __future__ import annotations

import gzip
import socket
import subprocess
import sys
import threading
from collections.abc import Iterator
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from email.utils import format_datetime
from itertools import pairwise
from pathlib import Path

import pytest

from http_replay import ForwardingProxy, ReplayServer, Reply
from paper_tui import __version__
from paper_tui import config as config_mod
from paper_tui.errors import FetchError
from paper_tui.fetch.http import HttpClient, Validators, with_params

DELAY = 0.01
SETTINGS = replace(config_mod.defaults().settings.fetch, timeout_s=2.0, retries=2,
                   retry_delay_s=DELAY, max_wait_s=1.0)


class Waits:
    """What ``on_wait`` heard: (reason, seconds) pairs."""

    def __init__(self) -> None:
        self.heard: list[tuple[str, float]] = []

    def __call__(self, reason: str, seconds: float) -> None:
        self.heard.append((reason, seconds))


@pytest.fixture
def waits() -> Waits:
    return Waits()


@pytest.fixture
def client(waits: Waits) -> HttpClient:
    return HttpClient(SETTINGS, on_wait=waits)


@pytest.fixture
def no_proxy_env(monkeypatch: pytest.MonkeyPatch) -> None:
    """No proxy from the machine's environment (tests must reach 127.0.0.1 directly)."""
    for name in ("http_proxy", "https_proxy", "all_proxy", "no_proxy"):
        monkeypatch.delenv(name, raising=False)
        monkeypatch.delenv(name.upper(), raising=False)


@pytest.fixture(autouse=True)
def _direct(no_proxy_env: None) -> None:
    pass


def failure(client: HttpClient, url: str) -> str:
    with pytest.raises(FetchError) as caught:
        client.get(url)
    message = str(caught.value)
    assert "\n" not in message and message.startswith(url)
    return message[len(url) + 2:]


def test_a_plain_get_names_paper_tui_and_asks_for_gzip(http_replay: ReplayServer,
                                                       client: HttpClient) -> None:
    http_replay.route("/notes", Reply(body=b'{"notes": []}'))
    http_replay.route("/notes?offset=1000", Reply(body=b'{"notes": [1]}'))
    got = client.get(f"{http_replay.url}/notes", params={"venueid": "ICLR.cc/2025", "limit": 2})
    assert (got.status, got.body, got.unchanged) == (200, b'{"notes": []}', False)
    seen = http_replay.requests[0]
    assert seen.path == "/notes?venueid=ICLR.cc%2F2025&limit=2"
    assert seen.header("user-agent") == \
        f"paper-tui/{__version__} (+https://github.com/paper-tui/paper-tui)"
    assert seen.header("accept-encoding") == "gzip"
    assert client.get(f"{http_replay.url}/notes", params={"offset": 1000}).body == b'{"notes": [1]}'
    assert (client.requests, client.bytes_received) == (2, 27)


def test_with_params_appends_to_a_query() -> None:
    assert with_params("http://h/a?x=1", {"q": "a b"}) == "http://h/a?x=1&q=a+b"
    assert with_params("http://h/a", None) == "http://h/a"


def test_a_conditional_request_of_an_unchanged_list_transfers_nothing(
        http_replay: ReplayServer, client: HttpClient) -> None:
    stamp = "Tue, 01 Dec 2026 00:00:00 GMT"
    http_replay.route("/list.json", Reply(body=b"[1, 2, 3]", etag='"v7"', last_modified=stamp))
    first = client.get(f"{http_replay.url}/list.json")
    assert first.validators == Validators('"v7"', stamp)
    again = client.get(f"{http_replay.url}/list.json", validators=first.validators)
    assert (again.status, again.unchanged, again.body) == (304, True, b"")
    assert again.validators.etag == '"v7"'
    assert http_replay.requests[1].header("if-none-match") == '"v7"'
    by_date = client.get(f"{http_replay.url}/list.json", validators=Validators(None, stamp))
    assert by_date.unchanged
    changed = client.get(f"{http_replay.url}/list.json", validators=Validators('"v6"'))
    assert (changed.status, changed.body) == (200, b"[1, 2, 3]")
    assert client.bytes_received == 18


def test_429_with_retry_after_is_waited_out_and_said(http_replay: ReplayServer,
                                                     client: HttpClient, waits: Waits) -> None:
    http_replay.route("/api/query", Reply.retry_after(0), Reply(body=b"<feed/>"))
    assert client.get(f"{http_replay.url}/api/query").body == b"<feed/>"
    assert waits.heard == [(f"{http_replay.url[7:]} asks to wait (HTTP 429)", 0.0)]
    assert client.requests == 2


def test_retry_after_as_an_http_date(http_replay: ReplayServer, client: HttpClient,
                                     waits: Waits) -> None:
    past = format_datetime(datetime.now(UTC) - timedelta(minutes=5), usegmt=True)
    later = format_datetime(datetime.now(UTC) + timedelta(hours=1), usegmt=True)
    http_replay.route("/a", Reply.retry_after(past, status=503), Reply(body=b"ok"))
    assert client.get(f"{http_replay.url}/a").body == b"ok"
    assert waits.heard[0][1] == 0.0
    http_replay.route("/b", Reply.retry_after(later, status=503))
    said = failure(client, f"{http_replay.url}/b")  # an HTTP date has whole seconds
    assert said in ("HTTP 503: asks to wait 3600 s; try again later",
                    "HTTP 503: asks to wait 3599 s; try again later")


def test_a_retry_after_longer_than_max_wait_is_refused_at_once(
        http_replay: ReplayServer, client: HttpClient, waits: Waits) -> None:
    http_replay.route("/a", Reply.retry_after(600), Reply(body=b"never"))
    said = failure(client, f"{http_replay.url}/a")
    assert said == "HTTP 429: asks to wait 600 s; try again later"
    assert (len(http_replay.requests), waits.heard) == (1, [])


def test_a_server_that_always_says_later_is_given_up_on(http_replay: ReplayServer,
                                                        client: HttpClient) -> None:
    http_replay.route("/a", Reply.retry_after(0))
    assert "try again later" in failure(client, f"{http_replay.url}/a")
    assert len(http_replay.requests) == 6  # the first and MAX_WAITS more


def test_503_then_success_is_retried_with_its_reason_said(
        http_replay: ReplayServer, client: HttpClient, waits: Waits) -> None:
    http_replay.route("/a", Reply(503, b"busy"), Reply(body=b"ok"))
    assert client.get(f"{http_replay.url}/a").body == b"ok"
    assert waits.heard == [("HTTP 503 Service Unavailable; retry 1 of 2", DELAY)]


def test_500_every_time_fails_after_the_retries_with_back_off(
        http_replay: ReplayServer, client: HttpClient, waits: Waits) -> None:
    http_replay.route("/a", Reply(500, b"oops"))
    said = failure(client, f"{http_replay.url}/a")
    assert said == "HTTP 500 Internal Server Error (after 2 retries)"
    assert len(http_replay.requests) == 3
    assert [seconds for _, seconds in waits.heard] == [DELAY, 2 * DELAY]


@pytest.mark.parametrize(("reply", "said"), [
    (Reply(404, b"Not Found"), "not found (HTTP 404): Not Found"),
    (Reply(403, b'{"name": "ForbiddenError", "message": "Venue is private"}'),
     "refused (HTTP 403): Venue is private"),
    (Reply(401, b"<html><body>login</body></html>"), "refused (HTTP 401)"),
    (Reply(400, b""), "bad request (HTTP 400)"),
    (Reply(418, b""), "HTTP 418 I'm a Teapot"),
])
def test_other_4xx_are_one_clear_line_and_never_retried(
        http_replay: ReplayServer, client: HttpClient, waits: Waits, reply: Reply,
        said: str) -> None:
    http_replay.route("/a", reply)
    assert failure(client, f"{http_replay.url}/a") == said
    assert (len(http_replay.requests), waits.heard) == (1, [])


def test_a_server_that_answers_too_late_times_out(http_replay: ReplayServer,
                                                  waits: Waits) -> None:
    quick = HttpClient(replace(SETTINGS, timeout_s=0.2, retries=1), on_wait=waits)
    http_replay.route("/a", Reply(body=b"late", delay_s=1.0))
    assert failure(quick, f"{http_replay.url}/a") == \
        "timed out (nothing for 0.2 s) (after 1 retry)"
    http_replay.route("/b", Reply(body=b"late", delay_s=1.0), Reply(body=b"ok"))
    assert quick.get(f"{http_replay.url}/b").body == b"ok"


def test_a_body_cut_mid_way_is_retried_then_an_error(http_replay: ReplayServer,
                                                     client: HttpClient) -> None:
    http_replay.route("/a", Reply(body=b"0123456789", cut_at=4), Reply(body=b"0123456789"))
    assert client.get(f"{http_replay.url}/a").body == b"0123456789"
    http_replay.route("/b", Reply(body=b"0123456789", cut_at=4))
    assert failure(client, f"{http_replay.url}/b") == \
        "cut off after 4 bytes of 10 (after 2 retries)"


def test_gzip_is_decoded_and_counted_as_sent(http_replay: ReplayServer,
                                             client: HttpClient) -> None:
    body = b'{"title": "Attention"}' * 500
    http_replay.route("/a", Reply.gzipped(body))
    got = client.get(f"{http_replay.url}/a")
    assert got.body == body
    assert client.bytes_received == int(got.headers["content-length"]) < len(body) // 10


def test_bad_gzip_is_an_error(http_replay: ReplayServer, client: HttpClient) -> None:
    http_replay.route("/a", Reply(body=b"not gzip at all", headers={"Content-Encoding": "gzip"}))
    assert failure(client, f"{http_replay.url}/a").startswith("damaged gzip data")
    http_replay.route("/b", Reply(body=gzip.compress(b"x" * 1000)[:-12],
                                  headers={"Content-Encoding": "gzip"}))
    assert failure(client, f"{http_replay.url}/b").startswith("damaged gzip data (")
    http_replay.route("/c", Reply(body=b"x", headers={"Content-Encoding": "br"}))
    assert failure(client, f"{http_replay.url}/c") == \
        "sent in an encoding paper-tui cannot read (br)"


def test_a_gzip_bomb_stops_early(http_replay: ReplayServer, client: HttpClient) -> None:
    http_replay.route("/a", Reply.gzipped(bytes(40 << 20)))  # 40 MiB of zeros in ~40 KB
    assert failure(client, f"{http_replay.url}/a") == \
        "unpacks to more than 100 times its size: not a paper list (a gzip bomb?)"


def test_a_body_over_the_size_cap_is_refused(http_replay: ReplayServer, waits: Waits) -> None:
    small = HttpClient(SETTINGS, on_wait=waits, max_bytes=100)
    http_replay.route("/a", Reply(body=bytes(200)))
    assert failure(small, f"{http_replay.url}/a") == "too big (200 bytes; at most 100 taken)"
    http_replay.route("/b", Reply(body=bytes(200), headers={"Content-Length": "50"}))
    # a lying Content-Length: the cap still holds on what arrives (50 read: fine)
    assert small.get(f"{http_replay.url}/b").body == bytes(50)


def test_redirects_are_followed_to_http_only(http_replay: ReplayServer,
                                             client: HttpClient) -> None:
    http_replay.route("/old", Reply.redirect("/new", status=301))
    http_replay.route("/new", Reply(body=b"moved"))
    got = client.get(f"{http_replay.url}/old")
    assert (got.url, got.body, client.requests) == (f"{http_replay.url}/new", b"moved", 2)
    http_replay.route("/evil", Reply.redirect("file:///etc/passwd"))
    assert failure(client, f"{http_replay.url}/evil") == \
        "redirected to file:///etc/passwd: not an http(s) address, refused"
    http_replay.route("/loop", Reply.redirect("/loop"))
    assert "too many redirects" in failure(client, f"{http_replay.url}/loop")


@pytest.mark.parametrize(("url", "said"), [
    ("file:///etc/passwd", "not an http(s) URL"),
    ("http://[::1/x", "not a valid URL (Invalid IPv6 URL)"),
    ("http://127.0.0.1:abc/x", "not a valid URL (the port is not a number up to 65535)"),
    ("http://127.0.0.1:65536/x", "not a valid URL (the port is not a number up to 65535)"),
    ("http:///x", "not a valid URL (no host)"),
])
def test_urls_that_are_not_http_or_not_urls(client: HttpClient, url: str, said: str) -> None:
    assert failure(client, url) == said


def test_a_url_on_two_lines_is_named_on_one(client: HttpClient) -> None:
    with pytest.raises(FetchError) as caught:
        client.get("http://127.0.0.1:1/a\nb c")
    assert str(caught.value) == \
        "http://127.0.0.1:1/a\\nb c: not a valid URL (spaces or control characters)"


@pytest.fixture
def proxy() -> Iterator[ForwardingProxy]:
    server = ForwardingProxy()
    yield server
    server.stop()


def test_http_proxy_is_used_and_no_proxy_bypasses_it(
        http_replay: ReplayServer, proxy: ForwardingProxy,
        monkeypatch: pytest.MonkeyPatch) -> None:
    http_replay.route("/list.json", Reply(body=b"[]"))
    monkeypatch.setenv("HTTP_PROXY", proxy.url)
    got = HttpClient(SETTINGS).get(f"{http_replay.url}/list.json", params={"a": 1})
    assert got.body == b"[]"
    assert proxy.request_lines == [f"GET {http_replay.url}/list.json?a=1 HTTP/1.1"]
    monkeypatch.setenv("NO_PROXY", "example.org,127.0.0.1")
    assert HttpClient(SETTINGS).get(f"{http_replay.url}/list.json").body == b"[]"
    assert len(proxy.request_lines) == 1 and len(http_replay.requests) == 2


def test_https_proxy_is_asked_for_a_tunnel(proxy: ForwardingProxy, waits: Waits,
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    """No TLS server here: the proxy records the CONNECT and refuses it; the client says so
    in one line and does not retry."""
    monkeypatch.setenv("HTTPS_PROXY", proxy.url)
    url = "https://api2.openreview.net/notes"
    said = failure(HttpClient(SETTINGS, on_wait=waits), url)
    assert said.startswith(f"cannot connect through proxy {proxy.url} (tunnel connection "
                           "failed: 502")
    assert proxy.request_lines == ["CONNECT api2.openreview.net:443 HTTP/1.0"]
    assert waits.heard == []


@pytest.fixture
def raw_server() -> Iterator[list[bytes]]:
    """A socket server on 127.0.0.1 answering each connection with the next bytes of the
    list (after reading the request), then hanging up: for answers ``http.server`` cannot
    give. The list's first item is its URL, as bytes."""
    listener = socket.create_server(("127.0.0.1", 0))
    listener.settimeout(0.05)
    answers: list[bytes] = [f"http://127.0.0.1:{listener.getsockname()[1]}".encode()]
    stop = threading.Event()

    def serve() -> None:
        while not stop.is_set():
            try:
                conn, _ = listener.accept()
            except TimeoutError:
                continue
            with conn:
                conn.recv(65536)
                conn.sendall(answers.pop(1) if len(answers) > 2 else answers[-1])

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    yield answers
    stop.set()
    thread.join()
    listener.close()


def test_a_connection_closed_before_any_answer_is_retried(
        raw_server: list[bytes], client: HttpClient, waits: Waits) -> None:
    raw_server += [b"", b"HTTP/1.0 200 OK\r\nContent-Length: 2\r\n\r\nok"]
    assert client.get(f"{raw_server[0].decode()}/a").body == b"ok"
    assert waits.heard == [("connection broken (remote end closed connection without "
                            "response); retry 1 of 2", DELAY)]


def test_a_chunked_body_cut_mid_way_is_an_error(raw_server: list[bytes],
                                                client: HttpClient) -> None:
    raw_server.append(b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"
                      b"4\r\nabcd\r\n10\r\nefg")
    assert failure(client, f"{raw_server[0].decode()}/a") == \
        "cut off after 4 bytes (after 2 retries)"  # the whole chunks before the cut


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def test_connection_refused_says_offline_and_is_not_retried(
        client: HttpClient, waits: Waits, monkeypatch: pytest.MonkeyPatch) -> None:
    url = f"http://127.0.0.1:{free_port()}/notes"
    assert failure(client, url) == "cannot connect (connection refused): offline?"
    assert waits.heard == []
    proxy_url = f"http://127.0.0.1:{free_port()}"
    monkeypatch.setenv("HTTP_PROXY", proxy_url)
    assert failure(HttpClient(SETTINGS), url) == \
        f"cannot connect through proxy {proxy_url} (connection refused): offline?"


def test_min_interval_spaces_requests_and_says_so(http_replay: ReplayServer,
                                                  waits: Waits) -> None:
    spaced = HttpClient(SETTINGS, on_wait=waits, min_interval_s=0.15)
    http_replay.route("/api/query", Reply(body=b"<feed/>"))
    for start in (0, 100, 200):
        spaced.get(f"{http_replay.url}/api/query", params={"start": start})
    times = [seen.at for seen in http_replay.requests]
    # loose: the server may see a request a little later than the client sent it
    assert all(later - earlier >= 0.1 for earlier, later in pairwise(times))
    assert len(waits.heard) == 2
    assert all(reason.endswith("asks for 0.15 s between requests") and 0 < seconds <= 0.15
               for reason, seconds in waits.heard)


def test_search_never_imports_the_fetch_package(lib_dir: Path) -> None:
    """Only ``paper-tui fetch`` (and ``watch``) pay for the HTTP client (the app's start:
    tests/tui/test_startup_imports.py)."""
    watched = ("paper_tui.fetch", "paper_tui.fetch.http", "requests", "httpx", "urllib3")
    code = ("import sys; from paper_tui.cli import main; status = main(sys.argv[1:]); "
            f"print(sorted(m for m in {watched!r} if m in sys.modules), file=sys.stderr); "
            "sys.exit(status)")
    searched = subprocess.run([sys.executable, "-c", code, "--library", str(lib_dir),
                               "search", "learning"], capture_output=True, text=True,
                              check=True)
    assert searched.stderr.strip().splitlines()[-1] == "[]"
