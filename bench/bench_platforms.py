"""What a typical answer costs on each platform's wire, against what the upstream sent.

A 1,500-character answer with five footnotes streams from the simulated upstream at about 50
tokens a second; the real Discord and Slack adapters (real pacing) post it to their simulators.
Per platform: the upstream's text deltas against the answer writes they became (a write per
delta is the baseline), the delay from the first upstream token to the first visible text,
and every platform call by method. Times are the simulators' own: the upstream's when it sent
the first text, the platform's when the write arrived.

Run: ``python -m bench.bench_platforms`` (about 20 s; it waits on real pacing).
"""

from __future__ import annotations

import asyncio
import copy
import math
from collections import Counter
from collections.abc import AsyncIterator, Iterable
from contextlib import asynccontextmanager
from dataclasses import dataclass

from bench.report import Result
from bench.table import print_table, verdict
from bot.pacing import Pacer
from integrations.discord.platform import DISCORD
from integrations.slack.platform import SLACK
from tests.integrations.discord.harness import running_harness
from tests.integrations.slack.conftest import World, slack_world
from tests.sim.discord import DiscordSim
from tests.sim.slack import Call
from tests.sim.upstream import Pause, Stream, UpstreamSim, answer, magisterium_citation

TOKENS_PER_SECOND = 50
PIECE = 4  # characters a token
LENGTH = 1500
QUESTION = "What is hope?"
FINISHING_WRITES = 2
"""After the last token: Slack stops the stream, then edits the footnote links in."""


@dataclass(frozen=True)
class Run:
    """One answer as the platform saw it."""

    platform: str
    deltas: int
    writes: int
    """Writes that put answer text on screen (creates, edits, appends, stops)."""
    first_text_ms: float
    """First upstream text sent → first write showing answer text received."""
    calls: Counter[str]


def typical_answer(length: int = LENGTH) -> Stream:
    sentence = (
        "Hope is the theological virtue by which we desire eternal life as our "
        "happiness, placing our trust in Christ's promises."
    )
    paragraphs = [" ".join([sentence] * 3) + f"[^{n}]" for n in range(1, 6)]
    text = "\n\n".join(paragraphs)[:length]
    pieces = [text[i : i + PIECE] for i in range(0, len(text), PIECE)]
    cites = [
        magisterium_citation(n, f"Passage {n + 1} of the source.", title=f"Source {n + 1}")
        for n in range(5)
    ]
    return answer(pieces, cites, between=[Pause(1 / TOKENS_PER_SECOND)])


def text_pieces(stream: Stream) -> list[str]:
    return [
        step["choices"][0]["delta"]["content"]
        for step in stream.steps
        if isinstance(step, dict) and step["choices"][0]["delta"].get("content")
    ]


def opening(stream: Stream) -> str:
    """The answer's first word: a write containing it shows answer text."""
    return "".join(text_pieces(stream)).split()[0]


def fresh(pacer: Pacer) -> Pacer:
    """The platform's pacing with a budget of its own (the production one is never used here,
    so its copy is empty): each answer starts in a quiet channel."""
    return copy.deepcopy(pacer)


def first_text_ms(sent_at: float, writes: Iterable[tuple[float, str]], word: str) -> float:
    """From the upstream sending its first text to the first write (received at) showing it."""
    return next(at - sent_at for at, text in writes if word in text) * 1000


def slack_text(call: Call) -> str:
    """The answer text a Slack call carries, whether as markdown_text, text or stream chunks."""
    chunks = call.args.get("chunks") or []
    return "".join(
        [str(call.args.get("markdown_text") or ""), str(call.args.get("text") or "")]
        + [str(c.get("text", "")) for c in chunks if isinstance(c, dict)]
    )


async def discord_run(stream: Stream) -> Run:
    """One /ask answered into fresh simulators (so no earlier answer shares its budget)."""
    async with (
        DiscordSim() as sim,
        UpstreamSim(default=stream).running() as upstream,
        running_harness(sim, upstream, pacer=fresh(DISCORD.pacer)) as harness,
    ):
        before = len(sim.requests)
        message = await harness.ask(QUESTION)
        writes = harness.writes(message)
        shown = [(r.at, str(r.json.get("content", ""))) for r in writes]
        calls = Counter(
            f"{r.method} {r.route.split('/')[1]}"
            for r in sim.requests[before:]
            if r.method in ("POST", "PATCH", "PUT")
        )
        return Run(
            "discord",
            len(text_pieces(stream)),
            len(writes),
            first_text_ms(upstream.first_text_at[0], shown, opening(stream)),
            calls,
        )


@asynccontextmanager
async def slack_bench(stream: Stream) -> AsyncIterator[World]:
    """A connected Slack worker with production pacing, its upstream serving ``stream``."""
    async with slack_world(pacer=fresh(SLACK.pacer)) as world:
        world.upstream.default = stream
        yield world


async def slack_run(world: World, channel: str) -> Run:
    """One mention answered in ``channel`` (a channel of its own keeps its budget quiet)."""
    sim, upstream = world.sim, world.upstream
    calls_before, streams_before = len(sim.calls), len(upstream.first_text_at)
    asked = await sim.mention(channel, QUESTION)
    await world.answered(channel, asked.ts, requests=len(upstream.requests) + 1)
    answer_calls = sim.calls[calls_before:]
    writes = [
        c
        for c in answer_calls
        if "markdown_text" in c.args
        or "chunks" in c.args
        or c.method in ("chat.stopStream", "chat.update")
    ]
    stream = upstream.default
    assert isinstance(stream, Stream)
    return Run(
        "slack",
        len(text_pieces(stream)),
        len(writes),
        first_text_ms(
            upstream.first_text_at[streams_before],
            ((c.at, slack_text(c)) for c in answer_calls if c.ok),
            opening(stream),
        ),
        Counter(c.method for c in answer_calls),
    )


async def _slack_once(stream: Stream) -> Run:
    async with slack_bench(stream) as world:
        return await slack_run(world, "C0BENCH")


def writes_limit(stream: Stream) -> int:
    """The pacing's promise: at most one write a second while streaming, then the finish."""
    return math.ceil(len(text_pieces(stream)) / TOKENS_PER_SECOND) + FINISHING_WRITES


def measure() -> list[Result]:
    """Writes per answer on each platform, against one write per upstream delta."""
    stream = typical_answer()
    limit = writes_limit(stream)
    runs = [asyncio.run(discord_run(stream)), asyncio.run(_slack_once(stream))]
    return [
        Result(
            metric="platform calls",
            subject=run.platform,
            value=run.writes,
            unit="calls",
            target=f"≤ {limit} (≤ 1/s streaming, then finish)",
            met=run.writes <= limit,
            baseline=run.deltas,
            baseline_name="one write per upstream delta",
            detail={
                "answer_characters": LENGTH,
                "tokens_per_second": TOKENS_PER_SECOND,
                "first_text_ms": round(run.first_text_ms, 2),
                "calls": dict(sorted(run.calls.items())),
            },
        )
        for run in runs
    ]


def main() -> None:
    results = measure()
    print_table(
        f"A {LENGTH:,}-character answer at {TOKENS_PER_SECOND} tokens/s, real pacing",
        (
            "platform",
            "upstream deltas",
            "answer writes",
            "writes per delta",
            "first token → first text",
        ),
        [
            (
                r.subject,
                f"{r.baseline:.0f}",
                verdict(f"{r.value:.0f}", r.met),
                f"{r.ratio or 0:.3f}x",
                f"{r.detail['first_text_ms']:.1f} ms",
            )
            for r in results
        ],
    )
    print_table(
        "Platform calls for that answer (writes only on Discord)",
        ("platform", "call", "count"),
        [
            (r.subject, name, str(count))
            for r in results
            for name, count in r.detail["calls"].items()
        ],
    )


if __name__ == "__main__":
    main()
