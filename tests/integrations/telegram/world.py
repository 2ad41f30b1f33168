"""A running citebot Telegram worker between the simulated Telegram and the simulated upstream:
the real aiogram client, the worker's own runner, the real answer service."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Any

from pydantic import SecretStr

from bot.kit import PlatformKit
from bot.pacing import Pacer
from bot.service import AnswerService
from bot.serving import answer_service
from bot.upstream.client import AnswerClient, RetryPolicy
from config.settings import Settings, load_settings
from integrations.telegram.pace import Pace, pace_limits
from integrations.telegram.platform import TELEGRAM
from integrations.telegram.run import run_telegram
from integrations.telegram.settings import TelegramSettings
from tests.patience import PATIENCE
from tests.sim.telegram import SimChat, SimMessage, SimUser, TelegramSim
from tests.sim.upstream import UpstreamSim, answer, magisterium_citation

FAST = Pacer(min_interval=0.05)
QUICK = Pace(chat=(1, 0.02), group=(20, 0.4), bot=(30, 0.02))
"""Telegram's pace with windows a fiftieth as long or less: every rule kept, none waited for."""

CITED = answer(
    ["Life is sacred from conception", " to natural death[^1]."],
    [
        magisterium_citation(
            0,
            "Human life is sacred &apos;from its beginning&apos;.",
            title="Cherishing Life",
            author="CBCEW",
            year="2004",
            reference="34",
        )
    ],
    related=["What does the Catechism say about it?", "Why is life sacred?"],
)
"""An answer with one footnote, its source and two related questions."""


@dataclass(frozen=True)
class Config:
    """The settings every platform shares and Telegram's own, read from one environment."""

    settings: Settings
    telegram: TelegramSettings


def telegram_config(tg: TelegramSim, upstream: UpstreamSim, **extra: str) -> Config:
    variables = {
        "TELEGRAM_BOT_TOKEN": tg.token,
        "TELEGRAM_API_BASE_URL": tg.base_url,
        "UPSTREAM_BASE_URL": upstream.base_url,
        "UPSTREAM_API_KEY": "sk-test",
        "HISTORY_TURNS": "3",
        "SHUTDOWN_GRACE_SECONDS": "2",
        "QUOTE_CHECK": "off",  # the simulated citations name pages on the internet
        **extra,
    }
    return Config(load_settings(variables, env_file=None), TelegramSettings.load(variables))


@dataclass
class Worker:
    """A worker running: its answer service, and how to stop it as SIGTERM does."""

    service: AnswerService
    stopping: asyncio.Event
    task: asyncio.Task[None]

    async def stop(self) -> None:
        """Stop taking questions, hand the reader over, drain, close (the runner's SIGTERM)."""
        self.stopping.set()
        await self.task


@dataclass
class World:
    tg: TelegramSim
    upstream: UpstreamSim
    config: Config
    client: AnswerClient
    worker: Worker
    people: dict[str, SimUser] = field(default_factory=dict)

    @property
    def service(self) -> AnswerService:
        return self.worker.service

    def person(self, name: str, *, language_code: str | None = "en") -> SimUser:
        if name not in self.people:
            username = f"{name.lower()}_{len(self.people)}"
            self.people[name] = self.tg.add_user(
                name, username=username, language_code=language_code
            )
        return self.people[name]

    def busy(self) -> bool:
        return any(
            not task.done()
            for task in asyncio.all_tasks()
            if task.get_name() == "citebot-telegram-answer"
        )

    def settled(self) -> bool:
        """Every update read (the reader confirms a batch once it has handed each on) and no
        answer being written (refusals and notes included)."""
        return not self.tg.updates.queue and not self.busy()

    async def answered(self, requests: int = 1, *, within: float = PATIENCE) -> None:
        """Until the upstream was asked ``requests`` times and every answer has finished."""
        await self.tg.until(
            lambda: len(self.upstream.requests) >= requests and self.settled(), within=within
        )

    async def idle(self) -> None:
        """Until every update was read and handled."""
        await self.tg.until(self.settled)

    async def group(
        self, title: str = "Parish", *, admin: bool = False, forum: bool = False
    ) -> SimChat:
        """A supergroup with the bot in it (an administrator with ``admin``: it then gets
        every message, as without privacy mode)."""
        owner = self.person("Owner")
        chat = self.tg.add_group(title, owner=owner, members=(self.person("Alice"),), forum=forum)
        await self.tg.add_bot_to(chat, by=owner, admin=admin)
        return chat

    def answer_to(self, question: SimMessage) -> list[SimMessage]:
        """The bot's messages that reply to ``question`` (a group's answer)."""
        return [m for m in self.tg.bot_messages(question.chat) if m.reply_to is question]


@contextlib.asynccontextmanager
async def running(
    config: Config,
    client: AnswerClient,
    *,
    service: AnswerService | None = None,
    pacer: Pacer = FAST,
    pace: Pace = QUICK,
    **options: Any,
) -> AsyncIterator[Worker]:
    """A Telegram worker on ``config`` (its service as ``citebot run`` builds it, unless one
    is given); ``options`` go to :func:`run_telegram`."""
    async with contextlib.AsyncExitStack() as stack:
        if service is None:
            service = await stack.enter_async_context(answer_service(config.settings, client))
        kit = PlatformKit(
            service, TELEGRAM, environment=config.telegram, settings=config.settings, pacer=pacer
        )
        budget = kit.write_budget(pace_limits(pace), token="test")
        options = {"poll_seconds": 1, "edit_interval": 0.05, "budget": budget, **options}
        stop, ready = asyncio.Event(), asyncio.Event()
        task = asyncio.create_task(run_telegram(kit, config.telegram, ready, stop=stop, **options))
        waiting = asyncio.create_task(ready.wait())
        await asyncio.wait({task, waiting}, return_when=asyncio.FIRST_COMPLETED)
        if task.done():
            waiting.cancel()
            task.result()
        worker = Worker(service, stop, task)
        try:
            yield worker
        finally:
            await worker.stop()


@contextlib.asynccontextmanager
async def telegram_world(
    env: dict[str, str] | None = None, *, tg: TelegramSim | None = None, **options: Any
) -> AsyncIterator[World]:
    """A worker with these settings (``env``) on a simulated Telegram (``tg``, else a fresh
    one) and upstream; ``options`` go to :func:`running`."""
    async with contextlib.AsyncExitStack() as stack:
        if tg is None:
            tg = await stack.enter_async_context(TelegramSim(webhook_retry=0.05))
        upstream = await stack.enter_async_context(UpstreamSim().running())
        config = telegram_config(tg, upstream, **(env or {}))
        client = await stack.enter_async_context(
            AnswerClient(
                base_url=upstream.base_url,
                api_key=SecretStr("sk-test"),
                model="magisterium-1",
                retry=RetryPolicy(max_retries=0),
            )
        )
        worker = await stack.enter_async_context(running(config, client, **options))
        yield World(tg=tg, upstream=upstream, config=config, client=client, worker=worker)
        tg.assert_valid()
