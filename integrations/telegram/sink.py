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
without formatting. A thread message is a rich message; refused, its parts (each card) go one
by one, each rich, else in classic HTML, else as text, and only a part refused in every form is
left out (and logged with its title). A Bot API server without rich messages gets classic HTML
from the start, several parts to a message.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from aiogram.exceptions import TelegramAPIError, TelegramNotFound

from bot.inflight import Whereabouts
from bot.render.ports import Payload
from bot.state.base import until_set
from integrations.telegram.cards import SEPARATOR, classic_html, parts_of
from integrations.telegram.markdown import plain, visible
from integrations.telegram.pace import Chat
from integrations.telegram.presenter import NO_PREVIEW
from integrations.telegram.wire import Skipped, TelegramApi, refused_for_form, said

__all__ = ["Abilities", "Place", "TelegramSink"]

log = logging.getLogger(__name__)

TYPING_SECONDS = 4.5
"""A chat action lasts five seconds; it is renewed a little sooner."""
DRAFT_SECONDS = 20.0
"""A draft lasts thirty seconds; one the answer has not changed since is renewed after this."""
CLASSIC_ROOM = 3800
"""Characters of one classic message of parts (Telegram's 4,096, with room for the lines)."""

Form = Literal["text", "rich", "classic", "plain"]


@dataclass
class Abilities:
    """What this Bot API server offers, learnt once per worker: a local server older than the
    Bot API 9.3 has no drafts, one older than 10.1 no rich messages."""

    drafts: bool = True
    rich: bool = True


@dataclass(frozen=True, slots=True)
class Place:
    """Where an answer goes in Telegram."""

    chat: Chat
    topic: int | None = None
    """The forum topic (``message_thread_id``)."""
    question: int | None = None
    """The question's message: a group's answer replies to it."""


@dataclass
class _Shown:
    message_id: int
    payload: Payload


@dataclass
class _Posted:
    """One message of a thread message's parts, as it was sent."""

    message_id: int
    form: Form
    parts: tuple[int, ...]
    buttons: bool = False


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
        self._thread: list[list[_Posted]] = []
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
        self._api.budget.claim(self.chat, self._claimed)
        self._heartbeat = asyncio.create_task(self._beat(), name="citebot-telegram-typing")

    async def close(self) -> None:
        """The answer is over: no more typing or drafts kept alive, its promises released."""
        if self._heartbeat is not None:
            self._heartbeat.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._heartbeat
            self._heartbeat = None
        if self._claimed:
            self._api.budget.release(self.chat, self._claimed)
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
        if not final and not await self._may_stream():
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

    async def _may_stream(self) -> bool:
        """In a group an edit while streaming waits ``edit_interval`` and a free slot; in a
        private chat drafts are not counted, only what becomes a message is."""
        if self.private:
            return not self._api.budget.waiting(self.chat)
        if time.monotonic() - self._written < self._edit_interval:
            return False
        return await self._api.budget.free(self.chat)

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
        written, sent = await self._write(self._message(payload), skippable=skippable)
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
        written, _ = await self._write(edit, skippable=not closed)
        if written:
            shown.payload = payload
        return written

    async def _write(self, payload: Payload, *, skippable: bool) -> tuple[bool, int | None]:
        """Send or edit one message, again without its formatting if Telegram refuses that:
        whether it was written (a skippable one Telegram asks to wait for is not), and the
        message's id (None for an edit that changed nothing)."""
        try:
            result = await self._api.call(payload, chat=self.chat, skippable=skippable)
        except Skipped:
            return False, None
        except TelegramAPIError as error:
            if not refused_for_form(error):
                raise
            log.warning("Telegram refused a message (%s); sending it plainer", error.message)
            plainer = {**payload, "text": plain(str(payload["text"]))[:4096] or "…"}
            plainer.pop("parse_mode", None)
            try:
                result = await self._api.call(plainer, chat=self.chat, skippable=skippable)
            except Skipped:
                return False, None
        return True, None if result is None else _id(result)

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
        located = {**payload, "chat_id": self.chat.id}
        if self._place.topic is not None:
            located["message_thread_id"] = self._place.topic
        return located

    def whereabouts(self) -> Whereabouts:
        """Where this answer is, for another worker to close it if this one dies
        (:mod:`integrations.telegram.orphans`): the draft's text too, which no one could
        read again once it lapses."""
        return Whereabouts(
            place={
                "chat": self.chat.id,
                "group": self.chat.group,
                "topic": self._place.topic,
                "question": self._place.question,
                "messages": list(self.message_ids),
                "draft": (
                    str(self._drafting.payload.get("text", ""))
                    if self._drafting is not None
                    else None
                ),
            }
        )

    # -- the thread ----------------------------------------------------------------------------
    async def post_thread(self, payloads: Sequence[Payload]) -> None:
        """The cards reply to the answer's last message; one Telegram refuses costs only
        itself."""
        for payload in payloads:
            self._thread.append(await self._post(payload))

    async def _post(self, payload: Payload) -> list[_Posted]:
        if payload.get("method") != "sendRichMessage":
            sent = await self._reply(payload, "text")
            return [_Posted(sent, "text", ())] if sent is not None else []
        parts = parts_of(payload)
        buttons = "reply_markup" in payload
        if self._abilities.rich:
            try:
                sent = await self._api.call(self._replying(payload), chat=self.chat)
            except TelegramNotFound as error:
                log.warning("no rich messages here (%s): classic HTML", error.message)
                self._abilities.rich = False
            except TelegramAPIError as error:
                log.warning("Telegram refused a cards message (%s)", error.message)
                return await self._part_by_part(payload, parts)
            else:
                if self._on_posted is not None:
                    await self._on_posted(_id(sent))
                return [_Posted(_id(sent), "rich", tuple(range(len(parts))), buttons)]
        return await self._classic(payload, parts)

    async def _part_by_part(self, payload: Payload, parts: list[str]) -> list[_Posted]:
        posted: list[_Posted] = []
        for index, part in enumerate(parts):
            last = index == len(parts) - 1
            keyboard = payload.get("reply_markup") if last else None
            for form in ("rich", "classic", "plain"):
                sent = await self._reply(_part_payload(form, [part], keyboard), form)
                if sent is not None:
                    posted.append(_Posted(sent, form, (index,), keyboard is not None))
                    break
            else:
                log.warning("Telegram refused a card in every form: %s", _title(part))
        return posted

    async def _classic(self, payload: Payload, parts: list[str]) -> list[_Posted]:
        """Parts in classic HTML, as many to a message as fit."""
        batches: list[list[int]] = [[]]
        for index in range(len(parts)):
            joined = "\n\n".join(classic_html(parts[i]) for i in [*batches[-1], index])
            if batches[-1] and len(visible(joined)) > CLASSIC_ROOM:
                batches.append([])
            batches[-1].append(index)
        posted: list[_Posted] = []
        for number, batch in enumerate(batches):
            keyboard = payload.get("reply_markup") if number == len(batches) - 1 else None
            chosen = [parts[i] for i in batch]
            for form in ("classic", "plain"):
                sent = await self._reply(_part_payload(form, chosen, keyboard), form)
                if sent is not None:
                    posted.append(_Posted(sent, form, tuple(batch), keyboard is not None))
                    break
            else:
                log.warning("Telegram refused cards in every form: %s", _title(chosen[0]))
        return posted

    async def _reply(self, payload: Payload, form: Form) -> int | None:
        """One thread message; None when Telegram refuses it (a text one is sent plainer
        first)."""
        try:
            if form == "text":
                _, sent = await self._write(self._replying(payload), skippable=False)
            else:
                sent = _id(await self._api.call(self._replying(payload), chat=self.chat))
        except TelegramAPIError as error:
            log.warning("Telegram refused a thread message (%s)", error.message)
            return None
        if sent is not None and self._on_posted is not None:
            await self._on_posted(sent)
        return sent

    def _replying(self, payload: Payload) -> Payload:
        message = self._where(dict(payload))
        if self._shown:
            message["reply_parameters"] = {
                "message_id": self._shown[-1].message_id,
                "allow_sending_without_reply": True,
            }
        return message

    async def edit_thread(self, index: int, payload: Payload) -> None:
        """Show ``payload`` in place of thread message ``index``, in the form and the messages
        each of its parts was sent in (one Telegram refuses is logged)."""
        posted = self._thread[index] if index < len(self._thread) else []
        parts = parts_of(payload) if payload.get("method") == "sendRichMessage" else []
        for message in posted:
            if message.form == "text":
                content = {k: v for k, v in payload.items() if k != "method"}
            else:
                keyboard = payload.get("reply_markup") if message.buttons else None
                chosen = [parts[i] for i in message.parts if i < len(parts)]
                content = _part_payload(message.form, chosen, keyboard)
                content.pop("method")
            edit = {
                **content,
                "method": "editMessageText",
                "chat_id": self.chat.id,
                "message_id": message.message_id,
            }
            try:
                await self._api.call(edit, chat=self.chat)
            except TelegramAPIError as error:
                log.warning("Telegram refused a card's edit (%s)", error.message)


def _part_payload(form: Form, parts: list[str], keyboard: Any) -> Payload:
    """Parts of a thread message as one message of ``form``."""
    payload: Payload
    if form == "rich":
        html = SEPARATOR.join(parts)
        payload = {
            "method": "sendRichMessage",
            "rich_message": {"html": html, "skip_entity_detection": True},
        }
    else:
        text = "\n\n".join(classic_html(part) for part in parts)
        payload = {"method": "sendMessage", "link_preview_options": NO_PREVIEW}
        if form == "classic":
            payload.update(text=text, parse_mode="HTML")
        else:
            payload["text"] = plain(text)[:4096] or "…"
    if keyboard is not None:
        payload["reply_markup"] = keyboard
    return payload


def _content(payload: Payload) -> tuple[object, ...]:
    return (payload.get("text"), payload.get("reply_markup"))


def _id(result: Any) -> int:
    return int(result.message_id)


def _title(part: str) -> str:
    return plain(part).split("\n", 1)[0][:100]
