"""Fixtures: a running Discord simulator with discord.py pointed at it."""

from __future__ import annotations

from collections.abc import AsyncIterator

import discord
import pytest
import yarl

from tests.sim.discord import DiscordSim


@pytest.fixture
async def sim(monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[DiscordSim]:
    async with DiscordSim() as simulator:
        monkeypatch.setattr(discord.http.Route, "BASE", simulator.base_url)
        monkeypatch.setattr(discord.gateway.DiscordWebSocket, "DEFAULT_GATEWAY",
                            yarl.URL(simulator.gateway_url))
        yield simulator
