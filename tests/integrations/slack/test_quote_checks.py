"""Quote checks on Slack, end to end: the real slack-bolt app in Socket Mode against the
simulated Slack, the simulated upstream citing pages on a loopback site that
``QUOTE_CHECK_ALLOW_HOSTS`` lets citebot read. Each card's quote is followed by what its page
says, edited in once (chat.update) after the answer."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any

import pytest

from tests.integrations.slack.conftest import World, slack_world
from tests.sim.pages import (
    CHANGED,
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
from tests.sim.slack import Message
from tests.sim.upstream import answer

CHANNEL = "C0GENERAL"


@pytest.fixture
async def world(site: Site) -> AsyncIterator[World]:
    """A worker with quote checking on, allowed to read the loopback site."""
    env = {"QUOTE_CHECK": "on", "QUOTE_CHECK_ALLOW_HOSTS": site.allowance}
    async with slack_world(env) as running:
        yield running


async def ask(world: World, question: str, *, thread_ts: str | None = None) -> str:
    """A person mentions the app; once the answer is done, the thread's ts."""
    asked = await world.sim.mention(CHANNEL, question, thread_ts=thread_ts)
    await world.answered(CHANNEL, asked.ts, requests=len(world.upstream.requests) + 1)
    return thread_ts or asked.ts


def passages(blocks: list[dict[str, Any]]) -> list[str]:
    """What each card shows in its rich text (its quotes and their verdicts), card by card."""
    return [
        " | ".join(
            element["text"]
            for part in block["elements"]
            for element in part["elements"]
            if element.get("type") == "text"
        )
        for block in blocks
        if block["type"] == "rich_text"
    ]


def versions(world: World, message: Message) -> list[list[str]]:
    """Each card's passages as the message showed them: when posted, then at each edit."""
    calls = world.sim.calls_to("chat.postMessage", "chat.update")
    return [passages(c.args["blocks"]) for c in calls if c.ok and c.ts == message.ts]


async def test_each_card_says_whether_its_quote_is_on_its_page_edited_once(
    world: World, site: Site
) -> None:
    world.upstream.queue(cited(site, *EVERY_KIND))
    ts = await ask(world, "Why is life sacred?")
    await quote_checks_finished()

    [cards] = world.cards_of(CHANNEL, ts)
    found, changed, unread = passages(cards.blocks or [])
    assert found == f"{ON_PAGE} | {FOUND}"
    assert changed == f"{CHANGED} | {NOT_FOUND}"
    assert unread == PAYWALLED  # a 403 is not the source: no verdict
    assert changes(versions(world, cards)) == [1, 1, 0]
    updates = [c for c in world.sim.calls_to("chat.update") if c.ts == cards.ts]
    assert all(update.ok for update in updates)  # Slack's Block Kit takes each edit
    assert cards.text == "Sources: 1. Page /found · 2. Page /changed · 3. Page /paywalled"


async def test_an_unreadable_page_leaves_its_card_as_it_was(world: World, site: Site) -> None:
    world.upstream.queue(cited(site, ("/paywalled", PAYWALLED)))
    ts = await ask(world, "What is work?")
    await quote_checks_finished()

    assert "/paywalled" in site.paths()
    [cards] = world.cards_of(CHANNEL, ts)
    assert cards.edits == 0
    assert passages(cards.blocks or []) == [PAYWALLED]


async def test_a_slow_page_delays_neither_the_answer_nor_the_next_question(
    world: World, site: Site
) -> None:
    release = asyncio.Event()
    site.held("/slow", article(ON_PAGE), release)
    world.upstream.queue(cited(site, ("/slow", ON_PAGE)), answer(["It is."]))
    ts = await ask(world, "Why is life sacred?")
    await site.hanging()

    [cards] = world.cards_of(CHANNEL, ts)
    assert passages(cards.blocks or []) == [ON_PAGE]
    await ask(world, "Is it?", thread_ts=ts)
    assert "It is." in world.answer_of(CHANNEL, ts)[-1].shown
    assert site.in_flight == 1  # answered while the page still hung

    release.set()
    await quote_checks_finished()
    assert passages(cards.blocks or []) == [f"{ON_PAGE} | {FOUND}"]
    assert cards.edits == 1
