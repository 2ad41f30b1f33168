"""Each Slack user reads citebot's own words in the language their Slack is set to.

Slack's events carry no locale: the worker asks ``users.info`` (``include_locale``) once per
user and falls back to ``CITEBOT_LANGUAGE`` when Slack will not say. The answer and its quotes
stay in the upstream's and the sources' own words.
"""

from __future__ import annotations

import contextlib
import functools
import logging
from collections.abc import AsyncIterator
from typing import Any

import pytest
from slack_sdk.web.async_client import AsyncWebClient

from tests.integrations.slack.conftest import World, slack_settings, worker_on
from tests.sim.slack import SlackSim
from tests.sim.slack.webapi import BOT_SCOPES, Identity
from tests.sim.upstream import Json, UpstreamSim, answer, magisterium_citation

CHANNEL = "C0GENERAL"
ANA, LI, MEI, CLAIRE, JONAS = "U0ANA", "U0LI", "U0MEI", "U0CLAIRE", "U0JONAS"

QUOTES = (
    "A vida humana é sagrada — «desde o seu início».",
    "Gloria Dei vivens homo: “la gloire de Dieu, c'est l'homme vivant”.",
)
CITED = answer(
    ["A vida é sagrada[^1]", " desde a concepção[^2]."],
    [
        magisterium_citation(0, QUOTES[0], title="Cherishing Life"),
        magisterium_citation(1, QUOTES[1], title="Adversus haereses"),
    ],
    related=["Por que a vida é sagrada?"],
)


@contextlib.asynccontextmanager
async def slack_with(*, scopes: frozenset[str] = BOT_SCOPES, **env: str) -> AsyncIterator[World]:
    """A worker whose bot token has ``scopes``, with ANA (``pt-BR``), LI (``zh-CN``), MEI
    (``zh-TW``), CLAIRE (``fr-FR``) and JONAS (``de-DE``)."""
    async with SlackSim(me=Identity(scopes=scopes)) as sim, UpstreamSim().running() as upstream:
        for user, locale in (
            (ANA, "pt-BR"),
            (LI, "zh-CN"),
            (MEI, "zh-TW"),
            (CLAIRE, "fr-FR"),
            (JONAS, "de-DE"),
        ):
            sim.workspace.add_user(user, locale=locale)
        async with worker_on(sim, upstream, slack_settings(sim, upstream, **env)) as world:
            yield world


@pytest.fixture
async def world() -> AsyncIterator[World]:
    async with slack_with(MAX_QUESTION_LENGTH="60") as running:
        yield running


def quotes_of(cards: Any) -> list[str]:
    return [
        element["text"]
        for block in cards.blocks
        if block["type"] == "rich_text"
        for quote in block["elements"]
        for element in quote["elements"]
    ]


async def test_a_brazilian_user_reads_portuguese_and_the_quotes_stay_the_sources(
    world: World,
) -> None:
    world.upstream.queue(CITED)
    asked = await world.sim.mention(CHANNEL, "A vida é sagrada?", user=ANA)
    await world.answered(CHANNEL, asked.ts)

    assert world.sim.statuses(CHANNEL, asked.ts)[0] == "está pensando…"
    assert world.sim.loading_messages(CHANNEL, asked.ts)[0] == "Procurando fontes…"
    [cards] = world.cards_of(CHANNEL, asked.ts)
    shown = cards.block_text()
    assert "_Fundamenta:_ “A vida é sagrada desde a concepção.”" in shown
    assert "*Perguntas relacionadas*" in shown
    assert cards.text is not None
    assert cards.text.startswith("Fontes: ")
    [feedback] = [e for e in cards.elements() if e["action_id"] == "citebot_feedback"]
    assert feedback["positive_button"]["accessibility_label"] == "Resposta útil"
    assert feedback["negative_button"]["accessibility_label"] == "Resposta pouco útil"
    assert [q.encode() for q in quotes_of(cards)] == [q.encode() for q in QUOTES]

    [system, question] = world.upstream.questions[0]
    assert system["role"] == "system"
    assert "answer in Portuguese (Brazil)" in system["content"]
    assert "never translate a quotation" in system["content"]
    assert question == {"role": "user", "content": "A vida é sagrada?"}

    [call] = world.sim.calls_to("users.info")
    assert call.args == {"user": ANA, "include_locale": "1"}
    assert call.response["user"]["locale"] == "pt-BR"


@pytest.mark.parametrize(
    ("user", "question", "sources", "related", "supports", "helpful", "language", "thanks"),
    [
        (
            LI,
            "生命是神圣的吗？",
            "参考来源",
            "相关问题",
            "佐证：_ “",
            "回答有帮助",
            "Chinese (Simplified, China)",
            "感谢您的反馈！",
        ),
        (
            MEI,
            "生命是神聖的嗎？",
            "參考來源",
            "相關問題",
            "佐證：_ 「",
            "回答有幫助",
            "Chinese (Traditional, Taiwan)",
            "感謝你的意見回饋！",
        ),
    ],
)
async def test_a_chinese_user_reads_their_own_script_in_the_same_channel(
    world: World,
    user: str,
    question: str,
    sources: str,
    related: str,
    supports: str,
    helpful: str,
    language: str,
    thanks: str,
) -> None:
    world.upstream.queue(CITED)
    asked = await world.sim.mention(CHANNEL, question, user=user)
    await world.answered(CHANNEL, asked.ts)

    assert world.sim.statuses(CHANNEL, asked.ts)[0] == "正在思考…"
    [cards] = world.cards_of(CHANNEL, asked.ts)
    assert cards.text is not None
    assert cards.text.startswith(sources)
    assert f"*{related}*" in cards.block_text()
    assert f"_{supports}A vida é sagrada desde a concepção." in cards.block_text()
    [feedback] = [e for e in cards.elements() if e["action_id"] == "citebot_feedback"]
    assert feedback["positive_button"]["accessibility_label"] == helpful
    assert quotes_of(cards) == list(QUOTES)
    assert f"answer in {language}" in world.upstream.questions[0][0]["content"]

    await world.sim.click(
        "citebot_feedback", "positive", channel=CHANNEL, message_ts=cards.ts, user=user
    )
    await world.sim.wait_for(lambda: world.sim.ephemerals(user))
    [shown] = world.sim.ephemerals(user)
    assert shown.shown == thanks
    assert len(world.sim.calls_to("users.info")) == 1


async def test_outside_the_allowed_channels_each_user_reads_slack_s_word_for_channel() -> None:
    async with slack_with(SLACK_CHANNEL_ALLOWLIST="C0ALLOWED") as world:
        for user, refusal in (
            (
                CLAIRE,
                "citebot n’est pas activé ici. "
                "Posez votre question dans un canal où il est autorisé.",
            ),
            (
                JONAS,
                "citebot ist hier nicht aktiviert. "
                "Bitte fragen Sie in einem Channel, in dem citebot erlaubt ist.",
            ),
            (MEI, "citebot 未在此處啟用。請在允許使用它的頻道中提問。"),
        ):
            asked = await world.sim.mention(CHANNEL, "?", user=user)
            await world.sim.wait_for(functools.partial(world.sim.bot_replies, CHANNEL, asked.ts))
            [refused] = world.sim.bot_replies(CHANNEL, asked.ts)
            assert refused.shown == refusal
        assert world.upstream.requests == []


async def test_a_conversation_costs_one_users_info_call(world: World) -> None:
    world.upstream.queue(CITED, answer(["Sim, sempre."]))
    asked = await world.sim.mention(CHANNEL, "A vida é sagrada?", user=ANA)
    await world.answered(CHANNEL, asked.ts)
    follow = await world.sim.mention(CHANNEL, "Sempre?", user=ANA, thread_ts=asked.ts)
    await world.answered(CHANNEL, follow.reply_ts, requests=2)

    assert len(world.sim.calls_to("users.info")) == 1
    assert world.upstream.questions[1][0]["role"] == "system"
    statuses = world.sim.statuses(CHANNEL, asked.ts)
    assert [status for status in statuses if status] == ["está pensando…"] * 2


async def test_refusals_and_failures_are_worded_in_the_askers_language(world: World) -> None:
    long = await world.sim.mention(CHANNEL, "Por que " + "muito " * 20 + "?", user=ANA)
    await world.sim.wait_for(lambda: world.sim.bot_replies(CHANNEL, long.ts) and not world.busy())
    [refused] = world.sim.bot_replies(CHANNEL, long.ts)
    assert refused.shown == "Essa pergunta é longa demais: use no máximo 60 caracteres."

    world.upstream.queue(Json(500))
    asked = await world.sim.mention(CHANNEL, "Tem alguém aí?", user=ANA)
    await world.answered(CHANNEL, asked.ts)
    [notice] = world.sim.bot_replies(CHANNEL, asked.ts)
    assert notice.shown == (
        "Não consegui acessar o serviço de respostas agora. Tente novamente daqui a um minuto."
    )


async def test_without_users_read_everyone_reads_citebot_language_and_is_answered(
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.WARNING, "integrations.slack.locales")
    async with slack_with(scopes=BOT_SCOPES - {"users:read"}, CITEBOT_LANGUAGE="de") as world:
        world.upstream.queue(CITED, CITED)
        first = await world.sim.mention(CHANNEL, "A vida é sagrada?", user=ANA)
        await world.answered(CHANNEL, first.ts)
        second = await world.sim.mention(CHANNEL, "生命是神圣的吗？", user=LI)
        await world.answered(CHANNEL, second.ts, requests=2)

        for asked in (first, second):
            [answered] = world.answer_of(CHANNEL, asked.ts)
            assert world.sim.statuses(CHANNEL, asked.ts)[0] == "denkt nach…"
            assert answered.shown.startswith("A vida é sagrada[")
            [cards] = world.cards_of(CHANNEL, asked.ts)
            assert cards.text is not None
            assert cards.text.startswith("Quellen: ")
        [call] = world.sim.calls_to("users.info")  # the missing scope stops the asking
        assert call.response == {
            "ok": False,
            "error": "missing_scope",
            "needed": "users:read",
            "provided": ",".join(sorted(BOT_SCOPES - {"users:read"})),
        }
        assert all(m[0]["role"] == "user" for m in world.upstream.questions)
    [warning] = [r.getMessage() for r in caplog.records if r.name.startswith("integrations.")]
    assert "missing_scope" in warning
    assert "users:read" in warning


async def test_the_simulated_users_info_answers_as_slack_does() -> None:
    async with SlackSim() as sim:
        sim.workspace.add_user(ANA, locale="pt-BR")
        web = AsyncWebClient(token=sim.bot_token, base_url=sim.base_url)
        with_locale = await web.users_info(user=ANA, include_locale=True)
        assert with_locale["ok"] is True
        assert with_locale["user"]["id"] == ANA
        assert with_locale["user"]["locale"] == "pt-BR"
        assert "locale" not in (await web.users_info(user=ANA))["user"]
        with pytest.raises(Exception, match="user_not_found"):
            await web.users_info(user="U0NOBODY", include_locale=True)
