"""Which link targets Telegram keeps as a ``text_link`` (or a ``text_mention``).

TDLib's ``LinkManager::get_checked_link`` (tdlib/td) keeps ``http``, ``https``, ``tg`` and
``ton`` links and others with a valid host, adds ``http://`` to a bare host, and drops what it
cannot read, so a markup link to ``localhost`` silently loses its entity; ``tg://user?id=N``
becomes a mention of user N. The simulator keeps the part of that rule a bot meets: the scheme,
and a host with a dot or an IP address.
"""

from __future__ import annotations

import ipaddress
from urllib.parse import parse_qs, urlsplit

__all__ = ["checked_link", "user_link"]

_SCHEMES = frozenset({"http", "https", "tg", "ton", "mailto", "tel"})


def user_link(url: str) -> int | None:
    parts = urlsplit(url.strip())
    if parts.scheme.lower() != "tg" or parts.netloc.lower() != "user":
        return None
    ids = parse_qs(parts.query).get("id", [])
    return int(ids[0]) if ids and ids[0].isdigit() else None


def checked_link(url: str) -> str:
    """The link Telegram would keep, or ``""``."""
    url = url.strip()
    if not url:
        return ""
    parts = urlsplit(
        url if "://" in url or url.startswith(("mailto:", "tel:")) else f"http://{url}"
    )
    scheme = parts.scheme.lower()
    if scheme not in _SCHEMES:
        return ""
    if scheme in ("http", "https"):
        host = (parts.hostname or "").rstrip(".")
        if not host or not ("." in host or _is_ip(host)):
            return ""
        return parts.geturl() if parts.path else parts._replace(path="/").geturl()
    return parts.geturl()


def _is_ip(host: str) -> bool:
    try:
        ipaddress.ip_address(host)
    except ValueError:
        return False
    return True
