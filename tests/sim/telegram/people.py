"""What people do around the bot, and what they see: they write (in a private chat, in a group,
in a forum topic, as a reply), press inline buttons, add the bot to a group and remove it; they
read a chat's messages, the drafts streamed to them, the "typing…" status.

Each action changes the chat as Telegram would and queues the update the bot would receive
(``message``, ``callback_query``, ``my_chat_member``), privacy mode permitting
(:mod:`tests.sim.telegram.privacy`). :class:`tests.sim.telegram.sim.TelegramSim` mixes this in.
"""

from __future__ import annotations

import itertools
from typing import TYPE_CHECKING, Any

from tests.sim.clock import SimClock
from tests.sim.telegram.model import SimCallback, SimChat, SimDraft, SimMember, SimMessage, SimUser
from tests.sim.telegram.privacy import reaches_bot
from tests.sim.telegram.text import format_text

if TYPE_CHECKING:
    from tests.sim.telegram.updates import Updates

__all__ = ["People"]

_ACTION_SECONDS = 5.0
"""sendChatAction: "The status is set for 5 seconds or less (when a message arrives from your
bot, Telegram clients clear its typing status)"."""


class People(SimClock):
    bot: SimUser
    users: dict[int, SimUser]
    chats: dict[int, SimChat]
    callbacks: dict[str, SimCallback]
    drafts: dict[tuple[int, int], SimDraft]
    actions: list[tuple[SimChat, int | None, str, float]]
    updates: Updates
    draft_ttl: float

    privacy_mode: bool

    def __init__(self) -> None:
        # ten digits, as people's ids are now: a test that looks for one in the store cannot
        # find it inside a timestamp (1796188558.5100129 holds "1001")
        self._ids = itertools.count(5_550_001_001)
        self._group_ids = itertools.count(1)
        super().__init__()

    def unix_time(self) -> int:
        return int(self.wall())

    def new_message(
        self,
        chat: SimChat,
        sender: SimUser,
        *,
        thread_id: int | None = None,
        reply_to: SimMessage | None = None,
    ) -> SimMessage:
        """A message with the chat's next id; in a forum topic, one that answers nothing
        answers the topic's first message, as Telegram shows it."""
        if reply_to is None and thread_id is not None:
            reply_to = chat.message(thread_id)
        message = SimMessage(
            id=chat.next_message_id,
            chat=chat,
            sender=sender,
            date=self.unix_time(),
            thread_id=thread_id,
            reply_to=reply_to,
        )
        chat.next_message_id += 1
        return message

    def add_member(self, chat: SimChat, user: SimUser, status: str = "member") -> SimMember:
        member = SimMember(user=user, privacy=self.privacy_mode)
        if status in ("creator", "administrator"):
            member.status = "creator" if status == "creator" else "administrator"
        chat.members[user.id] = member
        return member

    # -- people and chats --------------------------------------------------------------------

    def add_user(
        self, first_name: str, *, username: str | None = None, language_code: str | None = "en"
    ) -> SimUser:
        user = SimUser(
            id=next(self._ids),
            first_name=first_name,
            username=username,
            language_code=language_code,
        )
        self.users[user.id] = user
        return user

    def add_other_bot(self, username: str) -> SimUser:
        """Another bot, to put in a group beside ours."""
        user = SimUser(id=next(self._ids), first_name=username, username=username, is_bot=True)
        self.users[user.id] = user
        return user

    def private_chat(self, user: SimUser) -> SimChat:
        """The chat between ``user`` and the bot (its id is the user's); the bot may write in it
        once the user has written first."""
        chat = self.chats.get(user.id)
        if chat is None:
            chat = self.chats[user.id] = SimChat(id=user.id, kind="private", user=user)
        return chat

    def add_group(
        self,
        title: str,
        *,
        owner: SimUser,
        members: tuple[SimUser, ...] = (),
        supergroup: bool = True,
        forum: bool = False,
    ) -> SimChat:
        """A group ``owner`` created, with ``members``; the bot is not in it yet
        (:meth:`add_bot_to`)."""
        number = next(self._group_ids)
        chat_id = -(1_000_000_000_000 + number) if supergroup else -(4_000_000_000 + number)
        chat = SimChat(
            id=chat_id, kind="supergroup" if supergroup else "group", title=title, forum=forum
        )
        self.chats[chat.id] = chat
        self.add_member(chat, owner, "creator")
        for member in members:
            self.add_member(chat, member)
        return chat

    async def add_bot_to(self, chat: SimChat, *, by: SimUser, admin: bool = False) -> SimMessage:
        """``by`` adds the bot (as an administrator if ``admin``): a ``my_chat_member`` update
        and the "new member" service message."""
        self.add_member(chat, self.bot, "administrator" if admin else "member")
        self._member_update(chat, by, "left", "administrator" if admin else "member")
        message = self.new_message(chat, by)
        message.service = {"new_chat_members": [self.bot.payload()]}
        return self._arrive(message)

    async def remove_bot_from(self, chat: SimChat, *, by: SimUser, banned: bool = False) -> None:
        """``by`` removes the bot (``banned``: and bans it, as removing a member of a supergroup
        does, status ``kicked``): only a ``my_chat_member`` update reaches it."""
        old = chat.members.pop(self.bot.id)
        self._member_update(chat, by, old.status, "kicked" if banned else "left")

    async def demote_bot(self, chat: SimChat, *, by: SimUser) -> None:
        """``by`` takes the bot's administrator rights away; it stays a member."""
        self.bot_member(chat).status = "member"
        self._member_update(chat, by, "administrator", "member")

    def bot_member(self, chat: SimChat) -> SimMember:
        return chat.members[self.bot.id]

    def _member_update(self, chat: SimChat, by: SimUser, old: str, new: str) -> None:
        def member(status: str) -> dict[str, Any]:
            if status == "administrator":
                return SimMember(self.bot, "administrator").payload()
            if status == "kicked":  # ChatMemberBanned: until_date 0 is banned forever
                return {"status": status, "user": self.bot.payload(), "until_date": 0}
            return {"status": status, "user": self.bot.payload()}

        self.updates.push(
            "my_chat_member",
            {
                "chat": chat.payload(),
                "from": by.payload(),
                "date": self.unix_time(),
                "old_chat_member": member(old),
                "new_chat_member": member(new),
            },
        )
        self.touch()

    async def open_topic(self, chat: SimChat, name: str, *, by: SimUser) -> int:
        """A forum topic ``by`` opens; its ``message_thread_id`` is the id of the service
        message that created it."""
        message = self.new_message(chat, by)
        message.service = {"forum_topic_created": {"name": name, "icon_color": 7322096}}
        message.thread_id = message.id
        chat.topics[message.id] = name
        self._arrive(message)
        return message.id

    # -- people write and press --------------------------------------------------------------

    async def user_says(
        self,
        user: SimUser,
        chat: SimChat,
        text: str,
        *,
        thread: int | None = None,
        reply_to: SimMessage | None = None,
    ) -> SimMessage:
        """``user`` sends ``text`` in ``chat`` (in forum topic ``thread``, answering
        ``reply_to``); Telegram finds its commands, mentions and links. The bot gets it if
        privacy mode lets it (``message.delivered``)."""
        if chat.kind == "private" and not chat.members:
            chat.members = {user.id: SimMember(user), self.bot.id: SimMember(self.bot)}
        if thread is None and reply_to is not None:
            thread = reply_to.thread_id
        message = self.new_message(chat, user, thread_id=thread, reply_to=reply_to)
        formatted = format_text(text, None, None, limit=4096)
        message.text, message.entities = formatted.text, formatted.entities
        return self._arrive(message)

    def _arrive(self, message: SimMessage) -> SimMessage:
        chat = message.chat
        chat.messages.append(message)
        if message.sender.is_bot:
            chat.last_bot_sender = message.sender.id
        message.delivered = reaches_bot(message, self.bot, chat)
        if message.delivered:
            self.updates.push("message", message.payload())
        self.touch()
        return message

    async def click(self, user: SimUser, message: SimMessage, data: str) -> SimCallback:
        """``user`` presses the inline button with callback data ``data`` under ``message``."""
        if data not in {str(b.get("callback_data")) for row in message.keyboard for b in row}:
            raise AssertionError(
                f"no button with callback data {data!r} under message {message.id}"
            )
        return self.forge_press(user, message, data)

    def forge_press(self, user: SimUser, message: SimMessage, data: str) -> SimCallback:
        """A press of a button ``message`` may not have: the Bot API passes on whatever a client
        sends ("the message originated the query can contain no callback buttons with this
        data", ``api.json``'s ``CallbackQuery.data``)."""
        callback = SimCallback(
            id=str(4_000_000_000_000 + len(self.callbacks)),
            user=user,
            message=message,
            data=data,
            created=self.now(),
        )
        self.callbacks[callback.id] = callback
        self.updates.push(
            "callback_query",
            {
                "id": callback.id,
                "from": user.payload(),
                "message": message.payload(),
                "chat_instance": str(abs(message.chat.id) * 7919),
                "data": data,
            },
        )
        self.touch()
        return callback

    # -- what people see ---------------------------------------------------------------------

    def chat_messages(self, chat: SimChat, *, thread: int | None = None) -> list[SimMessage]:
        """The chat's messages in order, as its members see them (deleted ones gone; with
        ``thread``, those of one forum topic)."""
        shown = [m for m in chat.messages if not m.deleted]
        return shown if thread is None else [m for m in shown if m.thread_id == thread]

    def bot_messages(self, chat: SimChat, *, thread: int | None = None) -> list[SimMessage]:
        return [m for m in self.chat_messages(chat, thread=thread) if m.sender is self.bot]

    def drafts_in(self, chat: SimChat) -> list[SimDraft]:
        """The drafts streamed into ``chat``, oldest first; each keeps every text it showed."""
        return [d for d in self.drafts.values() if d.chat is chat]

    def draft_vanished(self, draft: SimDraft) -> bool:
        return draft.vanished(self.now(), self.draft_ttl)

    def typing_in(self, chat: SimChat) -> str | None:
        """The chat action a person sees now ("typing"...), if any."""
        now = self.now()
        for action_chat, _, action, at in reversed(self.actions):
            if action_chat is chat and now - at < _ACTION_SECONDS:
                return None if chat.last_bot_post_at >= at else action
        return None

    def pinged(self) -> list[str]:
        """Every person a bot message notified: an ``@username`` of someone here, or a
        ``text_mention``."""
        names = {(u.username or "").lower(): u for u in self.users.values() if u.username}
        found: list[str] = []
        for chat in self.chats.values():
            for message in chat.messages:
                if message.sender is not self.bot:
                    continue
                for entity in message.entities:
                    if entity["type"] == "text_mention":
                        found.append(f"user {entity['user']['id']}")
                    elif entity["type"] == "mention":
                        word = _utf16_slice(message.text, entity["offset"], entity["length"])
                        if word[1:].lower() in names:
                            found.append(word)
        return found


def _utf16_slice(text: str, offset: int, length: int) -> str:
    units = text.encode("utf-16-le")
    return units[offset * 2 : (offset + length) * 2].decode("utf-16-le")
