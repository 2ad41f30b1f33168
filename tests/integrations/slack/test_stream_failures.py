"""The native stream failing part-way, as a person in the thread sees the end result.

Whatever went wrong with the stream (Slack dropped it, a 429, any error), the thread must end
with the whole answer exactly once, in messages that no longer look like they are being written.
An answer streams natively from its first text in the app's DM (in a channel its first message
replaces a placeholder by edits), so these ask there.
"""

from __future__ import annotations

from tests.integrations.slack.conftest import World
from tests.sim.upstream import Pause, answer

CHANNEL = "C0GENERAL"


def _shown(world: World, channel: str, ts: str) -> str:
    return "".join(m.shown for m in world.answer_of(channel, ts))


async def test_a_stream_that_expires_mid_answer_ends_with_the_exact_text(world: World) -> None:
    sentences = [
        f"Sentence {p}.{i} of a long and careful answer." for p in range(5) for i in range(8)
    ]
    pieces = [s + ("\n\n" if i % 8 == 7 else " ") for i, s in enumerate(sentences)]
    world.sim.expire_after_appends = 3
    world.upstream.queue(answer(pieces, between=[Pause(0.005)]))
    asked = await world.sim.dm("Tell me at length")
    await world.answered(asked.channel, asked.ts)

    messages = world.answer_of(asked.channel, asked.ts)
    assert _shown(world, asked.channel, asked.ts) == "".join(pieces).strip()
    assert not any(m.streaming for m in messages)
    assert any(c.error == "message_not_in_streaming_state" for c in world.sim.calls)


async def test_any_stream_error_closes_the_stream_and_keeps_the_exact_text(world: World) -> None:
    world.sim.fail_next("chat.appendStream", "internal_error")
    pieces = ["Faith", " seeks", " understanding", " and finds it."]
    world.upstream.queue(answer(pieces, between=[Pause(0.1)]))
    asked = await world.sim.dm("Faith?")
    await world.answered(asked.channel, asked.ts)

    [message] = world.answer_of(asked.channel, asked.ts)
    assert message.shown == "Faith seeks understanding and finds it."
    assert not message.streaming, "the message still looks like it is being written"


async def test_upstream_channel_pings_show_as_inert_text(world: World) -> None:
    world.upstream.queue(answer(["Hello <!channel> and <!here> and <@U0ALICE>."]))
    asked = await world.sim.mention(CHANNEL, "Say hi")
    await world.answered(CHANNEL, asked.ts)

    [message] = world.answer_of(CHANNEL, asked.ts)
    # A zero-width space after "<" leaves the words readable and the sequences inert.
    assert message.shown == "Hello <\u200b!channel> and <\u200b!here> and <\u200b@U0ALICE>."
    assert not any({"link_names", "parse"} & set(c.args) for c in world.sim.calls)
    assert all(c.args.get("unfurl_links") is False for c in world.sim.calls_to("chat.postMessage"))
