"""A running citebot Teams worker between the simulated Teams and the simulated upstream: the
real Teams SDK models and client, the worker's own runner on the core's HTTP way in, the real
answer service."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any

from pydantic import SecretStr

from bot.kit import PlatformKit
from bot.pacing import Pacer
from bot.service import AnswerService
from bot.serving import answer_service
from bot.upstream.client import AnswerClient, RetryPolicy
from config.settings import Settings, load_settings
from integrations.teams.platform import TEAMS
from integrations.teams.run import PATH, run_teams
from integrations.teams.settings import TeamsSettings
from tests.patience import PATIENCE
from tests.sim.redis_server import free_port
from tests.sim.teams import SimConversation, SimMessage, SimPerson, TeamsSim
from tests.sim.upstream import UpstreamSim

FAST = Pacer(min_interval=0.05)
STREAM = 0.3
"""Seconds between a stream's updates (the simulator's least is a tenth of it)."""
APP_PASSWORD = "sim-app-secret-not-for-logs"


@dataclass(frozen=True)
class Config:
    settings: Settings
    teams: TeamsSettings


def teams_config(teams: TeamsSim, upstream: UpstreamSim, **extra: str) -> Config:
    variables = {
        "TEAMS_APP_ID": teams.app_id,
        "TEAMS_APP_PASSWORD": APP_PASSWORD,
        "TEAMS_OPENID_URL": teams.openid_url,
        "TEAMS_TOKEN_URL": teams.token_url,
        "TEAMS_GRAPH_URL": teams.graph_url,
        "TEAMS_PORT": str(free_port()),
        "UPSTREAM_BASE_URL": upstream.base_url,
        "UPSTREAM_API_KEY": "sk-test",
        "HISTORY_TURNS": "3",
        "SHUTDOWN_GRACE_SECONDS": "2",
        "QUOTE_CHECK": "off",  # the simulated citations name pages on the internet
        **extra,
    }
    return Config(load_settings(variables, env_file=None), TeamsSettings.load(variables))


@dataclass
class World:
    teams: TeamsSim
    upstream: UpstreamSim
    config: Config
    service: AnswerService
    kit: PlatformKit

    stopping: asyncio.Event
    task: asyncio.Task[None]

    def busy(self) -> bool:
        return any(
            not task.done()
            for task in asyncio.all_tasks()
            if task.get_name() == "citebot-teams-answer"
        )

    async def stop(self) -> None:
        """Stop the worker as SIGTERM does (``bot.worker``): the answers in flight drained
        while the route answers 503, then the runner closed."""
        await self.service.drain(self.config.settings.shutdown_grace_seconds)
        await _stopped(self.stopping, self.task)

    async def answered(self, requests: int = 1, *, within: float = PATIENCE) -> None:
        """Until the upstream was asked ``requests`` times and every answer has finished."""
        await self.teams.until(
            lambda: len(self.upstream.requests) >= requests and not self.busy(), within=within
        )

    async def idle(self) -> None:
        """Until every activity taken was handled."""
        await self.teams.until(lambda: not self.busy())

    async def mention(
        self, person: SimPerson, conversation: SimConversation, text: str
    ) -> list[SimMessage]:
        """``person`` mentions citebot with ``text``; what citebot said in reply once every
        activity was handled."""
        asked, _ = await self.teams.mention(person, conversation, text)
        await self.idle()
        return self.replies(conversation, asked)

    def replies(self, conversation: SimConversation, after: SimMessage) -> list[SimMessage]:
        """The bot's messages in ``conversation`` since ``after`` (in its thread, in a
        channel)."""
        messages = conversation.messages
        later = messages[messages.index(after) + 1 :]
        root = after.thread or after
        return [
            m
            for m in later
            if m.from_bot and not m.deleted and (conversation.kind != "channel" or m.thread is root)
        ]


@contextlib.asynccontextmanager
async def teams_world(
    env: dict[str, str] | None = None, *, teams: TeamsSim | None = None, **sim: Any
) -> AsyncIterator[World]:
    """A bot with these settings (``env``) on a simulated Teams (``teams``, else a fresh one
    with ``sim``'s options) and upstream."""
    async with contextlib.AsyncExitStack() as stack:
        if teams is None:
            options: dict[str, Any] = {"stream_interval": STREAM / 10, **sim}
            teams = await stack.enter_async_context(TeamsSim(app_password=APP_PASSWORD, **options))
        upstream = await stack.enter_async_context(UpstreamSim().running())
        config = teams_config(teams, upstream, **(env or {}))
        client = await stack.enter_async_context(
            AnswerClient(
                base_url=upstream.base_url,
                api_key=SecretStr("sk-test"),
                model="magisterium-1",
                retry=RetryPolicy(max_retries=0),
            )
        )
        service = await stack.enter_async_context(answer_service(config.settings, client))
        kit = PlatformKit(
            service, TEAMS, environment=config.teams, settings=config.settings, pacer=FAST
        )
        stop, ready = asyncio.Event(), asyncio.Event()
        task = asyncio.create_task(
            run_teams(kit, config.teams, ready, stop=stop, stream_interval=STREAM)
        )
        stack.push_async_callback(_stopped, stop, task)
        waiting = asyncio.create_task(ready.wait())
        await asyncio.wait({task, waiting}, return_when=asyncio.FIRST_COMPLETED)
        if task.done():
            waiting.cancel()
            task.result()
        teams.bot_url = f"http://127.0.0.1:{config.teams.port}{PATH}"
        yield World(teams, upstream, config, service, kit, stop, task)
        teams.assert_valid()


async def _stopped(stop: asyncio.Event, task: asyncio.Task[None]) -> None:
    stop.set()
    await task
