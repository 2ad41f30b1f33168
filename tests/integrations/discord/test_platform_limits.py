"""What Discord imposes: 429s, the 15-minute token, command sync budgets, and pacing."""

from __future__ import annotations

import itertools
import re

from integrations.discord.platform import DISCORD
from integrations.discord.run import sync_commands
from integrations.discord.settings import DiscordSettings
from tests.integrations.discord.harness import Harness, running_harness
from tests.sim.discord import DiscordSim
from tests.sim.upstream import Gate, Pause, UpstreamSim, answer

WEBHOOK_EDIT = "PATCH /webhooks/{application_id}/{token}/messages/{message_id}"


async def test_a_429_drops_the_intermediate_edit_and_the_answer_still_lands(
    harness: Harness,
) -> None:
    sim = harness.sim
    sim.rate_limit_next(WEBHOOK_EDIT, 0.5)
    harness.upstream.queue(answer(["First words", " and the rest."], between=[Gate()]))
    interaction = await sim.slash_command("ask", {"question": "slow?", "private": False})
    await sim.until(lambda: any(r.status == 429 for r in sim.requests))
    harness.upstream.release()
    await harness.answers(1)

    [limited] = [r for r in sim.requests if r.status == 429]
    message = interaction.original
    assert message is not None
    assert "First words and the rest." in message.content
    writes = harness.writes(message)
    assert writes
    # the refused text was dropped, not re-sent late; the next write came after the reset
    assert all(w.json != limited.json for w in writes)
    assert writes[0].at - limited.at >= 0.45
    counted = harness.service.metrics.registry.get_sample_value(
        "citebot_platform_rate_limited_total", {"platform": "discord"}
    )
    assert counted == 1


async def test_after_the_token_expires_edits_use_the_bot_token(harness: Harness) -> None:
    harness.upstream.queue(answer(["Grace", " is a gift."], between=[Gate()]))
    interaction = await harness.sim.slash_command(
        "ask", {"question": "What is grace?", "private": False}
    )
    await harness.sim.until(
        lambda: interaction.original is not None and "Grace" in interaction.original.content
    )
    harness.sim.expire_interaction_tokens()
    harness.upstream.release()
    await harness.answers(1)

    message = interaction.original
    assert message is not None
    assert "Grace is a gift." in message.content
    by_bot = harness.sim.requests_to("PATCH /channels/{channel_id}/messages/{message_id}")
    assert by_bot
    assert by_bot[-1].authorized
    assert [r.status for r in harness.sim.requests_to(WEBHOOK_EDIT)][-1] == 401


async def test_commands_sync_only_when_they_change(sim: DiscordSim, upstream: UpstreamSim) -> None:
    async with running_harness(sim, upstream):
        pass
    async with running_harness(sim, upstream) as again:
        assert sim.command_puts == 1
        assert isinstance(again.kit.environment, DiscordSettings)
        await sync_commands(again.kit.environment)
    assert sim.command_puts == 2
    assert list(sim.commands) == [
        "ask",
        "citebot",
        "Check with sources",
        "Check with sources privately",
    ]


async def test_streamed_edits_are_paced_and_the_first_text_is_prompt(
    sim: DiscordSim, upstream: UpstreamSim
) -> None:
    """A typical 1,500-character answer at Discord's real pacing (1 s, 5 writes / 5 s)."""
    pieces = [f"Sentence {i:02d} of a long and careful answer. " for i in range(34)]
    assert 1400 <= len("".join(pieces)) <= 1600
    upstream.queue(answer(pieces, between=[Pause(0.1)]))
    async with running_harness(sim, upstream, pacer=DISCORD.pacer) as harness:
        message = await harness.ask(
            "Tell me at length",
        )
        writes = harness.writes(message)
        asked = harness.upstream.requests[0].at
        first_text = next(w.at for w in writes if w.json.get("content"))
        gaps = [b.at - a.at for a, b in itertools.pairwise(writes)]
        print(
            f"\n1,500-character answer: {len(writes)} writes to the message, first text "
            f"{first_text - asked:.2f}s after the upstream request; gaps {gaps}"
        )
        assert message.content.startswith("Sentence 00")
        assert "Sentence 33" in message.content
        assert min(gaps) >= 0.95
        assert first_text - asked < 0.5
        assert all(a.json != b.json for a, b in itertools.pairwise(writes))
        in_any_5s = max(sum(1 for w in writes if a.at <= w.at < a.at + 5) for a in writes)
        assert in_any_5s <= 5


async def test_text_that_moves_to_a_new_message_never_vanishes_while_streaming(
    harness: Harness,
) -> None:
    """A long paragraph starts in a message beside a short one, outgrows it and moves to a new
    message, again and again, while the per-answer budget is tight (0.2-s pacing against 5
    writes per 5 s): after every write a person still sees every sentence seen before."""
    said = [f"Sentence {n:03d} says a little more about grace and nature." for n in range(72)]
    sentences = [f"{sentence} " for sentence in said]
    bounds = [0, 10, 30, 42, 62, 72]  # short, long, short, long, short
    paragraphs = ["".join(sentences[a:b]) + "\n\n" for a, b in itertools.pairwise(bounds)]
    harness.upstream.queue(
        answer(
            [p[i : i + 40] for p in paragraphs for i in range(0, len(p), 40)], between=[Pause(0.01)]
        )
    )
    original = await harness.ask("Tell me everything")

    shown: dict[str, str] = {}
    order: list[str] = [str(original.id)]
    seen: set[str] = set()
    for request in harness.sim.requests:
        if (
            request.status != 200
            or not isinstance(request.json, dict)
            or "content" not in request.json
            or "/webhooks/" not in request.path
        ):
            continue
        if request.method == "POST":
            order.append(str(request.reply["id"]))
            shown[order[-1]] = request.json["content"]
        else:
            edited = request.path.rsplit("/", 1)[-1]
            shown[order[0] if edited == "@original" else edited] = request.json["content"]
        visible = set(
            re.findall(
                r"Sentence \d{3} says a little more about grace and nature\.",
                " ".join(shown.get(m, "") for m in order),
            )
        )
        assert seen <= visible, f"vanished: {sorted(seen - visible)}"
        seen = visible
    assert len(order) >= 3
    assert seen == set(said)
    assert original.content.startswith("Sentence 000")
