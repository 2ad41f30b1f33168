"""What a Slack user would see: channels, threads and messages as finally shown.

Edits and stream appends are applied in place, so a test asserts on the end state
(``sim.thread(channel, ts)``) rather than replaying calls.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from tests.sim.slack.markdown import undocumented

__all__ = ["Ack", "Call", "Delivery", "Message", "User", "Workspace"]


@dataclass
class Message:
    """One message; ``shown`` is the text a person reads (markdown or mrkdwn)."""

    channel: str
    ts: str
    user: str
    thread_ts: str | None = None
    bot_id: str | None = None
    text: str | None = None
    markdown_text: str | None = None
    blocks: list[dict[str, Any]] | None = None
    streaming: bool = False
    streamed: bool = False
    edits: int = 0
    appends: int = 0
    ephemeral_to: str | None = None
    reactions: list[str] = field(default_factory=list)
    flags: dict[str, Any] = field(default_factory=dict)

    @property
    def shown(self) -> str:
        if self.markdown_text is not None:
            return self.markdown_text
        return self.text or ""

    @property
    def is_bot(self) -> bool:
        return self.bot_id is not None

    def block_text(self) -> str:
        """Every string a person reads in the blocks, joined by newlines."""
        return "\n".join(_strings(self.blocks or []))

    def mrkdwn_objects(self) -> list[dict[str, Any]]:
        """Every text object of type mrkdwn in the blocks."""
        return [o for o in _objects(self.blocks or []) if o.get("type") == "mrkdwn"]

    def unverbatim(self) -> list[str]:
        """The mrkdwn texts sent without ``verbatim: true``, in which Slack links names and
        "certain mentions will be automatically parsed" (the text object reference)."""
        return [
            str(o.get("text", "")) for o in self.mrkdwn_objects() if o.get("verbatim") is not True
        ]

    def pings(self) -> list[str]:
        """Mentions that would notify people: Slack's special sequences anywhere mrkdwn is read
        (``text`` and mrkdwn objects), and bare ``@here``/``@channel``/``@everyone`` words in
        mrkdwn objects Slack parses (no ``verbatim``)."""
        texts = [self.text or "", *(str(o.get("text", "")) for o in self.mrkdwn_objects())]
        found = [m.group(0) for t in texts for m in _SPECIAL_MENTION.finditer(t)]
        return found + [m.group(0) for t in self.unverbatim() for m in _BARE_MENTION.finditer(t)]

    def broken_links(self) -> list[str]:
        """mrkdwn links cut before their closing ``>``: a person sees the raw ``<url|...``."""
        texts = [self.text or "", *(str(o.get("text", "")) for o in self.mrkdwn_objects())]
        return [m.group(0)[:80] for t in texts for m in _OPEN_LINK.finditer(t)]

    def undocumented_markdown(self) -> list[str]:
        """Markdown whose rendering Slack does not document (see tests.sim.slack.markdown)."""
        return undocumented(self.markdown_text or "")

    def elements(self) -> list[dict[str, Any]]:
        """Every interactive element (buttons, feedback buttons) in the blocks."""
        found: list[dict[str, Any]] = []
        for block in self.blocks or []:
            accessory = block.get("accessory")
            if isinstance(accessory, dict) and "action_id" in accessory:
                found.append({**accessory, "block_id": block.get("block_id", "")})
            for element in block.get("elements", []) or []:
                if isinstance(element, dict) and "action_id" in element:
                    found.append({**element, "block_id": block.get("block_id", "")})
        return found

    def wire(self) -> dict[str, Any]:
        """The message as conversations.replies returns it."""
        body: dict[str, Any] = {
            "type": "message",
            "user": self.user,
            "ts": self.ts,
            "text": self.shown,
        }
        if self.thread_ts:
            body["thread_ts"] = self.thread_ts
        if self.bot_id:
            body["bot_id"] = self.bot_id
        if self.blocks:
            body["blocks"] = self.blocks
        if self.edits:
            body["edited"] = {"user": self.user, "ts": self.ts}
        return body


_SPECIAL_MENTION = re.compile(
    r"<!(?:here|channel|everyone)(?:\|[^>]*)?>|<@[UW][A-Z0-9]+(?:\|[^>]*)?>"
    r"|<!subteam\^S[A-Z0-9]+(?:\|[^>]*)?>"
)
"""Slack's mentions of people: the whole conversation, a person, a user group (Formatting
text for app surfaces: "Mentioning groups", ``<!subteam^ID>``)."""
_BARE_MENTION = re.compile(r"(?<![\w@])@(?:here|channel|everyone)\b", re.IGNORECASE)
_OPEN_LINK = re.compile(r"<(?:https?|mailto):[^>]*\Z")


def _objects(node: object) -> list[dict[str, Any]]:
    """Every dict nested in ``node`` (blocks, elements, text objects), depth first."""
    if isinstance(node, dict):
        return [node, *(o for value in node.values() for o in _objects(value))]
    if isinstance(node, list):
        return [o for item in node for o in _objects(item)]
    return []


def _strings(node: object) -> list[str]:
    if isinstance(node, dict):
        out: list[str] = []
        if isinstance(node.get("text"), str):
            out.append(node["text"])
        for key, value in node.items():
            if key != "text" or not isinstance(value, str):
                out.extend(_strings(value))
        return out
    if isinstance(node, list):
        return [s for item in node for s in _strings(item)]
    return []


@dataclass
class User:
    """A member of the workspace, with the language their Slack client is set to."""

    id: str
    name: str
    locale: str = "en-US"
    team_id: str = "T0SIM"
    tz: str = "America/Los_Angeles"
    is_admin: bool = False
    """A workspace admin (``users.info``'s ``is_admin``)."""
    is_owner: bool = False

    def wire(self, *, include_locale: bool) -> dict[str, Any]:
        """The user object of users.info; ``locale`` only when it was asked for."""
        profile = {
            "real_name": self.name.title(),
            "display_name": self.name,
            "real_name_normalized": self.name.title(),
            "display_name_normalized": self.name,
            "status_text": "",
            "status_emoji": "",
            "team": self.team_id,
        }
        body: dict[str, Any] = {
            "id": self.id,
            "team_id": self.team_id,
            "name": self.name,
            "deleted": False,
            "color": "9f69e7",
            "real_name": self.name.title(),
            "tz": self.tz,
            "tz_label": "Pacific Standard Time",
            "tz_offset": -28800,
            "profile": profile,
            "is_admin": self.is_admin or self.is_owner,
            "is_owner": self.is_owner,
            "is_primary_owner": False,
            "is_restricted": False,
            "is_ultra_restricted": False,
            "is_bot": False,
            "is_app_user": False,
            "updated": 1_700_000_000,
            "is_email_confirmed": True,
            "who_can_share_contact_card": "EVERYONE",
        }
        if include_locale:
            body["locale"] = self.locale
        return body


@dataclass(frozen=True)
class Call:
    """One Web API call as it crossed the wire (secrets stay out: token is a label)."""

    method: str
    args: dict[str, Any]
    at: float
    ok: bool
    error: str | None
    status: int
    token_kind: str | None
    response: dict[str, Any]

    @property
    def ts(self) -> str | None:
        """The message this call made or changed."""
        return self.response.get("ts") or self.args.get("ts")


@dataclass(frozen=True)
class Ack:
    envelope_id: str
    connection: int
    payload: dict[str, Any] | None
    at: float


@dataclass(frozen=True)
class Delivery:
    """An event the sim sent; ``reply_ts`` is where a bot's answer belongs."""

    event_id: str
    envelope_ids: tuple[str, ...]
    channel: str
    ts: str
    thread_ts: str | None
    payload: dict[str, Any]

    @property
    def reply_ts(self) -> str:
        return self.thread_ts or self.ts


class Workspace:
    """Channels and their messages, with Slack's ``ts`` ordering."""

    def __init__(self) -> None:
        self.channels: dict[str, str] = {}
        self.messages: dict[str, list[Message]] = {}
        self.ephemerals: list[Message] = []
        self.users: dict[str, User] = {}
        self._ticks = 0

    def add_user(
        self,
        user_id: str,
        *,
        locale: str = "en-US",
        name: str | None = None,
        admin: bool = False,
        owner: bool = False,
    ) -> User:
        """A member with their Slack language, an admin or owner of the workspace or not.
        Whoever posts is a member (``en-US`` unless added otherwise); users.info answers
        ``user_not_found`` for anyone else."""
        user = self.users[user_id] = User(
            id=user_id, name=name or user_id.lower(), locale=locale, is_admin=admin, is_owner=owner
        )
        return user

    def add_channel(self, channel: str, kind: str) -> None:
        self.channels.setdefault(channel, kind)
        self.messages.setdefault(channel, [])

    def next_ts(self) -> str:
        self._ticks += 1
        return f"{1_700_000_000 + self._ticks}.{self._ticks % 1_000_000:06d}"

    def find(self, channel: str, ts: str) -> Message | None:
        return next((m for m in self.messages.get(channel, []) if m.ts == ts), None)

    def post(self, message: Message) -> Message:
        if message.bot_id is None and message.user not in self.users:
            self.add_user(message.user)
        self.messages[message.channel].append(message)
        return message

    def thread(self, channel: str, ts: str) -> list[Message]:
        """The parent then its replies, oldest first, like conversations.replies."""
        return [m for m in self.messages.get(channel, []) if m.ts == ts or m.thread_ts == ts]
