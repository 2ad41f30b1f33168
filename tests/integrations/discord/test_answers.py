"""/ask end to end: the real discord.py client runs the adapter against the simulated Discord,
with the simulated upstream answering. Every assertion is what a person sees or a wire call."""

from __future__ import annotations

import itertools

from tests.integrations.discord.harness import Harness
from tests.sim.upstream import Cut, Json, Stream, answer, chunk, magisterium_citation

THREADS = "POST /channels/{channel_id}/messages/{message_id}/threads"

CITED = answer(
    ["Grace is a gift", " of God[^1], freely given[^2]."],
    [
        magisterium_citation(
            0,
            "Grace is favor, the free and undeserved help.",
            title="Catechism",
            url="https://example.org/ccc/1996",
        ),
        magisterium_citation(
            1,
            "Sanctifying grace is an habitual gift.",
            title="Catechism",
            url="https://example.org/ccc/2000",
        ),
    ],
    related=["What is sanctifying grace?", "How is grace received?"],
)


async def test_ask_defers_at_once_then_shows_the_linked_answer(harness: Harness) -> None:
    harness.upstream.queue(CITED)
    message = await harness.ask("What is grace?")

    callback = harness.sim.requests_to("POST /interactions/{interaction_id}/{token}/callback")
    assert [c.json["type"] for c in callback] == [5]
    assert callback[0].status == 200
    assert not message.loading
    assert message.content.count("Grace is a gift of God") == 1
    assert "https://example.org/ccc/1996" in message.content
    assert "[^1]" not in message.content
    assert message.link_previews == []
    labels = {b["custom_id"] for b in message.buttons()}
    assert labels == {"citebot:feedback:up", "citebot:feedback:down"}
    writes = harness.writes(message)
    assert all(w.json["allowed_mentions"] == {"parse": []} for w in writes)
    assert all(a.json != b.json for a, b in itertools.pairwise(writes))


async def test_the_thread_holds_the_cards_and_related_questions(harness: Harness) -> None:
    harness.upstream.queue(CITED)
    message = await harness.ask("What is grace?")

    thread = harness.sim.thread_of(message.id)
    assert thread is not None
    assert thread.name == "What is grace?"
    cards = harness.sim.thread_messages(message.id)
    embeds = [e for m in cards for e in m.embeds]
    assert len(embeds) == 2
    assert "free and undeserved" in str(embeds[0])
    buttons = [b["label"] for m in cards for b in m.buttons()]
    assert buttons == ["What is sanctifying grace?", "How is grace received?"]
    assert all(m.allowed_mentions[-1] == {"parse": []} for m in cards)


async def test_private_answer_has_no_thread_and_cards_follow_privately(harness: Harness) -> None:
    harness.upstream.queue(CITED)
    message = await harness.ask("What is grace?", private=True)

    assert message.ephemeral
    assert harness.sim.thread_of(message.id) is None
    assert harness.sim.channel_messages(harness.sim.text.id) == []
    seen = harness.sim.channel_messages(harness.sim.text.id, viewer=harness.sim.user.id)
    assert seen[0] is message
    assert len(seen) >= 2
    assert all(m.ephemeral for m in seen)
    assert not harness.sim.requests_to(THREADS)


async def test_where_no_thread_can_be_made_the_cards_follow_unasked(harness: Harness) -> None:
    """No thread call where the interaction says the bot lacks CREATE_PUBLIC_THREADS: Discord
    would refuse it, and refusals count toward its invalid-request limit."""
    sim = harness.sim
    for channel in (sim.dm, sim.no_threads, sim.forum_post):
        harness.upstream.queue(CITED)
        message = await harness.ask("What is grace?", channel_id=channel.id)
        shown = sim.channel_messages(channel.id)
        assert shown[0] is message
        assert sim.thread_of(message.id) is None
        assert [e for m in shown[1:] for e in m.embeds], channel.name
    assert not sim.requests_to(THREADS)

    harness.upstream.queue(CITED)
    message = await harness.ask("What is grace?", channel_id=sim.text.id)
    assert [e for m in sim.thread_messages(message.id) for e in m.embeds]
    assert [r.status for r in sim.requests_to(THREADS)] == [201]


async def test_a_thread_refused_after_all_still_lets_the_cards_follow(harness: Harness) -> None:
    """The permission can be taken away between the interaction and the thread call."""
    sim = harness.sim
    harness.upstream.queue(CITED)
    sim.refuse_next(THREADS, 403, 50013, "Missing Permissions")
    message = await harness.ask("What is grace?", channel_id=sim.text.id)

    assert sim.thread_of(message.id) is None
    shown = sim.channel_messages(sim.text.id)
    assert shown[0] is message
    assert [e for m in shown[1:] for e in m.embeds]
    assert [r.status for r in sim.requests_to(THREADS)] == [403]


async def test_upstream_mentions_never_ping(harness: Harness) -> None:
    harness.upstream.queue(
        answer(["Hey @everyone and @here, ", f"<@{harness.sim.user.id}> ", "and <@&42> look."])
    )
    message = await harness.ask("ping?")

    assert "everyone" in message.content
    assert harness.sim.pinged() == []
    writes = [
        r
        for r in harness.sim.requests
        if r.method in ("POST", "PATCH") and r.json and "content" in r.json
    ]
    assert writes
    assert all(r.json["allowed_mentions"] == {"parse": []} for r in writes)


async def test_an_upstream_500_is_worded_for_a_person(harness: Harness) -> None:
    harness.upstream.queue(Json(500, {"error": {"message": "boom"}}))
    message = await harness.ask("What is grace?")

    assert "try again" in message.content.lower()
    assert "boom" not in message.content
    assert harness.sim.thread_of(message.id) is None


async def test_a_cut_stream_keeps_the_text_and_says_so(harness: Harness) -> None:
    harness.upstream.queue(Stream((chunk("Grace is a gift"), chunk(" of God."), Cut())))
    message = await harness.ask("What is grace?")

    assert "Grace is a gift of God." in message.content
    assert "interrupted" in message.content.lower()


async def test_a_card_discord_refuses_is_skipped_and_the_rest_still_land(harness: Harness) -> None:
    many = answer(
        ["Grace is many things" + "".join(f"[^{i + 1}]" for i in range(12)) + "."],
        [
            magisterium_citation(
                i, f"Passage {i}.", title=f"Source {i}", url=f"https://example.org/{i}"
            )
            for i in range(12)
        ],
    )
    harness.upstream.queue(many)
    harness.sim.refuse_next("POST /channels/{channel_id}/messages", 403, 50001, "Missing Access")
    message = await harness.ask("What is grace?")

    assert "Grace" in message.content
    cards = harness.sim.thread_messages(message.id)
    assert [len(m.embeds) for m in cards] == [2], "one refused card took the others with it"
    assert harness.service.outcomes[-1] is not None
    assert harness.service.outcomes[-1].status == "answered"
