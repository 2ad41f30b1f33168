"""Quote checks on Discord, end to end: the real discord.py client against the simulated
Discord, the simulated upstream citing pages on a loopback site that ``QUOTE_CHECK_ALLOW_HOSTS``
lets citebot read. What a person sees is each card's quote followed by what its page says."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import pytest

from tests.integrations.discord.harness import Harness, running_harness
from tests.sim.discord import DiscordSim, SimMessage
from tests.sim.pages import (
    EVERY_KIND,
    FOUND,
    NOT_FOUND,
    ON_PAGE,
    PAYWALLED,
    Site,
    article,
    changes,
    cited,
    quote_checks_finished,
)
from tests.sim.upstream import UpstreamSim, answer

EDITS = "PATCH /channels/{channel_id}/messages/{message_id}"
CREATES = "/channels/{channel_id}/messages"
WEBHOOK_EDITS = "PATCH /webhooks/{application_id}/{token}/messages/{message_id}"


@pytest.fixture
async def checking(sim: DiscordSim, upstream: UpstreamSim, site: Site) -> AsyncIterator[Harness]:
    """The adapter with quote checking on, allowed to read the loopback site."""
    env = {"QUOTE_CHECK": "on", "QUOTE_CHECK_ALLOW_HOSTS": site.allowance}
    async with running_harness(sim, upstream, env=env) as running:
        yield running


def cards_message(harness: Harness, answer_message: SimMessage) -> SimMessage:
    [cards, *_] = harness.sim.thread_messages(answer_message.id)
    return cards


def versions(harness: Harness, message: SimMessage) -> list[list[str]]:
    """Each embed's description as the message showed it: when created, then at each edit."""
    sent = [
        request.json
        for request in harness.sim.requests
        if request.status == 200
        and (
            (request.method == "PATCH" and request.path.endswith(f"/messages/{message.id}"))
            or (request.route == CREATES and request.reply.get("id") == str(message.id))
        )
    ]
    return [[embed.get("description", "") for embed in body["embeds"]] for body in sent]


async def test_each_card_says_whether_its_quote_is_on_its_page_edited_once(
    checking: Harness, site: Site
) -> None:
    checking.upstream.queue(cited(site, *EVERY_KIND))
    message = await checking.ask("What is grace?")
    await quote_checks_finished()

    cards = cards_message(checking, message)
    found, changed, unread = (embed["description"] for embed in cards.embeds)
    assert found.endswith(f"> {ON_PAGE}\n*{FOUND}*")
    assert changed.endswith(f"*{NOT_FOUND}*")
    assert FOUND not in unread  # a 403 is not the source: no verdict
    assert "⚠" not in unread
    assert [embed["title"] for embed in cards.embeds] == [
        "Page /found",
        "Page /changed",
        "Page /paywalled",
    ]
    shown = versions(checking, cards)
    assert changes(shown) == [1, 1, 0]  # each card edited once; the unread one never
    edits = checking.sim.requests_to(EDITS)
    assert edits
    assert all(edit.status == 200 for edit in edits)  # the spec accepts each edit
    assert all(edit.json["allowed_mentions"] == {"parse": []} for edit in edits)
    assert site.paths().count("/found") == 1


async def test_an_unreadable_page_leaves_its_card_as_it_was(checking: Harness, site: Site) -> None:
    checking.upstream.queue(cited(site, ("/paywalled", PAYWALLED)))
    message = await checking.ask("What is prayer?")
    await quote_checks_finished()

    assert "/paywalled" in site.paths()  # it was asked for, and answered 403
    assert checking.sim.requests_to(EDITS) == []
    [embed] = cards_message(checking, message).embeds
    assert embed["description"].endswith(f"> {PAYWALLED}")


async def test_a_slow_page_delays_neither_the_answer_nor_the_next_question(
    checking: Harness, site: Site
) -> None:
    release = asyncio.Event()
    site.held("/slow", article(ON_PAGE), release)
    checking.upstream.queue(cited(site, ("/slow", ON_PAGE)), answer(["It lasts."]))
    message = await checking.ask("What is grace?")

    # the answer and its card are shown while the page has not answered yet
    assert "A gift. Said here" in message.content
    cards = cards_message(checking, message)
    assert cards.embeds[0]["description"].endswith(f"> {ON_PAGE}")
    await site.hanging()
    thread = checking.sim.thread_of(message.id)
    assert thread is not None
    follow = await checking.ask("Does it last?", channel_id=thread.id)
    assert "It lasts." in follow.content
    assert site.in_flight == 1  # the follow-up was answered while the page still hung

    release.set()
    await quote_checks_finished()
    assert cards.embeds[0]["description"].endswith(f"*{FOUND}*")
    assert changes(versions(checking, cards)) == [1]


async def test_with_quote_check_off_no_page_is_read_and_no_card_edited(
    sim: DiscordSim, upstream: UpstreamSim, site: Site
) -> None:
    async with running_harness(sim, upstream, env={"QUOTE_CHECK": "off"}) as harness:
        harness.upstream.queue(cited(site, ("/found", ON_PAGE)))
        message = await harness.ask("What is grace?")
        await quote_checks_finished()
        [embed] = cards_message(harness, message).embeds
    assert site.paths() == []
    assert harness.sim.requests_to(EDITS) == []
    assert embed["description"].endswith(f"> {ON_PAGE}")


async def test_a_private_answers_cards_are_edited_through_its_interaction(
    checking: Harness, site: Site
) -> None:
    """No thread for a private answer: its cards are followups only the asker sees, edited
    through the interaction's webhook (a bot-token edit cannot reach them)."""
    checking.upstream.queue(cited(site, ("/found", ON_PAGE)))
    message = await checking.ask("What is grace?", private=True)
    await quote_checks_finished()

    sim = checking.sim
    [answer_message, cards, *_] = sim.channel_messages(sim.text.id, viewer=sim.user.id)
    assert answer_message is message
    assert cards.ephemeral
    assert cards.embeds[0]["description"].endswith(f"*{FOUND}*")
    webhook_edits = sim.requests_to(
        "PATCH /webhooks/{application_id}/{token}/messages/{message_id}"
    )
    assert [e.path.rsplit("/", 1)[-1] for e in webhook_edits if e.json.get("embeds")] == [
        str(cards.id)
    ]
    assert sim.requests_to(EDITS) == []
