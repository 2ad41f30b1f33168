"""Where something happens in Teams: a personal chat, a group chat, or a team's channel (and
the thread of a channel's post), as the connector addresses it and as the kit's fence and
settings name it.

A channel's activity names its thread in the conversation's id (``19:…@thread.tacv2;
messageid=<root>``, learn.microsoft.com/microsoftteams/platform/bots/how-to/conversations/
conversation-basics); the channel's own id is the part before it, and the team's is in
``channelData.team`` (a team's General channel has the team's id). A place is written as the
contract says: ``teams:TEAM_ID``, ``teams:TEAM_ID/CHANNEL_ID``, or ``teams:CONVERSATION_ID`` for
a group chat; a personal chat is no place (the environment's settings apply there).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Literal

from microsoft_teams.api.activities import Activity

from bot.adapter import Arrival, Heard, Venue
from bot.i18n.wording import catalogue_language

__all__ = ["THREAD_MARK", "Conversation", "Kind", "answer_key", "arrival", "conversation_of"]

Kind = Literal["personal", "groupChat", "channel"]
THREAD_MARK = ";messageid="
"""What separates a channel's id from its thread's root in a conversation's id."""


@dataclass(frozen=True, slots=True)
class Conversation:
    """A conversation the bot is in, and the thread of it an activity is in."""

    service_url: str
    """Teams' region of it (the activity's ``serviceUrl``): where the bot's calls go."""
    id: str
    """Its own id: a personal chat's, a group chat's, or a channel's (never a thread's)."""
    kind: Kind
    tenant: str | None = None
    team: str | None = None
    """A channel's team."""
    group: str | None = None
    """The team's Microsoft 365 group (``aadGroupId``): Graph names its owners by it."""
    thread: str | None = None
    """A channel thread's root message (the post a thread replies to)."""

    @property
    def direct(self) -> bool:
        """A conversation with the bot alone."""
        return self.kind == "personal"

    @property
    def address(self) -> str:
        """The conversation's id as the connector takes it: a thread's where there is one."""
        return f"{self.id}{THREAD_MARK}{self.thread}" if self.thread else self.id

    @property
    def server(self) -> str | None:
        """The place above the channel: a team, or the group chat itself; none in a personal
        chat."""
        if self.kind == "channel":
            return self.team or self.id
        return self.id if self.kind == "groupChat" else None

    def venue(self) -> Venue:
        """Where it is, as the allowlists fence it and its settings are kept."""
        channel = self.id if self.kind == "channel" else None
        return Venue(server=self.server, channel=channel, direct=self.direct)

    def in_thread(self, root: str | None) -> Conversation:
        """The same conversation, in the thread of ``root`` (a channel's only: chats have no
        threads)."""
        return replace(self, thread=root if self.kind == "channel" else None)


def conversation_of(activity: Activity) -> Conversation:
    """Where ``activity`` happened."""
    account = activity.conversation
    base, _, thread = account.id.partition(THREAD_MARK)
    data = activity.channel_data
    team = data.team if data is not None else None
    tenant = account.tenant_id or (data.tenant.id if data is not None and data.tenant else None)
    kind: Kind = (
        "channel"
        if account.conversation_type == "channel" or team is not None
        else "groupChat"
        if account.conversation_type == "groupChat" or account.is_group
        else "personal"
    )
    return Conversation(
        service_url=str(activity.service_url or ""),
        id=base,
        kind=kind,
        tenant=tenant,
        team=team.id if team is not None else None,
        group=team.aad_group_id if team is not None else None,
        thread=thread or None if kind == "channel" else None,
    )


def answer_key(conversation: Conversation, message_id: str) -> str:
    """The key votes on an answer are kept under: its conversation and its message (Teams'
    feedback names the message it is on)."""
    return f"teams:{conversation.id}:{message_id}"


def arrival(activity: Activity, heard: Heard = Heard.MENTION) -> Arrival:
    """An activity as the kit takes it: claimed by its id (Teams delivers an activity again
    when the bot is slow to answer, and several workers may stand behind one endpoint),
    fenced where it happened, in the person's Teams language (its ``locale``)."""
    conversation = conversation_of(activity)
    return Arrival(
        keys=(f"activity:{conversation.id}:{activity.id}",),
        venue=conversation.venue(),
        heard=heard,
        language=catalogue_language(activity.locale),
    )
