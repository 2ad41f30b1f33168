"""What a typical answer costs on each platform's wire, against what the upstream sent.

A 1,500-character answer with five footnotes streams from the simulated upstream at about 50
tokens a second; the real Discord and Slack adapters (real pacing) post it to their simulators.
The table gives, per platform, the upstream's text deltas against the platform writes they
became (the coalescing ratio), the delay from the first upstream token to the first visible
text, and the platform calls by method.

Run: ``python -m bench.bench_platforms`` (about 20 s; it waits on real pacing).
"""

from __future__ import annotations

import asyncio
from collections import Counter
from dataclasses import dataclass

from pydantic import SecretStr
from rich.console import Console
from rich.table import Table

from bot.client import AnswerClient
from integrations.discord.run import DISCORD_PACER
from integrations.slack.run import SLACK_PACER
from tests.integrations.discord.harness import running_harness
from tests.integrations.slack.conftest import running_slack, slack_settings
from tests.sim.discord import DiscordSim
from tests.sim.slack import SlackSim
from tests.sim.upstream import Pause, Stream, UpstreamSim, answer, magisterium_citation

TOKENS_PER_SECOND = 50
PIECE = 4  # characters a token


@dataclass(frozen=True)
class Run:
    platform: str
    deltas: int
    writes: int
    first_text_ms: float
    calls: Counter[str]


def _text_deltas(stream: Stream) -> int:
    return sum(1 for step in stream.steps
               if isinstance(step, dict) and step["choices"][0]["delta"].get("content"))


def typical_answer() -> Stream:
    sentence = ("Hope is the theological virtue by which we desire eternal life as our "
                "happiness, placing our trust in Christ's promises.")
    paragraphs = [" ".join([sentence] * 3) + f"[^{n}]" for n in range(1, 6)]
    text = "\n\n".join(paragraphs)[:1500]
    pieces = [text[i:i + PIECE] for i in range(0, len(text), PIECE)]
    cites = [magisterium_citation(n, f"Passage {n + 1} of the source.", title=f"Source {n + 1}")
             for n in range(5)]
    return answer(pieces, cites, between=[Pause(1 / TOKENS_PER_SECOND)])


async def discord_run() -> Run:
    async with DiscordSim() as sim, UpstreamSim(default=typical_answer()).running() as upstream, \
            running_harness(sim, upstream, pacer=DISCORD_PACER) as harness:
        message = await harness.ask("What is hope?")
        writes = harness.writes(message)
        calls = Counter(f"{r.method} {r.route.split('/')[1]}" for r in sim.requests
                        if r.method in ("POST", "PATCH", "PUT"))
        return Run("discord", _text_deltas(typical_answer()), len(writes),
                   (writes[0].at - upstream.first_text_at[0]) * 1000, calls)


async def slack_run() -> Run:
    async with SlackSim() as sim, UpstreamSim(default=typical_answer()).running() as upstream:
        settings = slack_settings(sim, upstream)
        async with AnswerClient(base_url=upstream.base_url, api_key=SecretStr("sk-bench"),
                                model="magisterium-1") as client, \
                running_slack(settings, client, pacer=SLACK_PACER):
            await sim.wait_connections(1)
            asked = await sim.mention("C0BENCH", "What is hope?")
            await sim.wait_for(lambda: any(m.blocks and not m.streamed
                                           for m in sim.bot_replies("C0BENCH", asked.ts)),
                               within=60)
        answer_calls = [c for c in sim.calls if c.method != "auth.test"]
        first = next(c.at for c in answer_calls
                     if c.method in ("chat.startStream", "chat.postMessage"))
        writes = [c for c in answer_calls if "markdown_text" in c.args
                  or c.method in ("chat.stopStream", "chat.update")]
        return Run("slack", _text_deltas(typical_answer()), len(writes),
                   (first - upstream.first_text_at[0]) * 1000,
                   Counter(c.method for c in answer_calls))


def main() -> None:
    runs = [asyncio.run(discord_run()), asyncio.run(slack_run())]
    console = Console(width=100)
    summary = Table(title="A 1,500-character answer at 50 tokens/s, real pacing")
    for column in ("platform", "upstream deltas", "answer writes", "writes per delta",
                   "first token → first text"):
        summary.add_column(column, justify="right")
    for run in runs:
        summary.add_row(run.platform, str(run.deltas), str(run.writes),
                        f"{run.writes / run.deltas:.3f}x", f"{run.first_text_ms:.0f} ms")
    console.print(summary)
    calls = Table(title="Platform calls for that answer (writes only on Discord)")
    calls.add_column("platform")
    calls.add_column("call")
    calls.add_column("count", justify="right")
    for run in runs:
        for name, count in sorted(run.calls.items()):
            calls.add_row(run.platform, name, str(count))
    console.print(calls)


if __name__ == "__main__":
    main()
