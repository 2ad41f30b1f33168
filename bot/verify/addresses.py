"""Which addresses a quote check may connect to: public ones, and the hosts an operator allows.

A cited URL comes from the upstream, so it is untrusted: without this, an answer could make a
worker fetch its cloud's metadata service, a database's HTTP port or a router's admin page. The
resolver below is the one the HTTP client connects through, so the addresses checked are the
addresses connected to (no gap for a DNS answer that changes between check and connect). A host
written as a number is read here, not left to the HTTP client: the C library's resolver and
every browser take ``2130706433``, ``0177.0.0.1`` or ``127.1`` for 127.0.0.1, and aiohttp
before 3.14.1 connected to them without asking the resolver at all.
"""

from __future__ import annotations

import ipaddress
import re
import socket
from collections.abc import Iterable

from aiohttp.abc import AbstractResolver, ResolveResult
from aiohttp.resolver import DefaultResolver

__all__ = ["AllowList", "GuardedResolver", "RefusedAddress", "literal_address", "refusal"]

IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address

CLOUD_METADATA = frozenset(
    ipaddress.ip_address(address)
    for address in (
        "169.254.169.254",  # AWS, GCP, Azure, OpenStack, DigitalOcean, Oracle
        "169.254.170.2",  # AWS ECS task metadata
        "fd00:ec2::254",  # AWS over IPv6
        "fd00:ec2::23",  # AWS time sync (same service network)
        "100.100.100.200",  # Alibaba Cloud
    )
)
_NAT64 = ipaddress.ip_network("64:ff9b::/96")
_NUMBER = re.compile(r"[0-9]+|0[xX][0-9a-fA-F]*")
"""A label that makes a host an IPv4 address (WHATWG URL's "ends in a number"): decimal, octal
with a leading 0, or hexadecimal; ASCII digits only."""
_OCTET = r"(?:25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])"
_DOTTED_QUAD = re.compile(rf"{_OCTET}(?:\.{_OCTET}){{3}}")


class RefusedAddress(OSError):
    """Every address of a host is one a quote check may not connect to."""


def literal_address(host: str) -> IPAddress | None:
    """The address ``host`` writes literally, or None for a name (the resolver judges those).

    A host whose last label is a number is an address to browsers and to the C library, in
    forms :mod:`ipaddress` does not read: only four decimal numbers without leading zeros are
    taken; any other numeric form (``2130706433``, ``0177.0.0.1``, ``127.1``, ``0x7f.1``,
    ``127.000.000.001``, a trailing dot) raises :class:`RefusedAddress`, as does an IPv6
    literal that is not one.
    """
    if ":" in host:
        try:
            return ipaddress.IPv6Address(host)
        except ValueError:
            raise RefusedAddress(f"{host} is not an IPv6 address") from None
    labels = host.split(".")
    if len(labels) > 1 and not labels[-1]:
        labels.pop()  # "example.org." is a name; "127.0.0.1." is still a number
    if not all(labels):
        raise RefusedAddress(f"{host} is not a host name")
    if not _NUMBER.fullmatch(labels[-1]):
        return None
    if not _DOTTED_QUAD.fullmatch(host):
        raise RefusedAddress(f"{host} is an address not written as four decimal numbers")
    return ipaddress.IPv4Address(host)


def refusal(address: IPAddress) -> str | None:
    """Why ``address`` may not be connected to, or None for a public unicast address.

    IPv6 forms that carry an IPv4 address (mapped, NAT64, 6to4, Teredo) are judged by it.
    """
    if address in CLOUD_METADATA:
        return "a cloud metadata address"
    if isinstance(address, ipaddress.IPv6Address):
        if address.ipv4_mapped is not None:
            return refusal(address.ipv4_mapped)
        if address in _NAT64:
            return refusal(ipaddress.IPv4Address(int(address) & 0xFFFFFFFF))
        if address.sixtofour is not None:
            return refusal(address.sixtofour)
        if address.teredo is not None:
            return refusal(address.teredo[1])
    for reason, hit in (
        ("a loopback address", address.is_loopback),
        ("a link-local address", address.is_link_local),
        ("a multicast address", address.is_multicast),
        ("an unspecified address", address.is_unspecified),
        ("a private address", address.is_private),
        ("a reserved address", address.is_reserved),
    ):
        if hit:
            return reason
    if not address.is_global:
        return "a non-public address"
    return None


class AllowList:
    """``QUOTE_CHECK_ALLOW_HOSTS``: ``host`` or ``host:port`` read despite a private address."""

    def __init__(self, entries: Iterable[tuple[str, int | None]] = ()) -> None:
        self._entries = frozenset((host.lower().strip("[]"), port) for host, port in entries)

    def allows(self, host: str, port: int) -> bool:
        host = host.lower().strip("[]").rstrip(".")
        return (host, None) in self._entries or (host, port) in self._entries

    def __bool__(self) -> bool:
        return bool(self._entries)


class GuardedResolver(AbstractResolver):
    """Resolves as usual, then keeps only the addresses a quote check may connect to."""

    def __init__(self, allow: AllowList) -> None:
        """Made inside the event loop (aiohttp's resolvers bind to it)."""
        self._allow = allow
        self._inner = DefaultResolver()

    async def resolve(
        self, host: str, port: int = 0, family: socket.AddressFamily = socket.AF_INET
    ) -> list[ResolveResult]:
        literal_address(host)  # a number in another form never reaches the C library
        results = await self._inner.resolve(host, port, family)
        if self._allow.allows(host, port):
            return results
        kept = [r for r in results if refusal(ipaddress.ip_address(r["host"])) is None]
        if not kept:
            reasons = {refusal(ipaddress.ip_address(r["host"])) for r in results}
            raise RefusedAddress(
                f"{host} resolves only to {' or '.join(sorted(map(str, reasons)))}"
            )
        return kept

    async def close(self) -> None:
        await self._inner.close()
