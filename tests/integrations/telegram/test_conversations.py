"""How people talk to citebot in a Telegram group, end to end: ``/check`` in reply to someone's
message asks the sources about it (its author named, never pinged; the answer and its cards
with their quotes' verdicts in reply); ``/check`` alone says how; a group with ``auto_answer``
on has every new message answered, but not a command, a reply to someone else or a message
mentioning someone; replies to citebot are follow-ups unless ``follow_ups_without_mention`` is
off, when they need /ask or a mention."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.i18n.wording import Wording
from bot.places import CACHE_TTL, Places
from bot.state import open_state
from integrations.telegram.words import check_how_to
from tests.integrations.telegram.world import World, telegram_world
from tests.places import at
from tests.sim.pages import CHANGED, EVERY_KIND, ON_PAGE, Site, cited, quote_checks_finished
from tests.sim.upstream import answer


def spaced(text: str) -> str:
    """French no-break spaces as the simulator's rich text reads them: spaces."""
    return text.replace("\xa0", " ")


@pytest.fixture
async def operated(tmp_path: Path) -> AsyncIterator[tuple[World, Places]]:
    """A worker on a SQLite state store (its groups' settings set as an admin would), and the
    operator's handle on the same store."""
    url = f"sqlite:///{tmp_path / 'state.db'}"
    async with telegram_world({"STATE_URL": url}) as world, open_state(url) as state:
        yield world, Places(state, defaults=world.config.settings)


async def test_check_in_reply_asks_the_sources_about_someones_message(site: Site) -> None:
    env = {"QUOTE_CHECK": "on", "QUOTE_CHECK_ALLOW_HOSTS": site.allowance}
    async with telegram_world(env) as world:
        world.upstream.queue(cited(site, *EVERY_KIND[:2]))
        bob, alice = world.person("Bob"), world.person("Alice", language_code="fr")
        group = await world.group(admin=True)
        claim = await world.tg.user_says(bob, group, "The Church says grace is earned, @owner_0.")
        check = await world.tg.user_says(alice, group, "/check@citebot", reply_to=claim)
        await world.answered()
        await quote_checks_finished()

        [quote] = world.answer_to(claim)
        french = Wording(language="fr")
        assert quote.readable.splitlines()[0] == f"🔎 **{french.check_with_sources()} · Bob**"
        assert "grace is earned" in quote.readable
        [asked] = world.upstream.questions
        assert asked[-1]["content"] == french.claim_question(
            "The Church says grace is earned, @owner_0.", french.labels.quoted
        )
        [answer_message] = world.answer_to(quote)
        [cards] = [m for m in world.tg.bot_messages(group) if m.reply_to is answer_message]
        lines = cards.rich_text.replace("\xa0", " ").splitlines()
        assert lines[lines.index(f"> {ON_PAGE}") + 1].endswith(
            french.labels.quote_found.replace("\xa0", " ")
        )
        assert lines[lines.index(f"> {CHANGED}") + 1].endswith(
            french.labels.quote_not_found.replace("\xa0", " ")
        )
        assert world.tg.pinged() == []
        assert world.answer_to(check) == []

        alone = await world.tg.user_says(alice, group, "/check@citebot")
        await world.idle()
        assert [m.readable for m in world.answer_to(alone)] == [check_how_to(french)]


async def test_auto_answer_answers_every_new_message_but_not_what_is_meant_for_others(
    operated: tuple[World, Places],
) -> None:
    world, places = operated
    world.upstream.queue(answer(["Grace is a gift."]), answer(["Mercy is love."]))
    group = await world.group(admin=True)  # an admin bot gets every message
    await places.set(at(f"telegram:{group.id}"), "auto_answer", "on", by="operator")
    alice, bob = world.person("Alice"), world.person("Bob")
    asked = await world.tg.user_says(alice, group, "What is grace?")
    await world.answered()
    await world.tg.user_says(bob, group, "Thanks @alice_1, see you")
    await world.tg.user_says(bob, group, "I agree", reply_to=asked)
    await world.tg.user_says(bob, group, "/start")
    await world.idle()
    assert [m.readable for m in world.answer_to(asked)] == ["Grace is a gift."]
    assert len(world.upstream.requests) == 1

    await places.set(at(f"telegram:{group.id}"), "auto_answer", "off", by="operator")
    await asyncio.sleep(CACHE_TTL)  # the worker's read of the settings, cached a second
    await world.tg.user_says(alice, group, "What is mercy?")
    await world.idle()
    assert len(world.upstream.requests) == 1


async def test_a_reply_to_citebot_needs_a_mention_where_follow_ups_are_off(
    operated: tuple[World, Places],
) -> None:
    world, places = operated
    world.upstream.queue(answer(["Grace is a gift."]), answer(["It is free."]))
    group = await world.group()
    alice = world.person("Alice")
    await world.tg.user_says(alice, group, "/ask@citebot What is grace?")
    await world.answered()
    [answered] = world.tg.bot_messages(group)
    await places.set(at(f"telegram:{group.id}"), "follow_ups_without_mention", "off", by="operator")
    await asyncio.sleep(CACHE_TTL)
    await world.tg.user_says(alice, group, "Is it earned?", reply_to=answered)
    await world.idle()
    assert len(world.upstream.requests) == 1

    await places.set(at(f"telegram:{group.id}"), "follow_ups_without_mention", "on", by="operator")
    await asyncio.sleep(CACHE_TTL)
    follow_up = await world.tg.user_says(alice, group, "Is it earned?", reply_to=answered)
    await world.answered(2)
    assert [m.readable for m in world.answer_to(follow_up)] == ["It is free."]
    assert [m["content"] for m in world.upstream.questions[1] if m["role"] == "user"] == [
        "What is grace?",
        "Is it earned?",
    ]
