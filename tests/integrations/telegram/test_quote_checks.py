"""Quote checks on Telegram, end to end: the upstream cites pages of a loopback site that
``QUOTE_CHECK_ALLOW_HOSTS`` lets citebot read; each card's quote is followed by what its page
says, edited into the cards message once the pages are read (in the form the cards went out
in: a rich message, or classic HTML where the server has no rich messages)."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from tests.integrations.telegram.world import World, telegram_world
from tests.sim.pages import (
    CHANGED,
    EVERY_KIND,
    FOUND,
    NOT_FOUND,
    ON_PAGE,
    PAYWALLED,
    Site,
    cited,
    quote_checks_finished,
)


@pytest.fixture
async def world(site: Site) -> AsyncIterator[World]:
    """A worker with quote checking on, allowed to read the loopback site."""
    env = {"QUOTE_CHECK": "on", "QUOTE_CHECK_ALLOW_HOSTS": site.allowance}
    async with telegram_world(env) as running:
        yield running


async def test_each_card_says_whether_its_quote_is_on_its_page_edited_in_once(
    world: World, site: Site
) -> None:
    world.upstream.queue(cited(site, *EVERY_KIND))
    group = await world.group()
    await world.tg.user_says(world.person("Alice"), group, "/ask@citebot What is grace?")
    await world.answered()
    await quote_checks_finished()

    answer_message, cards = world.tg.bot_messages(group)
    assert cards.reply_to is answer_message
    lines = cards.rich_text.splitlines()
    assert lines[lines.index(f"> {ON_PAGE}") + 1] == FOUND
    assert lines[lines.index(f"> {CHANGED}") + 1] == NOT_FOUND
    assert not lines[lines.index(f"> {PAYWALLED}") + 1].startswith(("✓", "⚠"))
    assert 1 <= len(cards.edits) <= 2  # once per card that gains a verdict, at most
    assert FOUND not in cards.edits[0]
    edits = world.tg.requests_to("editMessageText")[-len(cards.edits) :]
    assert {edit.params["message_id"] for edit in edits} == {cards.id}
    assert all("rich_message" in edit.params for edit in edits)


async def test_cards_sent_in_classic_html_get_their_verdicts_in_classic_html(
    world: World, site: Site
) -> None:
    world.tg.refuse_next("sendRichMessage", 404, "Not Found: method not found")
    world.upstream.queue(cited(site, *EVERY_KIND))
    alice = world.person("Alice")
    chat = world.tg.private_chat(alice)
    await world.tg.user_says(alice, chat, "What is grace?")
    await world.answered()
    await quote_checks_finished()

    _answer, cards = world.tg.bot_messages(chat)
    assert cards.rich is None
    assert f"> {ON_PAGE}\n_{FOUND}_" in cards.readable
    assert f"> {CHANGED}\n_{NOT_FOUND}_" in cards.readable
    assert 1 <= len(cards.edits) <= 2
    edits = world.tg.requests_to("editMessageText")[-len(cards.edits) :]
    assert all(edit.params["parse_mode"] == "HTML" for edit in edits)
