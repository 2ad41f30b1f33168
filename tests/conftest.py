"""Fixtures every test folder may use: the simulated upstream, a client on it, a real Redis."""

from __future__ import annotations

import os
from collections.abc import AsyncIterator, Callable, Iterator
from uuid import uuid4

import pytest

from bot.state.coordination import Coordination, open_coordination
from bot.upstream.client import AnswerClient, RetryPolicy, Timeouts
from tests.sim.redis_server import (
    RedisProcess,
    RedisServerMissing,
    redis_server_path,
    start_redis_server,
)
from tests.sim.upstream import UpstreamSim


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
