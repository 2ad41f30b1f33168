"""A Slack workspace with ``CITEBOT_LANGUAGE=pt`` reads citebot's own words in Portuguese (Slack's
events carry no locale, so the worker's language is everyone's)."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest
from pydantic import SecretStr

from bot.client import AnswerClient, RetryPolicy
from tests.integrations.slack.conftest import World, running_slack, slack_settings
from tests.sim.slack import SlackSim
from tests.sim.upstream import Json, UpstreamSim, answer, magisterium_citation

CHANNEL = "C0GENERAL"


@pytest.fixture
async def portuguese() -> AsyncIterator[World]:
    async with SlackSim() as sim, UpstreamSim().running() as upstream:
        settings = slack_settings(sim, upstream, CITEBOT_LANGUAGE="pt", MAX_QUESTION_LENGTH="60")
        async with AnswerClient(base_url=upstream.base_url, api_key=SecretStr("sk-test"),
                                model="magisterium-1", retry=RetryPolicy(max_retries=0)
                                ) as client, running_slack(settings, client):
            await sim.wait_connections(1)
            yield World(sim=sim, upstream=upstream, settings=settings, client=client)


async def test_cards_status_and_buttons_speak_portuguese(portuguese: World) -> None:
    world = portuguese
    world.upstream.queue(answer(
        ["A vida é sagrada", " desde a concepção[^1]."],
        [magisterium_citation(0, "A vida humana é sagrada.", title="Cherishing Life"),
         magisterium_citation(1, "Toda vida tem valor.", title="Evangelium Vitae")],
        related=["Por que a vida é sagrada?"]))
    asked = await world.sim.mention(CHANNEL, "A vida é sagrada?")
    await world.answered(CHANNEL, asked.ts)

    assert world.sim.statuses(CHANNEL, asked.ts)[0] == "está pensando…"
    [cards] = world.cards_of(CHANNEL, asked.ts)
    shown = cards.block_text()
    assert "_Fundamenta:_ “A vida é sagrada desde a concepção.”" in shown
    assert "*Outras fontes consultadas*" in shown
    assert "*Perguntas relacionadas*" in shown
    assert cards.text.startswith("Fontes: ")
    [feedback] = [e for e in cards.elements() if e["action_id"] == "citebot_feedback"]
    assert feedback["positive_button"]["accessibility_label"] == "Boa resposta"
    assert feedback["negative_button"]["accessibility_label"] == "Resposta ruim"


async def test_refusals_and_failures_are_worded_in_portuguese(portuguese: World) -> None:
    world = portuguese
    long = await world.sim.mention(CHANNEL, "Por que " + "muito " * 20 + "?")
    await world.sim.wait_for(lambda: world.sim.bot_replies(CHANNEL, long.ts))
    [refused] = world.sim.bot_replies(CHANNEL, long.ts)
    assert refused.shown == "Essa pergunta é longa demais: use no máximo 60 caracteres."

    world.upstream.queue(Json(500))
    asked = await world.sim.mention(CHANNEL, "Tem alguém aí?")
    await world.answered(CHANNEL, asked.ts)
    [notice] = world.sim.bot_replies(CHANNEL, asked.ts)
    assert notice.shown == ("Não consegui acessar o serviço de respostas agora. "
                            "Tente novamente daqui a um minuto.")
