"""Hostile servers against the HTTP client (issue 34: 4, 7, 10, 12), on 127.0.0.1: header
values that are no numbers, a ``Location`` that is no URL, DBLP's year that is no number,
a server that trickles its answer a byte at a time, URLs with non-ASCII hosts and paths,
redirects to link-local and private addresses. Each ends in success or one line
(:class:`FetchError`), never another exception; a ``paper-tui fetch`` of them exits 0 or
1, never 70."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest

from fetch_routes import config_file, data, dblp_path
from hostile_servers import RawServer, drip
from http_replay import ForwardingProxy, ReplayServer, Reply
from paper_tui import config as config_mod
from paper_tui.errors import FetchError
from paper_tui.fetch import wire
from paper_tui.fetch.http import HttpClient

SETTINGS = replace(config_mod.defaults().settings.fetch, timeout_s=2.0, retries=1,
                   retry_delay_s=0.0, max_wait_s=1.0)


@pytest.fixture(autouse=True)
def _direct(monkeypatch: pytest.MonkeyPatch) -> None:
    """No proxy from the machine's environment (tests must reach 127.0.0.1 directly)."""
    for name in ("http_proxy", "https_proxy", "all_proxy", "no_proxy"):
        monkeypatch.delenv(name, raising=False)
        monkeypatch.delenv(name.upper(), raising=False)


def failure(url: str, settings: object = SETTINGS) -> str:
    """What the client says of ``url``: one line starting with it; the words after it."""
    assert isinstance(settings, config_mod.FetchSettings)
    with pytest.raises(FetchError) as caught:
        HttpClient(settings).get(url)
    message = str(caught.value)
    assert "\n" not in message and message.startswith(url), message
    return message[len(url) + 2:]


def paper_tui(root: Path, server_url: str, *args: str, **config: object
              ) -> subprocess.CompletedProcess[str]:
    """``paper-tui fetch …`` in a process of its own, with a hang guard."""
    return subprocess.run([sys.executable, "-m", "paper_tui", "--library", str(root / "lib"),
                           "--config", str(config_file(root / "config", server_url, **config)),
                           *args], capture_output=True, text=True, timeout=120,
                          stdin=subprocess.DEVNULL)


# --- 4: every header value read defensively ------------------------------------------

@pytest.mark.parametrize("value", ["²", "9" * 400, "¹²", "-5", "1e3", "0x10",
                                   "Mon, 01 Jan 99999 00:00:00 GMT",
                                   f"Mon, 01 Jan {'9' * 400} 00:00:00 GMT", "\x7f"])
def test_a_retry_after_that_is_no_number_nor_date_is_no_advice(
        http_replay: ReplayServer, value: str) -> None:
    """No advice: a 429 is then retried as one without ``Retry-After`` (the old client
    ended in OverflowError or ValueError: exit 70)."""
    http_replay.route("/a", Reply(429, headers={"Retry-After": value}), Reply(body=b"ok"))
    assert HttpClient(SETTINGS).get(f"{http_replay.url}/a").body == b"ok"
    http_replay.route("/b", Reply(429, headers={"Retry-After": value}))
    assert failure(f"{http_replay.url}/b") == "HTTP 429 Too Many Requests (after 1 retry)"


@pytest.mark.parametrize("value", ["²", "abc", "9" * 400, "-1", "¹2", "12, 12"])
def test_a_content_length_that_is_no_number_is_unknown(http_replay: ReplayServer,
                                                       value: str) -> None:
    http_replay.route("/a", Reply(body=b"[1, 2]", headers={"Content-Length": value}))
    got = HttpClient(SETTINGS).get(f"{http_replay.url}/a")
    assert got.body == b"[1, 2]"


@pytest.mark.parametrize(("location", "said"), [
    ("http://[::1", "redirected to http://[::1: not a valid URL (Invalid IPv6 URL), refused"),
    ("http://127.0.0.1:99999/", "redirected to http://127.0.0.1:99999/: not a valid URL "
     "(the port is not a number up to 65535), refused"),
    ("http://x/\x1b]0;PWNED\x07", "redirected to http://x/\\x1b]0;PWNED\\x07: not a valid URL "
     "(spaces or control characters), refused"),
    ("gopher://x/", "redirected to gopher://x/: not an http(s) address, refused"),
    ("http://" + "a" * 64 + "é/", "redirected to http://" + "a" * 64 + "é/: not a valid URL "
     "(not a host name: " + "a" * 64 + "é), refused"),
])
def test_a_redirect_to_a_malformed_url_is_one_line(http_replay: ReplayServer, location: str,
                                                   said: str) -> None:
    http_replay.route("/a", Reply.redirect(location))
    assert failure(f"{http_replay.url}/a") == said


def test_a_redirect_sent_as_utf8_is_followed(http_replay: ReplayServer) -> None:
    """A ``Location`` of raw UTF-8 (http.client reads it as Latin-1) is asked as its URI."""
    http_replay.route("/a", Reply.redirect("/x/été.json"))
    http_replay.route("/x/%C3%A9t%C3%A9.json", Reply(body=b"[]"))
    got = HttpClient(SETTINGS).get(f"{http_replay.url}/a")
    assert (got.body, got.url) == (b"[]", f"{http_replay.url}/x/%C3%A9t%C3%A9.json")


def test_dblp_values_that_are_no_numbers_are_no_year(tmp_path: Path,
                                                     http_replay: ReplayServer) -> None:
    page = json.loads(data("dblp-iclr2018-f0.json"))
    hits = page["result"]["hits"]
    hits["@total"] = str(len(hits["hit"]))
    for hit, year in zip(hits["hit"], ["²", "9" * 400, "20 18", 1e308], strict=False):
        hit["info"]["year"] = year
    http_replay.route(dblp_path("conf/iclr/iclr2018", 0), Reply(body=json.dumps(page).encode()))
    done = paper_tui(tmp_path, http_replay.url, "fetch", "dblp:conf/iclr/iclr2018")
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("dblp:conf/iclr/iclr2018: 3 papers")
    listed = paper_tui(tmp_path, http_replay.url, "list", "--json")
    assert listed.returncode == 0 and "9999" not in listed.stdout


def test_dblp_total_that_is_no_number_is_one_line(tmp_path: Path,
                                                  http_replay: ReplayServer) -> None:
    page = json.loads(data("dblp-iclr2018-f0.json"))
    page["result"]["hits"]["@total"] = "²"
    http_replay.route(dblp_path("conf/iclr/iclr2018", 0), Reply(body=json.dumps(page).encode()))
    done = paper_tui(tmp_path, http_replay.url, "fetch", "dblp:conf/iclr/iclr2018")
    assert done.returncode == 1 and len(done.stderr.splitlines()) == 1, done.stderr
    assert 'no "@total"' in done.stderr


# --- 7: a deadline and a least rate, not only a per-read timeout ---------------------

@pytest.fixture
def raw() -> Iterator[list[RawServer]]:
    servers: list[RawServer] = []
    yield servers
    for server in servers:
        server.stop()


def head(length: int) -> bytes:
    return b"HTTP/1.1 200 OK\r\nContent-Length: %d\r\n\r\n" % length


# Each drip ends within seconds at the old client's pace too: a regression fails, never hangs.


def test_a_body_dripped_a_byte_at_a_time_is_too_slow(raw: list[RawServer]) -> None:
    """A byte every 0.05 s never lets a 0.5 s read timeout fire (the old client read all
    200, in 10 s; 100 KB would be 80 minutes); under 1,024 bytes a second for 0.5 s: given
    up, and not retried."""
    raw.append(server := RawServer(drip(head(200), bytes(200), every=0.05)))
    said = failure(f"{server.url}/a.json", replace(SETTINGS, timeout_s=0.5))
    assert said.startswith("too slow (") and "fetch.min_bytes_per_s is 1024)" in said
    assert server.connections == 1


def test_headers_dripped_are_too_slow_as_well(raw: list[RawServer]) -> None:
    slow_head = b"HTTP/1.1 200 OK\r\nX-Filler: " + b"x" * 200 + b"\r\n\r\n"
    raw.append(server := RawServer(drip(b"", slow_head, every=0.05)))
    assert failure(f"{server.url}/a", replace(SETTINGS, timeout_s=0.5)).startswith("too slow (")


def test_a_transfer_that_never_ends_meets_the_deadline(raw: list[RawServer]) -> None:
    """4 KB every 0.05 s (80 KB/s: fast enough) of a body of 800 KB (10 s)."""
    raw.append(server := RawServer(drip(head(800 << 10), bytes(800 << 10), every=0.05,
                                        piece=4096)))
    said = failure(f"{server.url}/a", replace(SETTINGS, timeout_s=0.5, deadline_s=1.0))
    assert said == "took longer than 1 s (fetch.deadline_s)"
    assert server.connections == 1


def test_no_deadline_and_no_least_rate_when_set_to_0(raw: list[RawServer]) -> None:
    raw.append(server := RawServer(drip(head(40), bytes(40), every=0.02)))
    relaxed = replace(SETTINGS, timeout_s=0.3, deadline_s=0.0, min_bytes_per_s=0.0)
    assert HttpClient(relaxed).get(f"{server.url}/a").body == bytes(40)


def test_a_drip_fetch_ends_in_one_line(tmp_path: Path, raw: list[RawServer]) -> None:
    """``fetch.timeout_s: 1`` and the defaults: a byte every 0.1 s is given up."""
    raw.append(server := RawServer(drip(head(300), bytes(300), every=0.1)))
    done = paper_tui(tmp_path, server.url, "fetch", f"{server.url}/list.json", timeout_s=1)
    assert done.returncode == 1, done.stderr
    [line] = done.stderr.splitlines()
    assert line.startswith(f"paper-tui: {server.url}/list.json: too slow (")


# --- 10: URL arguments ----------------------------------------------------------------

@pytest.mark.parametrize(("url", "said"), [
    ("http://[::1", "not a valid URL (Invalid IPv6 URL)"),
    ("http://[::1]:99999/a.json", "not a valid URL (the port is not a number up to 65535)"),
    ("http://[zz::1]/a.json",
     "not a valid URL ('zz::1' does not appear to be an IPv4 or IPv6 address)"),
])
def test_a_malformed_url_argument_is_one_line(tmp_path: Path, url: str, said: str) -> None:
    done = paper_tui(tmp_path, "http://127.0.0.1:9", "fetch", url)
    assert (done.returncode, done.stderr) == (1, f"paper-tui: {url}: {said}\n")


def test_non_ascii_paths_are_asked_percent_encoded(tmp_path: Path,
                                                   http_replay: ReplayServer) -> None:
    record = b'[{"title": "A paper", "abstract": "About it.", "authors": ["A. B."]}]'
    http_replay.route("/x/%C3%A9t%C3%A9.json", Reply(body=record))
    http_replay.route("/%E8%AB%96%E6%96%87/%E4%B8%80%E8%A6%A7.json", Reply(body=record))
    for url in (f"{http_replay.url}/x/été.json", f"{http_replay.url}/論文/一覧.json"):
        done = paper_tui(tmp_path, http_replay.url, "fetch", url)
        assert done.returncode == 0, done.stderr
        assert done.stdout.startswith(f"{url}: 1 paper"), done.stdout


def test_a_non_ascii_host_is_asked_in_idna(http_replay: ReplayServer,
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    """Through a proxy (which records the request line): the host goes as ``xn--…``."""
    proxy = ForwardingProxy()
    try:
        monkeypatch.setenv("HTTP_PROXY", proxy.url)
        with pytest.raises(FetchError):
            HttpClient(replace(SETTINGS, retries=0)).get("http://例え.テスト/論文.json")
        assert proxy.request_lines == [
            "GET http://xn--r8jz45g.xn--zckzah/%E8%AB%96%E6%96%87.json HTTP/1.1"]
    finally:
        proxy.stop()


# --- 12: redirects never to loopback, link-local or private addresses ------------------

@pytest.mark.parametrize(("location", "kind", "address"), [
    ("http://169.254.169.254/latest/meta-data/", "link-local", "169.254.169.254"),
    ("http://[fe80::1]/", "link-local", "fe80::1"),
    ("http://10.0.0.1/", "private", "10.0.0.1"),
    ("http://192.168.1.1:8080/admin", "private", "192.168.1.1"),
    ("http://[fd00::1]/", "private", "fd00::1"),
    ("http://100.64.0.1/", "private", "100.64.0.1"),
    ("http://[::ffff:169.254.169.254]/", "link-local", "::ffff:a9fe:a9fe"),
])
def test_a_redirect_to_another_kind_of_address_is_refused(
        http_replay: ReplayServer, location: str, kind: str, address: str) -> None:
    """No connection is tried (none of them is reachable here)."""
    http_replay.route("/a", Reply.redirect(location))
    target = location.replace("::ffff:169.254.169.254", "::ffff:a9fe:a9fe")  # as a URI
    assert failure(f"{http_replay.url}/a") == \
        f"redirected to {target}: a {kind} address ({address}), refused"


def test_loopback_redirects_are_followed_from_a_loopback_start(
        http_replay: ReplayServer) -> None:
    port = http_replay.url.rsplit(":", 1)[1]
    http_replay.route("/a", Reply.redirect(f"http://localhost:{port}/b"))
    http_replay.route("/b", Reply.redirect("/c"))
    http_replay.route("/c", Reply(body=b"here"))
    assert HttpClient(SETTINGS).get(f"{http_replay.url}/a").body == b"here"


PUBLIC = "http://93.184.216.34/list.json"
"""A public address as the start (never connected to: only the rule is asked)."""


@pytest.mark.parametrize("target", ["http://127.0.0.1/", "http://localhost/",
                                    "http://0.0.0.0:8080/", "http://[::1]/",
                                    "http://[::ffff:127.0.0.1]/", "http://10.1.2.3/"])
def test_from_a_public_start_no_redirect_leaves_the_internet(target: str) -> None:
    """``localhost`` is a name: its resolved addresses are what is checked."""
    with pytest.raises(FetchError, match=r"address \(.*\), refused"):
        wire.Attempt(PUBLIC, SETTINGS).redirect(target)
    wire.Attempt(PUBLIC, SETTINGS).redirect("http://93.184.216.35/elsewhere")


def test_a_name_that_resolves_elsewhere_when_connected_is_refused() -> None:
    """DNS rebinding: a redirect's name resolved to a public address when checked, to a
    loopback one when connected: the connection's own address is checked too."""
    attempt = wire.Attempt(PUBLIC, SETTINGS)
    attempt.redirect("http://93.184.216.35/")
    with socket.create_server(("127.0.0.1", 0)) as listener, \
            socket.create_connection(listener.getsockname()) as sock:
        with pytest.raises(FetchError, match=r"redirected to rebound\.example: a loopback"):
            attempt.connected(sock, "rebound.example", proxied=False)
        attempt.connected(sock, "rebound.example", proxied=True)  # the proxy's own affair
    first = wire.Attempt(f"{PUBLIC}", SETTINGS)
    with socket.create_server(("127.0.0.1", 0)) as listener, \
            socket.create_connection(listener.getsockname()) as sock:
        first.connected(sock, "127.0.0.1", proxied=False)  # no redirect yet: the start
