"""What every registered platform the worker runs does with what people send it, through the
kit's steps on the platform's own simulator and client library: a question outside the
allowlist, or where the place's admins switched citebot off, is refused in the asker's words
and asks nothing; a question the platform delivers twice is answered once; a vote is kept on
the answer, and a press by someone else is their own vote, never the asker's."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.i18n.wording import Wording
from bot.platforms import load_platform
from tests.integrations.conformance.kit import Conformance, Where, registered
from tests.sim.upstream import answer

RUNS = [platform for platform in registered() if load_platform(platform.name).runs]
QUESTION = "What is grace?"
GRACE = "Grace is a gift of God."


def test_every_platform_the_worker_runs_is_held_to_the_inbound_promises() -> None:
    assert [p.name for p in RUNS if p.inbound is None] == []


@pytest.mark.parametrize("where", ["outside", "off"])
@pytest.mark.parametrize("platform", RUNS, ids=lambda p: p.name)
async def test_a_place_citebot_may_not_answer_in_is_told_so_and_asks_nothing(
    platform: Conformance, where: Where, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    assert platform.inbound is not None
    async with platform.inbound(monkeypatch, tmp_path) as people:
        people.upstream.queue(answer([GRACE]))
        refused = await people.ask(QUESTION, where=where)
        assert refused.said == [Wording("en", platform.name).not_allowed_here()]
        assert people.upstream.requests == []
        answered = await people.ask(QUESTION)  # the same person, where citebot may answer
        assert answered.said[0].startswith(GRACE)


@pytest.mark.parametrize("platform", RUNS, ids=lambda p: p.name)
async def test_a_question_delivered_twice_is_answered_once(
    platform: Conformance, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    assert platform.inbound is not None
    async with platform.inbound(monkeypatch, tmp_path) as people:
        people.upstream.queue(answer([GRACE]), answer(["A second answer."]))
        reply = await people.ask(QUESTION, twice=True)
        assert len(people.upstream.requests) == 1
        assert [said for said in reply.said if said.startswith(GRACE)] == [reply.said[0]]


@pytest.mark.parametrize("platform", RUNS, ids=lambda p: p.name)
async def test_a_vote_is_kept_and_a_press_by_someone_else_is_their_own(
    platform: Conformance, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    assert platform.inbound is not None
    async with platform.inbound(monkeypatch, tmp_path) as people:
        people.upstream.queue(answer([GRACE]))
        reply = await people.ask(QUESTION)
        await people.vote(reply, "up", asker=True)
        assert await people.votes(reply) == {"asker": "up"}
        await people.vote(reply, "down", asker=False)
        assert await people.votes(reply) == {"asker": "up", "someone else": "down"}
