"""Who a Teams place's admins are, asked of Teams at each command and each change: a team's
owners (Microsoft Graph's members of the team with the ``owner`` role: the Bot Framework's
roster does not say who owns a team, MicrosoftDocs/msteams-docs#1990), and in a group chat
its members, as the roster lists them, who are not guests or anonymous (``userRole`` ``user``:
a group chat has no owners, and everyone in it may change what citebot does there). A person
made or unmade an owner a moment ago is taken as they are now. Anyone else, and anyone when
Teams cannot say (Graph refused, or ``TEAMS_AUTH`` is off and the bot has no token to ask
with), is refused and nothing changes; a personal chat has no place to administer.

"Ask a person" where ``handoff`` is ``admins`` names the same people (:meth:`Admins.people`),
each as the roster knows them, so that the message can mention them.
"""

from __future__ import annotations

import logging

import httpx
from microsoft_teams.api.models import TeamsChannelAccount

from integrations.teams.auth import TokenUnavailable
from integrations.teams.place import Conversation
from integrations.teams.wire import TeamsRefused, TeamsWire

__all__ = ["MOST_NAMED", "Admins"]

log = logging.getLogger(__name__)

MOST_NAMED = 20
"""Admins one "Ask a person" names: a big team's whole staff would bury the message."""
MEMBER = "user"
"""A roster member's ``userRole`` who is neither a guest nor anonymous."""
_FAILED = (TeamsRefused, TokenUnavailable, httpx.HTTPError, ValueError, KeyError)


class Admins:
    """Asks Teams who administers a conversation's place."""

    def __init__(self, wire: TeamsWire, *, graph: bool) -> None:
        """``graph``: whether the bot can ask Microsoft Graph (it has its own tokens)."""
        self._wire = wire
        self._graph = graph

    async def is_admin(self, where: Conversation, person: str, aad_object_id: str | None) -> bool:
        """Whether ``person`` (their Teams id, and their Entra object id where the activity
        gives it) administers ``where``'s place now."""
        try:
            if where.kind == "channel":
                owners = await self._owners(where)
                return aad_object_id is not None and aad_object_id in owners
            if where.kind == "groupChat":
                member = await self._wire.member(where.service_url, where.id, person)
                return member is not None and member.user_role == MEMBER
        except _FAILED as error:  # not known as an admin: refused, nothing changes
            log.warning("Teams: could not ask who administers %s (%s)", where.id, error)
        return False

    async def people(self, where: Conversation, *, besides: str) -> list[TeamsChannelAccount]:
        """The admins of ``where``'s place as the roster knows them (at most
        :data:`MOST_NAMED`), ``besides`` (the asker's Teams id) left out; none when Teams
        cannot say."""
        found: list[TeamsChannelAccount] = []
        try:
            if where.kind == "channel":
                for owner in sorted(await self._owners(where)):
                    member = await self._wire.member(where.service_url, where.id, owner)
                    if member is not None:
                        found.append(member)
            elif where.kind == "groupChat":
                roster = self._wire.conversations(where.service_url).members_client
                found = [m for m in await roster.get(where.id) if m.user_role == MEMBER]
        except _FAILED as error:
            log.warning("Teams: no admins of %s to ask (%s)", where.id, error)
        return [member for member in found if member.id != besides][:MOST_NAMED]

    async def _owners(self, where: Conversation) -> set[str]:
        """The Entra object ids of the team's owners (Graph, in the team's tenant)."""
        if not self._graph:
            raise ValueError("no token to ask Microsoft Graph with (TEAMS_AUTH is off)")
        group = where.group
        if group is None:
            assert where.team is not None
            group = (await self._wire.team(where.service_url, where.team)).aad_group_id
        if not group or not where.tenant:
            raise ValueError("the team's group or tenant is not known")
        return await self._wire.team_owners(where.tenant, group)
