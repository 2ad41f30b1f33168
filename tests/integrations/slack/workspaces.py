"""A workspace served by citebot workers on one real Redis, its people (an admin, an owner,
a member, a listed admin and an asker, each with a Slack language), and what they do there:
ask, and give an answer a 👎 with its reason."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from dataclasses import dataclass
from uuid import uuid4

from bot.admission import Admission
from bot.answerlog import AnswerLog
from bot.places import Places
from bot.service import AnswerService, Limits
from bot.state import open_state
from bot.state.failopen import FailOpenState
from bot.upstream.client import AnswerClient, RetryPolicy
from tests.bot.state.scan import everything_stored
from tests.integrations.slack.conftest import World, running_slack, slack_settings
from tests.sim.slack import Identity, Message, SlackSim
from tests.sim.slack.views import StoredView
from tests.sim.upstream import UpstreamSim, answer, magisterium_citation

__all__ = [
    "ADMIN",
    "ASK",
    "ASKER",
    "LISTED",
    "MEMBER",
    "OWNER",
    "QUIET",
    "Workspace",
    "asked",
    "two_workers",
    "voted_down",
]

ADMIN, OWNER, MEMBER, LISTED = "U0ADMIN", "U0OWNER", "U0MEMBER", "U0LISTED"
ASKER = "U0ASKER"
"""Their Slack speaks Japanese, which citebot has no catalogue for: the place's language."""
ASK, QUIET = "C0ASK", "C0QUIET"


@dataclass
class Workspace:
    world: World
    team: str
    redis_url: str
    namespace: str
    service: AnswerService
    """The last worker's service (its kit's store is the one every worker shares)."""

    @property
    def sim(self) -> SlackSim:
        return self.world.sim

    async def home(self, user: str, showing: str = "") -> StoredView:
        """``user``'s Home tab once it shows ``showing``."""
        await self.sim.wait_for(
            lambda: (home := self.sim.home(user)) is not None and showing in home.texts()
        )
        home = self.sim.home(user)
        assert home is not None
        return home

    async def stored(self) -> str:
        """Everything the shared Redis holds for these workers, read back key by key."""
        return await everything_stored(self.service.state, self.redis_url, self.namespace)

    async def modal(self, user: str, showing: str = "") -> StoredView:
        await self.sim.wait_for(
            lambda: bool(self.sim.modals(user)) and showing in self.sim.modals(user)[-1].texts()
        )
        return self.sim.modals(user)[-1]


@contextlib.asynccontextmanager
async def two_workers(redis_url: str, *, workers: int = 2, **env: str) -> AsyncIterator[Workspace]:
    """Two citebot workers (or ``workers``; each its own state client and settings cache) on
    one Redis, each with its own Socket Mode connection, numbered 0 and 1."""
    team, namespace = "T" + uuid4().hex[:8].upper(), f"test-{uuid4().hex}"
    async with (
        SlackSim(me=Identity(team_id=team)) as sim,
        UpstreamSim().running() as upstream,
        contextlib.AsyncExitStack() as stack,
    ):
        sim.workspace.add_user(ADMIN, admin=True, locale="nl-NL")
        sim.workspace.add_user(OWNER, owner=True, locale="fr-FR")
        sim.workspace.add_user(MEMBER, locale="de-DE")
        sim.workspace.add_user(LISTED)
        sim.workspace.add_user(ASKER, locale="ja-JP")
        config = slack_settings(sim, upstream, SLACK_ADMIN_USERS=LISTED, **env)
        client = await stack.enter_async_context(
            AnswerClient(
                base_url=upstream.base_url,
                api_key=None,
                model="magisterium-1",
                retry=RetryPolicy(max_retries=0),
            )
        )
        for connection in range(workers):
            state = await stack.enter_async_context(
                FailOpenState(open_state(redis_url, namespace=namespace), timeout=2)
            )
            service = AnswerService(
                client=client,
                state=state,
                admission=Admission(max_in_flight=8),
                limits=Limits.from_settings(config.settings),
                places=Places(state, defaults=config.settings),
                answer_log=AnswerLog(
                    state, mode=config.settings.answer_log, days=config.settings.answer_log_days
                ),
            )
            await stack.enter_async_context(running_slack(config, client, service=service))
            await sim.wait_connections(connection + 1)
        world = World(sim=sim, upstream=upstream, settings=config, client=client)
        yield Workspace(world, team, redis_url, namespace, service)


async def asked(workspace: Workspace, text: str, *, user: str, channel: str = ASK) -> Message:
    """``user`` mentions citebot with ``text``; the reply holding the 👍/👎, once answered."""
    sim, world = workspace.sim, workspace.world
    cited = magisterium_citation(0, "Grace is favor.", url="https://example.org/ccc/1996")
    world.upstream.queue(answer([f"{text} is a gift[^1]."], [cited]))
    requests = len(world.upstream.requests) + 1
    question = await sim.mention(channel, text, user=user)
    await world.answered(channel, question.ts, requests=requests)
    [buttons] = [
        m
        for m in sim.bot_replies(channel, question.ts)
        if any(e["action_id"] == "citebot_feedback" for e in m.elements())
    ]
    return buttons


async def voted_down(workspace: Workspace, message: Message, *, user: str) -> None:
    """``user`` gives ``message`` a 👎 and says why."""
    sim = workspace.sim
    await sim.click("citebot_feedback", "negative", channel=ASK, message_ts=message.ts, user=user)
    await sim.wait_for(lambda: sim.modals(user))
    [why] = sim.modals(user)
    sim.fill(why, "reason", "does_not_answer")
    await sim.submit(why)
    await sim.wait_for(lambda: sim.ephemerals(user) and sim.modals(user) == [])
