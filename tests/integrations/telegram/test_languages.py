"""Each asker reads citebot's words in their Telegram language (``language_code``), named as
Telegram names its places (a group, a conversation of replies; never a channel or a thread),
and the upstream is asked to answer in it."""

from __future__ import annotations

import pytest

from tests.integrations.telegram.world import World, telegram_world
from tests.sim.upstream import Gate, answer


@pytest.mark.parametrize(
    ("language_code", "refusal"),
    [
        (
            "pt-br",
            "O citebot não está ativado aqui. Pergunte em um grupo onde o uso dele seja permitido.",
        ),
        ("zh-hans", "citebot 未在此处启用。请在允许使用它的群组中提问。"),
        ("zh-hant", "citebot 未在此處啟用。請在允許使用它的群組中提問。"),
        ("en", "citebot is not enabled here. Please ask in a group where it is allowed."),
    ],
)
async def test_a_refusal_names_a_group_in_the_askers_language(
    language_code: str, refusal: str
) -> None:
    async with telegram_world({"TELEGRAM_CHAT_ALLOWLIST": "-100999"}) as world:
        group = await world.group()
        asker = world.person("Ana", language_code=language_code)
        await world.tg.user_says(asker, group, "/ask@citebot Por quê?")
        await world.idle()
        assert [m.readable for m in world.tg.bot_messages(group)] == [refusal]


async def test_a_question_waiting_for_its_conversation_is_told_so_in_telegrams_words(
    world: World,
) -> None:
    world.upstream.queue(answer(["Um."], between=[Gate()]), answer(["Dois."]))
    group = await world.group()
    ana = world.person("Ana", language_code="pt-br")
    asked = await world.tg.user_says(ana, group, "/ask@citebot Primeira?")
    await world.tg.until(lambda: bool(world.answer_to(asked)))
    [first] = world.answer_to(asked)
    follow_up = await world.tg.user_says(ana, group, "E depois?", reply_to=first)
    await world.tg.until(lambda: bool(world.answer_to(follow_up)))
    world.upstream.release()
    await world.answered(2)

    [waited] = world.answer_to(follow_up)
    assert waited.edits[0] == (
        "Vou responder a esta pergunta assim que tiver respondido à anterior nesta conversa."
    )
    assert waited.readable == "Dois."


async def test_the_upstream_is_asked_in_the_askers_language(world: World) -> None:
    asker = world.person("Jan", language_code="pl")
    chat = world.tg.private_chat(asker)
    await world.tg.user_says(asker, chat, "Czym jest łaska?")
    await world.answered()
    system = [m["content"] for m in world.upstream.questions[0] if m["role"] == "system"]
    assert any("Polish" in words for words in system)
