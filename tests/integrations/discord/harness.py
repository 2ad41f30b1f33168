"""The adapter under test: run_discord against the Discord and upstream simulators."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import Any

from bot.admission import Admission
from bot.answer import Outcome, Question
from bot.answerlog import AnswerLog
from bot.connect import open_quote_checker
from bot.kit import PlatformKit
from bot.pacing import Pacer
from bot.render.ports import Presenter
from bot.service import AnswerService, Limits
from bot.state import State, open_state
from bot.state.failopen import FailOpenState
from bot.state.memory import MemoryState
from bot.state.ports import FEEDBACK_TTL
from bot.upstream.client import AnswerClient, RetryPolicy
from config import Settings, load_settings
from integrations.discord.platform import DISCORD
from integrations.discord.presenter import DiscordPresenter
from integrations.discord.run import run_discord
from integrations.discord.settings import DiscordSettings
from tests.patience import PATIENCE
from tests.sim.discord import DiscordSim, RecordedRequest, SimMessage
from tests.sim.upstream import UpstreamSim


class RecordingService(AnswerService):
    """The real service, noting each outcome so a test knows when an answer is finished."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.outcomes: list[Outcome | None] = []
        self.finished = asyncio.Condition()

    async def ask(self, question: Question, **kwargs: Any) -> Outcome | None:
        outcome = await super().ask(question, **kwargs)
        async with self.finished:
            self.outcomes.append(outcome)
            self.finished.notify_all()
        return outcome


class RecordingState(MemoryState):
    """The real memory state, telling a test when a vote has been stored."""

    def __init__(self) -> None:
        super().__init__()
        self.voted = asyncio.Condition()

    async def record_feedback(
        self, answer_key: str, user_id: str, value: str, *, ttl: float = FEEDBACK_TTL
    ) -> bool:
        changed = await super().record_feedback(answer_key, user_id, value, ttl=ttl)
        async with self.voted:
            self.voted.notify_all()
        return changed


@dataclass
class Harness:
    sim: DiscordSim
    upstream: UpstreamSim
    service: RecordingService
    settings: Settings
    kit: PlatformKit

    async def answers(self, count: int, *, within: float = PATIENCE) -> list[Outcome | None]:
        """Wait until ``count`` answers (or refusals) have finished; returns them all."""
        async with asyncio.timeout(within), self.service.finished:
            await self.service.finished.wait_for(lambda: len(self.service.outcomes) >= count)
        return self.service.outcomes

    async def ask(
        self,
        question: str,
        *,
        private: bool | None = False,
        channel_id: int | None = None,
        locale: str = "en-US",
    ) -> SimMessage:
        """A person runs /ask and waits for the whole answer; returns the answer message.
        ``private`` None: the person leaves the option out."""
        done = len(self.service.outcomes)
        options: dict[str, object] = {"question": question}
        if private is not None:
            options["private"] = private
        interaction = await self.sim.slash_command(
            "ask", options, channel_id=channel_id, locale=locale
        )
        await self.answers(done + 1)
        assert interaction.original is not None
        return interaction.original

    async def votes(
        self, answer_key: str, *, count: int = 1, within: float = PATIENCE
    ) -> dict[str, str]:
        """Wait until the answer has ``count`` stored votes; returns the votes."""
        state = self.service.state
        assert isinstance(state, RecordingState)
        async with asyncio.timeout(within), state.voted:
            while len(votes := await state.feedback(answer_key)) < count:
                await state.voted.wait()
        return votes

    def writes(self, message: SimMessage) -> list[RecordedRequest]:
        """Every successful create/edit that touched ``message``'s content, in order."""
        ids = (str(message.id), "@original")
        return [
            r
            for r in self.sim.requests
            if r.method in ("PATCH", "POST")
            and r.status == 200
            and r.json is not None
            and "content" in r.json
            and (r.path.rsplit("/", 1)[-1] in ids)
        ]


FAST = Pacer(min_interval=0.2)


@asynccontextmanager
async def running_harness(
    sim: DiscordSim,
    upstream: UpstreamSim,
    *,
    pacer: Pacer = FAST,
    env: dict[str, str] | None = None,
    presenter: Presenter | None = None,
    state: State | None = None,
    limits: Limits | None = None,
    max_in_flight: int = 8,
    **options: Any,
) -> AsyncIterator[Harness]:
    """The bot on ``sim``; ``state`` (default: a fresh in-memory one) may be shared by several
    harnesses, as workers share a Redis."""
    variables = {
        "DISCORD_TOKEN": sim.token,
        "DISCORD_API_BASE_URL": sim.base_url,
        "UPSTREAM_BASE_URL": upstream.base_url,
        "UPSTREAM_API_KEY": "sim-key",
        "SHUTDOWN_GRACE_SECONDS": "2",
        "QUOTE_CHECK": "off",  # the simulated citations name pages on the internet
        **(env or {}),
    }
    settings = load_settings(variables, env_file=None)
    environment = DiscordSettings.load(variables, env_file=None)
    async with (
        AnswerClient(
            base_url=upstream.base_url,
            api_key=settings.upstream_api_key,
            model="magisterium-1",
            retry=RetryPolicy(max_retries=0),
        ) as client,
        contextlib.nullcontext(state) if state is not None else RecordingState() as shared,
        open_quote_checker(settings, cache=shared) as checker,
    ):
        service = RecordingService(
            client=client,
            state=shared,
            answer_log=AnswerLog(shared, mode=settings.answer_log, days=settings.answer_log_days),
            admission=Admission(max_in_flight=max_in_flight),
            limits=limits or Limits(),
            checker=checker,
        )
        kit = PlatformKit(
            service,
            DISCORD,
            environment=environment,
            settings=settings,
            presenter=presenter or DiscordPresenter(),
            pacer=pacer,
        )
        stop, ready = asyncio.Event(), asyncio.Event()
        runner = asyncio.create_task(
            run_discord(kit, environment, ready, stop=stop, guild_ready_timeout=0.1, **options)
        )
        connected = asyncio.create_task(ready.wait())
        await asyncio.wait({runner, connected}, return_when=asyncio.FIRST_COMPLETED)
        if runner.done():
            connected.cancel()
            runner.result()
        try:
            yield Harness(sim=sim, upstream=upstream, service=service, settings=settings, kit=kit)
        finally:
            stop.set()
            await runner


@asynccontextmanager
async def running_on_redis(
    sim: DiscordSim, upstream: UpstreamSim, redis_url: str, *, namespace: str
) -> AsyncIterator[Harness]:
    """The bot on a Redis through the worker's fail-open store, timing out after 0.3 s: a test
    kills the Redis to see what a store that does not answer does."""
    backend = open_state(redis_url, namespace=namespace, timeout=0.3)
    async with (
        FailOpenState(backend, timeout=0.3) as state,
        running_harness(sim, upstream, state=state) as harness,
    ):
        yield harness
