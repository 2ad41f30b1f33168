""" "Check with sources" on someone's message: the claim quoted at once (its author shown,
never pinged), asked of the sources in the asker's language, and answered with its footnotes
and its cards, whose quotes are checked on their pages; publicly in a thread on the quote, or
privately as the asker chose."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from bot.i18n.wording import Wording
from tests.integrations.discord.harness import Harness, running_harness
from tests.places import at
from tests.sim.discord import DiscordSim, SimInteraction, SimMessage
from tests.sim.discord.model import EPHEMERAL
from tests.sim.pages import FOUND, ON_PAGE, Site, cited, quote_checks_finished
from tests.sim.upstream import Stream, UpstreamSim, answer

CLAIM = "Grace has to be earned by good works, <@everyone> knows that."
CHECK, PRIVATELY = "Check with sources", "Check with sources privately"


@pytest.fixture
async def checking(sim: DiscordSim, upstream: UpstreamSim, site: Site) -> AsyncIterator[Harness]:
    env = {"QUOTE_CHECK": "on", "QUOTE_CHECK_ALLOW_HOSTS": site.allowance}
    async with running_harness(sim, upstream, env=env) as running:
        yield running


async def posted(
    sim: DiscordSim, text: str = CLAIM, *, channel_id: int | None = None
) -> SimMessage:
    """Someone (the admin, here) says something in a channel."""
    return await sim.user_message(channel_id or sim.text.id, text, user_id=sim.admin.id)


async def checked(
    harness: Harness, target: SimMessage, entry: str = CHECK, *, locale: str = "en-US"
) -> SimInteraction:
    done = len(harness.service.outcomes)
    interaction = await harness.sim.message_command(entry, target, locale=locale)
    await harness.answers(done + 1)
    await quote_checks_finished()
    return interaction


async def test_a_claim_is_quoted_and_answered_with_checked_sources_in_a_thread(
    checking: Harness, sim: DiscordSim, site: Site
) -> None:
    checking.upstream.queue(cited(site, ("/found", ON_PAGE)))
    target = await posted(sim)
    interaction = await checked(checking, target)

    quote = interaction.original
    assert quote is not None
    assert not quote.ephemeral
    lead, quoted = quote.content.split("\n")
    assert lead.startswith(f"-# 🔎 Check with sources · <@{sim.admin.id}> · [↗](<https://")
    assert quoted == "> Grace has to be earned by good works, <\u200b@\u200beveryone> knows that."
    by_citebot = [m for m in sim.messages.values() if m.author.id == sim.bot.id]
    assert [ping for m in by_citebot for ping in m.pinged] == []  # the author never pinged
    asked = checking.upstream.questions[0][-1]["content"]
    assert asked == Wording().claim_question(CLAIM, Wording().labels.quoted)

    thread = sim.thread_of(quote.id)
    assert thread is not None
    assert thread.name == CLAIM
    answer_message, cards, *_ = [m for m in thread.messages if m.author.id == sim.bot.id]
    assert answer_message.content.startswith("A gift. Said here")
    [card] = cards.embeds
    assert card["description"].endswith(f"> {ON_PAGE}\n*{FOUND}*")  # its quote checked

    follow = await checking.ask("Is that so?", channel_id=thread.id)
    assert follow.channel_id == thread.id  # the thread is a conversation, as /ask's are
    assert checking.upstream.questions[1][0]["content"] == asked


async def test_checked_privately_only_the_asker_sees_it(
    checking: Harness, sim: DiscordSim, site: Site
) -> None:
    checking.upstream.queue(cited(site, ("/found", ON_PAGE)))
    interaction = await checked(checking, await posted(sim), PRIVATELY)
    assert interaction.original is not None
    assert interaction.original.ephemeral
    mine = [m for m in sim.messages.values() if m.interaction is interaction]
    assert len(mine) >= 3  # the quote, the answer, its cards
    assert all(m.ephemeral for m in mine)
    assert any(m.embeds and m.embeds[0]["description"].endswith(f"*{FOUND}*") for m in mine)
    assert sim.requests_to("POST /channels/{channel_id}/messages/{message_id}/threads") == []
    assert [m.author.id for m in sim.channel_messages(sim.text.id)] == [sim.admin.id]


async def test_private_by_default_keeps_a_check_private(harness: Harness, sim: DiscordSim) -> None:
    await harness.service.places.set(
        at(f"discord:{sim.guild_id}"), "private_by_default", "on", by="admin"
    )
    harness.upstream.queue(cited_nowhere())
    interaction = await checked(harness, await posted(sim))
    assert interaction.original is not None
    assert interaction.original.ephemeral


async def test_the_question_goes_in_the_askers_language(harness: Harness, sim: DiscordSim) -> None:
    harness.upstream.queue(cited_nowhere())
    interaction = await checked(harness, await posted(sim), locale="fr")
    french = Wording(language="fr")
    assert harness.upstream.questions[0][-1]["content"] == french.claim_question(
        CLAIM, french.labels.quoted
    )
    assert interaction.original is not None
    assert "🔎 Vérifier avec les sources" in interaction.original.content


async def test_a_message_without_text_has_nothing_to_check(
    harness: Harness, sim: DiscordSim
) -> None:
    target = sim.add_message(sim.text, sim.admin, {"embeds": [{"title": "A picture"}]})
    interaction = await sim.message_command(CHECK, target, locale="de")
    await sim.until(lambda: interaction.original is not None)
    assert interaction.original is not None
    assert interaction.original.ephemeral
    assert interaction.original.content == Wording(language="de").nothing_to_check()
    assert interaction.acks[0]["data"]["flags"] & EPHEMERAL
    assert harness.upstream.requests == []


def cited_nowhere() -> Stream:
    return answer(["The sources say grace is a free gift."])
