"""The simulator is faithful enough that the real discord.py client runs against it."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable

import discord
import pytest
from discord import app_commands

from tests.patience import PATIENCE
from tests.sim.discord import DiscordSim

Handler = Callable[[discord.Interaction, str, bool], Awaitable[None]]
Starter = Callable[[Handler], Awaitable["Bot"]]


class Bot:
    """A bare discord.py client with one /ask command whose body each test supplies."""

    def __init__(self, handler: Handler) -> None:
        self.client = discord.Client(
            intents=discord.Intents.default(), allowed_mentions=discord.AllowedMentions.none()
        )
        self.tree = app_commands.CommandTree(self.client)
        self.done = asyncio.Event()
        self.errors: list[BaseException] = []

        @self.tree.command(name="ask", description="Ask a question")
        async def ask(
            interaction: discord.Interaction, question: str, private: bool = False
        ) -> None:
            try:
                await handler(interaction, question, private)
            except Exception as error:
                self.errors.append(error)
            finally:
                self.done.set()

    async def finished(self) -> None:
        async with asyncio.timeout(PATIENCE):
            await self.done.wait()
        self.done.clear()
        if self.errors:
            raise self.errors.pop()


@pytest.fixture
async def run_bot(sim: DiscordSim) -> AsyncIterator[Callable[[Handler], Awaitable[Bot]]]:
    bots: list[tuple[Bot, asyncio.Task[None]]] = []

    async def start(handler: Handler) -> Bot:
        bot = Bot(handler)
        await bot.client.login(sim.token)
        await bot.tree.sync()
        bots.append((bot, asyncio.create_task(bot.client.connect(reconnect=False))))
        await sim.wait_connected()
        return bot

    yield start
    for bot, task in bots:
        await bot.client.close()
        await task


async def test_login_ready_and_command_sync(sim: DiscordSim, run_bot: Starter) -> None:
    async def nothing(interaction: discord.Interaction, question: str, private: bool) -> None:
        return None

    bot = await run_bot(nothing)
    assert bot.client.user is not None
    assert bot.client.user.id == sim.bot.id
    assert sim.identifies[0]["intents"] == discord.Intents.default().value
    assert list(sim.commands) == ["ask"]
    assert [o["name"] for o in sim.commands["ask"]["options"]] == ["question", "private"]
    assert sim.requests_to("GET /users/@me")
    assert sim.requests_to("GET /oauth2/applications/@me")


async def test_defer_edit_thread_and_embeds(sim: DiscordSim, run_bot: Starter) -> None:
    async def answer(interaction: discord.Interaction, question: str, private: bool) -> None:
        await interaction.response.defer(ephemeral=private, thinking=True)
        message = await interaction.edit_original_response(content=f"About {question}: yes.")
        thread = await message.create_thread(name=question)
        await thread.send(embeds=[discord.Embed(title="Source 1", description="Quoted.")])

    bot = await run_bot(answer)
    await sim.slash_command("ask", {"question": "grace", "private": False})
    await bot.finished()

    [answer_message] = sim.channel_messages(sim.text.id)
    assert answer_message.content == "About grace: yes."
    assert not answer_message.loading
    assert answer_message.allowed_mentions[-1] == {"parse": []}
    thread = sim.thread_of(answer_message.id)
    assert thread is not None
    assert (thread.name, thread.id) == ("grace", answer_message.id)
    [card] = sim.thread_messages(answer_message.id)
    assert card.embeds[0]["title"] == "Source 1"
    callback = sim.requests_to("POST /interactions/{interaction_id}/{token}/callback")[0]
    assert (callback.json["type"], callback.status) == (5, 200)
