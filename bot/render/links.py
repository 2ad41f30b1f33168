"""Links a platform will take: every URL citebot links to goes through :func:`safe_link`.

A link's label is the upstream's too, and a reader trusts what it says: ``[https://www.vatican.va
](https://evil.example)`` reads as the Vatican's page. :func:`spoofed_host` finds a label that
looks like a URL or names a host other than the one the link leads to (or a parent of it); the
link is then labelled with the host it leads to instead, on every platform.

An upstream's URL is whatever its documents carried: a host in Japanese, a path with spaces,
``|`` or a stray ``%``, thousands of characters of query. Discord refuses a whole message whose
embed URL is not an RFC 3986 URI of at most 2,048 characters (its OpenAPI spec's ``format:
uri``), and a Slack link or button past 3,000 characters; a link cut to fit would lead
somewhere else. So the URL is written as the URI it means (IDNA host, UTF-8 percent-encoding of
what RFC 3986 does not allow raw, a ``%`` that starts no escape encoded itself), and when that
cannot be done within the platform's limit the caller shows the text without the link.
"""

from __future__ import annotations

import ipaddress
import re
import unicodedata
from collections.abc import Callable, Hashable, Iterable
from typing import TypeVar
from urllib.parse import SplitResult, unquote, urlsplit

import idna
from tld import is_tld

__all__ = ["by_link", "safe_link", "spoofed_host"]

_UNRESERVED = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~"
_SUB_DELIMS = "!$&'()*+,;="
_PATH = frozenset(_UNRESERVED + _SUB_DELIMS + ":@/")
_QUERY = _PATH | {"?"}
"""A fragment allows the same (RFC 3986 3.4 and 3.5); a second ``#`` is encoded."""
_HOST = frozenset(_UNRESERVED)
"""What a host name is written with (RFC 3986 also allows sub-delims, which no DNS name has)."""
_ESCAPE = re.compile(r"%[0-9A-Fa-f]{2}")
_WORDS = re.compile(r"[^\s<>()\[\]{}\"'`«»“”‘’|,;!]+")
"""A label's words, as a reader would take a host or a URL out of it."""
_DOTS = str.maketrans({"\u3002": ".", "\uff61": ".", "\uff0e": "."})
"""Dots IDNA reads as dots in a host name (a reader does too)."""
_NAME = re.compile(r"(?:[^./:@?#]+\.)+[^./:@?#]+")
_LONGEST_LABEL = 512
"""Characters of a label looked into: a host is at most 253, a URL a reader sees is short."""

T = TypeVar("T")
K = TypeVar("K", bound=Hashable)


def safe_link(url: str, *, limit: int, encode: str = "") -> str | None:
    """``url`` as an http(s) URI of at most ``limit`` characters, or None when it cannot be
    one (another scheme, credentials in it, no host, a host no IDNA form fits, a bad port, or
    too long once encoded). ``encode``: characters RFC 3986 allows that the platform's markup
    does not (Markdown's parentheses), percent-encoded as well. Idempotent."""
    url = url.strip()
    if any(ord(c) < 32 or ord(c) == 127 for c in url):
        return None
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError:
        return None
    if parts.scheme.lower() not in ("http", "https"):
        return None
    host = _host(parts)
    if host is None:
        return None
    extra = frozenset(encode)
    written = (
        f"{parts.scheme.lower()}://{host}"
        + (f":{port}" if port is not None else "")
        + _encoded(parts.path, _PATH - extra)
        + (f"?{_encoded(parts.query, _QUERY - extra)}" if parts.query else "")
        + (f"#{_encoded(parts.fragment, _QUERY - extra)}" if parts.fragment else "")
    )
    return written if len(written) <= limit else None


def spoofed_host(label: str, url: str) -> str | None:
    """The host ``url`` leads to, to show instead of ``label`` when the label names another
    one (a URL's, a ``www.`` name's, or a name under a top-level domain): an upstream's link
    cannot say it goes to one site and go to another. None when ``label`` names no host, names
    the link's own or a parent of it (``vatican.va`` for ``www.vatican.va``), or ``url``
    cannot be a link at all. Mixed scripts and look-alike dots are compared as IDNA resolves
    them, and the host shown is its ASCII form, as a browser's address bar shows a doubtful
    one."""
    target = safe_link(url, limit=len(url) * 12 + 16)
    if target is None:
        return None
    host = urlsplit(target).hostname or ""
    named = [_named_host(word) for word in _WORDS.findall(_folded(label))]
    if all(name is None or _covers(name, host) for name in named):
        return None
    return host


def _folded(label: str) -> str:
    """``label`` as a host is read from it: compatibility forms folded, dots as dots."""
    return unicodedata.normalize("NFKC", label[:_LONGEST_LABEL]).translate(_DOTS).casefold()


def _named_host(word: str) -> str | None:
    """The host ``word`` names, in its ASCII form ("" for one written with credentials, which
    put another host before the real one, or one no IDNA form fits); None when it names none."""
    word = word.strip(".:")
    _scheme, slashes, rest = word.partition("://")
    if not slashes:
        rest = word
    authority = re.split("[/?#]", rest, maxsplit=1)[0]
    if "@" in authority and (slashes or _NAME.fullmatch(authority.rpartition("@")[2])):
        return ""
    name = authority.rpartition(":")[0] if re.search(r":\d*$", authority) else authority
    name = name.rstrip(".")
    if not slashes and not (_NAME.fullmatch(name) and is_tld(name.rpartition(".")[2])):
        return None
    if not name:
        return ""
    return _idna(name) if not name.isascii() else (name if set(name) <= _HOST else "")


def _covers(named: str, host: str) -> bool:
    """Whether a label naming ``named`` tells the truth about a link to ``host``."""
    named, host = named.removeprefix("www."), host.removeprefix("www.")
    return bool(named) and (host == named or host.endswith(f".{named}"))


def by_link(items: Iterable[T], link: Callable[[T], K | None]) -> list[list[T]]:
    """``items`` in order, those sharing a ``link`` together where the first of them stands
    (an item without a link stands alone): one card per source document."""
    groups: list[list[T]] = []
    where: dict[K, list[T]] = {}
    for item in items:
        key = link(item)
        if key is None:
            groups.append([item])
        elif key in where:
            where[key].append(item)
        else:
            where[key] = [item]
            groups.append(where[key])
    return groups


def _host(parts: SplitResult) -> str | None:
    """The host as RFC 3986 writes it: an IPv6 literal in brackets, else a lower-case name
    in its IDNA (ASCII) form; None for credentials or a name that has no such form."""
    netloc = parts.netloc
    if "@" in netloc:
        return None  # a link that names someone else's host before the real one misleads
    if netloc.startswith("["):
        literal = netloc[1 : netloc.find("]")] if "]" in netloc else ""
        try:
            return f"[{ipaddress.IPv6Address(literal).compressed}]"
        except ValueError:
            return None
    name = unquote(netloc.rpartition(":")[0] if parts.port is not None else netloc.rstrip(":"))
    if not name:
        return None
    if name.isascii():
        return name.lower() if set(name) <= _HOST else None
    return _idna(name)


def _idna(name: str) -> str | None:
    """IDNA 2008 with UTS 46 mapping, as browsers resolve names; else IDNA 2003, which still
    takes the symbols some real domains use (``☃.net``)."""
    try:
        return idna.encode(name, uts46=True).decode("ascii")
    except (idna.IDNAError, UnicodeError):
        pass
    try:
        ascii_name = name.encode("idna").decode("ascii").lower()
    except UnicodeError:
        return None
    return ascii_name if set(ascii_name) <= _HOST else None


def _encoded(text: str, allowed: frozenset[str]) -> str:
    """Every character RFC 3986 does not allow here as its UTF-8 bytes, percent-encoded; a
    ``%`` that begins a valid escape stays (the URL was already encoded there)."""
    out: list[str] = []
    for index, char in enumerate(text):
        if char in allowed or (char == "%" and _ESCAPE.match(text, index)):
            out.append(char)
        else:
            out.extend(f"%{byte:02X}" for byte in char.encode("utf-8", "surrogatepass"))
    return "".join(out)
