"""The one HTTP client every source uses, on the standard library's ``urllib``.

Contract (what the sources rely on):

- ``HttpClient(settings, user_agent=…, on_wait=…).get(url, params=…, validators=…)``
  returns a :class:`Response` (status 200, or 304 when ``validators`` match: ``body`` is
  then empty) or raises :class:`~paper_tui.errors.FetchError` with one line naming the URL.
- It sends a User-Agent naming paper-tui and its version, asks for gzip and decodes it,
  follows redirects, honours ``HTTPS_PROXY`` / ``HTTP_PROXY`` / ``NO_PROXY``, times out.
- 429 / 503 with ``Retry-After`` are waited out (``on_wait(reason, seconds)`` hears of it)
  up to ``max_wait_s``; 5xx and broken connections are retried ``retries`` times with
  back-off from ``retry_delay_s``; a body shorter than its ``Content-Length`` is an error.

In detail:

- Timeouts: ``timeout_s`` for connecting and for each read (a server that sends nothing
  for that long); ``deadline_s`` for the whole request, redirects included, and
  ``min_bytes_per_s`` over each ``timeout_s`` once bytes come (a server that trickles a
  byte a second): see :mod:`paper_tui.fetch.wire`. Past either, the request is given up
  at once, not retried.
- Retried, ``retries`` times, waiting ``retry_delay_s * 2**n`` (said through ``on_wait``):
  a 5xx, a 429 without ``Retry-After``, a reset or dropped connection, a timeout, a body
  cut short (a GET is safe to repeat). Never retried: other 4xx (each its own line), a
  refused connection or an unknown host (offline: say so at once), TLS failures.
- ``Retry-After`` (seconds or an HTTP date) of at most ``max_wait_s`` is waited out,
  :data:`MAX_WAITS` times at most per request; these waits are not retries. Longer:
  "asks to wait N s; try again later".
- Redirects: :data:`MAX_REDIRECTS` at most, to http(s) only (never ``file:`` or ``ftp:``),
  never to a loopback, link-local or private address unless the request started at one
  of that kind (:class:`~paper_tui.fetch.wire.Attempt`); a redirect's body is not read.
  ``allowed`` (the kinds of address of :mod:`~paper_tui.fetch.addresses`) narrows that
  for every connection, the first one too (a PDF link from a list: a name that resolved
  to a public address when checked and to another when connecting is refused).
- URLs: an IRI is asked as its URI (:func:`~paper_tui.fetch.uri.to_uri`); a malformed one
  (in a request or a ``Location``) is one line.
- Every header a server sends is read defensively: a ``Retry-After`` that is neither a
  number of ASCII digits (at most :data:`MAX_DIGITS`) nor an HTTP date is no advice, a
  ``Content-Length`` that is not such a number is unknown; text from a server in a
  message is escaped and cut short (:func:`~paper_tui.fetch.uri.shown`).
- Sizes: a body over ``max_bytes`` (:data:`MAX_BODY`, 1 GiB) as sent, or gzip that
  unpacks past :mod:`paper_tui.trust.bounded_gzip`'s caps (a bomb), is an error.
- ``min_interval_s``: at least that long from the end of one request of this client to the
  start of the next (arXiv asks for 3 s between requests); the wait is said through
  ``on_wait``.
- :meth:`HttpClient.download` is :meth:`~HttpClient.get` with the body written to a file
  as it comes (a PDF of 100 MB is never held in memory), from the file's start again on a
  retry; it asks for the body as it is (no gzip) and refuses one sent compressed.
- ``requests`` and ``bytes_received`` count what went over the wire (retries and redirect
  hops included; bytes as sent, before gzip is decoded), for the sources' summaries.
"""

from __future__ import annotations

import contextlib
import email.utils
import http.client
import io
import json
import math
import socket
import ssl
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from email.message import Message
from typing import IO

from paper_tui import __version__
from paper_tui.config import FetchSettings
from paper_tui.errors import FetchError, SourceError
from paper_tui.fetch import wire
from paper_tui.fetch.uri import BadURL, shown, to_uri
from paper_tui.trust.bounded_gzip import gunzip_bytes

USER_AGENT = f"paper-tui/{__version__} (+https://github.com/paper-tui/paper-tui)"
MAX_BODY = 1 << 30
"""The most bytes one response may send (1 GiB: six times the biggest list seen)."""
MAX_REDIRECTS = 5
MAX_WAITS = 5
"""The most ``Retry-After`` waits for one request (a server that always says "later")."""
MAX_DIGITS = 12
"""The longest number a header may give (``Retry-After``, ``Content-Length``): 10^12 s
is 30,000 years, 10^12 bytes a thousand times :data:`MAX_BODY`."""
_CHUNK = 1 << 20


@dataclass(frozen=True)
class Validators:
    """What a server said identifies a response's version, for a conditional request."""

    etag: str | None = None
    last_modified: str | None = None

    def headers(self) -> dict[str, str]:
        found = {}
        if self.etag:
            found["If-None-Match"] = self.etag
        if self.last_modified:
            found["If-Modified-Since"] = self.last_modified
        return found


@dataclass(frozen=True)
class Response:
    url: str
    """The URL answered (after redirects)."""
    status: int
    body: bytes
    headers: Mapping[str, str] = field(default_factory=dict)
    """Lower-case names."""

    @property
    def unchanged(self) -> bool:
        """A 304: the conditional request's version is still the current one."""
        return self.status == 304

    @property
    def validators(self) -> Validators:
        return Validators(self.headers.get("etag"), self.headers.get("last-modified"))


def with_params(url: str, params: Mapping[str, str | int] | None) -> str:
    if not params:
        return url
    return f"{url}{'&' if '?' in url else '?'}{urllib.parse.urlencode(params)}"


class _Retry(Exception):
    """One attempt failed in a way worth another: why, in a few words."""

    def __init__(self, why: str) -> None:
        super().__init__(why)
        self.why = why


class _AskedToWait(Exception):
    """A 429 / 503 with a ``Retry-After`` of ``seconds``."""

    def __init__(self, status: int, seconds: float) -> None:
        super().__init__(status, seconds)
        self.status = status
        self.seconds = seconds


class _Redirects(urllib.request.HTTPRedirectHandler):
    """urllib's redirects, fewer of them, to well-formed http(s) URIs only (urllib allows
    ``ftp:``) and allowed addresses (:meth:`wire.Attempt.redirect`), each hop counted,
    its body never read (urllib reads it whole)."""

    max_redirections = MAX_REDIRECTS
    max_repeats = MAX_REDIRECTS

    def __init__(self, client: HttpClient) -> None:
        self.client = client

    def http_error_302(self, req: urllib.request.Request, fp: IO[bytes], code: int,
                       msg: str, headers: http.client.HTTPMessage
                       ) -> IO[bytes] | None:
        location = headers.get("location") or headers.get("uri")
        if not location:  # urllib's error handler says so (a redirect to nowhere)
            return super().http_error_302(req, fp, code, msg, headers)
        fp.close()
        target = _redirect_target(req.full_url, location)
        self.client.attempt().redirect(target)
        for name in ("location", "uri"):
            del headers[name]
        headers["Location"] = target
        self.client.requests += 1
        return super().http_error_302(req, io.BytesIO(), code, msg, headers)

    http_error_301 = http_error_303 = http_error_307 = http_error_308 = http_error_302


class HttpClient:
    def __init__(self, settings: FetchSettings, *, user_agent: str = USER_AGENT,
                 on_wait: Callable[[str, float], None] | None = None,
                 min_interval_s: float = 0.0, max_bytes: int = MAX_BODY,
                 allowed: Collection[str] | None = None) -> None:
        self.settings = settings
        self.allowed = allowed
        """The kinds of address every connection may reach (None: the redirect rule
        alone)."""
        self.user_agent = user_agent
        self.on_wait = on_wait
        self.min_interval_s = min_interval_s
        self.max_bytes = max_bytes
        self.requests = 0
        """HTTP requests sent (retries and redirect hops included)."""
        self.bytes_received = 0
        """Body bytes received as sent (before gzip is decoded)."""
        self._last_end: float | None = None
        self._attempt: wire.Attempt | None = None
        self._sink: IO[bytes] | None = None
        # ProxyHandler (in the default handlers) reads *_PROXY / NO_PROXY when built.
        self._opener = urllib.request.build_opener(_Redirects(self),
                                                   *wire.handlers(self.attempt))

    def attempt(self) -> wire.Attempt:
        """The request under way."""
        assert self._attempt is not None, "no request under way"
        return self._attempt

    def get(self, url: str, *, params: Mapping[str, str | int] | None = None,
            validators: Validators | None = None) -> Response:
        full = with_params(url, params)
        try:
            uri = to_uri(full)
        except BadURL as exc:
            raise FetchError(shown(full), str(exc)) from None
        headers = {"User-Agent": self.user_agent,
                   "Accept-Encoding": "gzip" if self._sink is None else "identity"}
        if validators:
            headers.update(validators.headers())
        retried = waited = 0
        while True:
            try:
                return self._attempt_once(full, uri, headers)
            except _AskedToWait as asked:
                if asked.seconds > self.settings.max_wait_s or waited >= MAX_WAITS:
                    raise FetchError(full, f"HTTP {asked.status}: asks to wait "
                                     f"{math.ceil(asked.seconds)} s; try again later") from None
                waited += 1
                self._wait(f"{_host(full)} asks to wait (HTTP {asked.status})", asked.seconds)
            except _Retry as failed:
                if retried >= self.settings.retries:
                    after = f" (after {retried} {'retry' if retried == 1 else 'retries'})" \
                        if retried else ""
                    raise FetchError(full, f"{failed.why}{after}") from None
                delay = self.settings.retry_delay_s * 2 ** retried
                retried += 1
                self._wait(f"{failed.why}; retry {retried} of {self.settings.retries}", delay)

    def download(self, url: str, sink: IO[bytes]) -> Response:
        """:meth:`get` ``url``, its body written to ``sink`` (a file open for writing and
        reading, emptied before each try) rather than kept: the response's ``body`` is
        empty. The same errors, and one for a body sent compressed."""
        self._sink = sink
        try:
            return self.get(url)
        finally:
            self._sink = None

    def _wait(self, reason: str, seconds: float) -> None:
        if self.on_wait is not None:
            self.on_wait(reason, seconds)
        if seconds > 0:
            time.sleep(seconds)

    def _space(self, url: str) -> None:
        """Wait until ``min_interval_s`` has passed since the last request ended."""
        if self._last_end is not None and self.min_interval_s > 0:
            left = self._last_end + self.min_interval_s - time.monotonic()
            if left > 0:
                self._wait(f"{_host(url)} asks for {self.min_interval_s:g} s between "
                           "requests", left)

    def _attempt_once(self, url: str, uri: str, headers: Mapping[str, str]) -> Response:
        """One request of ``uri`` (and urllib's redirects), errors naming ``url``: a
        response, or :class:`_Retry`, :class:`_AskedToWait` or :class:`FetchError`."""
        self._space(url)
        self.requests += 1
        if self._sink is not None:  # a retry writes the body from its start
            self._sink.seek(0)
            self._sink.truncate()
        self._attempt = wire.Attempt(uri, self.settings, self.allowed)
        try:
            return self._exchange(url, urllib.request.Request(uri, headers=dict(headers)))
        except wire.TooSlow as exc:
            raise FetchError(url, str(exc)) from None
        finally:  # a failed request ended too
            self._last_end = time.monotonic()
            self._attempt = None

    def _exchange(self, url: str, request: urllib.request.Request) -> Response:
        """Send ``request`` and read its answer whole (see :meth:`_attempt`)."""
        try:
            with self._opener.open(request, timeout=self.settings.timeout_s) as reply:
                answered = _lower(reply.headers)
                body = self._read(url, reply, answered)
                status, final = reply.status, reply.url
        except urllib.error.HTTPError as exc:
            with exc:
                answered = _lower(exc.headers)
                if exc.code == 304:
                    return Response(exc.url or url, 304, b"", answered)
                said = self._read_error_body(exc)
            raise self._refusal(url, exc.code, exc.reason, answered, said) from None
        except urllib.error.URLError as exc:
            raise self._unreachable(url, exc.reason) from None
        except OSError as exc:  # during the response: reset, timed out
            raise self._unreachable(url, exc) from None
        except http.client.InvalidURL as exc:
            raise FetchError(url, f"not a valid URL ({exc})") from None
        except http.client.HTTPException as exc:
            raise FetchError(url, f"not an HTTP answer ({type(exc).__name__})") from None
        if self._sink is not None:
            if answered.get("content-encoding", "").strip().lower() not in ("", "identity"):
                raise FetchError(final, "sent compressed when asked not to")
            return Response(final, status, b"", answered)
        return Response(final, status, _decoded(final, body, answered), answered)

    def _read(self, url: str, reply: http.client.HTTPResponse,
              answered: Mapping[str, str]) -> bytes:
        """The body as sent, within ``max_bytes``, all of its ``Content-Length``."""
        expected = _number(answered.get("content-length", ""))
        if expected is not None and expected > self.max_bytes:
            raise FetchError(url, f"too big ({expected:,} bytes; at most "
                             f"{self.max_bytes:,} taken)")
        parts, got = [], 0
        while True:
            try:
                # Into a file: what has come so far (a slow body is on disk as it comes).
                chunk = reply.read1(_CHUNK) if self._sink is not None else reply.read(_CHUNK)
            except http.client.IncompleteRead as exc:  # a chunked body cut short
                got += len(exc.partial)
                self.bytes_received += len(exc.partial)
                raise _Retry(f"cut off after {got:,} bytes") from None
            if not chunk:
                break
            got += len(chunk)
            self.bytes_received += len(chunk)
            if got > self.max_bytes:
                raise FetchError(url, f"too big (over {self.max_bytes:,} bytes)")
            if self._sink is not None:
                self._sink.write(chunk)
            else:
                parts.append(chunk)
        if expected is not None and got < expected:
            raise _Retry(f"cut off after {got:,} bytes of {expected:,}")
        return b"".join(parts)

    def _read_error_body(self, exc: urllib.error.HTTPError) -> str:
        """What an error reply's body says, in a few words ('' when nothing useful)."""
        try:
            body = exc.read(4096)
        except (OSError, http.client.HTTPException, wire.TooSlow):
            return ""
        self.bytes_received += len(body)
        return _gist(body)

    def _refusal(self, url: str, status: int, reason: str, answered: Mapping[str, str],
                 said: str) -> Exception:
        """What an HTTP error status becomes: a wait, a retry or a final error."""
        if status in (429, 503) and "retry-after" in answered:
            seconds = _retry_after(answered["retry-after"])
            if seconds is not None:
                return _AskedToWait(status, seconds)
        if status >= 500 or status == 429:
            return _Retry(f"HTTP {status} {shown(reason)}".rstrip())
        if status in (301, 302, 303, 307, 308):
            if "location" not in answered:
                return FetchError(url, f"HTTP {status}: a redirect to nowhere (no Location)")
            return FetchError(url, f"HTTP {status}: too many redirects (more than "
                              f"{MAX_REDIRECTS}, or a loop)")
        words = {401: "refused", 403: "refused", 404: "not found", 410: "gone",
                 400: "bad request"}.get(status)
        head = f"{words} (HTTP {status})" if words else \
            f"HTTP {status} {shown(reason)}".rstrip()
        return FetchError(url, f"{head}: {said}" if said else head)

    def _unreachable(self, url: str, reason: object) -> Exception:
        """What a failure below HTTP becomes: a retry or a final error."""
        through = _proxy(url)
        via = f" through proxy {through}" if through else ""
        if isinstance(reason, ConnectionRefusedError):
            return FetchError(url, f"cannot connect{via} (connection refused): offline?")
        if isinstance(reason, socket.gaierror):
            host = urllib.parse.urlsplit(through or url).hostname
            return FetchError(url, f"cannot connect{via} (unknown host {host}): offline?")
        if isinstance(reason, TimeoutError):
            return _Retry(f"timed out (nothing for {self.settings.timeout_s:g} s)")
        if isinstance(reason, ssl.SSLError):
            return FetchError(url, f"TLS failed ({reason.reason or reason})")
        if isinstance(reason, ConnectionError):
            return _Retry(f"connection broken{via} ({_oserror(reason)})")
        if isinstance(reason, OSError):
            return FetchError(url, f"cannot connect{via} ({_oserror(reason)})")
        return FetchError(url, f"cannot fetch ({reason})")


def _redirect_target(url: str, location: str) -> str:
    """Where a ``Location`` sent in answer to ``url`` leads, as a URI; :class:`FetchError`
    if it is malformed or not http(s). (http.client reads header bytes as Latin-1: a
    ``Location`` sent as UTF-8, as servers do, is read as UTF-8.)"""
    with contextlib.suppress(UnicodeError):
        location = location.encode("latin-1").decode("utf-8")
    try:
        return to_uri(urllib.parse.urljoin(url, location))
    except ValueError as exc:  # BadURL, and urljoin's "Invalid IPv6 URL"
        said = str(exc) if isinstance(exc, BadURL) else f"not a valid URL ({exc})"
        if said == "not an http(s) URL":
            said = "not an http(s) address"
        raise FetchError(url, f"redirected to {shown(location)}: {said}, refused") from None


def _number(value: str) -> int | None:
    """A header's number: ASCII digits, at most :data:`MAX_DIGITS` of them; else None."""
    value = value.strip()
    if value.isascii() and value.isdigit() and len(value) <= MAX_DIGITS:
        return int(value)
    return None


def _decoded(url: str, body: bytes, answered: Mapping[str, str]) -> bytes:
    encoding = answered.get("content-encoding", "identity").strip().lower()
    if encoding in ("", "identity"):
        return body
    if encoding not in ("gzip", "x-gzip"):
        raise FetchError(url, f"sent in an encoding paper-tui cannot read ({shown(encoding)})")
    try:
        return gunzip_bytes(body, url)
    except SourceError as exc:
        raise FetchError(url, exc.message) from None


def _retry_after(value: str) -> float | None:
    """``Retry-After``'s seconds from now (a number or an HTTP date); None if neither (no
    advice: a number of other digits or too many of them, a date out of range)."""
    seconds = _number(value)
    if seconds is not None:
        return float(seconds)
    try:
        when = email.utils.parsedate_to_datetime(value.strip())
        if when.tzinfo is None:
            when = when.replace(tzinfo=UTC)
        return max(0.0, (when - datetime.now(UTC)).total_seconds())
    except (TypeError, ValueError, OverflowError, IndexError):
        return None


def _proxy(url: str) -> str | None:
    """The proxy a request to ``url`` goes through (from the environment), if any."""
    parts = urllib.parse.urlsplit(url)
    proxy = urllib.request.getproxies().get(parts.scheme)
    if proxy and parts.hostname and urllib.request.proxy_bypass(parts.hostname):
        return None
    return proxy


def _lower(headers: Message) -> dict[str, str]:
    return {key.lower(): value for key, value in headers.items()}


def _gist(body: bytes) -> str:
    """An error body's message: a JSON ``message``, else its first line if it is text."""
    text = body.decode("utf-8", "replace").strip()
    if text.startswith("{"):
        try:
            said = json.loads(text)
        except ValueError:
            said = None
        if isinstance(said, dict) and isinstance(said.get("message"), str):
            text = said["message"].strip()
    line = text.splitlines()[0].strip() if text else ""
    if not line or line.startswith("<") or not line.isprintable():
        return ""
    return line if len(line) <= 120 else f"{line[:117]}..."


def _oserror(exc: OSError) -> str:
    said = exc.strerror or str(exc) or type(exc).__name__
    return said[:1].lower() + said[1:]


def _host(url: str) -> str:
    return urllib.parse.urlsplit(url).netloc
