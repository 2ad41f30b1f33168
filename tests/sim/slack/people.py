"""What people and other apps do in the simulated workspace: post, mention, DM, edit, click.

Each action changes the workspace as Slack would and delivers the event (or interaction) the
app would receive, over Socket Mode or signed HTTP; :class:`SlackSim` mixes this in.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tests.sim.slack.events import block_actions, event_callback, user_message_event
from tests.sim.slack.model import Delivery, Message, Workspace
from tests.sim.slack.views import Triggers
from tests.sim.slack.webapi import Identity

__all__ = ["People"]


class People:
    """The people side of :class:`tests.sim.slack.SlackSim` (its delivery does the sending)."""

    workspace: Workspace
    me: Identity
    user: str
    port: int
    triggers: Triggers
    sent_to: dict[str, int]
    _events: dict[str, tuple[dict[str, Any], int]]
    _event_count: int

    if TYPE_CHECKING:  # the delivering side's (tests.sim.slack.delivery)

        async def _send(
            self,
            kind: str,
            payload: dict[str, Any],
            *,
            to_all: bool,
            retry_attempt: int = 0,
            via: int | None = None,
        ) -> tuple[str, ...]: ...

    async def _event(
        self,
        event: dict[str, Any],
        message: Message,
        *,
        to_all: bool = False,
        for_user: str | None = None,
        via: int | None = None,
    ) -> Delivery:
        self._event_count += 1
        event_id = f"Ev{self._event_count:08d}SIM"
        payload = event_callback(self.me, event, event_id, for_user=for_user)
        self._events[event_id] = (payload, 0)
        ids = await self._send("events_api", payload, to_all=to_all, via=via)
        return Delivery(
            event_id=event_id,
            envelope_ids=ids,
            channel=message.channel,
            ts=message.ts,
            thread_ts=message.thread_ts,
            payload=payload,
        )

    def _said(
        self,
        channel: str,
        kind: str,
        text: str,
        *,
        user: str,
        thread_ts: str | None,
        bot_id: str | None = None,
    ) -> Message:
        self.workspace.add_channel(channel, kind)
        return self.workspace.post(
            Message(
                channel=channel,
                ts=self.workspace.next_ts(),
                user=user,
                thread_ts=thread_ts,
                text=text,
                bot_id=bot_id,
            )
        )

    async def mention(
        self,
        channel: str,
        text: str,
        *,
        user: str | None = None,
        thread_ts: str | None = None,
        to_all: bool = False,
        via: int | None = None,
    ) -> Delivery:
        """A person posts ``<@BOT> text`` in a channel (or a thread of it): an app_mention
        (to the connection ``via``, if given), and the channel's ``message`` event too where
        the app subscribes to them."""
        said = self._said(
            channel,
            _kind(channel),
            f"<@{self.me.bot_user_id}> {text}",
            user=user or self.user,
            thread_ts=thread_ts,
        )
        event = user_message_event(self.me, said, kind="app_mention", channel_type=None)
        delivered = await self._event(event, said, to_all=to_all, via=via)
        # The message event goes where the mention went (its own turn would leave every
        # mention to one of two workers): the connections still share the mentions.
        went = self.sent_to.get(delivered.envelope_ids[0]) if delivered.envelope_ids else None
        await self._channel_message(said, to_all=to_all, via=None if to_all else went)
        return delivered

    async def say(
        self,
        channel: str,
        text: str,
        *,
        user: str | None = None,
        thread_ts: str | None = None,
    ) -> Delivery:
        """A person posts in a channel (``C…``, or a private one, ``G…``) without mentioning
        the app: a ``message`` event (``message.channels``, ``message.groups``), sent only
        where the app subscribes to them (otherwise the Delivery has no envelope)."""
        said = self._said(
            channel, _kind(channel), text, user=user or self.user, thread_ts=thread_ts
        )
        return await self._channel_message(said)

    async def _channel_message(
        self, said: Message, *, to_all: bool = False, via: int | None = None
    ) -> Delivery:
        kind = self.workspace.channels[said.channel]
        event = user_message_event(self.me, said, kind="message", channel_type=kind)
        if f"message.{_SUBSCRIPTION[kind]}" not in self.me.events:
            return Delivery("", (), said.channel, said.ts, said.thread_ts, {})
        return await self._event(event, said, to_all=to_all, via=via)

    async def dm(
        self,
        text: str,
        *,
        user: str | None = None,
        thread_ts: str | None = None,
        to_all: bool = False,
    ) -> Delivery:
        """A person writes to the bot in their DM (a ``message`` event, channel_type im)."""
        user = user or self.user
        said = self._said(f"D{user}", "im", text, user=user, thread_ts=thread_ts)
        event = user_message_event(self.me, said, kind="message", channel_type="im")
        return await self._event(event, said, to_all=to_all)

    async def redeliver(self, first: Delivery | str, *, to_all: bool = False) -> Delivery:
        """Slack's retry of an event it thinks went unacknowledged: same event_id."""
        event_id = first if isinstance(first, str) else first.event_id
        payload, attempts = self._events[event_id]
        self._events[event_id] = (payload, attempts + 1)
        ids = await self._send("events_api", payload, to_all=to_all, retry_attempt=attempts + 1)
        event = payload["event"]
        return Delivery(
            event_id=event_id,
            envelope_ids=ids,
            channel=event["channel"],
            ts=event["ts"],
            thread_ts=event.get("thread_ts"),
            payload=payload,
        )

    async def other_bot(self, channel: str, text: str, *, thread_ts: str | None = None) -> Delivery:
        """Another app posts (subtype bot_message), e.g. in the bot's DM thread."""
        kind = "im" if channel.startswith("D") else "channel"
        said = self._said(
            channel, kind, text, user="U0OTHERBOT", thread_ts=thread_ts, bot_id="B0OTHER"
        )
        event = user_message_event(self.me, said, kind="message", channel_type=kind)
        event["subtype"] = "bot_message"
        return await self._event(event, said)

    async def echo_own(self, message: Message) -> Delivery:
        """Slack echoes the bot's own message back as a message event."""
        kind = "im" if message.channel.startswith("D") else "channel"
        event = user_message_event(self.me, message, kind="message", channel_type=kind)
        event["text"] = message.shown
        return await self._event(event, message)

    async def edit(self, delivery: Delivery, text: str) -> Delivery:
        """The person edits their message: a message_changed event (never a new question)."""
        message = self.workspace.find(delivery.channel, delivery.ts)
        assert message is not None
        previous = message.wire()
        message.text, message.edits = text, message.edits + 1
        event = {
            "type": "message",
            "subtype": "message_changed",
            "hidden": True,
            "channel": message.channel,
            "ts": self.workspace.next_ts(),
            "event_ts": message.ts,
            "message": message.wire(),
            "previous_message": previous,
            "channel_type": self.workspace.channels[message.channel],
        }
        return await self._event(event, message)

    async def click(
        self,
        action_id: str,
        value: str | None = None,
        *,
        channel: str,
        message_ts: str,
        user: str | None = None,
        to_all: bool = False,
    ) -> Delivery:
        """A person clicks a button (for feedback buttons, value "positive"/"negative");
        ``to_all``: every connection gets it, as every worker would in a misconfigured app."""
        message = self.workspace.find(channel, message_ts) or next(
            (m for m in self.workspace.ephemerals if m.ts == message_ts), None
        )
        assert message is not None, f"no message {message_ts} in {channel}"
        element = next((e for e in message.elements() if e.get("action_id") == action_id), None)
        assert element is not None, f"no {action_id!r} button on that message"
        action: dict[str, Any] = {
            "type": element["type"],
            "action_id": action_id,
            "block_id": element["block_id"],
        }
        if element["type"] == "feedback_buttons":
            side = element[f"{value or 'positive'}_button"]
            action |= {"value": side["value"], "text": side["text"]}
        else:
            action |= {"value": element.get("value", value), "text": element.get("text")}
        self._event_count += 1
        payload = block_actions(
            self.me,
            user=user or self.user,
            message=message,
            action=action,
            response_url=f"http://127.0.0.1:{self.port}/respond/{self._event_count}",
            trigger_id=self.triggers.issue(user or self.user),
        )
        ids = await self._send("interactive", payload, to_all=to_all)
        return Delivery(
            event_id="",
            envelope_ids=ids,
            channel=channel,
            ts=message_ts,
            thread_ts=message.thread_ts,
            payload=payload,
        )


_SUBSCRIPTION = {"channel": "channels", "group": "groups", "im": "im"}


def _kind(channel: str) -> str:
    """A conversation's type from its id: a private channel's starts with G."""
    return "group" if channel.startswith("G") else "channel"
