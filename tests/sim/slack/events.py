"""Events API and interactivity payloads shaped like the ones Slack sends."""

from __future__ import annotations

import time
import uuid
from typing import Any

from tests.sim.slack.model import Message
from tests.sim.slack.webapi import Identity

__all__ = ["block_actions", "event_callback", "user_message_event"]


def event_callback(me: Identity, event: dict[str, Any], event_id: str) -> dict[str, Any]:
    return {
        "token": "sim-verification-token",
        "team_id": me.team_id,
        "api_app_id": me.app_id,
        "event": event,
        "type": "event_callback",
        "event_id": event_id,
        "event_time": int(time.time()),
        "authorizations": [
            {
                "enterprise_id": None,
                "team_id": me.team_id,
                "user_id": me.bot_user_id,
                "is_bot": True,
                "is_enterprise_install": False,
            }
        ],
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
    me: Identity, *, user: str, message: Message, action: dict[str, Any], response_url: str
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
        "trigger_id": f"{uuid.uuid4().int % 10**12}.sim",
        "team": {"id": me.team_id, "domain": "sim"},
        "enterprise": None,
        "is_enterprise_install": False,
        "channel": {"id": message.channel, "name": message.channel.lower()},
        "message": message.wire(),
        "state": {"values": {}},
        "response_url": response_url,
        "actions": [{**action, "action_ts": f"{time.time():.6f}"}],
    }
