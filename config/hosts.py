"""A host and port as settings write them (``QUOTE_CHECK_ALLOW_HOSTS``): parsed into the form a
URL names them in, so that a setting matches the pages it means and nothing else.
"""

from __future__ import annotations

import ipaddress
import re
from typing import NamedTuple

__all__ = ["HostPort", "parse_host_port"]


class HostPort(NamedTuple):
    """A host as a URL names it (lower case, IPv6 without brackets); ``port`` None is any port."""

    host: str
    port: int | None = None


_HOST_NAME = re.compile(
    r"(?=.{1,253}$)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*\.?"
)
_HOST_PORT = re.compile(r"^(?:\[(?P<v6>[^\]]+)\]|(?P<host>[^:\[\]]+))(?::(?P<port>[^:]*))?$")


def parse_host_port(entry: str) -> HostPort:
    """``host``, ``host:port``, ``[v6]`` or ``[v6]:port``; ValueError says what is wrong."""
    text = entry.strip().lower()
    if ":" in text and "[" not in text and "." not in text.rpartition(":")[0]:
        try:  # a bare IPv6 address: any port
            return HostPort(str(ipaddress.IPv6Address(text)))
        except ValueError:
            pass
    match = None if "/" in text else _HOST_PORT.match(text)
    if match is None:
        raise ValueError(f"write host or host:port (IPv6 as [::1]:8080), got {entry.strip()!r}")
    host = match.group("v6") or match.group("host")
    try:
        host = str(ipaddress.ip_address(host))
    except ValueError:
        if match.group("v6") or not _HOST_NAME.fullmatch(host):
            raise ValueError(f"not a host name or IP address: {host!r}") from None
    port_text = match.group("port")
    if port_text is None:
        return HostPort(host.rstrip("."))
    if not port_text.isdigit() or not 1 <= int(port_text) <= 65535:
        raise ValueError(f"the port of {entry.strip()!r} must be a number from 1 to 65535")
    return HostPort(host.rstrip("."), int(port_text))
