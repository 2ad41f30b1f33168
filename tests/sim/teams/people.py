"""What people do around the bot, and what reaches it: they write in a personal chat, mention
the bot in a group chat or a channel (a new post, or a reply in a post's thread), press 👍/👎
and send the feedback form, run "Check with sources" from a message's "..." menu, press a
card's button, install the bot and remove it.

Each action changes the conversation as Teams would and posts the activity to the bot's
``/api/messages``, signed (:mod:`tests.sim.teams.identity`); every activity is first read with
the Teams SDK's own model of incoming activities (``ActivityTypeAdapter``), so the simulator
sends what the SDK reads. Sources: learn.microsoft.com/microsoftteams/platform/bots/how-to/
conversations/channel-and-group-conversations (a mention's ``<at>`` text and entity; a
channel post's ``conversation.id`` with ``;messageid=``), bots/how-to/conversations/
bot-events (``conversationUpdate`` with ``membersAdded``/``membersRemoved`` and
``channelData.eventType``, ``installationUpdate`` ``add``/``remove``), bots/how-to/
bot-messages-ai-generated-content ("Handle feedback": the ``message/submitAction`` invoke,
``actionValue.reaction`` ``like``/``dislike``, ``feedback`` a JSON string with
``feedbackText``; its response must be empty, or 400), messaging-extensions/how-to/
action-commands/create-task-module (a message action's ``composeExtension/fetchTask`` with
``commandContext`` ``message`` and ``messagePayload``; answered ``{"task": {"type":
"continue"|"message", "value": ...}}``).
"""

from __future__ import annotations

import html
import json
import uuid
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

import aiohttp
from microsoft_teams.api.activities import ActivityTypeAdapter

from tests.sim.teams.model import SimConversation, SimMessage, SimPerson, SimTeam
from tests.sim.teams.world import World

if TYPE_CHECKING:
    from tests.sim.teams.identity import Identity
    from tests.sim.teams.sim import Violation

__all__ = ["VALID", "Delivery", "People"]

VALID = "valid"
"""``token=VALID``: the activity carries the token Teams would send (the default)."""


@dataclass(frozen=True)
class Delivery:
    """An activity as the bot got it, and what the bot answered."""

    activity: dict[str, Any]
    status: int
    body: Any


class People(World):
    app_id: str
    identity: Identity
    bot_url: str
    violations: list[Violation]

    def __init__(self, *, frozen: bool = False) -> None:
        super().__init__(frozen=frozen)
        self.deliveries: list[Delivery] = []
        self._client: aiohttp.ClientSession | None = None

    # -- people's actions --------------------------------------------------------------------

    async def say(
        self,
        person: SimPerson,
        conversation: SimConversation,
        text: str,
        *,
        mention: bool = False,
        thread: SimMessage | None = None,
        token: str | None = VALID,
    ) -> tuple[SimMessage, Delivery]:
        """``person`` writes ``text`` (after a mention of the bot when ``mention``); in a
        channel, a new post, or a reply in ``thread``'s."""
        message = SimMessage(
            id=self.new_id(), conversation=conversation, sender=person, text=text, thread=thread
        )
        conversation.messages.append(message)
        self.touch()
        activity = self._base("message", person, conversation, thread or message)
        activity.update(text=text, textFormat="plain", id=message.id)
        if mention:
            at = "<at>citebot</at>"
            activity["text"] = f"{at} {text}"
            activity["entities"].append(
                {"type": "mention", "text": at, "mentioned": self._bot_account()}
            )
        if thread is not None:
            activity["replyToId"] = thread.id
        return message, await self.deliver(activity, token=token)

    async def mention(
        self,
        person: SimPerson,
        conversation: SimConversation,
        text: str,
        *,
        thread: SimMessage | None = None,
    ) -> tuple[SimMessage, Delivery]:
        return await self.say(person, conversation, text, mention=True, thread=thread)

    async def feedback(
        self, person: SimPerson, message: SimMessage, reaction: str, text: str = ""
    ) -> Delivery:
        """👍 (``like``) or 👎 (``dislike``) on ``message`` and the form sent with ``text``."""
        assert message.feedback, "Teams shows no feedback buttons on that message"
        activity = self._invoke("message/submitAction", person, message)
        activity["value"] = {
            "actionName": "feedback",
            "actionValue": {"reaction": reaction, "feedback": json.dumps({"feedbackText": text})},
        }
        delivered = await self.deliver(activity)
        if delivered.status != 200 or delivered.body not in (None, {}, ""):
            self._violation("message/submitAction", "invoke response isn't empty")
        return delivered

    async def check_with_sources(
        self, person: SimPerson, message: SimMessage, command_id: str
    ) -> Delivery:
        """``person`` runs the message action ``command_id`` on ``message`` (its "..." menu):
        the fetch of its dialog, which the bot answers with a dialog or a short message."""
        activity = self._invoke("composeExtension/fetchTask", person, message)
        activity["value"] = {
            "commandId": command_id,
            "commandContext": "message",
            "requestId": uuid.uuid4().hex,
            "messagePayload": _payload(message),
            "context": {"theme": "default"},
        }
        delivered = await self.deliver(activity)
        task = delivered.body.get("task") if isinstance(delivered.body, dict) else None
        if (
            delivered.status != 200
            or not isinstance(task, dict)
            or task.get("type")
            not in (
                "continue",
                "message",
            )
        ):
            self._violation("composeExtension/fetchTask", f"answer {delivered.body!r}")
        return delivered

    async def press(self, person: SimPerson, message: SimMessage, data: dict[str, Any]) -> Delivery:
        """``person`` presses a ``messageBack`` button of ``message``'s card (``data``: its
        ``msteams``): its ``displayText`` shows as theirs, its ``text`` and ``value`` reach
        the bot in a message activity."""
        conversation = message.conversation
        shown = SimMessage(
            id=self.new_id(),
            conversation=conversation,
            sender=person,
            text=str(data.get("displayText") or ""),
            thread=message.thread,
        )
        conversation.messages.append(shown)
        activity = self._base("message", person, conversation, message.thread)
        activity.update(id=shown.id, text=data.get("text", ""), value=data.get("value"))
        activity["replyToId"] = message.id
        return await self.deliver(activity)

    # -- installing and removing the bot -----------------------------------------------------

    async def add_bot_to_team(self, team: SimTeam, by: SimPerson) -> None:
        team.bot_installed = True
        await self._membership(team.channels[0], by, added=True, event="teamMemberAdded")

    async def remove_bot_from_team(self, team: SimTeam, by: SimPerson) -> None:
        await self._membership(team.channels[0], by, added=False, event="teamMemberRemoved")
        team.bot_installed = False

    async def add_bot_to_chat(self, chat: SimConversation, by: SimPerson) -> None:
        chat.bot_installed = True
        await self._membership(chat, by, added=True)

    async def remove_bot_from_chat(self, chat: SimConversation, by: SimPerson) -> None:
        await self._membership(chat, by, added=False)
        chat.bot_installed = False

    async def _membership(
        self, conversation: SimConversation, by: SimPerson, *, added: bool, event: str = ""
    ) -> None:
        install = self._base("installationUpdate", by, conversation, None)
        install["action"] = "add" if added else "remove"
        await self.deliver(install)
        update = self._base("conversationUpdate", by, conversation, None)
        update["membersAdded" if added else "membersRemoved"] = [self._bot_account()]
        if event:
            update["channelData"]["eventType"] = event
        await self.deliver(update)

    # -- delivering --------------------------------------------------------------------------

    async def deliver(self, activity: dict[str, Any], *, token: str | None = VALID) -> Delivery:
        """Post ``activity`` to the bot, with Teams' token unless ``token`` is None (or a token
        of the test's making); what the bot answered."""
        ActivityTypeAdapter.validate_python(activity)  # what the SDK reads, Teams sends
        headers = {"Content-Type": "application/json"}
        signed = self.identity.activity_token(self.service_url) if token == VALID else token
        if signed is not None:
            headers["Authorization"] = f"Bearer {signed}"
        if self._client is None:
            self._client = aiohttp.ClientSession()
        async with self._client.post(self.bot_url, data=json.dumps(activity), headers=headers) as r:
            raw = await r.read()
            try:
                body = json.loads(raw) if raw else None
            except ValueError:
                body = raw.decode(errors="replace")
            delivered = Delivery(activity, r.status, body)
        self.deliveries.append(delivered)
        self.touch()
        return delivered

    async def close_client(self) -> None:
        if self._client is not None:
            await self._client.close()
            self._client = None

    def _bot_account(self) -> dict[str, Any]:
        return {"id": f"28:{self.app_id}", "name": "citebot"}

    def _base(
        self,
        kind: str,
        person: SimPerson,
        conversation: SimConversation,
        thread: SimMessage | None,
    ) -> dict[str, Any]:
        now = datetime.now(UTC).isoformat()
        data: dict[str, Any] = {"tenant": {"id": conversation.tenant_id}}
        if conversation.team is not None:
            team = conversation.team
            data |= {
                "teamsChannelId": conversation.id,
                "teamsTeamId": team.id,
                "channel": {"id": conversation.id, "name": conversation.name},
                "team": team.info(),
            }
        return {
            "type": kind,
            "id": self.new_id(),
            "timestamp": now,
            "localTimestamp": now,
            "serviceUrl": self.service_url,
            "channelId": "msteams",
            "from": person.account(),
            "conversation": conversation.account(
                thread if conversation.kind == "channel" else None
            ),
            "recipient": self._bot_account(),
            "locale": person.locale,
            "entities": [{"type": "clientInfo", "locale": person.locale, "platform": "Web"}],
            "channelData": data,
        }

    def _invoke(self, name: str, person: SimPerson, message: SimMessage) -> dict[str, Any]:
        activity = self._base("invoke", person, message.conversation, message.thread or message)
        activity["name"] = name
        activity["replyToId"] = message.id
        return activity

    def _violation(self, request: str, problem: str) -> None:
        from tests.sim.teams.sim import Violation

        self.violations.append(Violation(request, problem))


def _payload(message: SimMessage) -> dict[str, Any]:
    """A message as a message action's ``messagePayload`` carries it (its body as HTML)."""
    sender = message.sender
    author: dict[str, Any] = (
        {
            "user": {
                "id": sender.aad_object_id,
                "displayName": sender.name,
                "userIdentityType": "aadUser",
            }
        }
        if sender is not None
        else {
            "application": {
                "id": "citebot",
                "displayName": "citebot",
                "applicationIdentityType": "bot",
            }
        }
    )
    return {
        "id": message.id,
        "replyToId": message.thread.id if message.thread is not None else None,
        "createdDateTime": datetime.now(UTC).isoformat(),
        "deleted": False,
        "importance": "normal",
        "locale": "en-us",
        "body": {"contentType": "html", "content": f"<p>{html.escape(message.text)}</p>"},
        "from": author,
        "reactions": [],
        "mentions": [],
    }
