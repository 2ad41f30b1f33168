"""``/settings`` in a group, end to end: the real aiogram client on two workers of one Redis,
the simulated Telegram (``getChatMember`` as the Bot API documents it), the simulated upstream.
A group's owner changes the language and ``enabled`` with the buttons, ``daily_questions``
and the disclaimer with ``/settings set``; the next answers follow them whichever worker reads
the updates; a member is refused in their language and nothing changes."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import AsyncExitStack, asynccontextmanager

import pytest
from pydantic import SecretStr

import bot.shares
from bot.i18n.wording import Wording
from bot.render.text import clip
from bot.upstream.client import AnswerClient, RetryPolicy
from integrations.telegram.admin_view import TELEGRAM_KEYS
from tests.integrations.telegram.world import Worker, running, telegram_config, telegram_world
from tests.sim.redis_server import RedisProcess
from tests.sim.telegram import SimChat, SimMessage, SimUser, TelegramSim
from tests.sim.upstream import UpstreamSim, answer

LINE = "Generated answers: for pastoral questions, speak to Fr. Anthony."


@pytest.fixture(autouse=True)
def quick_leases(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(bot.shares, "TIMES", bot.shares.Times(lease_ttl=2.0, tick=0.3, settle=0.3))


@asynccontextmanager
async def worker(
    tg: TelegramSim, upstream: UpstreamSim, state_url: str, key: str
) -> AsyncIterator[Worker]:
    """A worker on ``state_url`` whose questions reach the upstream with its own ``key``."""
    config = telegram_config(tg, upstream, STATE_URL=state_url, UPSTREAM_API_KEY=key)
    async with (
        AnswerClient(
            base_url=upstream.base_url,
            api_key=SecretStr(key),
            model="magisterium-1",
            retry=RetryPolicy(max_retries=0),
        ) as client,
        running(config, client) as started,
    ):
        yield started


def reply_to(tg: TelegramSim, message: SimMessage) -> SimMessage | None:
    return next((m for m in tg.bot_messages(message.chat) if m.reply_to is message), None)


async def said_to(tg: TelegramSim, user: SimUser, chat: SimChat, text: str) -> SimMessage:
    """``user`` says ``text``; the bot's reply once it has one."""
    message = await tg.user_says(user, chat, text)
    await tg.until(lambda: reply_to(tg, message) is not None)
    found = reply_to(tg, message)
    assert found is not None
    return found


async def answered(
    tg: TelegramSim, user: SimUser, chat: SimChat, text: str, ends: str
) -> SimMessage:
    """``user`` asks ``text``; the bot's reply once it ends with ``ends``."""
    message = await tg.user_says(user, chat, text)

    def done() -> bool:
        found = reply_to(tg, message)
        return found is not None and found.readable.rstrip("_").endswith(ends)

    await tg.until(done)
    found = reply_to(tg, message)
    assert found is not None
    return found


async def press(tg: TelegramSim, user: SimUser, message: SimMessage, data: str) -> str:
    pressed = await tg.click(user, message, data)
    await tg.until(lambda: pressed.answered)
    return str(pressed.answer.get("text", ""))


def key_of(upstream: UpstreamSim, n: int) -> str:
    return upstream.requests[n].headers["Authorization"].removeprefix("Bearer ")


async def test_an_admins_changes_are_followed_on_every_worker_and_a_member_is_refused(
    redis_process: RedisProcess,
) -> None:
    french = Wording(language="fr", platform="telegram")
    async with AsyncExitStack() as stack:
        tg = await stack.enter_async_context(TelegramSim(webhook_retry=0.05))
        upstream = await stack.enter_async_context(UpstreamSim().running())
        upstream.queue(answer(["La grâce est un don."]), answer(["Le pardon est offert."]))
        first = await stack.enter_async_context(AsyncExitStack())
        await first.enter_async_context(worker(tg, upstream, redis_process.url, "sk-first"))
        await tg.until(lambda: bool(tg.requests_to("getUpdates")))
        await stack.enter_async_context(worker(tg, upstream, redis_process.url, "sk-second"))

        owner = tg.add_user("Owner", username="owner_p", language_code="en")
        alice = tg.add_user("Alice", username="alice_p", language_code="de")
        silent = tg.add_user("Stil", username="stil_p", language_code=None)
        group = tg.add_group("Parish", owner=owner, members=(alice, silent))
        await tg.add_bot_to(group, by=owner)

        listing = await said_to(tg, owner, group, "/settings@citebot")
        assert "private_by_default" not in listing.readable
        assert "language" in listing.readable
        assert ("⬜ Answer every new message", "st:auto_answer=on") in listing.buttons
        assert await press(tg, owner, listing, "st:language=fr") == (
            "language is now Français here."
        )
        await tg.until(lambda: ("✓ Français", "st:language=fr") in listing.buttons)
        # the listing, shown again in place, in the owner's English
        assert "• Language (`language`): **Français** · set here" in listing.readable
        said = await said_to(tg, owner, group, "/settings@citebot set daily_questions 2")
        assert said.readable == "`daily_questions` is now 2 here."
        said = await said_to(tg, owner, group, f"/settings@citebot set disclaimer {LINE}")
        assert said.readable == f"`disclaimer` is now {clip(LINE, 60)} here."

        german = Wording(language="de")
        refused = await said_to(tg, alice, group, "/settings@citebot set enabled off")
        assert refused.readable == german.admins_only()
        assert await press(tg, alice, listing, "st:enabled=off") == german.admins_only()
        bad = await said_to(tg, owner, group, "/settings@citebot set daily_questions lots")
        assert bad.readable == (
            "daily_questions: must be a whole number from 1 to 1,000,000,000, or none, got 'lots'"
        )
        # a key of another platform is not one here
        other = await said_to(tg, owner, group, "/settings@citebot set private_by_default on")
        assert other.readable == Wording().no_such_setting("private_by_default", TELEGRAM_KEYS)

        by_one = await answered(tg, silent, group, "/ask@citebot Qu'est-ce que la grâce ?", LINE)
        await first.aclose()  # the worker reading stops, or the other one was reading
        by_other = await answered(tg, silent, group, "/ask@citebot Et le pardon ?", LINE)
        over = await answered(tg, silent, group, "/ask@citebot Encore ?", "(UTC).")
        assert by_one.readable.startswith("La grâce est un don.")
        assert by_other.readable.startswith("Le pardon est offert.")
        assert "speaks French" in upstream.questions[0][0]["content"]
        assert key_of(upstream, 1) == "sk-second"
        limit = french.daily_limit_reached(2, 60, per_person=False).split(" dans ")[0]
        assert over.readable.split(" dans ")[0] == limit

        listing = await said_to(tg, owner, group, "/settings@citebot")
        assert await press(tg, owner, listing, "st:enabled=off") == "enabled is now Off here."
        closed = await answered(tg, silent, group, "/ask@citebot Toujours ?", ".")
        assert closed.readable == french.not_allowed_here()
        history = await said_to(tg, owner, group, "/settings@citebot history")
        assert [line.split(" · ")[-1] for line in history.readable.split("\n")[1:]] == [
            "`language`: not set → fr",
            "`daily_questions`: not set → 2",
            f"`disclaimer`: not set → {clip(LINE, 60)}",
            "`enabled`: not set → off",
        ]
        assert len(upstream.requests) == 2
        tg.assert_valid()


async def test_settings_belong_to_a_group() -> None:
    async with telegram_world() as world:
        alice = world.person("Alice")
        chat = world.tg.private_chat(alice)
        await world.tg.user_says(alice, chat, "/settings")
        await world.idle()
        [said] = world.tg.bot_messages(chat)
        assert said.readable == Wording().no_place_settings_here()
