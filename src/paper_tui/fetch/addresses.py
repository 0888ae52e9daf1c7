"""What kind of address a host is, for the redirect rule: a redirect may lead to a
loopback, link-local or private address only when the request started at one of the same
kind (a local mirror or test server); a list on the internet never sends paper-tui to
``169.254.169.254`` (a cloud's metadata), a router or a service on this machine."""

from __future__ import annotations

import ipaddress
import socket

PUBLIC = "public"
LOOPBACK = "loopback"
LINK_LOCAL = "link-local"
PRIVATE = "private"


def kind(address: str) -> str:
    """:data:`PUBLIC`, :data:`LOOPBACK` (``0.0.0.0`` and ``::`` too: they reach this
    machine), :data:`LINK_LOCAL` or :data:`PRIVATE` (any other address not routed on the
    internet: RFC 1918, shared, reserved, unique-local); ``ValueError`` if ``address`` is
    not an IP address. An IPv4-mapped IPv6 address is its IPv4 address."""
    ip = ipaddress.ip_address(address)
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    if ip.is_loopback or ip.is_unspecified:
        return LOOPBACK
    if ip.is_link_local:
        return LINK_LOCAL
    return PUBLIC if ip.is_global else PRIVATE


def host_kinds(host: str, port: int) -> dict[str, str]:
    """Each address ``host`` is (itself if it is one, else what it resolves to) -> its
    :func:`kind`; empty when the name does not resolve (the request will say so)."""
    try:
        return {host: kind(host)}
    except ValueError:
        pass
    try:
        found = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except (OSError, UnicodeError):
        return {}
    return {str(info[4][0]): kind(str(info[4][0])) for info in found}
