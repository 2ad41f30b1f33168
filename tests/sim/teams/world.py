"""The simulated tenant a test builds: its clock (real, or frozen and moved on by
:meth:`World.advance`), Teams-shaped ids, and the people, teams (owners, members, channels) and
chats around the bot (:mod:`tests.sim.teams.model`)."""

from __future__ import annotations

import itertools
import time
import uuid
from collections.abc import Iterable

from tests.sim.clock import SimClock
from tests.sim.teams.model import Role, SimConversation, SimPerson, SimTeam

__all__ = ["World"]


class World(SimClock):
    """The clock, the ids and the people, teams and chats a test makes."""

    tenant_id: str

    def __init__(self, *, frozen: bool = False) -> None:
        self.people: dict[str, SimPerson] = {}
        self.teams: dict[str, SimTeam] = {}
        self.conversations: dict[str, SimConversation] = {}
        self._serial = itertools.count(1)
        self._ids = itertools.count(int(time.time() * 1000))
        super().__init__(frozen=frozen)

    port: int

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def service_url(self) -> str:
        """The ``serviceUrl`` of every activity (with its slash, as Teams writes it)."""
        return self.base_url + "/"

    def new_id(self) -> str:
        """A message or stream id, in milliseconds as Teams' are, never twice."""
        return str(next(self._ids))

    def unix_time(self) -> float:
        """Unix time by the simulator's clock (the bot's tokens expire by it)."""
        return self.wall()

    # -- the world ---------------------------------------------------------------------------

    def add_person(self, name: str, *, role: Role = "user", locale: str = "en-US") -> SimPerson:
        serial = next(self._serial)
        person = SimPerson(
            id=f"29:1{uuid.uuid4().hex}{serial}",
            aad_object_id=str(uuid.uuid4()),
            name=name,
            tenant_id=self.tenant_id,
            locale=locale,
            role=role,
        )
        self.people[person.id] = person
        return person

    def personal_chat(self, person: SimPerson, *, installed: bool = True) -> SimConversation:
        chat = SimConversation(
            id=f"a:1{uuid.uuid4().hex}",
            kind="personal",
            tenant_id=self.tenant_id,
            members=[person],
            bot_installed=installed,
        )
        self.conversations[chat.id] = chat
        return chat

    def group_chat(
        self, name: str, members: Iterable[SimPerson], *, installed: bool = True
    ) -> SimConversation:
        chat = SimConversation(
            id=f"19:{uuid.uuid4().hex}@thread.v2",
            kind="groupChat",
            tenant_id=self.tenant_id,
            name=name,
            members=list(members),
            bot_installed=installed,
        )
        self.conversations[chat.id] = chat
        return chat

    def add_team(
        self,
        name: str,
        *,
        owners: Iterable[SimPerson],
        members: Iterable[SimPerson] = (),
        channels: Iterable[str] = ("General",),
        installed: bool = True,
    ) -> SimTeam:
        """A team with its channels; the first is General, whose id is the team's."""
        owned = list(owners)
        team = SimTeam(
            id=f"19:{uuid.uuid4().hex}@thread.tacv2",
            name=name,
            aad_group_id=str(uuid.uuid4()),
            tenant_id=self.tenant_id,
            owners=owned,
            members=[*owned, *(p for p in members if p not in owned)],
            bot_installed=installed,
        )
        for index, channel in enumerate(channels):
            conversation = SimConversation(
                id=team.id if index == 0 else f"19:{uuid.uuid4().hex}@thread.tacv2",
                kind="channel",
                tenant_id=self.tenant_id,
                name=channel,
                team=team,
            )
            team.channels.append(conversation)
            self.conversations[conversation.id] = conversation
        self.teams[team.id] = team
        return team
