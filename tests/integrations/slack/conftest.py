"""A running citebot Slack worker between the simulated Slack and the simulated upstream."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from pydantic import SecretStr

from bot.kit import PlatformKit
from bot.pacing import Pacer
from bot.places import Places
from bot.service import AnswerService
from bot.serving import answer_service
from bot.state import open_state
from bot.upstream.client import AnswerClient, RetryPolicy
from config.settings import Settings, load_settings
from integrations.slack.platform import SLACK
from integrations.slack.run import run_slack
from integrations.slack.settings import SlackSettings
from tests.sim.slack import Message, SlackSim
from tests.sim.slack.webapi import BOT_SCOPES, Identity
from tests.sim.upstream import UpstreamSim

FAST = Pacer(min_interval=0.05)


@dataclass(frozen=True)
class Config:
    """The settings every platform shares and Slack's own, read from one environment."""

    settings: Settings
    slack: SlackSettings

    def with_slack(self, **changes: object) -> Config:
        """The same, with Slack's settings changed (``channel_allowlist=("C1",)``)."""
        return Config(self.settings, self.slack.model_copy(update=changes))


@dataclass
class World:
    sim: SlackSim
    upstream: UpstreamSim
    settings: Config
    client: AnswerClient

    def answer_of(self, channel: str, ts: str) -> list[Message]:
        """The bot's answer messages in a thread (what streamed), cards left out."""
        return [m for m in self.sim.bot_replies(channel, ts) if not m.blocks or m.streamed]

    def cards_of(self, channel: str, ts: str) -> list[Message]:
        return [m for m in self.sim.bot_replies(channel, ts) if m.blocks and not m.streamed]

    def first_shown(self, message: Message) -> str:
        """What ``message`` showed when it was posted, before edits replaced it (in a channel,
        the placeholder that said citebot was thinking)."""
        [posted] = [
            c
            for c in self.sim.calls_to("chat.postMessage", "chat.startStream")
            if c.ok and c.ts == message.ts
        ]
        return str(posted.args.get("markdown_text") or posted.args.get("text") or "")

    async def answered(self, channel: str, ts: str, requests: int = 1) -> list[Message]:
        """Wait until the upstream was asked ``requests`` times and every answer has finished;
        then the thread's bot replies, as a person sees them."""
        await self.sim.wait_for(lambda: len(self.upstream.requests) >= requests and not self.busy())
        return self.sim.bot_replies(channel, ts)

    def busy(self) -> bool:
        return any(
            not t.done() for t in asyncio.all_tasks() if t.get_name() == "citebot-slack-answer"
        )


def slack_settings(sim: SlackSim, upstream: UpstreamSim, **extra: str) -> Config:
    variables = {
        "SLACK_BOT_TOKEN": sim.bot_token,
        "SLACK_APP_TOKEN": sim.app_token,
        "SLACK_API_BASE_URL": sim.base_url,
        "UPSTREAM_BASE_URL": upstream.base_url,
        "UPSTREAM_API_KEY": "sk-test",
        "HISTORY_TURNS": "3",
        "SHUTDOWN_GRACE_SECONDS": "2",
        "QUOTE_CHECK": "off",  # the simulated citations name pages on the internet
        **extra,
    }
    return Config(load_settings(variables), SlackSettings.load(variables))


@contextlib.asynccontextmanager
async def running_slack(
    config: Config,
    client: AnswerClient,
    *,
    service: AnswerService | None = None,
    pacer: Pacer = FAST,
    **options: Any,
) -> AsyncIterator[None]:
    """A Slack worker on ``config``, answering through ``service`` (else one built as
    ``citebot run`` builds it); ``options`` go to :func:`run_slack`."""
    async with contextlib.AsyncExitStack() as stack:
        if service is None:
            service = await stack.enter_async_context(answer_service(config.settings, client))
        kit = PlatformKit(
            service, SLACK, environment=config.slack, settings=config.settings, pacer=pacer
        )
        await stack.enter_async_context(_running(kit, config.slack, **options))
        yield


@contextlib.asynccontextmanager
async def _running(kit: PlatformKit, slack: SlackSettings, **options: Any) -> AsyncIterator[None]:
    stop, ready = asyncio.Event(), asyncio.Event()
    task = asyncio.create_task(run_slack(kit, slack, ready, stop=stop, **options))
    waiting = asyncio.create_task(ready.wait())
    await asyncio.wait({task, waiting}, return_when=asyncio.FIRST_COMPLETED)
    if task.done():
        waiting.cancel()
        task.result()
    try:
        yield
    finally:
        stop.set()
        await task


@contextlib.asynccontextmanager
async def worker_on(
    sim: SlackSim, upstream: UpstreamSim, settings: Config, **options: Any
) -> AsyncIterator[World]:
    """A worker with ``settings`` between ``sim`` and ``upstream``, connected when it runs in
    Socket Mode; ``options`` go to :func:`run_slack`."""
    async with serving(sim, upstream, settings, **options) as (world, _service):
        yield world


@contextlib.asynccontextmanager
async def serving(
    sim: SlackSim, upstream: UpstreamSim, settings: Config, **options: Any
) -> AsyncIterator[tuple[World, AnswerService]]:
    """:func:`worker_on`, with the worker's answer service (as ``citebot run`` builds it): its
    store and its places are the test's to read and change."""
    async with (
        AnswerClient(
            base_url=upstream.base_url,
            api_key=SecretStr("sk-test"),
            model="magisterium-1",
            retry=RetryPolicy(max_retries=0),
        ) as client,
        answer_service(settings.settings, client) as service,
        running_slack(settings, client, service=service, **options),
    ):
        if settings.slack.mode == "socket":
            await sim.wait_connections(1)
        yield World(sim=sim, upstream=upstream, settings=settings, client=client), service


@contextlib.asynccontextmanager
async def slack_world(env: dict[str, str] | None = None, **options: Any) -> AsyncIterator[World]:
    """A connected worker with these settings (``env``); ``options`` go to :func:`run_slack`."""
    async with SlackSim() as sim, UpstreamSim().running() as upstream:
        settings = slack_settings(sim, upstream, **(env or {}))
        async with worker_on(sim, upstream, settings, **options) as world:
            yield world


@pytest.fixture
async def world() -> AsyncIterator[World]:
    async with slack_world() as running:
        yield running


@contextlib.asynccontextmanager
async def operated(
    tmp_path: Path, *, scopes: frozenset[str] = BOT_SCOPES
) -> AsyncIterator[tuple[World, Places, str]]:
    """A worker on a SQLite state store, the operator's handle on the same store, and the
    workspace's place."""
    url = f"sqlite:///{tmp_path / 'state.db'}"
    async with SlackSim(me=Identity(scopes=scopes)) as sim, UpstreamSim().running() as upstream:
        config = slack_settings(sim, upstream, STATE_URL=url)
        async with (
            open_state(url) as state,
            worker_on(sim, upstream, config) as world,
        ):
            yield world, Places(state, defaults=config.settings), f"slack:{sim.me.team_id}"
