"""Forgetting on Discord, end to end: ``/citebot forget-me`` asks first, then deletes everything
kept about the person who confirms, wherever the app is used, and says so in their language;
the bot removed from a server (GUILD_DELETE without ``unavailable``) deletes that server's data,
and an outage (``unavailable: true``) deletes nothing. Each is checked by reading the whole
store back (every key, row or object), as tests/bot/state/test_forget.py does."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable

import pytest

from bot.adapter import Venue
from bot.i18n.wording import Wording
from bot.state import StateUnavailable
from integrations.discord.markdown import DiscordMarkdown
from tests.bot.state.scan import everything_stored
from tests.integrations.discord.admins import answered, change
from tests.integrations.discord.harness import (
    Harness,
    RecordingState,
    running_harness,
    running_on_redis,
)
from tests.patience import PATIENCE
from tests.sim.discord import DiscordSim, SimInteraction
from tests.sim.redis_server import RedisProcess
from tests.sim.upstream import UpstreamSim, answer, magisterium_citation

FRENCH = Wording(language="fr", platform="discord")
ENGLISH = Wording(platform="discord")
BUTTON = "citebot:forget"


def escaped(words: str) -> str:
    return "\n".join(DiscordMarkdown().escape(line, line_start=True) for line in words.split("\n"))


async def stored(harness: Harness) -> str:
    return await everything_stored(harness.service.state, "memory://", "")


async def until(holds: Callable[[], Awaitable[bool]], *, within: float = PATIENCE) -> None:
    """Until ``holds()`` (a removal's deletion runs in the background)."""
    deadline = time.monotonic() + within
    while not await holds():
        assert time.monotonic() < deadline, "never"
        await asyncio.sleep(0.05)


async def forget_me(
    sim: DiscordSim, *, channel_id: int | None = None, locale: str = "en-US"
) -> SimInteraction:
    """The person runs ``/citebot forget-me``; returns it once it asks."""
    asked = await sim.slash_command("citebot forget-me", {}, channel_id=channel_id, locale=locale)
    await answered(sim, asked)
    return asked


async def confirm(sim: DiscordSim, asked: SimInteraction, *, locale: str = "en-US") -> str:
    """The person clicks the button; what its message says once it is done."""
    assert asked.original is not None
    message = asked.original
    click = await sim.click_button(message.id, BUTTON, locale=locale)
    await sim.until(
        lambda: any(r.method == "PATCH" and click.token in r.path for r in sim.requests)
    )
    return message.content


async def test_forget_me_asks_then_deletes_everything_kept_about_the_person(
    harness: Harness, sim: DiscordSim
) -> None:
    await change(sim, "daily_questions_per_person", "10")  # a per-person count to delete
    cited = magisterium_citation(0, "Grace is favor.", url="https://example.org/ccc/1996")
    harness.upstream.queue(answer(["Grace is a gift[^1]."], [cited]))  # its cards: a thread
    first = await harness.ask("What is grace?")
    await harness.ask("What is mercy?", private=True)
    click = await sim.click_button(first.id, "citebot:feedback:up")
    await sim.until(lambda: click.original is not None)
    await harness.votes(f"discord:{first.id}")
    thread = sim.thread_of(first.id)
    assert thread is not None
    await harness.ask("And a follow-up?", channel_id=thread.id)  # the conversation's memory
    other = await sim.slash_command("ask", {"question": "Hope?"}, user_id=sim.admin.id)
    await harness.answers(4)
    assert other.original is not None
    person = str(sim.user.id)
    assert person in await stored(harness)

    asked = await forget_me(sim, locale="fr")
    assert asked.original is not None
    assert asked.original.ephemeral
    assert asked.original.content == escaped(
        f"{FRENCH.forget_me_asks()}\n\n{FRENCH.forget_me_leaves('Discord')}"
    )
    [[button]] = [row["components"] for row in asked.original.components]
    assert (button["label"], button["style"]) == (FRENCH.forget_me_button(), 4)
    assert person in await stored(harness)  # nothing is deleted before the click

    said = await confirm(sim, asked, locale="fr")
    assert said == escaped(f"{FRENCH.forgot_you()}\n\n{FRENCH.forget_me_leaves('Discord')}")
    assert asked.original.components == []
    held = await stored(harness)
    assert person not in held
    assert str(sim.admin.id) in held  # someone else's question stays
    assert first.id in {m.id for m in sim.channel_messages(sim.text.id)}  # Discord's to keep


@pytest.mark.parametrize("where", ["dm", "group_dm", "foreign"])
async def test_forget_me_works_wherever_the_app_is_used(
    harness: Harness, sim: DiscordSim, where: str
) -> None:
    """The bot's DM; a group DM and a server without the bot, through the person's install."""
    channel = {"dm": sim.dm, "group_dm": sim.group_dm, "foreign": sim.foreign}[where]
    asking = await sim.slash_command("ask", {"question": "What is grace?"}, channel_id=channel.id)
    await harness.answers(1)
    assert asking.original is not None
    assert str(sim.user.id) in await stored(harness)
    asked = await forget_me(sim, channel_id=channel.id)
    said = await confirm(sim, asked)
    assert said == escaped(f"{ENGLISH.forgot_you()}\n\n{ENGLISH.forget_me_leaves('Discord')}")
    assert str(sim.user.id) not in await stored(harness)


async def test_forget_me_works_where_citebot_is_turned_off_and_outside_the_allowlists(
    sim: DiscordSim, upstream: UpstreamSim
) -> None:
    """Being forgotten does not depend on where one asks."""
    env = {"DISCORD_GUILD_ALLOWLIST": str(sim.foreign.guild_id)}
    async with running_harness(sim, upstream, env=env) as harness:
        await harness.kit.vote(answer_key="discord:1", user_id=str(sim.user.id), value="up")
        refused = await sim.slash_command("ask", {"question": "What is grace?"})
        await answered(sim, refused)
        assert refused.original is not None
        assert refused.original.content == ENGLISH.not_allowed_here()
        said = await confirm(sim, await forget_me(sim))
        assert said.startswith(escaped(ENGLISH.forgot_you()))
        assert str(sim.user.id) not in await stored(harness)


async def test_a_store_that_does_not_answer_deletes_nothing_and_keeps_the_button(
    sim: DiscordSim, upstream: UpstreamSim, redis_process: RedisProcess
) -> None:
    async with running_on_redis(sim, upstream, redis_process.url, namespace="forget"):
        asked = await forget_me(sim, locale="fr")
        redis_process.kill()
        said = await confirm(sim, asked, locale="fr")
    assert said == escaped(FRENCH.could_not_forget())
    assert asked.original is not None
    [[button]] = [row["components"] for row in asked.original.components]
    assert button["custom_id"] == BUTTON  # to try again


async def server_data(harness: Harness, sim: DiscordSim) -> None:
    """A server with settings, answers in two channels, a vote and a conversation."""
    await change(sim, "language", "fr")
    await change(sim, "quote_check", "off", where="channel")
    first = await harness.ask("What is grace?")
    await harness.ask("What is mercy?", channel_id=sim.no_threads.id)
    click = await sim.click_button(first.id, "citebot:feedback:up")
    await sim.until(lambda: click.original is not None)
    await harness.votes(f"discord:{first.id}")


async def test_the_bot_removed_from_a_server_leaves_nothing_of_it(
    sim: DiscordSim, upstream: UpstreamSim
) -> None:
    elsewhere = sim.add_guild("Another parish")
    async with running_harness(sim, upstream) as harness:
        await server_data(harness, sim)
        await harness.ask("What is grace?", channel_id=elsewhere.id)
        held = await stored(harness)
        assert str(sim.guild_id) in held
        assert str(sim.no_threads.id) in held

        await sim.remove_bot()

        async def gone() -> bool:
            return str(sim.guild_id) not in await stored(harness)

        await until(gone)
        held = await stored(harness)
        for place in (sim.text, sim.no_threads):
            assert str(place.id) not in held
        assert str(elsewhere.guild_id) in held  # another server's answers stay
        settings = await harness.kit.settings_at(Venue(server=str(sim.guild_id)))
        assert settings.language == "en"


async def test_an_outage_deletes_nothing(harness: Harness, sim: DiscordSim) -> None:
    await server_data(harness, sim)
    await sim.guild_outage()
    await sim.guild_back()
    await harness.ask("Still here?")  # asked after the gateway's two events
    records = [
        r
        async for batch in harness.service.state.logged_answers(since=0, until=time.time() + 1)
        for r in batch
    ]
    assert [r.server for r in records] == [str(sim.guild_id)] * 3
    assert str(sim.no_threads.id) in await stored(harness)
    assert (await harness.kit.settings_at(Venue(server=str(sim.guild_id)))).language == "fr"


class FailsToForgetAPlace(RecordingState):
    """The store failing the first ``failures`` deletions of a server, then answering."""

    def __init__(self, failures: int) -> None:
        super().__init__()
        self.failures = failures

    async def forget_place(self, platform: str, server: str) -> int:
        if self.failures:
            self.failures -= 1
            raise StateUnavailable("the store did not answer")
        return await super().forget_place(platform, server)


async def test_a_removal_the_store_fails_is_deleted_when_it_answers_again(
    sim: DiscordSim, upstream: UpstreamSim, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.WARNING, "integrations.discord.forgetting")
    state = FailsToForgetAPlace(failures=2)
    async with running_harness(sim, upstream, state=state) as harness:
        await server_data(harness, sim)
        await sim.remove_bot()

        async def gone() -> bool:
            return str(sim.guild_id) not in await stored(harness)

        await until(gone)
    tried_again = [r for r in caplog.records if "deleting its data again" in r.getMessage()]
    assert len(tried_again) == 2
