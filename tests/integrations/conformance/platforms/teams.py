"""Teams for the conformance suite: payloads checked by the simulator's rules (the Teams SDK's
models, Teams' documented limits) and citebot's promises, an addendum as the activity it
becomes on the answer; the answer's footnotes read as Teams shows them (``[n]``, whose link is
its citation's; a superscript linked past 20), the cards as the citations and closing lines
the addenda carry; its people are a team's members mentioning citebot in its channels, on the
simulated Teams and the worker's own runner. No wire yet (one answer's sink alone)."""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

import pytest

from bot.i18n.wording import ENGLISH_LABELS
from bot.render.ports import Payload
from integrations.teams.presenter import TeamsPresenter
from tests.integrations.conformance.kit import Conformance, Inbound, Reply, Where
from tests.integrations.teams.payloads import validate_teams_payload
from tests.integrations.teams.reading import read_answer, read_teams
from tests.integrations.teams.world import APP_PASSWORD, STREAM, World, teams_world
from tests.places import at
from tests.sim.teams import SimConversation, SimMessage, SimPerson, TeamsSim
from tests.sim.upstream import UpstreamSim


def footnotes(answer: Sequence[Payload]) -> list[tuple[int, str | None]]:
    return read_answer(answer).footnotes


def cards(thread: Sequence[Payload]) -> dict[int, str | None]:
    return {card.number: card.url for card in read_teams([], thread, ENGLISH_LABELS).cards}


@dataclass
class _People:
    """A mention of citebot in a team's channel: ``allowed`` and ``off`` are the team
    allowlist's, ``outside`` another team; votes are Teams' feedback form's 👍/👎."""

    world: World
    places: dict[Where, SimConversation]
    asker: SimPerson
    someone: SimPerson

    @property
    def upstream(self) -> UpstreamSim:
        return self.world.upstream

    async def ask(self, text: str, *, where: Where = "allowed", twice: bool = False) -> Reply:
        teams = self.world.teams
        post, delivered = await teams.mention(self.asker, self.places[where], text)
        if twice:
            await teams.deliver(delivered.activity)
        if where == "allowed":
            await self.world.answered()
        await self.world.idle()
        replies = self.world.replies(self.places[where], post)
        voted = [m for m in replies if m.feedback]
        return Reply(said=[m.text for m in replies], answer=voted[-1] if voted else None)

    async def vote(self, reply: Reply, value: Literal["up", "down"], *, asker: bool) -> None:
        assert isinstance(reply.answer, SimMessage)
        voter = self.asker if asker else self.someone
        reaction = {"up": "like", "down": "dislike"}[value]
        delivered = await self.world.teams.feedback(voter, reply.answer, reaction)
        assert delivered.status == 200  # the invoke is answered once the vote is kept

    async def votes(self, reply: Reply) -> dict[str, str]:
        assert isinstance(reply.answer, SimMessage)
        message = reply.answer
        key = f"teams:{message.conversation.id}:{message.id}"
        kept = await self.world.service.state.feedback(key)
        who = {self.asker.id: "asker", self.someone.id: "someone else"}
        return {who[user]: value for user, value in kept.items()}


@asynccontextmanager
async def people_on_simulator(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> AsyncIterator[Inbound]:
    async with TeamsSim(app_password=APP_PASSWORD, stream_interval=STREAM / 10) as teams:
        owner = teams.add_person("Olivia Owner")
        asker, someone = teams.add_person("Alice Archer"), teams.add_person("Bob Baker")
        names: dict[Where, str] = {"allowed": "Parish", "off": "Quiet", "outside": "Elsewhere"}
        places = {
            where: teams.add_team(name, owners=[owner], members=[asker, someone]).channels[0]
            for where, name in names.items()
        }
        allowlist = ",".join(places[where].id for where in ("allowed", "off"))
        async with teams_world({"TEAMS_TEAM_ALLOWLIST": allowlist}, teams=teams) as world:
            off = at(f"teams:{places['off'].id}")
            await world.service.places.set(off, "enabled", "off", by="admin")
            yield _People(world, places, asker, someone)


PLATFORM = Conformance(
    name="teams",
    presenter=TeamsPresenter(),
    problems=validate_teams_payload,
    footnotes=footnotes,
    cards=cards,
    wire=None,
    inbound=people_on_simulator,
)
