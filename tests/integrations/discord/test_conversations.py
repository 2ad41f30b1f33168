"""Follow-ups in the bot's threads, and the buttons under answers and cards."""

from __future__ import annotations

import pytest

from tests.integrations.discord.harness import Harness
from tests.sim.discord import DiscordSim
from tests.sim.upstream import UpstreamSim, answer, magisterium_citation

FIRST = answer(
    ["Grace is a gift of God[^1]."],
    [magisterium_citation(0, "Grace is favor.", url="https://example.org/ccc/1996")],
    related=["What is sanctifying grace?"],
)


async def test_ask_in_the_thread_sends_the_conversation_upstream(harness: Harness) -> None:
    harness.upstream.queue(FIRST, answer(["It is habitual."]))
    message = await harness.ask("What is grace?")
    thread = harness.sim.thread_of(message.id)
    assert thread is not None

    follow = await harness.ask("Is it lasting?", channel_id=thread.id)

    assert follow.channel_id == thread.id
    assert "It is habitual." in follow.content
    sent = harness.upstream.questions[1]
    assert [(m["role"], m["content"][:14]) for m in sent] == [
        ("user", "What is grace?"),
        ("assistant", "Grace is a gif"),
        ("user", "Is it lasting?"),
    ]


async def test_a_mention_in_the_thread_is_a_follow_up(harness: Harness) -> None:
    harness.upstream.queue(FIRST, answer(["Yes, through the sacraments."]))
    message = await harness.ask("What is grace?")
    thread = harness.sim.thread_of(message.id)
    assert thread is not None

    await harness.sim.user_message(
        thread.id, f"<@{harness.sim.bot.id}> can it grow?", mentions=[harness.sim.bot.id]
    )
    await harness.answers(2)

    reply = harness.sim.channel_messages(thread.id)[-1]
    assert reply.author.id == harness.sim.bot.id
    assert "Yes, through the sacraments." in reply.content
    assert harness.upstream.questions[1][-1] == {"role": "user", "content": "can it grow?"}
    assert len(harness.upstream.questions[1]) == 3


async def test_messages_without_a_mention_or_outside_our_threads_are_ignored(
    harness: Harness,
) -> None:
    harness.upstream.queue(FIRST)
    message = await harness.ask("What is grace?")
    thread = harness.sim.thread_of(message.id)
    assert thread is not None
    await harness.sim.user_message(thread.id, "just chatting")
    await harness.sim.user_message(
        harness.sim.text.id, f"<@{harness.sim.bot.id}> hi", mentions=[harness.sim.bot.id]
    )
    harness.upstream.queue(answer(["Still here."]))
    await harness.ask("And now?", channel_id=thread.id)
    assert len(harness.upstream.requests) == 2


async def test_a_related_question_button_asks_it_in_the_thread(harness: Harness) -> None:
    harness.upstream.queue(FIRST, answer(["Sanctifying grace stays."]))
    message = await harness.ask("What is grace?")
    cards = harness.sim.thread_messages(message.id)
    [with_buttons] = [m for m in cards if m.buttons()]

    click = await harness.sim.click_button(with_buttons.id, "citebot:related:0")
    await harness.answers(2)

    assert click.original is not None
    assert click.original.channel_id == message.id
    assert "Sanctifying grace stays." in click.original.content
    assert harness.upstream.questions[1][-1]["content"] == "What is sanctifying grace?"
    assert harness.upstream.questions[1][0]["content"] == "What is grace?"


async def test_feedback_is_recorded_and_acknowledged_privately(harness: Harness) -> None:
    harness.upstream.queue(FIRST)
    message = await harness.ask("What is grace?")

    click = await harness.sim.click_button(message.id, "citebot:feedback:up")
    await harness.sim.until(lambda: click.original is not None)

    assert click.original is not None
    assert click.original.ephemeral
    assert click.original.content
    votes = await harness.votes(f"discord:{message.id}")
    assert votes == {str(harness.sim.user.id): "up"}
    public = harness.sim.channel_messages(harness.sim.text.id)
    assert public == [message]


@pytest.mark.parametrize(
    ("locale", "refusal"),
    [
        ("en-US", "citebot is not enabled here. Please ask in a channel where it is allowed."),
        # Discord's French client calls a channel a "salon" (Slack's says "canal")
        (
            "fr",
            "citebot n’est pas activé ici. Posez votre question dans un salon où il est autorisé.",
        ),
        (
            "de",
            "citebot ist hier nicht aktiviert. "
            "Bitte fragen Sie in einem Kanal, in dem citebot erlaubt ist.",
        ),
        ("zh-TW", "citebot 未在此處啟用。請在允許使用它的頻道中提問。"),
    ],
)
async def test_outside_the_allowlisted_channels_ask_is_politely_refused(
    sim: DiscordSim, upstream: UpstreamSim, locale: str, refusal: str
) -> None:
    from tests.integrations.discord.harness import running_harness

    env = {"DISCORD_CHANNEL_ALLOWLIST": str(sim.forum.id)}
    async with running_harness(sim, upstream, env=env):
        interaction = await sim.slash_command("ask", {"question": "What is grace?"}, locale=locale)
        await sim.until(lambda: interaction.original is not None)
    assert interaction.original is not None
    assert interaction.ephemeral  # only the asker sees the refusal
    assert interaction.original.content == refusal
    assert upstream.requests == []
