"""URLs as people write them (IRIs: ``https://例え.jp/été.json``) made into URIs a server
reads, and URL text from a server made safe to show on one line.

:func:`to_uri` is the one check every URL goes through before a request (the arguments of
``paper-tui fetch``, each request, each redirect's ``Location``): an http(s) URL without
spaces or control characters, whose host is a name, an IPv4 or a bracketed IPv6 address
and whose port is a number; a non-ASCII host is IDNA-encoded (``xn--…``), non-ASCII
characters of the path and query are percent-encoded as UTF-8 and escapes already there
are kept. The fragment is never sent, so it is dropped.
"""

from __future__ import annotations

import ipaddress
import urllib.parse

SCHEMES = ("http", "https")
_KEPT = "!#$%&'()*+,/:;=?@[]~"
"""What percent-encoding leaves as it is besides letters, digits and ``-._``: RFC 3986's
reserved characters and ``%`` (an escape already there)."""
_SHOWN = 200


class BadURL(ValueError):
    """Why a URL cannot be asked, in a few words (``not an http(s) URL``)."""


def to_uri(url: str) -> str:
    """``url`` as an ASCII URI (see the module's doc); :class:`BadURL` when it is not an
    http(s) URL."""
    if not url.isprintable() or any(c.isspace() for c in url):
        raise BadURL("not a valid URL (spaces or control characters)")
    try:
        parts = urllib.parse.urlsplit(url)
    except ValueError as exc:  # "Invalid IPv6 URL"
        raise BadURL(f"not a valid URL ({exc})") from None
    try:
        port = parts.port
    except ValueError:
        raise BadURL("not a valid URL (the port is not a number up to 65535)") from None
    if parts.scheme.lower() not in SCHEMES:
        raise BadURL("not an http(s) URL")
    host = _host(parts.hostname or "")
    userinfo, at, _ = parts.netloc.rpartition("@")
    netloc = (urllib.parse.quote(userinfo, safe=_KEPT) + at + host
              + (f":{port}" if port is not None else ""))
    return urllib.parse.urlunsplit((parts.scheme.lower(), netloc,
                                    urllib.parse.quote(parts.path, safe=_KEPT),
                                    urllib.parse.quote(parts.query, safe=_KEPT), ""))


def _host(host: str) -> str:
    """The host as a URI names it: IPv6 in brackets, a non-ASCII name IDNA-encoded."""
    if not host:
        raise BadURL("not a valid URL (no host)")
    if ":" in host:
        try:
            return f"[{ipaddress.IPv6Address(host)}]"
        except ValueError:
            raise BadURL(f"not a valid URL (not an IPv6 address: {shown(host)})") from None
    if host.isascii():
        return host
    try:
        return host.encode("idna").decode("ascii")
    except UnicodeError:  # an empty label, one of more than 63 characters
        raise BadURL(f"not a valid URL (not a host name: {shown(host)})") from None


def shown(text: str) -> str:
    """Text a server sent (a ``Location``, a header), for one line of a message: control
    characters escaped, at most 200 characters."""
    if not text.isprintable():
        text = text.encode("unicode_escape").decode("ascii")
    return text if len(text) <= _SHOWN else f"{text[:_SHOWN - 3]}..."
