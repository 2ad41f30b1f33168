"""The simulated Telegram's world: people, chats, messages, drafts, callback queries, each able
to write itself as the Bot API object (``User``, ``Chat``, ``Message``...) and read back as a
person sees it."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from tests.sim.telegram.text import readable

__all__ = [
    "NEWER_THAN_SPEC",
    "ChatKind",
    "SimCallback",
    "SimChat",
    "SimDraft",
    "SimMember",
    "SimMessage",
    "SimUser",
]

ChatKind = Literal["private", "group", "supergroup"]

NEWER_THAN_SPEC = {"ChatMemberAdministrator": frozenset({"can_send_welcome_messages"})}
"""Fields the simulator sends that ``api.json`` (Bot API 10.1) lacks: a later Bot API made them
required and aiogram 3.31 (Bot API 10.3) refuses an answer without them."""


@dataclass(eq=False)
class SimUser:
    id: int
    first_name: str
    username: str | None = None
    language_code: str | None = None
    is_bot: bool = False

    def payload(self) -> dict[str, Any]:
        user: dict[str, Any] = {"id": self.id, "is_bot": self.is_bot, "first_name": self.first_name}
        if self.username:
            user["username"] = self.username
        if self.language_code and not self.is_bot:
            user["language_code"] = self.language_code
        return user


@dataclass(eq=False)
class SimMember:
    """A user's place in a group: ``creator``, ``administrator`` or ``member``; the bot's
    privacy mode is fixed when it joins (Telegram: "the bot will need to be re-added")."""

    user: SimUser
    status: Literal["creator", "administrator", "member"] = "member"
    privacy: bool = True

    def payload(self) -> dict[str, Any]:
        member: dict[str, Any] = {"status": self.status, "user": self.user.payload()}
        if self.status == "creator":
            member["is_anonymous"] = False
        elif self.status == "administrator":
            rights = [
                "can_manage_chat",
                "can_delete_messages",
                "can_manage_video_chats",
                "can_restrict_members",
                "can_promote_members",
                "can_change_info",
                "can_invite_users",
                "can_post_stories",
                "can_edit_stories",
                "can_delete_stories",
            ]
            member.update(dict.fromkeys(rights, True), can_be_edited=False, is_anonymous=False)
            member.update(dict.fromkeys(NEWER_THAN_SPEC["ChatMemberAdministrator"], False))
        return member


@dataclass(eq=False)
class SimChat:
    id: int
    kind: ChatKind
    title: str = ""
    user: SimUser | None = None
    """The person of a private chat."""
    forum: bool = False
    members: dict[int, SimMember] = field(default_factory=dict)
    messages: list[SimMessage] = field(default_factory=list)
    topics: dict[int, str] = field(default_factory=dict)
    """Forum topics by ``message_thread_id`` (the id of the message that created each)."""
    last_bot_sender: int | None = None
    last_bot_post_at: float = float("-inf")
    next_message_id: int = 1

    def payload(self) -> dict[str, Any]:
        chat: dict[str, Any] = {"id": self.id, "type": self.kind}
        if self.kind == "private" and self.user is not None:
            chat["first_name"] = self.user.first_name
            if self.user.username:
                chat["username"] = self.user.username
        else:
            chat["title"] = self.title
        if self.forum:
            chat["is_forum"] = True
        return chat

    def message(self, message_id: int) -> SimMessage | None:
        return next((m for m in self.messages if m.id == message_id and not m.deleted), None)


@dataclass(eq=False)
class SimMessage:
    id: int
    chat: SimChat
    sender: SimUser
    date: int
    text: str = ""
    entities: list[dict[str, Any]] = field(default_factory=list)
    thread_id: int | None = None
    reply_to: SimMessage | None = None
    keyboard: list[list[dict[str, Any]]] = field(default_factory=list)
    link_preview: dict[str, Any] | None = None
    rich: dict[str, Any] | None = None
    """The rich message as sent (``InputRichMessage``) and :attr:`rich_text` what it shows."""
    rich_text: str = ""
    service: dict[str, Any] = field(default_factory=dict)
    """Fields of a service message (``new_chat_members``, ``forum_topic_created``...)."""
    edits: list[str] = field(default_factory=list)
    """Every earlier readable text, oldest first."""
    edit_date: int | None = None
    deleted: bool = False
    delivered: bool = False
    """Whether the bot received it as an update (privacy mode decides in groups)."""

    @property
    def from_bot(self) -> bool:
        return self.sender.is_bot

    @property
    def readable(self) -> str:
        """What a person reads: the text with its formatting written in Markdown-like marks,
        or the rich message's text."""
        return self.rich_text if self.rich is not None else readable(self.text, self.entities)

    @property
    def buttons(self) -> list[tuple[str, str]]:
        """Each inline button as (label, callback data or URL), row after row."""
        return [
            (button["text"], str(button.get("callback_data") or button.get("url") or ""))
            for row in self.keyboard
            for button in row
        ]

    def payload(self, *, with_reply: bool = True) -> dict[str, Any]:
        message: dict[str, Any] = {
            "message_id": self.id,
            "from": self.sender.payload(),
            "chat": self.chat.payload(),
            "date": self.date,
        }
        if self.thread_id is not None:
            message.update(message_thread_id=self.thread_id, is_topic_message=True)
        if with_reply and self.reply_to is not None:
            message["reply_to_message"] = self.reply_to.payload(with_reply=False)
        if self.rich is not None:
            message["rich_message"] = {"blocks": [_paragraph(self.rich_text)]}
        elif self.text:
            message["text"] = self.text
            if self.entities:
                message["entities"] = self.entities
        if self.link_preview:
            message["link_preview_options"] = self.link_preview
        if self.keyboard:
            message["reply_markup"] = {"inline_keyboard": self.keyboard}
        if self.edit_date is not None:
            message["edit_date"] = self.edit_date
        message.update(self.service)
        return message


def _paragraph(text: str) -> dict[str, Any]:
    return {"type": "paragraph", "text": text}


@dataclass(eq=False)
class SimDraft:
    """A streamed draft (``sendMessageDraft``): every state it showed, and how it ended."""

    chat: SimChat
    draft_id: int
    thread_id: int | None
    history: list[str] = field(default_factory=list)
    updated_at: float = 0.0
    finished_by: SimMessage | None = None
    """The message the bot sent in its chat while the draft was showing, which replaces it."""

    def showing(self, now: float, ttl: float) -> bool:
        return self.finished_by is None and now - self.updated_at < ttl

    def vanished(self, now: float, ttl: float) -> bool:
        """Gone without a message: Telegram's "temporary 30-second preview" ran out."""
        return self.finished_by is None and not self.showing(now, ttl)


@dataclass(eq=False)
class SimCallback:
    """A press on an inline button, and the bot's answer to it."""

    id: str
    user: SimUser
    message: SimMessage
    data: str
    created: float
    answered: bool = False
    answer: dict[str, Any] = field(default_factory=dict)
