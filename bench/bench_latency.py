"""How long a person waits for the first words, against slack_sdk's own streaming helper.

From the upstream simulator sending the first answer text to the platform simulator receiving
the first write that shows it (both times taken by the simulators, where the bytes cross the
wire; one monotonic clock in one process). Each platform answers ``REPEATS`` questions, each in
fresh simulators (a quiet channel and workspace), after one warm-up answer that is reported but
not counted. Beside each Slack answer, against the same simulators and upstream,
``client.chat_stream(...)`` with its default buffer is fed the same AnswerClient deltas: that
is the Slack baseline.

The target (≤ 50 ms) is held to the p95 (nearest rank: with 7 answers, the slowest).

Run: ``python -m bench.bench_latency`` (about a minute).
"""

from __future__ import annotations

import asyncio
import math
import statistics
from collections.abc import Sequence
from typing import Any

import aiohttp
from slack_sdk.web.async_client import AsyncWebClient

from bench.bench_platforms import (
    QUESTION,
    discord_run,
    first_text_ms,
    opening,
    slack_bench,
    slack_run,
    slack_text,
    typical_answer,
)
from bench.report import Result
from bench.table import print_table, verdict
from bot.upstream.events import TextDelta
from tests.integrations.slack.conftest import World
from tests.sim.slack import Message
from tests.sim.upstream import Stream

REPEATS = 7
LENGTH = 400
"""Long enough for the baseline's 256-character buffer to fill mid-answer (at ~1.3 s)."""
TARGET_MS = 50.0
BASELINE = "slack_sdk chat_stream (default buffer)"


def p95(values: Sequence[float]) -> float:
    """Nearest-rank 95th percentile (no interpolation between so few runs)."""
    ordered = sorted(values)
    return ordered[math.ceil(0.95 * len(ordered)) - 1]


def summary(runs: Sequence[float], warmup: float) -> dict[str, Any]:
    return {
        "median_ms": round(statistics.median(runs), 2),
        "p95_ms": round(p95(runs), 2),
        "runs_ms": [round(run, 2) for run in runs],
        "warmup_ms": round(warmup, 2),
    }


async def chat_stream_answer(world: World, channel: str, session: aiohttp.ClientSession) -> float:
    """slack_sdk's streaming helper as its docs use it, fed the AnswerClient's deltas; returns
    the first-visible-text delay on the same clocks as citebot's."""
    sim, upstream = world.sim, world.upstream
    sim.workspace.add_channel(channel, "channel")
    asked = sim.workspace.post(
        Message(
            channel=channel,
            ts=sim.workspace.next_ts(),
            user=sim.user,
            text=f"<@{sim.me.bot_user_id}> {QUESTION}",
        )
    )
    web = AsyncWebClient(token=sim.bot_token, base_url=sim.base_url, session=session)
    calls_before, streams_before = len(sim.calls), len(upstream.first_text_at)
    streamer = await web.chat_stream(
        channel=channel,
        thread_ts=asked.ts,
        recipient_team_id=sim.me.team_id,
        recipient_user_id=sim.user,
    )
    async for event in world.client.stream(QUESTION):
        if isinstance(event, TextDelta):
            await streamer.append(markdown_text=event.text)
    await streamer.stop()
    assert isinstance(upstream.default, Stream)
    return first_text_ms(
        upstream.first_text_at[streams_before],
        ((c.at, slack_text(c)) for c in sim.calls[calls_before:] if c.ok),
        opening(upstream.default),
    )


async def discord_latency() -> list[float]:
    """Warm-up first, then ``REPEATS`` answers, each in fresh simulators."""
    return [(await discord_run(typical_answer(LENGTH))).first_text_ms for _ in range(REPEATS + 1)]


async def slack_pair() -> tuple[float, float]:
    """citebot, then the baseline, in fresh simulators (a quiet workspace: Slack's tiers count
    stream starts per workspace), each answer in a channel of its own."""
    async with slack_bench(typical_answer(LENGTH)) as world, aiohttp.ClientSession() as session:
        citebot = (await slack_run(world, "C0BENCH")).first_text_ms
        return citebot, await chat_stream_answer(world, "C0BASE", session)


async def slack_latency() -> tuple[list[float], list[float]]:
    """Warm-up first, then ``REPEATS`` pairs: citebot and the baseline take turns."""
    pairs = [await slack_pair() for _ in range(REPEATS + 1)]
    return [citebot for citebot, _ in pairs], [baseline for _, baseline in pairs]


def measure() -> list[Result]:
    """First visible text on Discord and Slack (p95, target ≤ 50 ms); Slack's baseline is
    slack_sdk's chat_stream with its default buffer, fed the same stream."""
    discord = asyncio.run(discord_latency())
    slack, baseline = asyncio.run(slack_latency())
    common = {"answer_characters": LENGTH, "repeats": REPEATS, "statistic": "p95"}
    return [
        Result(
            metric="first visible text",
            subject="discord",
            value=p95(discord[1:]),
            unit="ms",
            target=f"≤ {TARGET_MS:g} ms",
            met=p95(discord[1:]) <= TARGET_MS,
            detail={**common, **summary(discord[1:], discord[0])},
        ),
        Result(
            metric="first visible text",
            subject="slack",
            value=p95(slack[1:]),
            unit="ms",
            target=f"≤ {TARGET_MS:g} ms",
            met=p95(slack[1:]) <= TARGET_MS,
            baseline=p95(baseline[1:]),
            baseline_name=BASELINE,
            detail={
                **common,
                **summary(slack[1:], slack[0]),
                "baseline": summary(baseline[1:], baseline[0]),
            },
        ),
    ]


def main() -> None:
    results = measure()
    rows = []
    for result in results:
        rows.append(
            (
                f"citebot on {result.subject}",
                f"{result.detail['median_ms']:.1f} ms",
                verdict(f"{result.detail['p95_ms']:.1f} ms", result.met),
                ", ".join(f"{run:.1f}" for run in result.detail["runs_ms"]),
                f"{result.detail['warmup_ms']:.1f} ms",
            )
        )
        if result.baseline is not None:
            base = result.detail["baseline"]
            rows.append(
                (
                    result.baseline_name or "",
                    f"{base['median_ms']:.1f} ms",
                    f"{base['p95_ms']:.1f} ms",
                    ", ".join(f"{run:.0f}" for run in base["runs_ms"]),
                    f"{base['warmup_ms']:.1f} ms",
                )
            )
    print_table(
        f"First upstream token → first visible text ({REPEATS} answers of {LENGTH} "
        f"characters at 50 tokens/s; target p95 ≤ {TARGET_MS:g} ms)",
        ("who", "median", "p95", "runs (ms)", "warm-up"),
        rows,
    )


if __name__ == "__main__":
    main()
