"""Forgetting on Telegram, end to end: ``/forget_me`` asks first, with a button only its asker
can use, then deletes everything kept about them (their answers' records, votes, conversations'
memory, the reply chains' notes) and says so in their language; the bot removed from a group
(``my_chat_member``, new status ``left`` or ``kicked``) deletes that group's data. Each is
checked by reading the whole store back (every SQLite row), as tests/bot/state/test_forget.py
does."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

import pytest

from bot.i18n.wording import Wording
from tests.bot.state.scan import everything_stored
from tests.integrations.telegram.world import CITED, World, telegram_world
from tests.patience import PATIENCE
from tests.sim.redis_server import RedisProcess
from tests.sim.telegram import SimChat, SimMessage, SimUser
from tests.sim.upstream import answer

GERMAN = Wording(language="de", platform="telegram")


async def until(holds: Callable[[], Awaitable[bool]], *, within: float = PATIENCE) -> None:
    """Until ``holds()`` (a removal's deletion runs in the background)."""
    deadline = time.monotonic() + within
    while not await holds():
        assert time.monotonic() < deadline, "never"
        await asyncio.sleep(0.05)


async def ask(world: World, user: SimUser, chat: SimChat, text: str) -> SimMessage:
    """``user`` asks ``text`` (in a group, with /ask); citebot's answer (its first message)."""
    asked = await world.tg.user_says(user, chat, f"/ask@citebot {text}" if chat.id < 0 else text)
    await world.answered(len(world.upstream.requests) + 1)
    return next(m for m in world.tg.bot_messages(chat) if m.id > asked.id)


async def scanned(world: World, url: str) -> str:
    return await everything_stored(world.service.state, url, "")


async def test_forget_me_asks_then_deletes_everything_kept_about_its_asker(
    tmp_path: Path,
) -> None:
    url = f"sqlite:///{tmp_path / 'state.db'}"
    async with telegram_world({"STATE_URL": url}) as world:
        world.upstream.queue(CITED, answer(["Mercy is love."]), answer(["Hope is trust."]))
        alice = world.person("Alice", language_code="de")
        bob = world.person("Bob")
        group = await world.group()
        in_group = await ask(world, alice, group, "Why is life sacred?")
        await ask(world, alice, world.tg.private_chat(alice), "What is mercy?")
        by_bob = await ask(world, bob, group, "What is hope?")
        for voter, answered in ((alice, in_group), (bob, by_bob)):
            await world.tg.click(voter, answered, "fb:down")
        await world.idle()
        before = await scanned(world, url)
        assert str(alice.id) in before
        assert f"thread-of:telegram:{group.id}:" in before

        command = await world.tg.user_says(alice, group, "/forget_me@citebot")
        await world.idle()
        [asked] = [m for m in world.tg.bot_messages(group) if m.reply_to is command]
        assert asked.readable == (
            f"{GERMAN.forget_me_asks()}\n\n{GERMAN.forget_me_leaves('Telegram')}"
        )
        assert asked.buttons == [(GERMAN.forget_me_button(), f"fm:{alice.id}")]

        pressed = await world.tg.click(bob, asked, f"fm:{alice.id}")
        await world.tg.until(lambda: pressed.answered)
        assert pressed.answer == {
            "text": Wording().not_your_button(),
            "show_alert": True,
        }
        assert set(before.splitlines()) <= set((await scanned(world, url)).splitlines())

        pressed = await world.tg.click(alice, asked, f"fm:{alice.id}")
        await world.tg.until(lambda: pressed.answered and asked.edits != [])
        await world.idle()
        assert asked.readable == f"{GERMAN.forgot_you()}\n\n{GERMAN.forget_me_leaves('Telegram')}"
        assert asked.buttons == []
        after = await scanned(world, url)
        assert str(alice.id) not in after
        assert str(bob.id) in after  # everyone else's things stay
        assert "Hope is trust." in after or "What is hope?" in after


@pytest.mark.parametrize("banned", [False, True])
async def test_a_group_that_removes_the_bot_is_forgotten(tmp_path: Path, banned: bool) -> None:
    url = f"sqlite:///{tmp_path / 'state.db'}"
    async with telegram_world({"STATE_URL": url}) as world:
        world.upstream.queue(CITED, answer(["Mercy is love."]))
        alice = world.person("Alice")
        group = await world.group(admin=True)
        owner = world.person("Owner")
        settings = await world.tg.user_says(owner, group, "/settings@citebot set daily_questions 5")
        await world.idle()
        assert [m.readable for m in world.answer_to(settings)] == [
            "`daily_questions` is now 5 here."
        ]
        answered = await ask(world, alice, group, "Why is life sacred?")
        await world.tg.click(alice, answered, "fb:up")
        await ask(world, alice, world.tg.private_chat(alice), "What is mercy?")
        await world.idle()
        assert str(group.id) in await scanned(world, url)
        await world.tg.demote_bot(group, by=owner)  # still a member: nothing goes
        await world.idle()
        await asyncio.sleep(0.2)
        assert "daily_questions" in await scanned(world, url)

        await world.tg.remove_bot_from(group, by=owner, banned=banned)
        await until(lambda: _without(world, url, str(group.id)))
        assert str(alice.id) in await scanned(world, url)  # her private chat is not the group


async def _without(world: World, url: str, text: str) -> bool:
    return text not in await scanned(world, url)


async def test_a_store_that_does_not_answer_deletes_nothing_and_keeps_the_button(
    redis_process: RedisProcess,
) -> None:
    async with telegram_world({"STATE_URL": redis_process.url}) as world:
        alice = world.person("Alice", language_code="de")
        chat = world.tg.private_chat(alice)
        await world.tg.user_says(alice, chat, "/forget_me")
        await world.idle()
        [asked] = world.tg.bot_messages(chat)
        redis_process.kill()
        pressed = await world.tg.click(alice, asked, f"fm:{alice.id}")
        await world.tg.until(lambda: pressed.answered and asked.edits != [])
        assert asked.readable.startswith(GERMAN.could_not_forget())
        assert asked.buttons == [(GERMAN.forget_me_button(), f"fm:{alice.id}")]  # to try again
