"""Fixtures every test folder may use: the simulated upstream and an answer client on it."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from bot.client import AnswerClient, RetryPolicy, Timeouts
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
