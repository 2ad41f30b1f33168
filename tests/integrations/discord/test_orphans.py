"""Closing a Discord answer whose worker died: the real sink writes part of an answer, then the
closer another worker would run finishes it from the record (the sink's whereabouts) alone.

The whole path, with a real SIGKILL, is in tests/integrations/test_many_workers.py; here each
place an answer can be left in is set up on purpose, the expired interaction token included.
"""

from __future__ import annotations

import time
from collections.abc import AsyncIterator

import discord
import pytest
from discord.http import HTTPClient, Route

from bot.budgets import WriteBudget
from integrations.discord.orphans import DiscordOrphans
from integrations.discord.presenter import DiscordPresenter
from integrations.discord.routes import DISCORD_LIMITS, InteractionToken
from integrations.discord.sink import DiscordAnswerSink
from integrations.discord.wire import DiscordWire
from tests.integrations.orphaned import close_left
from tests.sim.discord import DiscordSim, SimInteraction

HALF = {"content": "Hope is a theological virtue, and"}
INTERRUPTED = "The answer was interrupted before it finished"
RESTARTING = "citebot is restarting. Please ask again in a moment."


@pytest.fixture
async def http(sim: DiscordSim) -> AsyncIterator[HTTPClient]:
    client = discord.Client(intents=discord.Intents.none())
    await client.login(sim.token)
    yield client.http
    await client.close()


@pytest.fixture
def wire(http: HTTPClient) -> DiscordWire:
    return DiscordWire(http)


async def deferred(
    sim: DiscordSim,
    http: HTTPClient,
    *,
    private: bool = False,
    can_thread: bool = False,
    channel_id: int | None = None,
) -> tuple[SimInteraction, DiscordAnswerSink]:
    """A person ran /ask and the bot deferred ("is thinking…"): the interaction and its sink
    (``can_thread``: the cards go in a thread on the answer, as in a server's text channel;
    ``channel_id``: where, by default the server's text channel)."""
    channel = channel_id or sim.text.id
    bot_member = sim.bot_sees(sim.channels[channel])
    interaction = await sim.slash_command("ask", {"question": "What is hope?"}, channel_id=channel)
    route = Route(
        "POST",
        "/interactions/{interaction_id}/{token}/callback",
        interaction_id=interaction.id,
        token=interaction.token,
    )
    data = {"flags": 64} if private else {}
    reply = await http.request(
        route, json={"type": 5, "data": data}, params={"with_response": "true"}
    )
    sink = DiscordAnswerSink(
        wire=DiscordWire(http),
        budget=WriteBudget(DISCORD_LIMITS),
        channel_id=channel,
        ephemeral=private,
        can_thread=can_thread,
        bot_member=bot_member,
        followups=None if bot_member else 5,
        interaction=InteractionToken(
            application_id=sim.application_id,
            token=interaction.token,
            issued_at=time.monotonic(),
            original_id=int(reply["interaction"]["response_message_id"]),
        ),
    )
    return interaction, sink


async def close(wire: DiscordWire, left: DiscordAnswerSink, language: str | None = None) -> None:
    """What another worker does with the dead worker's record."""
    hook = DiscordOrphans(wire=wire, budget=WriteBudget(DISCORD_LIMITS))
    await close_left(
        hook, DiscordPresenter(), platform="discord", where=left.whereabouts(), language=language
    )


def shown(sim: DiscordSim, interaction: SimInteraction) -> list[str]:
    return [m.content for m in sim.messages.values() if m.interaction is interaction]


async def test_half_an_answer_gets_the_note_as_a_followup(
    sim: DiscordSim, http: HTTPClient, wire: DiscordWire
) -> None:
    interaction, left = await deferred(sim, http)
    await left.show((HALF,), final=False)
    await close(wire, left)
    answer, note = shown(sim, interaction)
    assert answer == "Hope is a theological virtue, and"  # never edited: nothing hidden
    assert note.startswith(INTERRUPTED)


async def test_an_answer_still_thinking_is_told_to_ask_again(
    sim: DiscordSim, http: HTTPClient, wire: DiscordWire
) -> None:
    interaction, left = await deferred(sim, http)
    await close(wire, left, language="nl")
    [response] = shown(sim, interaction)  # the followup resolved the "is thinking…" response
    assert response == "citebot wordt opnieuw opgestart. Vraag het zo meteen opnieuw."
    assert interaction.original is not None
    assert not interaction.original.loading


async def test_after_the_token_expired_the_note_is_a_reply_in_the_channel(
    sim: DiscordSim, http: HTTPClient, wire: DiscordWire
) -> None:
    interaction, left = await deferred(sim, http)
    await left.show((HALF,), final=False)
    sim.expire_interaction_tokens()
    await close(wire, left)
    answer, note = sim.channel_messages(sim.text.id)[-2:]
    assert answer.interaction is interaction
    assert answer.content == "Hope is a theological virtue, and"
    assert note.content.startswith(INTERRUPTED)
    (posted,) = sim.requests_to("POST /channels/{channel_id}/messages")
    assert posted.json is not None
    assert posted.json["message_reference"]["message_id"] == str(answer.id)
    assert posted.json["allowed_mentions"] == {"parse": []}


async def test_a_private_question_gets_a_private_note(
    sim: DiscordSim, http: HTTPClient, wire: DiscordWire
) -> None:
    interaction, left = await deferred(sim, http, private=True)
    await close(wire, left)
    [response] = sim.channel_messages(sim.text.id, viewer=sim.user.id)
    assert response.interaction is interaction
    assert response.content == RESTARTING
    assert sim.channel_messages(sim.text.id) == []  # nobody else sees it


async def test_where_the_bot_is_not_the_note_never_goes_by_the_bot_token(
    sim: DiscordSim, http: HTTPClient, wire: DiscordWire
) -> None:
    """A user's install in a server without the bot: the note is a followup while the token
    lives and followups remain; then nothing, rather than a refused bot-token message."""
    interaction, left = await deferred(sim, http, channel_id=sim.foreign.id)
    await left.show((HALF,), final=False)
    await close(wire, left)
    assert shown(sim, interaction)[-1].startswith(INTERRUPTED)
    interaction.followups = 5  # spent by the answer's own messages and cards
    await close(wire, left)
    sim.expire_interaction_tokens()
    await close(wire, left)
    assert sim.requests_to("POST /channels/{channel_id}/messages") == []
    assert len(shown(sim, interaction)) == 2
