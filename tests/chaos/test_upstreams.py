"""Hostile upstreams under the bots as deployed: one that keeps the connection alive forever
with comments after a few words, one that sends one endless ``data:`` line. A person sees the
words that came, then a note saying why the answer stops there; nothing keeps streaming."""

from __future__ import annotations

import pytest

from bot.connect import answer_client
from config import load_settings
from integrations.discord.settings import DiscordSettings
from integrations.slack.settings import SlackSettings
from tests.chaos.bots import discord_bot
from tests.integrations.slack.conftest import Config, running_slack
from tests.sim.discord import DiscordSim
from tests.sim.hostile import Play, hostile, keep_alive_forever, one_endless_line
from tests.sim.slack import SlackSim

TOO_SLOW = (
    "The answer took too long, so it stops here; what you see above is what arrived. "
    "Please ask again for the rest."
)
TOO_LARGE = (
    "The answer service sent more than citebot can read at once, so the answer stops here; "
    "what you see above is what arrived."
)
LIMITS = {"UPSTREAM_TOTAL_TIMEOUT": "1.5", "UPSTREAM_MAX_EVENT_BYTES": "262144"}
CASES = [(keep_alive_forever, TOO_SLOW), (one_endless_line, TOO_LARGE)]
IDS = ["keep-alive comments forever", "one endless data line"]


@pytest.mark.parametrize(("play", "note"), CASES, ids=IDS)
async def test_discord_shows_what_came_and_says_why_it_stops(
    sim: DiscordSim, play: Play, note: str
) -> None:
    async with hostile(play) as upstream:
        variables = {
            "DISCORD_TOKEN": sim.token,
            "DISCORD_API_BASE_URL": sim.base_url,
            "UPSTREAM_BASE_URL": upstream.url,
            "UPSTREAM_API_KEY": "sk-test",
            **LIMITS,
        }
        settings = load_settings(variables, env_file=None)
        discord = DiscordSettings.load(variables, env_file=None)
        async with answer_client(settings) as client, discord_bot(settings, discord, client):
            asked = await sim.slash_command("ask", {"question": "Why?"})
            await sim.until(lambda: note in getattr(asked.original, "content", ""))
    assert asked.original is not None
    assert asked.original.content == f"The first words\n\n*{note}*"
    assert upstream.sent[0] < 8 * 1024 * 1024  # the endless line was not read to its end


@pytest.mark.parametrize(("play", "note"), CASES, ids=IDS)
async def test_slack_shows_what_came_and_says_why_it_stops(play: Play, note: str) -> None:
    async with hostile(play) as upstream, SlackSim() as sim:
        variables = {
            "SLACK_BOT_TOKEN": sim.bot_token,
            "SLACK_APP_TOKEN": sim.app_token,
            "SLACK_API_BASE_URL": sim.base_url,
            "UPSTREAM_BASE_URL": upstream.url,
            "UPSTREAM_API_KEY": "sk-test",
            **LIMITS,
        }
        config = Config(
            load_settings(variables, env_file=None), SlackSettings.load(variables, env_file=None)
        )
        async with answer_client(config.settings) as client, running_slack(config, client):
            await sim.wait_connections(1)
            asked = await sim.mention("C0GENERAL", "Why?")
            await sim.wait_for(
                lambda: any(note in m.shown for m in sim.bot_replies("C0GENERAL", asked.ts)),
            )
            (shown,) = sim.bot_replies("C0GENERAL", asked.ts)
    assert shown.shown == f"The first words\n\n*{note}*"
    assert not shown.streaming
