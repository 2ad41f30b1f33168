"""A Telegram chat's settings, set by an operator on the workers' STATE_URL (as ``citebot
settings set telegram:CHAT_ID …`` does), decide the next question there: a group turned off is
told so, a group's language speaks to askers whose app says none, a disclaimer closes each
answer without pinging anyone."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

from bot.places import Places
from bot.state import open_state
from tests.integrations.telegram.world import World, telegram_world
from tests.places import at
from tests.sim.upstream import answer


@asynccontextmanager
async def operated(tmp_path: Path) -> AsyncIterator[tuple[World, Places]]:
    """A worker on a SQLite state store, and the operator's handle on the same store."""
    url = f"sqlite:///{tmp_path / 'state.db'}"
    async with telegram_world({"STATE_URL": url}) as world, open_state(url) as state:
        yield world, Places(state, defaults=world.config.settings)


async def test_a_group_turned_off_is_told_so(tmp_path: Path) -> None:
    async with operated(tmp_path) as (world, places):
        group = await world.group()
        await places.set(at(f"telegram:{group.id}"), "enabled", "off", by="operator")
        asked = await world.tg.user_says(world.person("Alice"), group, "/ask@citebot Why?")
        await world.idle()
        assert [m.readable for m in world.answer_to(asked)] == [
            "citebot is not enabled here. Please ask in a group where it is allowed."
        ]
        assert world.upstream.requests == []


async def test_without_the_askers_language_the_groups_language_speaks(tmp_path: Path) -> None:
    async with operated(tmp_path) as (world, places):
        group = await world.group()
        await places.set(at(f"telegram:{group.id}"), "language", "nl", by="operator")
        world.upstream.queue(answer(["Genade is een gave."]))
        silent = world.person("Stil", language_code=None)
        await world.tg.user_says(silent, group, "/help@citebot")
        await world.tg.user_says(silent, group, "/ask@citebot Wat is genade?")
        await world.answered()
        helped, answered = world.tg.bot_messages(group)
        [question] = world.upstream.questions
    assert helped.readable.startswith("Stuur me een vraag")
    assert answered.readable == "Genade is een gave."
    assert "speaks Dutch" in question[0]["content"]


async def test_the_disclaimer_closes_the_answer_with_its_mentions_inert(tmp_path: Path) -> None:
    async with operated(tmp_path) as (world, places):
        alice = world.person("Alice")
        chat = world.tg.private_chat(alice)
        await places.set(
            at(f"telegram:{chat.id}"), "disclaimer", "Generated: ask @alice_0 first.", by="operator"
        )
        world.upstream.queue(answer(["Grace is a gift."]))
        await world.tg.user_says(alice, chat, "What is grace?")
        await world.answered()
        [answered] = world.tg.bot_messages(chat)
        assert answered.readable.startswith("Grace is a gift.\n\n_Generated: ask @")
        assert world.tg.pinged() == []
