"""Fixtures: a running Discord simulator with discord.py pointed at it."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import TYPE_CHECKING

import discord
import pytest
import yarl

from tests.sim.discord import DiscordSim
from tests.sim.upstream import UpstreamSim

if TYPE_CHECKING:
    from tests.integrations.discord.harness import Harness


@pytest.fixture
async def sim(monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[DiscordSim]:
    async with DiscordSim() as simulator:
        monkeypatch.setattr(discord.http.Route, "BASE", simulator.base_url)
        monkeypatch.setattr(
            discord.gateway.DiscordWebSocket, "DEFAULT_GATEWAY", yarl.URL(simulator.gateway_url)
        )
        yield simulator


@pytest.fixture
async def upstream() -> AsyncIterator[UpstreamSim]:
    async with UpstreamSim().running() as simulated:
        yield simulated


@pytest.fixture
async def harness(sim: DiscordSim, upstream: UpstreamSim) -> AsyncIterator[Harness]:
    """The adapter running (imported here: it needs the whole core)."""
    from tests.integrations.discord.harness import running_harness

    async with running_harness(sim, upstream) as running:
        yield running
