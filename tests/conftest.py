"""Fixtures every test folder may use: the simulated upstream, a client on it, a real Redis;
and how Hypothesis draws its examples."""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import AsyncIterator, Callable, Iterator
from uuid import uuid4

import hypothesis
import pytest
import redis.asyncio as aioredis

from bot.state.coordination import Coordination, open_coordination
from bot.upstream.client import AnswerClient, RetryPolicy, Timeouts
from tests.sim.redis_server import (
    RedisProcess,
    RedisServerMissing,
    redis_server_path,
    start_redis_server,
)
from tests.sim.upstream import UpstreamSim

_DATA_HOME = "CITEBOT_TESTS_DATA_HOME"

# CI's verdict depends on the code, never on the draw: there Hypothesis draws the same examples
# every run. A developer's runs draw new ones each time, and print any failing one to keep with
# ``@example`` (docs/development.md). Loaded here, before any test module makes its settings.
hypothesis.settings.register_profile("ci", derandomize=True)
if os.environ.get("CI"):
    hypothesis.settings.load_profile("ci")


def pytest_configure(config: pytest.Config) -> None:
    """No test writes in the real home: the user's data directory (where the embedded store
    lives when ``STATE_URL`` is unset) is a folder of the run's own, and every process the
    tests start keeps state in memory unless its test names a store (or unsets ``STATE_URL``
    and gives a ``XDG_DATA_HOME`` of its own). xdist's workers inherit the controller's."""
    if _DATA_HOME not in os.environ:
        os.environ[_DATA_HOME] = tempfile.mkdtemp(prefix="citebot-tests-")
        config.add_cleanup(lambda: shutil.rmtree(os.environ.pop(_DATA_HOME), ignore_errors=True))
    os.environ["XDG_DATA_HOME"] = os.environ[_DATA_HOME]
    os.environ["STATE_URL"] = "memory://"


@pytest.fixture
async def upstream() -> AsyncIterator[UpstreamSim]:
    async with UpstreamSim().running() as sim:
        yield sim


@pytest.fixture
async def answer_client(upstream: UpstreamSim) -> AsyncIterator[AnswerClient]:
    """A client on the simulated upstream with short, test-sized backoff."""
    async with AnswerClient(
        base_url=upstream.base_url,
        api_key=None,
        model="magisterium-1",
        timeouts=Timeouts(connect=2, idle=2, total=20),
        retry=RetryPolicy(max_retries=2, base_delay=0.05, max_delay=0.1),
    ) as client:
        yield client


def _needs_redis_server() -> None:
    """Skipped where redis-server is missing, but never under CI: there it must run."""
    try:
        redis_server_path()
    except RedisServerMissing as missing:
        if os.environ.get("CI"):
            pytest.fail(f"{missing}; CI must not skip the Redis tests", pytrace=False)
        pytest.skip(str(missing))


@pytest.fixture(scope="session")
def redis_url() -> Iterator[str]:
    _needs_redis_server()
    with start_redis_server() as url:
        yield url


@pytest.fixture
async def fresh_redis(redis_url: str) -> str:
    """The session's redis-server, emptied: for workers that share it by its default names."""
    async with aioredis.from_url(redis_url) as client:
        await client.flushdb()
    return redis_url


@pytest.fixture
async def coordinations(redis_url: str) -> AsyncIterator[Callable[[], Coordination]]:
    """Opens Coordinations on the real Redis, as separate workers would (one namespace per
    test)."""
    namespace = f"test-{uuid4().hex}"
    opened: list[Coordination] = []

    def open_one() -> Coordination:
        coordination = open_coordination(redis_url, namespace=namespace)
        assert coordination is not None
        opened.append(coordination)
        return coordination

    yield open_one
    for coordination in opened:
        await coordination.aclose()


@pytest.fixture
def redis_process() -> Iterator[RedisProcess]:
    """A redis-server of this test's own, to kill and start again (outages)."""
    _needs_redis_server()
    with RedisProcess() as process:
        yield process
