"""The client's connections: every read of a request's answer (status line, headers,
body, redirect hops included) against one clock, and every redirect's address checked.

- :class:`Meter`: the request's deadline (``fetch.deadline_s`` from its start, whatever
  the server sends) and its least rate (``fetch.min_bytes_per_s`` over each
  ``fetch.timeout_s`` from the first byte on): a server that sends a byte a second resets
  a per-read timeout for ever, not these. Either ends the request with :class:`TooSlow`.
- :class:`Attempt`: one request and the redirects it follows; a redirect to a loopback,
  link-local or private address (:mod:`paper_tui.fetch.addresses`) is refused unless the
  request started at an address of that kind, checked on the redirect's URL (its name
  resolved) and again on the address connected to (a name that resolved otherwise the
  second time).
- :func:`handlers`: urllib's HTTP and HTTPS handlers, with these connections.

One request at a time per client (the client is not shared between threads).
"""

from __future__ import annotations

import functools
import http.client
import io
import socket
import time
import urllib.parse
import urllib.request
from collections.abc import Callable, Collection
from typing import TYPE_CHECKING, Any, ClassVar

from paper_tui.config import FetchSettings
from paper_tui.errors import FetchError
from paper_tui.fetch import addresses
from paper_tui.fetch.uri import shown

if TYPE_CHECKING:
    from _typeshed import WriteableBuffer


class TooSlow(Exception):
    """A request past its deadline or under the least rate: why, in a few words."""


class Meter:
    """One request's clock (see the module's doc)."""

    def __init__(self, settings: FetchSettings) -> None:
        self.settings = settings
        self.started = time.monotonic()
        self._window_start: float | None = None
        self._window_bytes = 0

    def read_timeout(self) -> float:
        """How long the next read may wait; :class:`TooSlow` past the deadline."""
        timeout = self.settings.timeout_s
        if self.settings.deadline_s <= 0:
            return timeout
        left = self.started + self.settings.deadline_s - time.monotonic()
        if left <= 0:
            raise TooSlow(f"took longer than {self.settings.deadline_s:g} s "
                          "(fetch.deadline_s)")
        return min(timeout, left)

    def received(self, count: int) -> None:
        """``count`` bytes came; :class:`TooSlow` if the last ``timeout_s`` brought fewer
        than ``min_bytes_per_s`` a second."""
        now = time.monotonic()
        if self._window_start is None:
            self._window_start = now
        self._window_bytes += count
        elapsed = now - self._window_start
        if elapsed < self.settings.timeout_s:
            return
        rate = self._window_bytes / elapsed
        if rate < self.settings.min_bytes_per_s:
            raise TooSlow(f"too slow ({rate:,.0f} bytes/s for {elapsed:.0f} s; "
                          f"fetch.min_bytes_per_s is {self.settings.min_bytes_per_s:g})")
        self._window_start, self._window_bytes = now, 0


class _MeteredReader(io.RawIOBase):
    """A socket's reader whose every read waits at most what the :class:`Meter` allows
    and is counted by it."""

    def __init__(self, raw: io.RawIOBase, sock: socket.socket, meter: Meter) -> None:
        super().__init__()
        self._raw = raw
        self._sock = sock
        self._meter = meter

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: WriteableBuffer, /) -> int | None:
        self._sock.settimeout(self._meter.read_timeout())
        try:
            count = self._raw.readinto(buffer)
        except TimeoutError:
            self._meter.read_timeout()  # TooSlow if it was the deadline, not a silence
            raise
        self._meter.received(count or 0)
        return count

    def close(self) -> None:
        if not self.closed:
            self._raw.close()
        super().close()


class _MeteredResponse(http.client.HTTPResponse):
    meter: ClassVar[Meter]
    """The attempt's meter (:func:`_wired` gives each connection a class of its own)."""

    def __init__(self, sock: socket.socket, debuglevel: int = 0, method: str | None = None,
                 url: str | None = None) -> None:
        super().__init__(sock, debuglevel, method, url)
        self.fp = io.BufferedReader(_MeteredReader(self.fp.detach(), sock, self.meter))


class Attempt:
    """One request: its :class:`Meter` and where its redirects may go."""

    def __init__(self, url: str, settings: FetchSettings,
                 only: Collection[str] | None = None) -> None:
        """``only``: the kinds of address every connection may reach, the first too."""
        self.url = url
        self.meter = Meter(settings)
        self.redirects = 0
        self._only = only
        self._allowed: set[str] | None = set(only) if only is not None else None

    def allowed(self) -> set[str]:
        """The kinds of address a redirect may lead to: public ones, and those of the
        request's first host (or the ``only`` ones given)."""
        if self._allowed is None:
            parts = urllib.parse.urlsplit(self.url)
            first = addresses.host_kinds(parts.hostname or "", parts.port or 80)
            self._allowed = {addresses.PUBLIC, *first.values()}
        return self._allowed

    def redirect(self, target: str) -> None:
        """A redirect to ``target`` (a URI) is to be followed: :class:`FetchError` if its
        host is an address of a kind not :meth:`allowed`."""
        parts = urllib.parse.urlsplit(target)
        found = addresses.host_kinds(parts.hostname or "", parts.port or 80)
        self._refuse_outside(target, found, redirected=True)
        self.redirects += 1

    def connected(self, sock: socket.socket, host: str, proxied: bool) -> None:
        """A connection to ``host`` is made: after a redirect (or always, given ``only``),
        to an allowed kind of address (a name that resolved to a public address a moment
        ago may not now)."""
        if (self.redirects or self._only is not None) and not proxied:
            peer = str(sock.getpeername()[0])
            self._refuse_outside(host, {peer: addresses.kind(peer)},
                                 redirected=bool(self.redirects))

    def _refuse_outside(self, target: str, found: dict[str, str], *,
                        redirected: bool) -> None:
        allowed = self.allowed()
        for address, kind in found.items():
            if kind not in allowed:
                where = f"redirected to {shown(target)}" if redirected else \
                    f"{shown(target)} connected"
                raise FetchError(self.url, f"{where}: a {kind} address ({address}), "
                                 "refused")


def _wired(connection: http.client.HTTPConnection, attempt: Attempt) -> None:
    # http.client makes each answer with response_class(sock, method=…): a class of this
    # connection's, which knows the attempt's meter.
    class Response(_MeteredResponse):
        meter = attempt.meter

    connection.response_class = Response


class _HTTPConnection(http.client.HTTPConnection):
    def __init__(self, host: str, *, attempt: Attempt, proxied: bool, **kwargs: Any) -> None:
        super().__init__(host, **kwargs)
        self._attempt, self._proxied = attempt, proxied
        _wired(self, attempt)

    def connect(self) -> None:
        super().connect()
        self._attempt.connected(self.sock, self.host, self._proxied)


class _HTTPSConnection(http.client.HTTPSConnection):
    def __init__(self, host: str, *, attempt: Attempt, proxied: bool, **kwargs: Any) -> None:
        super().__init__(host, **kwargs)
        self._attempt, self._proxied = attempt, proxied
        _wired(self, attempt)

    def connect(self) -> None:
        super().connect()
        self._attempt.connected(self.sock, self.host, self._proxied)


def _proxied(request: urllib.request.Request) -> bool:
    """The request goes through a proxy (urllib has made the proxy its host)."""
    return request.host.lower() != urllib.parse.urlsplit(request.full_url).netloc.lower()


def handlers(attempt: Callable[[], Attempt]) -> list[urllib.request.BaseHandler]:
    """urllib's HTTP and HTTPS handlers, their connections wired to ``attempt()`` (the
    request under way)."""

    class HTTP(urllib.request.HTTPHandler):
        def http_open(self, req: urllib.request.Request) -> http.client.HTTPResponse:
            return self.do_open(functools.partial(
                _HTTPConnection, attempt=attempt(), proxied=_proxied(req)), req)

    class HTTPS(urllib.request.HTTPSHandler):
        def https_open(self, req: urllib.request.Request) -> http.client.HTTPResponse:
            return self.do_open(functools.partial(
                _HTTPSConnection, attempt=attempt(), proxied=_proxied(req)), req)

    return [HTTP(), HTTPS()]
