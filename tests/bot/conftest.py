"""Fixtures of the core's tests: a real HTTP site on loopback whose routes each test sets, and
quote checkers that may read it (the checks in bot/verify, and the cards they edit)."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path

import pytest

from bot.verify.checker import QuoteChecker
from bot.verify.fetch import FetchLimits
from tests.sim.pages import Site, running_site

__all__ = ["ARTICLE", "FAST", "Site"]

FAST = FetchLimits(host_spacing=0.0, seconds=5.0)
"""The service's limits, but no spacing between requests (politeness has its own test)."""

ARTICLE = (
    "<html><head><title>On prayer</title></head><body>"
    "<nav><a href='/'>Home</a> | <a href='/about'>About</a></nav>"
    "<article><h1>What is prayer?</h1>"
    "<p>For me, prayer is a surge of the heart; it is a simple look turned toward heaven, "
    "it is a cry of recognition and of love, embracing both trial and joy.</p>"
    "<p>&ldquo;Prayer is the raising of one&rsquo;s mind and heart to God or the requesting "
    "of good things from God.&rdquo; But when we pray, do we speak from the height of our "
    "pride and will, or &ldquo;out of the depths&rdquo; of a humble and contrite heart?</p>"
    "<p>He who humbles himself will be exalted; humility is the foundation of prayer. Only "
    "when we humbly acknowledge that &ldquo;we do not know how to pray as we ought,&rdquo; are "
    "we ready to receive freely the gift of prayer. &ldquo;Man is a beggar before God.&rdquo;</p>"
    "</article><footer>&copy; The publisher</footer></body></html>"
)
"""A page in the shape of a real one (paragraphs from the Catechism, 2558-2559)."""


@pytest.fixture
async def open_site() -> AsyncIterator[Callable[[], Awaitable[Site]]]:
    """Starts as many sites (one port each) as a test needs."""
    async with contextlib.AsyncExitStack() as stack:

        async def start() -> Site:
            return await stack.enter_async_context(running_site())

        yield start


@pytest.fixture
async def site(open_site: Callable[[], Awaitable[Site]]) -> Site:
    return await open_site()


@pytest.fixture
async def checker(site: Site) -> AsyncIterator[QuoteChecker]:
    """A checker allowed to read the test site (loopback is otherwise refused)."""
    async with QuoteChecker(allow_hosts=[("127.0.0.1", site.port)], limits=FAST) as checker:
        yield checker


@pytest.fixture
def register_platform(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Callable[[str], None]:
    """Installs a distribution whose ``citebot.platforms`` entry point is a platform the worker
    runs, its places one group each (ids as Telegram's chats, "Ask a person" reaching their
    ``admins``), on this test's ``sys.path`` only: a platform another distribution adds."""

    def register(name: str) -> None:
        (tmp_path / f"citebot_{name}_platform.py").write_text(
            "from bot.platforms import PlaceIds, Platform\n"
            "from config import PlatformSettings\n\n"
            "async def run(kit, settings, connected):\n"
            "    connected.set()\n\n"
            f"PLATFORM = Platform(name={name!r}, presenter=lambda: None,"
            " environment=PlatformSettings, runner=lambda: run,"
            " place_ids=PlaceIds(server=r'-?[0-9]{1,20}', server_name='CHAT_ID',"
            " handoff='admins', handoff_names=('admins',)))\n"
        )
        info = tmp_path / f"citebot_{name}_platform-0.1.dist-info"
        info.mkdir()
        (info / "METADATA").write_text(
            f"Metadata-Version: 2.1\nName: citebot-{name}-platform\nVersion: 0.1\n"
        )
        (info / "entry_points.txt").write_text(
            f"[citebot.platforms]\n{name} = citebot_{name}_platform:PLATFORM\n"
        )
        monkeypatch.syspath_prepend(str(tmp_path))

    return register
