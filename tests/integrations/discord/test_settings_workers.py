"""Two workers on one Redis, as ``citebot run`` builds them: an admin's change made through one
is followed by the other. On Discord a server's events reach the one worker running its shard,
so the other answers there once the shard moves to it (a deploy, a worker stopped): the first
worker runs shard 0 (``DISCORD_SHARD_IDS=0``), the second waits, and takes it when the first
stops, as in production (the leases' clocks shortened)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import AsyncExitStack, asynccontextmanager

import discord
import pytest

import bot.shares
import integrations.discord.shards
from bot.i18n.wording import Wording
from bot.upstream.client import AnswerClient, RetryPolicy
from config import load_settings
from integrations.discord.settings import DiscordSettings
from tests.chaos.bots import discord_bot
from tests.integrations.discord.admins import change, run_settings
from tests.sim.discord import DiscordSim, SimMessage
from tests.sim.discord.model import EPHEMERAL
from tests.sim.redis_server import RedisProcess
from tests.sim.upstream import UpstreamSim, answer

WINDOW = 0.3


@pytest.fixture
async def sim(monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[DiscordSim]:
    monkeypatch.setattr(bot.shares, "TIMES", bot.shares.Times(lease_ttl=2.0, tick=0.3, settle=0.3))
    monkeypatch.setattr(
        integrations.discord.shards, "IDENTIFY", integrations.discord.shards.Identify(WINDOW)
    )
    async with DiscordSim(identify_seconds=WINDOW) as simulated:
        # each worker points discord.py at the simulator while it runs, and back when it stops
        monkeypatch.setattr(discord.http.Route, "BASE", simulated.base_url)
        yield simulated


@asynccontextmanager
async def worker(
    sim: DiscordSim, upstream: UpstreamSim, state_url: str, **extra: str
) -> AsyncIterator[None]:
    """One worker: the service ``citebot run`` builds from the environment, Discord's runner."""
    env = {
        "DISCORD_TOKEN": sim.token,
        "DISCORD_API_BASE_URL": sim.base_url,
        "UPSTREAM_BASE_URL": upstream.base_url,
        "UPSTREAM_API_KEY": "sim-key",
        "STATE_URL": state_url,
        "QUOTE_CHECK": "off",
        "SHUTDOWN_GRACE_SECONDS": "2",
        **extra,
    }
    settings = load_settings(env, env_file=None)
    environment = DiscordSettings.load(env, env_file=None)
    async with (
        AnswerClient(
            base_url=upstream.base_url,
            api_key=settings.upstream_api_key,
            model="magisterium-1",
            retry=RetryPolicy(max_retries=0),
        ) as client,
        discord_bot(settings, environment, client),
    ):
        yield


async def ask(sim: DiscordSim, question: str, *, locale: str, ends: str) -> SimMessage:
    """/ask without the private option; the answer (or refusal) once it ends with ``ends``."""
    asked = await sim.slash_command("ask", {"question": question}, locale=locale)

    def done() -> bool:
        shown = asked.original
        return shown is not None and shown.content.endswith(ends)

    await sim.until(done)
    assert asked.original is not None
    return asked.original


async def test_an_admins_change_through_one_worker_is_followed_by_the_other(
    sim: DiscordSim, upstream: UpstreamSim, redis_process: RedisProcess
) -> None:
    line = "Generated answers: for pastoral questions, speak to Fr. Anthony."
    upstream.queue(
        answer(["La grâce est un don."]), answer(["Le pardon est offert."]), answer(["Non."])
    )
    async with AsyncExitStack() as workers:
        first = await workers.enter_async_context(AsyncExitStack())
        await first.enter_async_context(
            worker(sim, upstream, redis_process.url, DISCORD_SHARD_IDS="0")
        )
        await workers.enter_async_context(worker(sim, upstream, redis_process.url))
        await sim.wait_shards()
        assert len(sim.identifies) == 1  # the second worker leaves the pinned shard alone

        for setting, value in [
            ("language", "fr"),
            ("private_by_default", "on"),
            ("daily_questions", "2"),
            ("disclaimer", line),
        ]:
            await change(sim, setting, value)
        refused = await run_settings(
            sim, "set", {"setting": "enabled"}, user_id=sim.user.id, locale="fr"
        )
        assert refused.original is not None
        assert refused.original.content == Wording(language="fr").admins_only()

        french = Wording(language="fr", platform="discord")
        by_first = await ask(sim, "恵みとは何ですか？", locale="ja", ends=f"*{line}*")
        await first.aclose()  # the first worker stops; the second takes shard 0
        await sim.until(lambda: len(sim.identifies) == 2 and len(sim.sessions) == 1)
        by_second = await ask(sim, "赦しとは？", locale="ja", ends=f"*{line}*")
        limit = french.daily_limit_reached(2, 60, per_person=False).split(" (UTC)")[0]
        over = await ask(sim, "もう一つ？", locale="ja", ends="(UTC).")
        assert by_first.flags & EPHEMERAL
        assert by_second.flags & EPHEMERAL
        assert [question[0]["content"] for question in upstream.questions] == [
            upstream.questions[0][0]["content"]
        ] * 2
        assert "speaks French" in upstream.questions[0][0]["content"]
        assert over.content.split(" (UTC)")[0].split(" dans ")[0] == limit.split(" dans ")[0]

        said = await change(sim, "enabled", "off", where="channel")  # through the second
        assert said == "`enabled` is now off here."
        closed = await ask(sim, "Encore ?", locale="fr", ends=".")
        assert closed.content == french.not_allowed_here()
    assert len(upstream.requests) == 2
