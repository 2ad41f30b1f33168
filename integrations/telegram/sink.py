"""Shows one answer in a Telegram chat: streamed into a draft in a private chat, into a message
edited at Telegram's pace in a group; its thread (the cards) as replies to it.

In a private chat the message being written is a draft (``sendMessageDraft``, "a temporary
30-second preview"), renewed while the answer pauses, and becomes a message (``sendMessage``)
when it is finished or the answer moves on to the next one; Telegram then replaces the draft
with it. In a group the answer is sent, then edited: the edits while it streams go at most
every ``edit_interval`` seconds and only when the chat's pace has a slot beyond those promised
to every open answer's finals (:mod:`integrations.telegram.pace`); the finals wait for theirs.
Until the first text shows, Telegram says the bot is typing (renewed every few seconds: it
lasts five), and a private chat shows Telegram's own "Thinking…" draft.

A message Telegram refuses for how it is written is sent again plainer, never lost: its text
without formatting (:meth:`TelegramApi.write`). The thread is :mod:`integrations.telegram.thread`'s.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field

from aiogram.exceptions import TelegramAPIError, TelegramNotFound

from bot.adapter import Whereabouts, until_set
from bot.render.ports import Payload
from integrations.telegram.markdown import plain
from integrations.telegram.pace import promised, waited_for, windows
from integrations.telegram.place import Chat, Place, answer_key
from integrations.telegram.thread import Abilities, Replies
from integrations.telegram.wire import Skipped, TelegramApi, refused_for_form, said

__all__ = ["TelegramSink"]

log = logging.getLogger(__name__)

TYPING_SECONDS = 4.5
"""A chat action lasts five seconds; it is renewed a little sooner."""
DRAFT_SECONDS = 20.0
"""A draft lasts thirty seconds; one the answer has not changed since is renewed after this."""


@dataclass
class _Shown:
    message_id: int
    payload: Payload


@dataclass
class _Drafting:
    index: int
    payload: Payload
    at: float = field(default_factory=time.monotonic)


class TelegramSink:
    """The :class:`bot.answer.AnswerSink` for one answer in one chat (or forum topic)."""

    def __init__(
        self,
        *,
        api: TelegramApi,
        place: Place,
        abilities: Abilities,
        draft_id: int,
        on_posted: Callable[[int], Awaitable[None]] | None = None,
        edit_interval: float = 3.0,
    ) -> None:
        self._api = api
        self._place = place
        self._abilities = abilities
        self._drafts = abilities.drafts
        """Whether this answer streams into drafts (not where Telegram refused one)."""
        self._draft_id = draft_id
        self._on_posted = on_posted
        self._edit_interval = edit_interval
        self._shown: list[_Shown] = []
        self._drafting: _Drafting | None = None
        self._written = -float("inf")
        self._replies = Replies(
            api=api,
            place=place,
            abilities=abilities,
            on_posted=on_posted,
            anchor=lambda: self._shown[-1].message_id if self._shown else None,
        )
        self._shown_any = asyncio.Event()
        self._heartbeat: asyncio.Task[None] | None = None
        self._writing = asyncio.Lock()
        self._claimed = 0

    @property
    def chat(self) -> Chat:
        return self._place.chat

    @property
    def message_ids(self) -> tuple[int, ...]:
        return tuple(shown.message_id for shown in self._shown)

    @property
    def private(self) -> bool:
        return not self._place.chat.group

    # -- the answer's life -------------------------------------------------------------------
    def start(self) -> None:
        """Say the bot is typing (and, in a private chat, show the "Thinking…" draft) until
        the first text shows; keep the draft alive while the answer writes. Promise the
        answer's finals their slots in the chat's pace."""
        self._claimed = 2  # the last edit, the cards
        self._api.budget.claim(promised(self.chat), self._claimed)
        self._heartbeat = asyncio.create_task(self._beat(), name="citebot-telegram-typing")

    async def close(self) -> None:
        """The answer is over: no more typing or drafts kept alive, its promises released."""
        if self._heartbeat is not None:
            self._heartbeat.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._heartbeat
            self._heartbeat = None
        if self._claimed:
            self._api.budget.release(promised(self.chat), self._claimed)
            self._claimed = 0

    async def _beat(self) -> None:
        thinking = self.private and self._drafts
        since_draft = DRAFT_SECONDS
        while not self._shown_any.is_set():
            await self._quietly({"method": "sendChatAction", "action": "typing"})
            if thinking and since_draft >= DRAFT_SECONDS:
                await self._quietly(self._draft_payload(0, {"text": ""}))
                since_draft = 0.0
            await until_set(self._shown_any, TYPING_SECONDS)
            since_draft += TYPING_SECONDS
        while True:  # a draft the answer has not changed for a while is shown again
            await asyncio.sleep(DRAFT_SECONDS / 4)
            async with self._writing:  # never a draft again after its message
                drafting = self._drafting
                if drafting is not None and time.monotonic() - drafting.at >= DRAFT_SECONDS:
                    with contextlib.suppress(TelegramAPIError):
                        await self._write_draft(drafting.index, drafting.payload)

    async def _quietly(self, payload: Payload) -> None:
        """A nicety (typing, the thinking draft): a failure costs it, not the answer."""
        try:
            await self._api.call(self._where(payload), chat=self.chat)
        except (TelegramAPIError, Skipped) as error:
            log.info("Telegram refused %s: %s", payload["method"], said(error, self._api.token))

    # -- the answer's messages ---------------------------------------------------------------
    async def show(self, messages: Sequence[Payload], *, final: bool) -> None:
        if not final and not self._may_stream():
            return
        async with self._writing:
            await self._show(messages, final=final)

    async def _show(self, messages: Sequence[Payload], *, final: bool) -> None:
        self._shown_any.set()
        for index, payload in enumerate(messages):
            closed = final or index < len(messages) - 1
            if index < len(self._shown):
                written = await self._change(self._shown[index], payload, closed=closed)
            elif not closed and self.private and self._drafts:
                written = await self._write_draft(index, payload)
            else:
                written = await self._send(index, payload, skippable=not closed)
            if not written:
                break  # skipped: the next write carries this flush (messages stay in order)
        self._written = time.monotonic()

    def _may_stream(self) -> bool:
        """In a group an edit while streaming waits ``edit_interval`` and a free slot; in a
        private chat drafts are not counted, only what becomes a message is."""
        if self.private:
            return not self._api.budget.waiting(waited_for(self.chat))
        if time.monotonic() - self._written < self._edit_interval:
            return False
        return self._api.budget.free(*windows(self.chat))

    async def _write_draft(self, index: int, payload: Payload) -> bool:
        draft = self._draft_payload(index, payload)
        try:
            await self._api.call(draft)
        except TelegramAPIError as error:
            if refused_for_form(error):
                await self._api.call({**draft, "text": plain(str(payload["text"]))[:4096]})
            else:  # no drafts here (or not for this chat): sent and edited instead
                log.info("no drafts: %s", said(error, self._api.token))
                if isinstance(error, TelegramNotFound):
                    self._abilities.drafts = False  # this server has none: every answer
                self._drafts = False
                return await self._send(index, payload, skippable=True)
        self._drafting = _Drafting(index, payload)
        return True

    def _draft_payload(self, index: int, payload: Payload) -> Payload:
        draft: Payload = {
            "method": "sendMessageDraft",
            "draft_id": self._draft_id + index,
            "text": payload.get("text", ""),
        }
        if payload.get("parse_mode"):
            draft["parse_mode"] = payload["parse_mode"]
        return self._where(draft)

    async def _send(self, index: int, payload: Payload, *, skippable: bool) -> bool:
        written, sent = await self._api.write(
            self._message(payload), chat=self.chat, skippable=skippable
        )
        if sent is None:
            return written
        if self._drafting is not None and self._drafting.index == index:
            self._drafting = None  # Telegram replaced the draft with the message
        self._shown.append(_Shown(sent, payload))
        if self._on_posted is not None:
            await self._on_posted(sent)
        return True

    async def _change(self, shown: _Shown, payload: Payload, *, closed: bool) -> bool:
        if _content(payload) == _content(shown.payload):
            return True
        edit = {
            **self._message(payload),
            "method": "editMessageText",
            "message_id": shown.message_id,
        }
        for key in ("message_thread_id", "reply_parameters"):
            edit.pop(key, None)
        written, _ = await self._api.write(edit, chat=self.chat, skippable=not closed)
        if written:
            shown.payload = payload
        return written

    def _message(self, payload: Payload) -> Payload:
        """An answer message (or a note) where this answer goes: a group's replies to the
        question."""
        message = self._where(dict(payload))
        if not self.private and self._place.question is not None:
            message["reply_parameters"] = {
                "message_id": self._place.question,
                "allow_sending_without_reply": True,
            }
        return message

    def _where(self, payload: Payload) -> Payload:
        return self._place.where(payload)

    def vote_key(self) -> str | None:
        """Where votes on this answer arrive (``bot.answerlog.VoteKeyed``): its message with
        the 👍/👎, once sent."""
        for shown in reversed(self._shown):
            if "reply_markup" in shown.payload:
                return answer_key(self.chat, shown.message_id)
        return None

    def whereabouts(self) -> Whereabouts:
        """Where this answer is, for another worker to close it if this one dies
        (:mod:`integrations.telegram.orphans`): the draft's text too, which no one could
        read again once it lapses."""
        return Whereabouts(
            conversation=str(self.chat.id),
            group=self.chat.group,
            thread=None if self._place.topic is None else str(self._place.topic),
            question=None if self._place.question is None else str(self._place.question),
            messages=tuple(str(message) for message in self.message_ids),
            shown=bool(self.message_ids),
            draft=(
                str(self._drafting.payload.get("text", "")) if self._drafting is not None else None
            ),
        )

    # -- the thread ----------------------------------------------------------------------------
    async def post_thread(self, payloads: Sequence[Payload]) -> None:
        await self._replies.post(payloads)

    async def edit_thread(self, index: int, payload: Payload) -> None:
        await self._replies.edit(index, payload)


def _content(payload: Payload) -> tuple[object, ...]:
    return (payload.get("text"), payload.get("reply_markup"))
