"""Slack's agent messaging experience (issue 26), end to end: the Messages tab opened for the
first time greets the person and suggests prompts in their language; a new question's thread
takes its title; an answer's related questions become the suggested prompts. Prompts are set
without ``thread_ts``, which in an agent app would make the call silently do nothing."""

from __future__ import annotations

from tests.integrations.slack.conftest import World
from tests.sim.upstream import answer

ANA = "U0ANA"


async def test_the_first_visit_is_greeted_with_prompts_in_the_persons_language(
    world: World,
) -> None:
    world.sim.workspace.add_user(ANA, locale="pt-BR")
    opened = await world.sim.open_home(tab="messages", user=ANA)
    await world.sim.acked(opened)
    await world.sim.wait_for(lambda: world.sim.prompts(f"D{ANA}") is not None)
    [greeting] = world.sim.workspace.messages[f"D{ANA}"]
    assert greeting.shown.startswith("Olá! Faça uma pergunta")
    prompts = world.sim.prompts(f"D{ANA}")
    assert prompts is not None
    assert prompts.under == greeting.ts
    assert prompts.title == "Experimente perguntar"
    assert prompts.prompts[0] == (
        "O que você sabe responder?",
        "Que tipos de perguntas você sabe responder e quais fontes você usa?",
    )
    assert 1 <= len(prompts.prompts) <= 4
    [call] = world.sim.calls_to("assistant.threads.setSuggestedPrompts")
    assert "thread_ts" not in call.args

    again = await world.sim.open_home(tab="messages", user=ANA)
    await world.sim.acked(again)
    await world.sim.wait_for(lambda: len(world.sim.calls_to("conversations.history")) == 2)
    assert len(world.sim.workspace.messages[f"D{ANA}"]) == 1  # greeted once


async def test_a_conversation_is_titled_and_its_related_questions_become_the_prompts(
    world: World,
) -> None:
    world.upstream.queue(
        answer(["Prayer lifts the heart."], related=["How should I pray?", "When?"])
    )
    asked = await world.sim.dm("What is prayer?")
    await world.answered(asked.channel, asked.ts)
    await world.sim.wait_for(lambda: world.sim.prompts(asked.channel) is not None)

    assert world.sim.title(asked.channel, asked.ts) == "What is prayer?"
    assert world.sim.statuses(asked.channel, asked.ts)[:2] == ["is thinking…", ""]
    assert world.sim.loading_messages(asked.channel, asked.ts)[-1] == "Writing the answer…"
    prompts = world.sim.prompts(asked.channel)
    assert prompts is not None
    assert prompts.title == "Related questions"
    assert prompts.prompts == (
        ("How should I pray?", "How should I pray?"),
        ("When?", "When?"),
    )
    assert all(
        "thread_ts" not in c.args
        for c in world.sim.calls_to("assistant.threads.setSuggestedPrompts")
    )
