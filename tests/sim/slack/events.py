"""Events API and interactivity payloads shaped like the ones Slack sends."""

from __future__ import annotations

import time
import uuid
from typing import Any

from tests.sim.slack.model import Message
from tests.sim.slack.webapi import Identity

__all__ = [
    "app_context_changed",
    "app_home_opened",
    "block_actions",
    "event_callback",
    "message_action",
    "slash_command",
    "user_message_event",
    "view_block_actions",
    "view_submission",
]


def event_callback(
    me: Identity, event: dict[str, Any], event_id: str, *, for_user: str | None = None
) -> dict[str, Any]:
    """An Events API delivery; ``for_user``: the event is authorized for that person rather
    than the bot (``app_context_changed``, as its reference page shows it)."""
    authorization = {
        "enterprise_id": None,
        "team_id": me.team_id,
        "user_id": for_user or me.bot_user_id,
        "is_bot": for_user is None,
        "is_enterprise_install": False,
    }
    return {
        "token": "sim-verification-token",
        "team_id": me.team_id,
        "api_app_id": me.app_id,
        "event": event,
        "type": "event_callback",
        "event_id": event_id,
        "event_time": int(time.time()),
        "authorizations": [authorization],
        "is_ext_shared_channel": False,
        "event_context": f"4-sim-{event_id}",
    }


def user_message_event(
    me: Identity, message: Message, *, kind: str, channel_type: str | None
) -> dict[str, Any]:
    """An ``app_mention`` or ``message`` event for a message a person just posted."""
    event: dict[str, Any] = {
        "type": kind,
        "user": message.user,
        "text": message.text or "",
        "ts": message.ts,
        "event_ts": message.ts,
        "channel": message.channel,
        "team": me.team_id,
        "client_msg_id": str(uuid.uuid4()),
        "blocks": [
            {
                "type": "rich_text",
                "block_id": "sim",
                "elements": [
                    {
                        "type": "rich_text_section",
                        "elements": [{"type": "text", "text": message.text or ""}],
                    }
                ],
            }
        ],
    }
    if message.thread_ts:
        event["thread_ts"] = message.thread_ts
        event["parent_user_id"] = message.user
    if channel_type:
        event["channel_type"] = channel_type
    if message.bot_id:
        event["bot_id"] = message.bot_id
        event.pop("client_msg_id")
    return event


def block_actions(
    me: Identity,
    *,
    user: str,
    message: Message,
    action: dict[str, Any],
    response_url: str,
    trigger_id: str,
) -> dict[str, Any]:
    container: dict[str, Any] = {
        "type": "message",
        "message_ts": message.ts,
        "channel_id": message.channel,
        "is_ephemeral": message.ephemeral_to is not None,
    }
    if message.thread_ts:
        container["thread_ts"] = message.thread_ts
    return {
        "type": "block_actions",
        "user": {"id": user, "username": user.lower(), "name": user.lower(), "team_id": me.team_id},
        "api_app_id": me.app_id,
        "token": "sim-verification-token",
        "container": container,
        "trigger_id": trigger_id,
        "team": {"id": me.team_id, "domain": "sim"},
        "enterprise": None,
        "is_enterprise_install": False,
        "channel": {"id": message.channel, "name": message.channel.lower()},
        "message": message.wire(),
        "state": {"values": {}},
        "response_url": response_url,
        "actions": [{**action, "action_ts": f"{time.time():.6f}"}],
    }


def _person(me: Identity, user: str) -> dict[str, Any]:
    return {"id": user, "username": user.lower(), "name": user.lower(), "team_id": me.team_id}


def app_home_opened(
    me: Identity, *, user: str, tab: str, view: dict[str, Any] | None
) -> dict[str, Any]:
    """https://docs.slack.dev/reference/events/app_home_opened: ``tab`` is ``home`` or
    ``messages``; a Home tab that has had a view published carries it."""
    event: dict[str, Any] = {
        "type": "app_home_opened",
        "user": user,
        "channel": f"D{user}",
        "event_ts": f"{time.time():.6f}",
        "tab": tab,
    }
    if view is not None and tab == "home":
        event["view"] = view
    return event


def app_context_changed(me: Identity, *, channel: str | None) -> dict[str, Any]:
    """https://docs.slack.dev/reference/events/app_context_changed: what the person now looks
    at, its entities ordered by relevance; ``{}`` when there is none."""
    if channel is None:
        return {"type": "app_context_changed", "context": {}}
    entity = {"type": "slack#/types/channel_id", "value": channel, "team_id": me.team_id}
    return {"type": "app_context_changed", "context": {"entities": [entity]}}


def slash_command(
    me: Identity,
    *,
    user: str,
    channel: str,
    command: str,
    text: str,
    response_url: str,
    trigger_id: str,
) -> dict[str, Any]:
    """The fields of a slash command (form fields over HTTP, the payload over Socket Mode)."""
    return {
        "token": "sim-verification-token",
        "team_id": me.team_id,
        "team_domain": "sim",
        "channel_id": channel,
        "channel_name": "directmessage" if channel.startswith("D") else channel.lower(),
        "user_id": user,
        "user_name": user.lower(),
        "command": command,
        "text": text,
        "api_app_id": me.app_id,
        "is_enterprise_install": "false",
        "response_url": response_url,
        "trigger_id": trigger_id,
    }


def message_action(
    me: Identity,
    *,
    user: str,
    message: Message,
    callback_id: str,
    response_url: str,
    trigger_id: str,
) -> dict[str, Any]:
    """A message shortcut used on ``message`` (the Shortcuts interaction payload reference)."""
    return {
        "type": "message_action",
        "token": "sim-verification-token",
        "action_ts": f"{time.time():.6f}",
        "team": {"id": me.team_id, "domain": "sim"},
        "user": {"id": user, "name": user.lower()},
        "channel": {"id": message.channel, "name": message.channel.lower()},
        "is_enterprise_install": False,
        "enterprise": None,
        "callback_id": callback_id,
        "trigger_id": trigger_id,
        "message_ts": message.ts,
        "message": message.wire(),
        "response_url": response_url,
    }


def view_block_actions(
    me: Identity,
    *,
    user: str,
    view: dict[str, Any],
    action: dict[str, Any],
    trigger_id: str,
) -> dict[str, Any]:
    """A person changed an element of a view (its Home tab or a modal)."""
    return {
        "type": "block_actions",
        "user": _person(me, user),
        "api_app_id": me.app_id,
        "token": "sim-verification-token",
        "container": {"type": "view", "view_id": view["id"]},
        "trigger_id": trigger_id,
        "team": {"id": me.team_id, "domain": "sim"},
        "enterprise": None,
        "is_enterprise_install": False,
        "view": view,
        "actions": [{**action, "action_ts": f"{time.time():.6f}"}],
    }


def view_submission(
    me: Identity, *, user: str, view: dict[str, Any], trigger_id: str
) -> dict[str, Any]:
    """A person submitted a modal (``view.state`` holds what they entered)."""
    return {
        "type": "view_submission",
        "team": {"id": me.team_id, "domain": "sim"},
        "user": _person(me, user),
        "api_app_id": me.app_id,
        "token": "sim-verification-token",
        "trigger_id": trigger_id,
        "view": view,
        "response_urls": [],
        "is_enterprise_install": False,
        "enterprise": None,
    }
