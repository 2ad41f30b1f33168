"""What held under the hostile review, kept holding: webhook secrets compared in constant time,
mentions inert on every platform, an admin's check at every press (a forged one included),
forget-me scoped to whoever presses it, secrets kept out of logs."""

from __future__ import annotations

import hmac
import json
import logging
import socket
from collections.abc import Callable

import aiohttp
import pytest

from bot.i18n.wording import Wording
from bot.platforms import load_platform
from bot.render.formatter import AnswerFormatter
from bot.upstream.events import AnswerDone
from integrations.telegram.updates import SECRET_HEADER
from tests.integrations.telegram.world import CITED, World, telegram_world
from tests.sim.telegram import SimMessage, SimUser
from tests.sim.upstream import answer


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


async def test_a_webhook_delivery_is_checked_in_constant_time_and_refused_without_its_secret(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    compared: list[tuple[bytes, bytes]] = []
    real: Callable[[bytes, bytes], bool] = hmac.compare_digest

    def compare_digest(a: bytes, b: bytes) -> bool:
        compared.append((a, b))
        return real(a, b)

    monkeypatch.setattr(hmac, "compare_digest", compare_digest)
    port = free_port()
    url = f"http://127.0.0.1:{port}/telegram/updates"
    env = {"TELEGRAM_WEBHOOK_URL": url, "TELEGRAM_WEBHOOK_PORT": str(port)}
    async with telegram_world(env) as world:
        secret = world.config.telegram.secret
        alice = world.person("Alice")
        await world.tg.user_says(alice, world.tg.private_chat(alice), "Why?")
        await world.answered()
        hook = world.tg.updates.webhook
        assert hook is not None
        body = json.dumps({**hook.deliveries[-1]["update"], "update_id": 10**9})
        almost = secret[:-1] + ("A" if secret[-1] != "A" else "B")  # all but its last character
        async with aiohttp.ClientSession() as session:
            headers = {"Content-Type": "application/json", SECRET_HEADER: almost}
            async with session.post(url, data=body, headers=headers) as refused:
                assert refused.status == 401

    assert (almost.encode(), secret.encode()) in compared
    assert len(world.upstream.requests) == 1


@pytest.mark.parametrize("platform", ["discord", "slack", "telegram"])
def test_nothing_the_upstream_writes_can_ping(platform: str) -> None:
    text = "@everyone @here <@123> <@&456> <!channel> <!here> <!subteam^S1> <#C1> say hi."
    formatter = AnswerFormatter(load_platform(platform).presenter())
    formatter.feed(text)
    done = formatter.finish(AnswerDone(text=text, finish_reason="stop", citations=()))
    said = json.dumps([*done.answer, *done.thread], ensure_ascii=False)

    if platform == "discord":
        assert all(p["allowed_mentions"] == {"parse": []} for p in done.answer)
    for live in ("@everyone", "@here", "<!channel>", "<!here>", "<@123>", "<!subteam^S1>"):
        if platform != "telegram":  # Telegram has no such mentions; its text is plain HTML
            assert live not in said.replace("\\u200b", "\u200b")


async def answered_in_a_group(world: World, person: SimUser) -> SimMessage:
    """``person`` asks in a group; citebot's answer."""
    group = await world.group()
    await world.tg.user_says(person, group, "/ask@citebot Why is life sacred?")
    await world.answered(len(world.upstream.requests) + 1)
    return world.tg.bot_messages(group)[0]


async def test_a_members_forged_setting_press_is_refused_and_changes_nothing() -> None:
    async with telegram_world() as world:
        world.upstream.queue(CITED)
        alice = world.person("Alice")
        shown = await answered_in_a_group(world, alice)

        pressed = world.tg.forge_press(alice, shown, "st:enabled=off")
        await world.tg.until(lambda: pressed.answered)
        await world.idle()

        assert pressed.answer == {"text": Wording().admins_only(), "show_alert": True}
        assert await world.service.state.settings_history() == []


async def test_forget_me_forgets_only_whoever_presses_it() -> None:
    async with telegram_world() as world:
        world.upstream.queue(CITED)
        alice, bob = world.person("Alice"), world.person("Bob")
        group = await world.group()
        await world.tg.user_says(alice, group, "/ask@citebot Why is life sacred?")
        await world.answered()
        asked = await world.tg.user_says(alice, group, "/forget_me@citebot")
        await world.idle()
        [offer] = world.answer_to(asked)

        for press in (
            await world.tg.click(bob, offer, f"fm:{alice.id}"),
            world.tg.forge_press(bob, offer, f"fm:{alice.id}"),
        ):
            await world.tg.until(lambda press=press: press.answered)  # type: ignore[misc]
            assert press.answer == {"text": Wording().not_your_button(), "show_alert": True}
        await world.idle()

        assert offer.edits == []
        records = [
            r
            async for batch in world.service.state.logged_answers(since=0, until=4e9)
            for r in batch
        ]
        assert [r.asker for r in records] == [str(alice.id)]


async def test_the_bots_token_and_the_upstreams_key_never_reach_a_log(
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.DEBUG)
    async with telegram_world() as world:
        token = world.tg.token
        world.upstream.queue(answer(["Grace is a gift."]))
        world.tg.refuse_next("sendMessage", 400, f"Bad Request: no chat at /bot{token}/x")
        world.tg.refuse_next("answerCallbackQuery", 400, f"Bad Request: /bot{token}/y")
        alice = world.person("Alice")
        shown = await answered_in_a_group(world, alice)
        pressed = world.tg.forge_press(alice, shown, "fb:nothing")
        await world.tg.until(lambda: pressed.answered or bool(caplog.records))
        await world.idle()

    ours = [r for r in caplog.records if r.name != "aiohttp.access"]  # the simulator's server
    logged = "\n".join(f"{r.name} {r.getMessage()} {r.__dict__}" for r in ours)
    assert "Bad Request" in logged
    assert token not in logged
    assert token.split(":")[1] not in logged
    assert "sk-test" not in logged
