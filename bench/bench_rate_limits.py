"""Platform rate limits when 50 answers stream at once in one busy channel.

Fifty people ask at the same moment in one channel: on Discord fifty ``/ask`` commands in one
text channel against the simulator's buckets (channel messages 5 per 5 s per channel, thread
creates, interaction webhooks 5 per 2 s per token); on Slack fifty mentions in one channel of
one workspace (fifty threads) against the simulator's rate tiers at their real, minute-long
windows; on Telegram fifty ``/ask`` in one group against the simulator's message pace (a chat's
second, a group's minute, the bot's second), its windows and the worker's a quarter as long (a
group's twenty a minute would hold fifty answers' 150 messages for eight minutes). Each answer
is the typical 1,500-character answer at 50 tokens/s with five footnotes; the real adapters and
their real pacing write them. Measured: the 429s the platform sent (target 0), the writes per
answer, and the wall time until every answer and its cards were in.

Run: ``python -m bench.bench_rate_limits`` (about five minutes: Slack's windows are a minute).
"""

from __future__ import annotations

import asyncio
import time
from collections import Counter
from dataclasses import dataclass

from pydantic import SecretStr

from bench.bench_platforms import typical_answer
from bench.report import Result
from bench.table import print_table, verdict
from bot.admission import Admission
from bot.pacing import Pacer
from bot.upstream.client import AnswerClient
from integrations.discord.platform import DISCORD
from integrations.slack.platform import SLACK
from integrations.telegram.pace import Pace
from integrations.telegram.platform import TELEGRAM
from tests.integrations.discord.harness import running_harness
from tests.integrations.slack.conftest import World, running_slack, slack_settings
from tests.integrations.telegram.world import telegram_world
from tests.sim.discord import DiscordSim
from tests.sim.discord.model import SimUser
from tests.sim.slack import SlackSim
from tests.sim.telegram import RateLimits, TelegramSim
from tests.sim.telegram.ratelimit import PACED_METHODS
from tests.sim.upstream import UpstreamSim

ANSWERS = 50
CHANNEL = "C0ASK"
ROOMY = {"MAX_IN_FLIGHT": str(ANSWERS), "RATE_LIMIT_PER_MINUTE": str(ANSWERS)}
"""All fifty stream at once: no worker queue, no per-user refusal."""


@dataclass(frozen=True)
class Run:
    platform: str
    rate_limited: int
    writes: int
    seconds: float
    calls: Counter[str]

    def result(self) -> Result:
        return Result(
            metric=f"429s, {ANSWERS} answers at once in one channel",
            subject=self.platform,
            value=self.rate_limited,
            unit="429s",
            target="0",
            met=self.rate_limited == 0,
            detail={
                "writes_per_answer": round(self.writes / ANSWERS, 2),
                "seconds_until_all_complete": round(self.seconds, 1),
                "calls": dict(sorted(self.calls.items())),
            },
        )


async def discord_run(pacer: Pacer = DISCORD.pacer) -> Run:
    async with (
        DiscordSim() as sim,
        UpstreamSim(default=typical_answer()).running() as upstream,
        running_harness(sim, upstream, pacer=pacer, env=ROOMY) as harness,
    ):
        harness.service.admission = Admission(max_in_flight=ANSWERS)
        people = [SimUser(id=sim.ids(), name=f"asker{n}") for n in range(ANSWERS)]
        sim.users.update((person.id, person) for person in people)
        started = time.monotonic()
        await asyncio.gather(
            *(
                sim.slash_command("ask", {"question": f"What is hope? ({n})"}, user_id=person.id)
                for n, person in enumerate(people)
            )
        )
        await harness.answers(ANSWERS, within=900)
        seconds = time.monotonic() - started
    writes = [
        r
        for r in sim.requests
        if r.method in ("POST", "PATCH")
        and not r.route.startswith("/interactions/")
        and r.status < 300
    ]
    calls = Counter(
        f"{r.method} {r.route}" + (" (429)" if r.status == 429 else "")
        for r in sim.requests
        if r.method in ("POST", "PATCH")
    )
    return Run(
        "discord", sum(1 for r in sim.requests if r.status == 429), len(writes), seconds, calls
    )


async def slack_run() -> Run:
    async with SlackSim() as sim, UpstreamSim(default=typical_answer()).running() as upstream:
        settings = slack_settings(sim, upstream, **ROOMY)
        async with (
            AnswerClient(
                base_url=upstream.base_url, api_key=SecretStr("sk-bench"), model="magisterium-1"
            ) as client,
            running_slack(settings, client, pacer=SLACK.pacer),
        ):
            await sim.wait_connections(1)
            world = World(sim=sim, upstream=upstream, settings=settings, client=client)
            started = time.monotonic()
            for n in range(ANSWERS):
                await sim.mention(CHANNEL, f"What is hope? ({n})", user=f"U{n:04d}")
            await sim.wait_for(
                lambda: len(upstream.requests) >= ANSWERS and not world.busy(), within=900
            )
            seconds = time.monotonic() - started
    writes = [c for c in sim.calls if c.ok and c.method.startswith("chat.")]
    calls = Counter(c.method + (" (429)" if c.status == 429 else "") for c in sim.calls)
    return Run("slack", sum(sim.ratelimited.values()), len(writes), seconds, calls)


TELEGRAM_SCALED = RateLimits(per_chat=(1, 0.25), per_group=(20, 15.0), overall=(30, 0.25))
"""Telegram's pace, the windows a quarter as long (in the simulator and the worker alike)."""


async def telegram_run() -> Run:
    limits = TELEGRAM_SCALED
    pace = Pace(chat=limits.per_chat, group=limits.per_group, bot=limits.overall)
    async with (
        TelegramSim(rate_limits=limits) as tg,
        telegram_world(ROOMY, tg=tg, pace=pace, pacer=TELEGRAM.pacer, edit_interval=3.0) as world,
    ):
        world.upstream.default = typical_answer()
        group = await world.group()
        people = [world.person(f"asker{n}") for n in range(ANSWERS)]
        started = time.monotonic()
        for n, person in enumerate(people):
            await tg.user_says(person, group, f"/ask@citebot What is hope? ({n})")
        await world.answered(ANSWERS, within=900)
        seconds = time.monotonic() - started
    paced = [r for r in tg.requests if r.method in PACED_METHODS]
    writes = [r for r in paced if r.status < 300]
    calls = Counter(r.method + (" (429)" if r.status == 429 else "") for r in paced)
    limited = sum(1 for r in tg.requests if r.status == 429)
    return Run("telegram", limited, len(writes), seconds, calls)


def measure() -> list[Result]:
    return [asyncio.run(run()).result() for run in (discord_run, slack_run, telegram_run)]


def main() -> None:
    results = measure()
    print_table(
        f"{ANSWERS} answers at once in one channel (1,500 characters at 50 tokens/s)",
        ("platform", "429s (target 0)", "writes per answer", "until all complete"),
        [
            (
                r.subject,
                verdict(f"{r.value:.0f}", r.met),
                f"{r.detail['writes_per_answer']:.1f}",
                f"{r.detail['seconds_until_all_complete']:.1f} s",
            )
            for r in results
        ],
    )
    print_table(
        "Calls by route or method",
        ("platform / call", "count"),
        [
            (f"{r.subject} {call}", str(count))
            for r in results
            for call, count in r.detail["calls"].items()
        ],
    )


if __name__ == "__main__":
    main()
