"""Mentions and DMs answered in their thread, as a person in Slack would see them.

The real slack-bolt app runs in Socket Mode against the simulated Slack, asking the simulated
upstream; every assertion reads the thread (or the calls that crossed the wire).
"""

from __future__ import annotations

import itertools

from tests.integrations.slack.conftest import World
from tests.sim.slack.model import Message
from tests.sim.upstream import Cut, Gate, Json, Pause, Stream, answer, chunk, magisterium_citation

CHANNEL = "C0GENERAL"

CITED = answer(
    ["Life is sacred from conception", " to natural death[^1]."],
    [
        magisterium_citation(
            0,
            "Human life is sacred &apos;from its beginning&apos;.",
            title="Cherishing Life",
            reference="34",
        )
    ],
    related=["What does the Catechism say about it?", "Why is life sacred?"],
)


def _text(messages: list[Message]) -> str:
    return "\n".join(m.shown for m in messages)


async def test_a_mention_is_answered_in_its_thread_under_the_status_never_a_placeholder(
    world: World,
) -> None:
    """Since 2026-03-05 Slack shows an app's loading status in channel threads too: while
    citebot thinks, the thread shows the status and its rotating loading messages, and the
    first message in it is the answer itself, streamed."""
    world.upstream.queue(CITED)
    asked = await world.sim.mention(CHANNEL, "Why is life sacred?")
    await world.sim.acked(asked)
    await world.answered(CHANNEL, asked.ts)

    [answer_message, *_cards] = world.sim.bot_replies(CHANNEL, asked.ts)
    assert world.answer_of(CHANNEL, asked.ts) == [answer_message]
    assert answer_message.thread_ts == asked.ts
    assert answer_message.streamed
    assert world.first_shown(answer_message).startswith("Life is sacred")
    assert world.sim.statuses(CHANNEL, asked.ts)[:2] == ["is thinking…", ""]  # the reply clears
    assert world.sim.loading_messages(CHANNEL, asked.ts) == [
        "Looking for sources…",
        "Reading the sources…",
        "Matching each sentence to its source…",
        "Writing the answer…",
    ]
    assert "Life is sacred from conception to natural death" in answer_message.shown
    assert answer_message.shown.count("Life is sacred") == 1
    assert "https://example.org/doc/1" in answer_message.shown
    cards = world.cards_of(CHANNEL, asked.ts)
    assert cards
    shown_cards = "\n".join(m.block_text() for m in cards)
    assert "Human life is sacred 'from its beginning'." in shown_cards
    actions = {e["action_id"] for m in cards for e in m.elements()}
    assert {"citebot_related_0", "citebot_related_1", "citebot_feedback"} <= actions
    assert world.upstream.questions[0][-1] == {"role": "user", "content": "Why is life sacred?"}


async def test_a_direct_message_streams_natively_under_the_thinking_status(world: World) -> None:
    world.upstream.queue(CITED)
    asked = await world.sim.dm("Why is life sacred?")
    await world.answered(asked.channel, asked.ts)

    [answer_message] = world.answer_of(asked.channel, asked.ts)
    assert answer_message.streamed
    assert world.first_shown(answer_message).startswith("Life is sacred")
    set_by_citebot = [c.args["status"] for c in world.sim.calls_to("assistant.threads.setStatus")]
    assert set_by_citebot == ["is thinking…"]  # the reply clears it
    assert world.sim.statuses(asked.channel, asked.ts)[:2] == ["is thinking…", ""]
    assert "Human life is sacred" in "\n".join(
        m.block_text() for m in world.cards_of(asked.channel, asked.ts)
    )


async def test_the_first_words_show_before_the_rest_is_written(world: World) -> None:
    world.upstream.queue(answer(["Grace", " builds on nature."], between=[Gate()]))
    asked = await world.sim.dm("What does grace do?")
    await world.sim.wait_for(lambda: world.answer_of(asked.channel, asked.ts))
    [streaming] = world.answer_of(asked.channel, asked.ts)
    assert streaming.streaming
    assert streaming.shown.startswith("Grace")
    started = world.sim.calls_to("chat.startStream")[0]
    assert started.args["markdown_text"].startswith("Grace")
    world.upstream.release()
    await world.answered(asked.channel, asked.ts)
    assert _text(world.answer_of(asked.channel, asked.ts)) == "Grace builds on nature."


async def test_where_slack_refuses_the_status_a_placeholder_holds_the_place(
    world: World,
) -> None:
    """The fallback only: a workspace whose Slack refuses the status (an older grant without
    chat:write's new reach, say) sees "citebot is thinking…" until the first words replace it
    in the same message."""
    world.sim.fail_next("assistant.threads.setStatus", "missing_scope", status=200)
    world.upstream.queue(answer(["Grace", " builds on nature."], between=[Gate()]))
    asked = await world.sim.mention(CHANNEL, "What does grace do?")
    await world.sim.wait_for(
        lambda: [m.shown for m in world.answer_of(CHANNEL, asked.ts)] == ["Grace"]
    )
    world.upstream.release()
    await world.answered(CHANNEL, asked.ts)
    [shown] = world.answer_of(CHANNEL, asked.ts)
    assert shown.shown == "Grace builds on nature."
    assert world.first_shown(shown) == "*citebot is thinking…*"


async def test_a_tier_2_429_falls_back_to_one_edited_message(world: World) -> None:
    world.sim.fail_next("chat.startStream", retry_after=30)
    pieces = ["Faith", " and reason", " are two wings."]
    world.upstream.queue(answer(pieces, between=[Pause(0.1)]))
    asked = await world.sim.dm("Faith and reason?")
    await world.answered(asked.channel, asked.ts)
    [shown] = world.answer_of(asked.channel, asked.ts)
    assert shown.shown == "Faith and reason are two wings."
    assert not shown.streamed
    assert shown.edits >= 1
    assert [c.ok for c in world.sim.calls_to("chat.startStream")] == [False]
    edits = [
        c.at for c in world.sim.calls_to("chat.postMessage", "chat.update") if c.ts == shown.ts
    ]
    assert all(b - a >= 0.95 for a, b in itertools.pairwise(edits))


async def test_a_stream_slack_drops_is_finished_by_editing(world: World) -> None:
    world.sim.expire_after_appends = 1
    pieces = ["One,", " two,", " three,", " four."]
    world.upstream.queue(answer(pieces, between=[Pause(0.1)]))
    asked = await world.sim.dm("Count?")
    await world.answered(asked.channel, asked.ts)
    [shown] = world.answer_of(asked.channel, asked.ts)
    assert shown.shown == "One, two, three, four."
    assert any(c.error == "message_not_in_streaming_state" for c in world.sim.calls)
    assert world.sim.calls_to("chat.update")


async def test_a_long_answer_rolls_over_before_12000_characters(world: World) -> None:
    paragraph = "Lorem ipsum dolor sit amet, consectetur adipiscing elit. " * 20 + "\n\n"
    world.upstream.queue(answer([paragraph] * 14))
    asked = await world.sim.mention(CHANNEL, "Tell me everything.")
    await world.answered(CHANNEL, asked.ts)
    messages = world.answer_of(CHANNEL, asked.ts)
    assert len(messages) >= 2
    assert all(len(m.shown) <= 12000 for m in messages)
    assert not any(m.streaming for m in messages)
    words = _text(messages).split()
    assert words == (paragraph * 14).split()
    assert all(c.ok for c in world.sim.calls)


async def test_a_follow_up_in_the_thread_sends_the_earlier_turns(world: World) -> None:
    world.upstream.queue(answer(["The Church teaches charity."]), answer(["Yes, always."]))
    asked = await world.sim.mention(CHANNEL, "What does the Church teach?")
    await world.answered(CHANNEL, asked.ts)
    again = await world.sim.mention(CHANNEL, "Even to enemies?", thread_ts=asked.ts)
    await world.answered(CHANNEL, asked.ts, requests=2)
    sent = world.upstream.questions[1]
    assert sent[0] == {"role": "user", "content": "What does the Church teach?"}
    assert sent[1]["role"] == "assistant"
    assert sent[1] == {"role": "assistant", "content": "The Church teaches charity."}
    assert sent[-1] == {"role": "user", "content": "Even to enemies?"}
    assert again.reply_ts == asked.ts
    assert len(world.answer_of(CHANNEL, asked.ts)) == 2


async def test_a_follow_up_in_a_thread_the_bot_forgot_reads_the_thread_back(
    world: World,
) -> None:
    parent = world.sim._said(
        CHANNEL, "channel", "<@U0BOT> Who wrote the Confessions?", user="U0ALICE", thread_ts=None
    )
    world.sim._said(
        CHANNEL,
        "channel",
        "Saint Augustine, around 400.",
        user="U0BOT",
        thread_ts=parent.ts,
        bot_id="B0BOT",
    )
    world.upstream.queue(answer(["In Latin."]))
    await world.sim.mention(CHANNEL, "In which language?", thread_ts=parent.ts)
    await world.answered(CHANNEL, parent.ts)
    assert world.upstream.questions[0] == [
        {"role": "user", "content": "Who wrote the Confessions?"},
        {"role": "assistant", "content": "Saint Augustine, around 400."},
        {"role": "user", "content": "In which language?"},
    ]
    assert world.sim.calls_to("conversations.replies")


async def test_a_direct_message_is_answered_in_the_dm_and_follow_ups_need_no_mention(
    world: World,
) -> None:
    world.upstream.queue(answer(["Hope is a virtue."]), answer(["A theological one."]))
    asked = await world.sim.dm("What is hope?")
    await world.answered(asked.channel, asked.ts)
    [first] = world.answer_of(asked.channel, asked.ts)
    assert first.channel.startswith("D")
    assert first.shown == "Hope is a virtue."
    await world.sim.dm("What kind?", thread_ts=asked.ts)
    await world.answered(asked.channel, asked.ts, requests=2)
    assert world.upstream.questions[1][0] == {"role": "user", "content": "What is hope?"}
    assert len(world.answer_of(asked.channel, asked.ts)) == 2


async def test_upstream_mentions_never_ping_anyone(world: World) -> None:
    world.upstream.queue(answer(["Hello <!channel> and <!here>, ", "<@U0ALICE> and <#C0SECRET>."]))
    asked = await world.sim.mention(CHANNEL, "Say hi to everyone")
    await world.answered(CHANNEL, asked.ts)
    shown = _text(world.sim.bot_replies(CHANNEL, asked.ts))
    for sequence in ("<!channel>", "<!here>", "<@U0ALICE>", "<#C0SECRET>"):
        assert sequence not in shown
    assert not any("link_names" in c.args or "parse" in c.args for c in world.sim.calls)


async def test_an_upstream_failure_is_worded_for_a_person(world: World) -> None:
    world.upstream.queue(Json(500))
    asked = await world.sim.mention(CHANNEL, "Anyone there?")
    await world.answered(CHANNEL, asked.ts)
    [notice] = world.sim.bot_replies(CHANNEL, asked.ts)
    assert "could not reach the answer service" in notice.shown
    assert "500" not in notice.shown


async def test_a_cut_stream_keeps_the_text_shown_and_says_so(world: World) -> None:
    world.upstream.queue(Stream((chunk("The answer began well"), Pause(0.1), Cut())))
    asked = await world.sim.mention(CHANNEL, "Will it finish?")
    await world.answered(CHANNEL, asked.ts)
    [shown] = world.answer_of(CHANNEL, asked.ts)
    assert shown.shown.startswith("The answer began well")
    assert "interrupted" in shown.shown
    assert not shown.streaming


async def test_when_nothing_can_be_posted_the_thinking_status_is_cleared(world: World) -> None:
    """In an assistant thread (the app's DM) an empty status clears it, as Slack documents."""
    for method in ("chat.startStream", "chat.postMessage"):
        world.sim.fail_next(method, "not_in_channel", status=200, retry_after=None, times=5)
    asked = await world.sim.dm("Can you hear me?")
    await world.sim.wait_for(lambda: world.sim.statuses(asked.channel, asked.ts)[-1:] == [""])
    assert world.sim.statuses(asked.channel, asked.ts) == ["is thinking…", ""]
    assert world.sim.bot_replies(asked.channel, asked.ts) == []
