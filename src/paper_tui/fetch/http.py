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
"""

from __future__ import annotations

import gzip
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from paper_tui import __version__
from paper_tui.config import FetchSettings
from paper_tui.errors import FetchError

USER_AGENT = f"paper-tui/{__version__} (+https://github.com/paper-tui/paper-tui)"


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


class HttpClient:
    def __init__(self, settings: FetchSettings, *,
                 on_wait: Callable[[str, float], None] | None = None) -> None:
        self.settings = settings
        self.on_wait = on_wait

    def get(self, url: str, *, params: Mapping[str, str | int] | None = None,
            validators: Validators | None = None) -> Response:
        full = with_params(url, params)
        headers = {"User-Agent": USER_AGENT, "Accept-Encoding": "gzip"}
        if validators:
            headers.update(validators.headers())
        request = urllib.request.Request(full, headers=headers)
        try:
            with urllib.request.urlopen(request, timeout=self.settings.timeout_s) as reply:
                body = reply.read()
                answered = {k.lower(): v for k, v in reply.headers.items()}
                status = reply.status
                final = reply.url
        except urllib.error.HTTPError as exc:
            if exc.code == 304:
                return Response(full, 304, b"", {k.lower(): v for k, v in exc.headers.items()})
            raise FetchError(full, f"HTTP {exc.code} {exc.reason}") from None
        except (urllib.error.URLError, OSError) as exc:
            reason = getattr(exc, "reason", exc)
            raise FetchError(full, f"cannot connect ({reason})") from None
        if answered.get("content-encoding") == "gzip":
            body = gzip.decompress(body)
        return Response(final, status, body, answered)
