"""What people do with the app itself: open its Home tab or its Messages tab, look at a channel
while the app is open, type its slash command, use its message shortcut, choose in a view and
submit a modal; and what an admin does to it: uninstall it, or revoke its tokens. Each changes
the workspace as Slack would and delivers what the app would receive;
:class:`tests.sim.slack.SlackSim` mixes this in.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from typing import TYPE_CHECKING, Any

from tests.sim.slack.events import (
    app_context_changed,
    app_home_opened,
    message_action,
    slash_command,
    view_block_actions,
    view_submission,
)
from tests.sim.slack.model import Delivery, Message, Workspace
from tests.sim.slack.views import StoredView, Triggers, Views
from tests.sim.slack.webapi import Identity

__all__ = ["Interactions"]


class Interactions:
    """The app side of what people do (:class:`tests.sim.slack.SlackSim` does the sending)."""

    workspace: Workspace
    me: Identity
    user: str
    triggers: Triggers
    views: Views

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

    _event: Callable[..., Awaitable[Delivery]]
    _response_url: Callable[[tuple[str, str, str | None]], str]
    _touch: Callable[[], None]
    bot_token_revoked: bool

    def _dm(self, user: str) -> Message:
        """The person's DM with the app (opened as Slack opens it: with no message in it)."""
        self.workspace.add_channel(f"D{user}", "im")
        return Message(channel=f"D{user}", ts="", user=user)

    async def open_home(self, *, tab: str = "home", user: str | None = None) -> Delivery:
        """The person opens the app's Home tab (``home``) or its Messages tab (``messages``)."""
        user = user or self.user
        if user not in self.workspace.users:
            self.workspace.add_user(user)
        view_id = self.views.home.get(user)
        shown = None
        if view_id is not None:
            view = self.views.by_id[view_id]
            shown = view.wire(team=self.me.team_id, app=self.me.app_id, bot=self.me.bot_id)
        event = app_home_opened(self.me, user=user, tab=tab, view=shown)
        return await self._event(event, self._dm(user))

    async def look_at(self, channel: str | None, *, user: str | None = None) -> Delivery:
        """With the app open beside it, the person moves to ``channel`` (None: to something
        that is no channel): ``app_context_changed``."""
        user = user or self.user
        if channel is not None:
            self.workspace.add_channel(channel, "group" if channel.startswith("G") else "channel")
        event = app_context_changed(self.me, channel=channel)
        return await self._event(event, self._dm(user), for_user=user)

    async def command(
        self,
        text: str = "",
        *,
        channel: str,
        user: str | None = None,
        command: str = "/citebot",
    ) -> Delivery:
        """The person types ``command text`` in ``channel`` (slash commands cannot be used in
        threads, so the answer shows in the channel itself)."""
        user = user or self.user
        if channel.startswith("D"):
            self.workspace.add_channel(channel, "im")
        else:
            self.workspace.add_channel(channel, "group" if channel.startswith("G") else "channel")
        payload = slash_command(
            self.me,
            user=user,
            channel=channel,
            command=command,
            text=text,
            response_url=self._response_url((user, channel, None)),
            trigger_id=self.triggers.issue(user),
        )
        ids = await self._send("slash_commands", payload, to_all=False)
        return Delivery("", ids, channel, "", None, payload)

    async def shortcut(
        self, callback_id: str, *, channel: str, message_ts: str, user: str | None = None
    ) -> Delivery:
        """The person uses the app's message shortcut ``callback_id`` on a message."""
        user = user or self.user
        message = self.workspace.find(channel, message_ts)
        assert message is not None, f"no message {message_ts} in {channel}"
        payload = message_action(
            self.me,
            user=user,
            message=message,
            callback_id=callback_id,
            response_url=self._response_url((user, channel, message.thread_ts or message.ts)),
            trigger_id=self.triggers.issue(user),
        )
        ids = await self._send("interactive", payload, to_all=False)
        return Delivery("", ids, channel, message_ts, message.thread_ts, payload)

    def _element(
        self, view: StoredView, action_id: str, block_id: str | None = None
    ) -> tuple[str, Mapping[str, Any]]:
        """The block id and the element of ``view`` whose ``action_id`` it is (in the block
        ``block_id``, where several share it)."""
        for block in view.body.get("blocks", []):
            if block_id is not None and block.get("block_id") != block_id:
                continue
            candidates = [block.get("accessory"), block.get("element"), *block.get("elements", [])]
            for element in candidates:
                if isinstance(element, Mapping) and element.get("action_id") == action_id:
                    return str(block["block_id"]), element
        raise AssertionError(f"no {action_id!r} element in view {view.id}")

    def _chosen(self, element: Mapping[str, Any], value: str) -> dict[str, Any]:
        """The state Slack keeps of ``element`` once ``value`` is chosen or typed in it."""
        kind = str(element["type"])
        if kind in ("static_select", "radio_buttons"):
            [option] = [o for o in element["options"] if o["value"] == value]
            return {"type": kind, "selected_option": option}
        if kind == "button":
            return {"type": kind, "value": element.get("value", value)}
        return {"type": kind, "value": value}

    def fill(self, view: StoredView, action_id: str, value: str) -> None:
        """The person types or chooses ``value`` in an input of ``view`` (nothing is sent until
        they submit it)."""
        block_id, element = self._element(view, action_id)
        view.state.setdefault(block_id, {})[action_id] = self._chosen(element, value)

    async def choose(
        self,
        view: StoredView,
        action_id: str,
        value: str = "",
        *,
        block_id: str | None = None,
        user: str | None = None,
    ) -> Delivery:
        """The person picks ``value`` in a select of ``view`` (or clicks its button; in the
        block ``block_id`` where several elements share ``action_id``): a ``block_actions``
        interaction from the view. ``user``: someone else sends it (a forged request)."""
        user = user or view.user
        block_id, element = self._element(view, action_id, block_id)
        chosen = self._chosen(element, value)
        if chosen["type"] != "button":
            view.state.setdefault(block_id, {})[action_id] = chosen
        action = {"action_id": action_id, "block_id": block_id, **chosen}
        if chosen["type"] == "button":
            action["text"] = element.get("text")
        wire = view.wire(team=self.me.team_id, app=self.me.app_id, bot=self.me.bot_id)
        payload = view_block_actions(
            self.me, user=user, view=wire, action=action, trigger_id=self.triggers.issue(user)
        )
        ids = await self._send("interactive", payload, to_all=False)
        return Delivery("", ids, "", "", None, payload)

    async def submit(self, view: StoredView, *, user: str | None = None) -> Delivery:
        """The person presses the modal's submit button."""
        user = user or view.user
        view.errors = {}
        wire = view.wire(team=self.me.team_id, app=self.me.app_id, bot=self.me.bot_id)
        payload = view_submission(
            self.me, user=user, view=wire, trigger_id=self.triggers.issue(user)
        )
        ids = await self._send("interactive", payload, to_all=False)
        return Delivery("", ids, "", "", None, payload)

    async def uninstall(self) -> tuple[Delivery, Delivery]:
        """An admin removes the app from the workspace: its bot token is revoked (every call
        with it answers ``token_revoked``), then ``tokens_revoked`` and ``app_uninstalled``
        are sent, each where the app subscribes to it (https://docs.slack.dev/reference/
        events/app_uninstalled: "sent via subscription", with ``tokens_revoked`` for the
        tokens, in no guaranteed order)."""
        revoked = await self.revoke_tokens(bot=True)
        return revoked, await self._app_event({"type": "app_uninstalled"})

    async def revoke_tokens(self, *, bot: bool = False, people: tuple[str, ...] = ()) -> Delivery:
        """Tokens revoked: the bot's, and the OAuth tokens of ``people`` (their user ids, as
        ``tokens_revoked`` lists them; https://docs.slack.dev/reference/events/tokens_revoked,
        "sent ... to your app if it is subscribed")."""
        tokens: dict[str, list[str]] = {}
        if people:
            tokens["oauth"] = list(people)
        if bot:
            tokens["bot"] = [self.me.bot_user_id]
            self.bot_token_revoked = True
        return await self._app_event({"type": "tokens_revoked", "tokens": tokens})

    async def _app_event(self, event: dict[str, Any]) -> Delivery:
        """An event about the app itself, sent where the app subscribes to it."""
        nowhere = Message(channel="", ts="", user="")
        if event["type"] not in self.me.events:
            return Delivery("", (), "", "", None, {})
        return await self._event(event, nowhere)
