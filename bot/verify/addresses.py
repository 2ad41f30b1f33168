"""Which addresses a quote check may connect to: public ones, and the hosts an operator allows.

A cited URL comes from the upstream, so it is untrusted: without this, an answer could make a
worker fetch its cloud's metadata service, a database's HTTP port or a router's admin page. The
resolver below is the one the HTTP client connects through, so the addresses checked are the
addresses connected to (no gap for a DNS answer that changes between check and connect).
"""

from __future__ import annotations

import ipaddress
import socket
from collections.abc import Iterable

from aiohttp.abc import AbstractResolver, ResolveResult
from aiohttp.resolver import DefaultResolver

__all__ = ["AllowList", "GuardedResolver", "RefusedAddress", "refusal"]

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


class RefusedAddress(OSError):
    """Every address of a host is one a quote check may not connect to."""


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
