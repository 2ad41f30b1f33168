"""The simulated Teams' world: people, teams with their owners and channels, conversations
(personal chats, group chats, channels with threads), messages and streams, each able to
write itself as the Bot Framework object Teams sends (an account, a roster member, a
conversation) and read back as a person sees it.

Ids look like Teams' (learn.microsoft.com/microsoftteams/platform/bots/how-to/
conversations/conversation-basics and get-teams-context): a person ``29:…`` with an Entra
object id, the bot ``28:<app id>``, a personal chat ``a:…``, a group chat ``19:…@thread.v2``,
a team and its channels ``19:…@thread.tacv2`` (the General channel has the team's id), a
channel thread ``<channel>;messageid=<root message id>``, message ids in milliseconds.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any, Literal

__all__ = [
    "Kind",
    "Role",
    "SimConversation",
    "SimMessage",
    "SimPerson",
    "SimStream",
    "SimTeam",
]

Kind = Literal["personal", "groupChat", "channel"]
Role = Literal["user", "guest", "anonymous"]
"""A roster member's ``userRole`` (the Bot Framework's); a team's owners are Graph's."""
_MARKER = re.compile(r"\[([0-9]+)\]")
_CODE = re.compile(r"```.*?(?:```|$)|`[^`\n]*`", re.S)
"""Code, which Teams shows as written: a ``[1]`` there is the code's (the simulator's reading;
Teams documents none)."""


@dataclass(eq=False)
class SimPerson:
    id: str
    aad_object_id: str
    name: str
    tenant_id: str
    locale: str = "en-US"
    role: Role = "user"

    def account(self) -> dict[str, Any]:
        return {"id": self.id, "name": self.name, "aadObjectId": self.aad_object_id}

    def member(self) -> dict[str, Any]:
        """As the roster (``/members``) lists a person."""
        given, _, surname = self.name.partition(" ")
        member = {
            "id": self.id,
            "name": self.name,
            "objectId": self.aad_object_id,
            "tenantId": self.tenant_id,
            "userRole": self.role,
        }
        if self.role != "anonymous":
            member |= {
                "givenName": given,
                "surname": surname,
                "email": f"{given.lower()}@example.org",
                "userPrincipalName": f"{given.lower()}@example.org",
            }
        return member


@dataclass(eq=False)
class SimTeam:
    id: str
    name: str
    aad_group_id: str
    tenant_id: str
    owners: list[SimPerson] = field(default_factory=list)
    members: list[SimPerson] = field(default_factory=list)
    """Everyone in the team, its owners included."""
    channels: list[SimConversation] = field(default_factory=list)
    bot_installed: bool = False

    def details(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "name": self.name,
            "aadGroupId": self.aad_group_id,
            "type": "standard",
            "channelCount": len(self.channels),
            "memberCount": len(self.members),
            "tenantId": self.tenant_id,
        }

    def info(self) -> dict[str, Any]:
        return {"id": self.id, "name": self.name, "aadGroupId": self.aad_group_id}


@dataclass(eq=False)
class SimConversation:
    id: str
    kind: Kind
    tenant_id: str
    name: str | None = None
    team: SimTeam | None = None
    members: list[SimPerson] = field(default_factory=list)
    """Whom the roster lists (a channel's are its team's; a personal chat's, its person)."""
    messages: list[SimMessage] = field(default_factory=list)
    bot_installed: bool = False

    @property
    def roster(self) -> list[SimPerson]:
        return self.team.members if self.team is not None else self.members

    @property
    def installed(self) -> bool:
        return self.team.bot_installed if self.team is not None else self.bot_installed

    def account(self, thread: SimMessage | None = None) -> dict[str, Any]:
        """``conversation`` as an activity carries it (a channel thread's id names its
        root)."""
        account: dict[str, Any] = {
            "id": self.id if thread is None else f"{self.id};messageid={thread.id}",
            "conversationType": self.kind,
            "tenantId": self.tenant_id,
        }
        if self.kind != "personal":
            account["isGroup"] = True
        if self.name:
            account["name"] = self.name
        return account

    def message(self, message_id: str) -> SimMessage | None:
        return next((m for m in self.messages if m.id == message_id), None)


@dataclass(eq=False)
class SimStream:
    """A personal chat's streamed answer: its informative and streaming updates, then its
    final message (learn.microsoft.com/microsoftteams/platform/bots/streaming-ux)."""

    id: str
    conversation: SimConversation
    started_at: float
    last_at: float
    sequence: int = 1
    informative: list[str] = field(default_factory=list)
    streamed: list[str] = field(default_factory=list)
    """Each streaming update's text, in order: what the person watched grow."""
    ended: Literal["final", "timeout", ""] = ""

    @property
    def open(self) -> bool:
        return not self.ended


@dataclass(eq=False)
class SimMessage:
    """A message in a conversation: a person's, or the bot's as it shows now."""

    id: str
    conversation: SimConversation
    sender: SimPerson | None
    """None: the bot."""
    text: str = ""
    activity: dict[str, Any] = field(default_factory=dict)
    """The bot's activity as it shows now (after its edits)."""
    thread: SimMessage | None = None
    """A channel reply's root message."""
    reply_to: str | None = None
    edits: list[dict[str, Any]] = field(default_factory=list)
    """The bot's earlier versions, oldest first."""
    deleted: bool = False
    stream: SimStream | None = None

    @property
    def from_bot(self) -> bool:
        return self.sender is None

    @property
    def citations(self) -> dict[int, dict[str, Any]]:
        """Position -> the citation's appearance."""
        shown: dict[int, dict[str, Any]] = {}
        for entity in self.activity.get("entities", []):
            for claim in entity.get("citation", []) or []:
                shown[int(claim["position"])] = claim.get("appearance", {})
        return shown

    @property
    def ai_label(self) -> bool:
        return any(
            "AIGeneratedContent" in (entity.get("additionalType") or [])
            for entity in self.activity.get("entities", [])
        )

    @property
    def feedback(self) -> bool:
        """Whether Teams shows 👍/👎 under it."""
        data = self.activity.get("channelData") or {}
        return bool(data.get("feedbackLoop") or data.get("feedbackLoopEnabled"))

    @property
    def attachments(self) -> list[dict[str, Any]]:
        return list(self.activity.get("attachments") or [])

    def markers(self) -> list[int]:
        """The citation markers ``[n]`` its text shows, in order."""
        return [int(n) for n in _MARKER.findall(_CODE.sub("", self.text))]

    def unmatched(self) -> list[str]:
        """What a reader would find broken: a ``[n]`` with no citation, a citation with no
        ``[n]``."""
        markers, cited = set(self.markers()), set(self.citations)
        return [f"[{n}] has no citation" for n in sorted(markers - cited)] + [
            f"citation {n} has no [{n}]" for n in sorted(cited - markers)
        ]

    def popup(self, position: int) -> dict[str, Any] | None:
        """Citation ``position``'s popup: its Adaptive Card, parsed."""
        text = self.citations.get(position, {}).get("text")
        return json.loads(text) if text else None
