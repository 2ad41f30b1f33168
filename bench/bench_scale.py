"""Three workers on one Redis, 150 answers across Discord and Slack, one worker SIGKILLed.

Three ``citebot run`` processes, exactly as deployed and given the same settings
(``STATE_URL=redis://…`` and the tokens, nothing per worker), and one ``redis-server``, against
the simulators at their real limits: Discord recommends 6 shards and lets one identify every
5 s (``max_concurrency`` 1), Slack's tiers have their minute-long windows. The upstream answers
with the typical answer (1,500 characters at 50 tokens/s, five footnotes: a thread of cards).

Two waves of 75 questions (45 ``/ask`` across six guilds, one on each shard, and 30 mentions in
twenty Slack channels), three a second. Right after the first wave, while its answers stream,
one worker is SIGKILLed; the second wave is asked once its shards run elsewhere (a Discord
question asked into a shard with no session is never delivered, as on Discord). Measured: every
question answered once (whole, or ended with the "interrupted" note where the dead worker was
writing it), the 429s both platforms sent, how long the dead worker's shards took to move and
its answers to get their note, the identifies each shard cost.

Run: ``python -m bench.bench_scale`` (about three minutes).
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from dataclasses import dataclass, field
from typing import Any

from bench.bench_platforms import typical_answer
from bench.report import Result
from bench.table import print_table, verdict
from bot.shares import TIMES as LEASE_TIMES
from integrations.discord.shards import IDENTIFY
from tests.integrations.many_workers import INTERRUPTED, Fleet, fleet, until
from tests.sim.discord.model import SimUser
from tests.sim.redis_server import start_redis_server
from tests.sim.upstream import UpstreamSim

WORKERS = 3
SHARDS = 6
WAVES = 2
DISCORD_PER_WAVE = 45
SLACK_PER_WAVE = 30
QUESTIONS = WAVES * (DISCORD_PER_WAVE + SLACK_PER_WAVE)
ASKED_PER_SECOND = 3.0
SLACK_CHANNELS = 20
CHANNELS_PER_GUILD = 3
ROOMY = {"MAX_IN_FLIGHT": "200", "RATE_LIMIT_PER_MINUTE": "100"}
"""No worker queue and no per-user refusal: every question is answered."""
NOTES_TARGET = 30.0


def shards_move_target(moved: int) -> float:
    """A dead worker's leases lapse, the others take its shards at their next tick, and Discord
    lets one shard per bucket identify every 5 s (``max_concurrency`` 1 here); a second for
    the connection and READY."""
    identify = IDENTIFY.window + IDENTIFY.margin
    return LEASE_TIMES.lease_ttl + LEASE_TIMES.tick + identify * max(0, moved - 1) + 1.0


@dataclass
class Outcome:
    whole: int = 0
    noted: int = 0
    both: int = 0
    lost: list[str] = field(default_factory=list)


@dataclass
class Run:
    seconds: float
    startup: float
    discord: Outcome
    slack: Outcome
    upstream_requests: int
    discord_429s: int
    slack_429s: dict[str, int]
    moved: list[int]
    shards_moved_after: float
    first_shard_moved_after: float
    notes_after: float
    identifies: dict[int, int]
    identify_refusals: int
    overlaps: int
    tokens_in_logs: int
    exit_codes: list[int]
    detail: dict[str, Any] = field(default_factory=dict)


def discord_state(world: Fleet, question: str) -> str:
    """``whole`` (final answer, its buttons shown), ``noted``, ``both`` or ``open``."""
    messages = world.discord_messages(question)
    whole = any(m.components for m in messages)
    noted = any(INTERRUPTED in m.content for m in messages)
    return {(True, False): "whole", (False, True): "noted", (True, True): "both"}.get(
        (whole, noted), "open"
    )


def slack_state(world: Fleet, question: str) -> str:
    delivery = world.mentioned[question]
    replies = world.slack.bot_replies(delivery.channel, delivery.ts)
    whole = any(m.blocks and not m.streamed for m in replies)  # the cards follow the final
    noted = any(INTERRUPTED in m.shown for m in replies)
    return {(True, False): "whole", (False, True): "noted", (True, True): "both"}.get(
        (whole, noted), "open"
    )


def outcome(world: Fleet, questions: list[str], state: Any) -> Outcome:
    found = Outcome()
    for question in questions:
        settled = state(world, question)
        if settled == "open":
            found.lost.append(question)
        else:
            setattr(found, settled, getattr(found, settled) + 1)
    return found


async def ask_wave(world: Fleet, wave: int, channels: list[Any], people: list[SimUser]) -> None:
    """Discord and Slack questions interleaved, ``ASKED_PER_SECOND`` a second."""
    began = time.monotonic()
    for n in range(DISCORD_PER_WAVE + SLACK_PER_WAVE):
        number = wave * 1000 + n
        if n % 5 < 3:  # three Discord questions for every two on Slack
            index = len(world.asked)
            world.asked[f"d{number}"] = await world.discord.slash_command(
                "ask",
                {"question": f"What is hope? (d{number})"},
                channel_id=channels[index % len(channels)].id,
                user_id=people[index].id,
            )
        else:
            index = len(world.mentioned)
            world.mentioned[f"s{number}"] = await world.slack.mention(
                f"C{index % SLACK_CHANNELS:03d}", f"What is hope? (s{number})", user=f"U{index:04d}"
            )
        ahead = began + (n + 1) / ASKED_PER_SECOND - time.monotonic()
        if ahead > 0:
            await asyncio.sleep(ahead)


async def scale_run() -> Run:
    upstream = UpstreamSim(default=typical_answer())
    with start_redis_server() as state_url:
        async with fleet(
            state_url,
            upstream,
            shards=SHARDS,
            max_concurrency=1,
            identify_seconds=5.0,
            command=("-m", "bot", "run"),
        ) as world:
            channels = [
                world.discord.add_text_channel(f"parish-{g}-{c}", guild_id=guild.guild_id)
                for g in range(SHARDS)
                for guild in [world.discord.add_guild(f"parish-{g}")]
                for c in range(CHANNELS_PER_GUILD)
            ]
            people = [SimUser(id=world.discord.ids(), name=f"asker{n}") for n in range(200)]
            world.discord.users.update((p.id, p) for p in people)
            began = time.monotonic()
            workers = await world.start(WORKERS, **ROOMY)
            await world.slack.wait_connections(WORKERS, within=60)
            await world.discord.wait_shards(within=120)
            startup = time.monotonic() - began
            await ask_wave(world, 0, channels, people)
            connections = world.slack.connections
            victim = workers[1]
            killed_at = await world.kill(victim)
            await until(lambda: world.shards_closed_since(killed_at), within=30)
            moved = sorted(world.shards_closed_since(killed_at))
            (dead,) = connections - world.slack.connections
            await world.discord.wait_shards(within=120)
            moved_after = sorted(
                s.identified_at - killed_at
                for s in world.discord.session_log
                if s.shard[0] in moved and s.identified_at > killed_at
            )
            await ask_wave(world, 1, channels, people)
            everyone = [*world.asked, *world.mentioned]

            def settled() -> bool:
                return all(
                    (discord_state if q in world.asked else slack_state)(world, q) != "open"
                    for q in everyone
                )

            with contextlib.suppress(TimeoutError):  # what never settled is reported as lost
                await until(settled, within=300)
            seconds = time.monotonic() - began
            noted_at = _notes_after(world, killed_at)
            identifies, overlaps = world.identified(), len(world.overlaps())
            codes = [await world.stop(w) for w in workers if w is not victim]  # hand over in turn
            logs = [w.text() for w in workers]
        tokens = [i.token for i in world.asked.values()]
        return Run(
            seconds=seconds,
            startup=startup,
            discord=outcome(world, list(world.asked), discord_state),
            slack=outcome(world, list(world.mentioned), slack_state),
            upstream_requests=len(upstream.requests),
            discord_429s=sum(1 for r in world.discord.requests if r.status == 429),
            slack_429s=dict(world.slack.ratelimited),
            moved=moved,
            shards_moved_after=moved_after[-1],
            first_shard_moved_after=moved_after[0],
            notes_after=noted_at,
            identifies=dict(sorted(identifies.items())),
            identify_refusals=len(world.discord.identify_refusals),
            overlaps=overlaps,
            tokens_in_logs=sum(1 for t in tokens for log in logs if t in log),
            exit_codes=codes,
            detail={"dead_slack_connection": dead},
        )


def _notes_after(world: Fleet, killed_at: float) -> float:
    """Seconds from the SIGKILL to the last note written (by the requests that carried it)."""
    discord = [
        r.at
        for r in world.discord.requests
        if r.at > killed_at and isinstance(r.json, dict) and INTERRUPTED in str(r.json)
    ]
    slack = [  # the Slack simulator keeps the event loop's time: the same monotonic clock
        c.at
        for c in world.slack.calls
        if INTERRUPTED in str(c.args.get("markdown_text") or c.args.get("text") or "")
    ]
    return max([*discord, *slack], default=killed_at) - killed_at


def results(run: Run) -> list[Result]:
    answered = run.discord.whole + run.discord.noted + run.slack.whole + run.slack.noted
    once = (
        answered == QUESTIONS
        and run.upstream_requests == QUESTIONS
        and not (run.discord.both or run.slack.both)
    )
    rate_limited = run.discord_429s + sum(run.slack_429s.values())
    detail = {
        "discord": vars(run.discord),
        "slack": vars(run.slack),
        "upstream_requests": run.upstream_requests,
        "seconds": round(run.seconds, 1),
        "startup_seconds": round(run.startup, 1),
        "moved_shards": run.moved,
        "identifies_per_shard": run.identifies,
        "identify_refusals": run.identify_refusals,
        "two_sessions_on_one_shard": run.overlaps,
        "interaction_tokens_in_logs": run.tokens_in_logs,
        "survivors_exit_codes": run.exit_codes,
        **run.detail,
    }
    return [
        Result(
            metric=f"{QUESTIONS} answers, 3 workers, one SIGKILLed: answered once",
            subject="Discord + Slack",
            value=answered,
            unit="answers",
            target=f"{QUESTIONS}, each once",
            met=once,
            detail=detail,
        ),
        Result(
            metric="429s, 3 workers sharing one bot and one workspace",
            subject="Discord + Slack",
            value=rate_limited,
            unit="429s",
            target="0",
            met=rate_limited == 0,
            detail={"discord": run.discord_429s, "slack": run.slack_429s},
        ),
        Result(
            metric=f"SIGKILL → its {len(run.moved)} shards run elsewhere (the last)",
            subject="Discord",
            value=round(run.shards_moved_after, 1),
            unit="s",
            target=(
                f"≤ {shards_move_target(len(run.moved)):.0f} s "
                "(lease 10 s, tick 2 s, then one identify per 5 s)"
            ),
            met=run.shards_moved_after <= shards_move_target(len(run.moved))
            and run.identify_refusals == 0
            and run.overlaps == 0,
            detail={
                "moved": run.moved,
                "first_moved_after": round(run.first_shard_moved_after, 1),
                "identifies_per_shard": run.identifies,
            },
        ),
        Result(
            metric="SIGKILL → the last of its answers ends with the note",
            subject="Discord + Slack",
            value=round(run.notes_after, 1),
            unit="s",
            target=f"≤ {NOTES_TARGET:.0f} s",
            met=run.notes_after <= NOTES_TARGET and run.discord.noted + run.slack.noted > 0,
            detail={"noted": {"discord": run.discord.noted, "slack": run.slack.noted}},
        ),
    ]


def measure() -> list[Result]:
    return results(asyncio.run(scale_run()))


def main() -> None:
    measured = measure()
    print_table(
        f"{QUESTIONS} answers on {WORKERS} workers sharing one Redis; one SIGKILLed mid-run",
        ("what", "measured", "target"),
        [(r.metric, verdict(f"{r.value:g} {r.unit}", r.met), r.target) for r in measured],
    )
    print_table(
        "Behind the numbers",
        ("what", "value"),
        [(key, str(value)) for r in measured for key, value in r.detail.items()],
    )


if __name__ == "__main__":
    main()
