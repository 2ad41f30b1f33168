"""What quote checking refuses to fetch, and the caps on what it reads, on loopback servers.

Loopback stands in for every private address: a site not on QUOTE_CHECK_ALLOW_HOSTS is refused
like an intranet host would be. No test sends anything to a private or metadata address; those
are judged by ``refusal`` alone, which the resolver and the URL check both use.
"""

from __future__ import annotations

import asyncio
import ipaddress
import itertools
import logging
import zlib
from collections.abc import Awaitable, Callable

import pytest
from aiohttp import web

from bot.verify import Verdict
from bot.verify.addresses import refusal
from bot.verify.checker import QuoteChecker
from bot.verify.fetch import FetchLimits
from tests.bot.conftest import ARTICLE, FAST, Site

QUOTE = "humility is the foundation of prayer"


def redirect(to: str, status: int = 302) -> Callable[[web.Request], Awaitable[web.Response]]:
    async def handler(request: web.Request) -> web.Response:
        return web.Response(status=status, headers={"Location": to})

    return handler


async def test_a_private_address_is_refused_unless_allowed(site: Site) -> None:
    site.html("/prayer", ARTICLE)
    async with QuoteChecker(limits=FAST) as checker:
        assert await checker.check(site.url("/prayer"), QUOTE) is Verdict.UNREADABLE
    assert site.requests == []  # refused before connecting
    async with QuoteChecker(allow_hosts=[("127.0.0.1", site.port)], limits=FAST) as checker:
        assert await checker.check(site.url("/prayer"), QUOTE) is Verdict.FOUND


@pytest.mark.parametrize(
    ("entry", "verdict"),
    [
        (("127.0.0.1", None), Verdict.FOUND),  # the host, any port
        (("127.0.0.1", 1), Verdict.UNREADABLE),  # another port
        (("localhost", None), Verdict.UNREADABLE),  # a name is not its address
    ],
)
async def test_the_allow_list_names_hosts_and_ports_as_urls_write_them(
    site: Site, entry: tuple[str, int | None], verdict: Verdict
) -> None:
    site.html("/prayer", ARTICLE)
    async with QuoteChecker(allow_hosts=[entry], limits=FAST) as checker:
        assert await checker.check(site.url("/prayer"), QUOTE) is verdict


async def test_a_name_is_resolved_and_its_address_checked(site: Site) -> None:
    """``localhost`` goes through the resolver the client connects with: refused unless the
    name itself is allowed."""
    site.html("/prayer", ARTICLE)
    url = site.url("/prayer", host="localhost")
    async with QuoteChecker(allow_hosts=[("127.0.0.1", site.port)], limits=FAST) as checker:
        assert await checker.check(url, QUOTE) is Verdict.UNREADABLE
    assert site.requests == []
    async with QuoteChecker(allow_hosts=[("localhost", site.port)], limits=FAST) as checker:
        assert await checker.check(url, QUOTE) is Verdict.FOUND


@pytest.mark.parametrize("host", ["127.0.0.1", "localhost"])
async def test_a_redirect_to_a_private_address_is_refused(
    site: Site, open_site: Callable[[], Awaitable[Site]], host: str
) -> None:
    inside = await open_site()  # a service that is not on the allow list
    inside.html("/admin", ARTICLE)
    site.routes["/prayer"] = redirect(inside.url("/admin", host=host))
    async with QuoteChecker(allow_hosts=[("127.0.0.1", site.port)], limits=FAST) as checker:
        assert await checker.check(site.url("/prayer"), QUOTE) is Verdict.UNREADABLE
    assert inside.requests == []
    assert site.paths() == ["/robots.txt", "/prayer"]


async def test_redirects_are_followed_a_few_times_only(site: Site, checker: QuoteChecker) -> None:
    site.html("/prayer", ARTICLE)
    for hop in range(1, 6):
        site.routes[f"/hop{hop}"] = redirect(f"/hop{hop + 1}" if hop < 5 else "/prayer", 301)
    assert await checker.check(site.url("/hop1"), QUOTE) is Verdict.FOUND  # 5 redirects
    site.routes["/loop"] = redirect("/loop")
    assert await checker.check(site.url("/loop"), QUOTE) is Verdict.UNREADABLE
    assert site.paths().count("/loop") == 6


@pytest.mark.parametrize(
    "location", ["file:///etc/passwd", "ftp://127.0.0.1/x", "gopher://127.0.0.1:70/"]
)
async def test_a_redirect_off_http_is_refused(
    site: Site, checker: QuoteChecker, location: str
) -> None:
    site.routes["/prayer"] = redirect(location)
    assert await checker.check(site.url("/prayer"), QUOTE) is Verdict.UNREADABLE


async def test_a_url_with_credentials_is_not_fetched(site: Site, checker: QuoteChecker) -> None:
    site.html("/prayer", ARTICLE)
    url = f"http://user:secret@127.0.0.1:{site.port}/prayer"
    assert await checker.check(url, QUOTE) is Verdict.UNREADABLE
    assert site.requests == []


@pytest.mark.parametrize(
    ("address", "reason"),
    [
        ("169.254.169.254", "a cloud metadata address"),
        ("fd00:ec2::254", "a cloud metadata address"),
        ("100.100.100.200", "a cloud metadata address"),
        ("127.0.0.1", "a loopback address"),
        ("::1", "a loopback address"),
        ("::ffff:127.0.0.1", "a loopback address"),  # IPv4-mapped
        ("64:ff9b::a00:1", "a private address"),  # NAT64 of 10.0.0.1
        ("2002:c0a8:101::", "a private address"),  # 6to4 of 192.168.1.1
        ("10.1.2.3", "a private address"),
        ("172.20.0.1", "a private address"),
        ("192.168.0.10", "a private address"),
        ("fd12:3456::1", "a private address"),
        ("169.254.10.1", "a link-local address"),
        ("fe80::1", "a link-local address"),
        ("224.0.0.251", "a multicast address"),
        ("ff02::1", "a multicast address"),
        ("0.0.0.0", "an unspecified address"),
        ("100.64.0.1", "a non-public address"),  # carrier-grade NAT
        ("93.184.215.14", None),
        ("2606:4700::6810:85e5", None),
    ],
)
def test_which_addresses_are_refused(address: str, reason: str | None) -> None:
    assert refusal(ipaddress.ip_address(address)) == reason


NUMBERS = [
    "2130706433",  # decimal
    "017700000001",  # octal
    "0x7f000001",  # hexadecimal
    "0177.0.0.1",  # an octal part
    "0x7f.1",  # hexadecimal and short
    "0x7F.0.0.1",
    "127.1",  # short: the last part fills the rest
    "127.0.1",
    "0177.1",
    "127.000.000.001",  # leading zeros
    "127.0.0.01",
    "000.0.0.0",  # 0.0.0.0 reaches this machine too
    "127.0.0.0x1",  # mixed
    "127.0.0.1.",  # a trailing dot
    "1.2.3.4.5",
]


@pytest.mark.parametrize("host", NUMBERS)
async def test_a_host_written_as_another_number_is_refused_before_any_connection(
    site: Site, caplog: pytest.LogCaptureFixture, host: str
) -> None:
    """Loopback is allowed here, so only the form is refused, by citebot itself: the C
    library and browsers read each of these as an address, and aiohttp before 3.14.1
    connected to them without asking the resolver."""
    site.html("/prayer", ARTICLE)
    async with QuoteChecker(allow_hosts=[("127.0.0.1", None)], limits=FAST) as checker:
        with caplog.at_level(logging.INFO, logger="bot.verify.checker"):
            assert await checker.check(f"http://{host}:{site.port}/prayer", QUOTE) is (
                Verdict.UNREADABLE
            )
    assert site.requests == []
    assert f"{host.lower()} is an address not written as four decimal numbers" in caplog.text


@pytest.mark.parametrize(
    "host",
    ["[::ffff:127.0.0.1]", "[::ffff:7f00:1]", "[::127.0.0.1]", "[::1]", "[0:0:0:0:0:ffff:7f00:1]"],
)
async def test_ipv6_forms_of_loopback_are_refused(site: Site, host: str) -> None:
    """IPv4-mapped and -compatible forms are judged by the IPv4 address they carry."""
    site.html("/prayer", ARTICLE)
    async with QuoteChecker(allow_hosts=[("127.0.0.1", None)], limits=FAST) as checker:
        url = f"http://{host}:{site.port}/prayer"
        assert await checker.check(url, QUOTE) is Verdict.UNREADABLE
    assert site.requests == []


async def test_a_redirect_to_a_host_written_as_a_number_is_refused(
    site: Site, open_site: Callable[[], Awaitable[Site]]
) -> None:
    inside = await open_site()
    inside.html("/admin", ARTICLE)
    site.routes["/prayer"] = redirect(f"http://2130706433:{inside.port}/admin")
    async with QuoteChecker(allow_hosts=[("127.0.0.1", None)], limits=FAST) as checker:
        assert await checker.check(site.url("/prayer"), QUOTE) is Verdict.UNREADABLE
    assert inside.requests == []


@pytest.mark.parametrize("content_type", ["text/html", "application/pdf"])
async def test_a_compressed_body_is_cut_where_it_unpacks_past_the_cap(
    site: Site, content_type: str
) -> None:
    """64 MiB that travel as 128 KiB of gzip: read up to the cap (markup's, or any body's for
    a PDF; 2 and 8 MiB by default, a tenth here), never unpacked whole. The quote at its start
    is found; the rest is not judged (a cut PDF is not read at all)."""
    packer = zlib.compressobj(wbits=16 + zlib.MAX_WBITS)
    bomb = packer.compress(ARTICLE.replace("</body></html>", "").encode())
    for _ in range(64):
        bomb += packer.compress(b"<p>" + b"more words " * 95_000 + b"</p>")
    bomb += packer.flush()

    async def compressed(request: web.Request) -> web.Response:
        return web.Response(
            body=bomb, headers={"Content-Type": content_type, "Content-Encoding": "gzip"}
        )

    site.routes["/bomb"] = compressed
    url = site.url("/bomb")
    found = Verdict.FOUND if content_type == "text/html" else Verdict.UNREADABLE
    limits = FetchLimits(host_spacing=0.0, max_bytes=800 * 1024, max_text_bytes=200 * 1024)
    async with QuoteChecker(allow_hosts=[("127.0.0.1", site.port)], limits=limits) as checker:
        verdicts = await checker.check_all([(url, QUOTE), (url, "a quote that never comes")])
    assert verdicts == [found, Verdict.UNREADABLE]


async def test_an_endless_body_is_read_up_to_the_cap(site: Site) -> None:
    """A quote in what was read is found; one that may lie past the cap is not judged."""

    async def endless(request: web.Request) -> web.StreamResponse:
        response = web.StreamResponse(headers={"Content-Type": "text/html"})
        await response.prepare(request)
        await response.write(ARTICLE.replace("</body></html>", "").encode())
        while True:
            await response.write(b"<p>" + b"more words " * 1000 + b"</p>")

    site.routes["/endless"] = endless
    limits = FetchLimits(host_spacing=0.0, max_bytes=256 * 1024, seconds=30.0)
    async with QuoteChecker(allow_hosts=[("127.0.0.1", site.port)], limits=limits) as checker:
        url = site.url("/endless")
        assert await checker.check_all([(url, QUOTE), (url, "a quote that never comes")]) == [
            Verdict.FOUND,
            Verdict.UNREADABLE,
        ]


async def test_a_huge_page_is_cut_at_the_cap(site: Site) -> None:
    padding = "<p>" + "filler text " * 100_000 + "</p>"
    site.html("/huge", ARTICLE.replace("<article>", f"<article>{padding}"))
    limits = FetchLimits(host_spacing=0.0, max_bytes=512 * 1024)
    async with QuoteChecker(allow_hosts=[("127.0.0.1", site.port)], limits=limits) as checker:
        # the quote sits past the first 512 KiB: not read, so not judged "not found"
        assert await checker.check(site.url("/huge"), QUOTE) is Verdict.UNREADABLE


async def test_a_slow_page_is_given_up(site: Site) -> None:
    never = asyncio.Event()

    async def slow(request: web.Request) -> web.Response:
        await never.wait()
        return web.Response(text=ARTICLE, content_type="text/html")

    site.routes["/slow"] = slow
    limits = FetchLimits(host_spacing=0.0, seconds=0.5)
    async with QuoteChecker(allow_hosts=[("127.0.0.1", site.port)], limits=limits) as checker:
        assert await checker.check(site.url("/slow"), QUOTE) is Verdict.UNREADABLE


@pytest.mark.parametrize(
    "robots",
    [
        "User-agent: *\nDisallow: /",
        "User-agent: citebot\nDisallow: /prayer\n\nUser-agent: *\nAllow: /",
    ],
)
async def test_robots_txt_that_disallows_is_obeyed(
    site: Site, checker: QuoteChecker, robots: str
) -> None:
    site.html("/prayer", ARTICLE)

    async def rules(request: web.Request) -> web.Response:
        return web.Response(text=robots, content_type="text/plain")

    site.routes["/robots.txt"] = rules
    assert await checker.check(site.url("/prayer"), QUOTE) is Verdict.UNREADABLE
    assert site.paths() == ["/robots.txt"]


async def test_robots_txt_that_fails_allows_nothing_for_now(
    site: Site, checker: QuoteChecker
) -> None:
    """RFC 9309: an unreachable robots.txt (5xx) means "disallow all"; a missing one (404)
    means "allow all" (every other test)."""
    site.html("/prayer", ARTICLE)
    site.html("/robots.txt", "oops", status=503)
    assert await checker.check(site.url("/prayer"), QUOTE) is Verdict.UNREADABLE
    assert await checker.check(site.url("/prayer"), QUOTE) is Verdict.UNREADABLE
    assert site.paths() == ["/robots.txt"]  # its answer is kept, not asked again at once


async def test_one_host_is_asked_one_request_at_a_time_with_spacing(site: Site) -> None:
    for name in ("a", "b", "c"):
        site.html(f"/{name}", ARTICLE)
    limits = FetchLimits(host_spacing=0.2)
    async with QuoteChecker(allow_hosts=[("127.0.0.1", site.port)], limits=limits) as checker:
        verdicts = await checker.check_all([(site.url(f"/{n}"), QUOTE) for n in ("a", "b", "c")])
    assert verdicts == [Verdict.FOUND] * 3
    assert site.most_in_flight == 1
    starts = [at for _, _, at in site.requests]  # robots.txt, then the three pages
    assert all(later - earlier >= 0.2 for earlier, later in itertools.pairwise(starts))


async def test_a_worker_fetches_a_few_pages_at_once_at_most(
    open_site: Callable[[], Awaitable[Site]],
) -> None:
    sites = [await open_site() for _ in range(4)]
    gate, two_in = asyncio.Event(), asyncio.Event()
    in_flight = [0, 0]  # now, most

    async def held(request: web.Request) -> web.Response:
        in_flight[0] += 1
        in_flight[1] = max(in_flight)
        if in_flight[0] == 2:
            two_in.set()
        await gate.wait()
        in_flight[0] -= 1
        return web.Response(text=ARTICLE, content_type="text/html")

    for each in sites:
        each.routes["/prayer"] = held
    limits = FetchLimits(host_spacing=0.0, concurrency=2)
    allow = [("127.0.0.1", each.port) for each in sites]
    async with QuoteChecker(allow_hosts=allow, limits=limits) as checker:
        checks = asyncio.ensure_future(
            checker.check_all([(each.url("/prayer"), QUOTE) for each in sites])
        )
        await two_in.wait()
        await asyncio.sleep(0.2)  # room for a third fetch to start, were it allowed
        assert in_flight[1] == 2
        gate.set()
        assert await checks == [Verdict.FOUND] * 4
    assert in_flight[1] == 2
