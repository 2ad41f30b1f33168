"""A place's trusted sources (``trusted_sources``): the hosts whose pages it vouches for.

A cited source from any other host is still shown, its card marked as outside them, and the
report counts such sources by site. A host covers its subdomains (``vatican.va`` covers
``www.vatican.va``); hosts are compared in their IDNA (ASCII) form, whatever script an admin
or a provider wrote them in, so ``bücher.example`` and ``xn--bcher-kva.example`` are one.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from urllib.parse import urlsplit

import idna

__all__ = ["MOST_HOSTS", "TrustedSources", "ascii_host", "read_hosts", "shown_host"]

MOST_HOSTS = 30
"""Hosts one place may trust: a short list an admin reads at a glance."""
_LABEL = r"(?!-)[a-z0-9-]{1,63}(?<!-)"
_NAME = re.compile(rf"(?=.{{1,253}}$){_LABEL}(?:\.{_LABEL})+")
"""A DNS name of at least two labels, in its ASCII form (a bare ``va`` would trust a whole
top-level domain)."""


def ascii_host(name: str) -> str | None:
    """``name`` as a lower-case DNS name in its IDNA form (UTS 46 mapping, as browsers read
    it), without a trailing dot; None when it has none."""
    name = name.strip().rstrip(".")
    if not name:
        return None
    try:
        written = idna.encode(name, uts46=True).decode("ascii") if not name.isascii() else name
    except (idna.IDNAError, UnicodeError):
        return None
    written = written.lower()
    return written if _NAME.fullmatch(written) else None


def shown_host(host: str) -> str:
    """An ASCII host as a reader writes it (``bücher.example``); itself when it has no
    Unicode form."""
    try:
        return idna.decode(host)
    except (idna.IDNAError, UnicodeError):
        return host


def read_hosts(text: str) -> tuple[str, ...]:
    """The hosts of an admin's comma-separated list, each in its ASCII form, in order, once;
    a URL stands for its host and ``*.`` is dropped. ValueError naming the first entry that
    is no host, or when there are more than :data:`MOST_HOSTS`."""
    hosts: list[str] = []
    for entry in (part.strip() for part in re.split(r"[,\s]+", text)):
        if not entry:
            continue
        name = entry
        if "://" in name:
            try:
                name = urlsplit(name).hostname or ""
            except ValueError:
                name = ""
        host = ascii_host(name.removeprefix("*."))
        if host is None:
            raise ValueError(entry)
        if host not in hosts:
            hosts.append(host)
    if len(hosts) > MOST_HOSTS:
        raise ValueError(f"{len(hosts)} > {MOST_HOSTS}")
    return tuple(hosts)


@dataclass(frozen=True, slots=True)
class TrustedSources:
    """The hosts a place trusts, in their ASCII form."""

    hosts: tuple[str, ...]

    @classmethod
    def of(cls, hosts: Iterable[str]) -> TrustedSources:
        return cls(tuple(host for host in map(ascii_host, hosts) if host is not None))

    def covers(self, url: str | None) -> bool:
        """Whether the page at ``url`` is on a trusted host or one of its subdomains (a source
        with no URL is on none)."""
        if not url:
            return False
        try:
            name = urlsplit(url.strip()).hostname
        except ValueError:
            return False
        host = ascii_host(name or "")
        return host is not None and any(
            host == trusted or host.endswith(f".{trusted}") for trusted in self.hosts
        )
