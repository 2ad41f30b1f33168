"""An answer's thread on Telegram: the cards, replying to the answer's last message.

A thread message is a rich message of parts (:mod:`integrations.telegram.cards`). Refused, its
parts go one by one, each rich, else in classic HTML, else as text, and only a part refused in
every form is left out (and logged with its title). A Bot API server without rich messages
(404) gets classic HTML from then on, several parts to a message. The quote checks' edits go
to each part in the form and the message it went out in.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from aiogram.exceptions import TelegramAPIError, TelegramNotFound

from bot.render.ports import Payload
from integrations.telegram.cards import SEPARATOR, classic_html, parts_of
from integrations.telegram.markdown import plain, visible
from integrations.telegram.place import Place
from integrations.telegram.presenter import NO_PREVIEW
from integrations.telegram.wire import TelegramApi, message_id

__all__ = ["Abilities", "Replies"]

log = logging.getLogger(__name__)

CLASSIC_ROOM = 3800
"""Characters of one classic message of parts (Telegram's 4,096, with room for the lines)."""

Form = Literal["text", "rich", "classic", "plain"]


@dataclass
class Abilities:
    """What this Bot API server offers, learnt once per worker: a local server older than the
    Bot API 9.3 has no drafts, one older than 10.1 no rich messages."""

    drafts: bool = True
    rich: bool = True


@dataclass
class _Posted:
    """One message of a thread message's parts, as it was sent."""

    message_id: int
    form: Form
    parts: tuple[int, ...]
    buttons: bool = False


class Replies:
    """One answer's thread: posted, then edited with the quote checks' verdicts."""

    def __init__(
        self,
        *,
        api: TelegramApi,
        place: Place,
        abilities: Abilities,
        on_posted: Callable[[int], Awaitable[None]] | None,
        anchor: Callable[[], int | None],
    ) -> None:
        """``anchor``: the message the thread replies to (the answer's last)."""
        self._api = api
        self._place = place
        self._abilities = abilities
        self._on_posted = on_posted
        self._anchor = anchor
        self._posted: list[list[_Posted]] = []

    async def post(self, payloads: Sequence[Payload]) -> None:
        """The cards reply to the answer's last message; one Telegram refuses costs only
        itself."""
        for payload in payloads:
            self._posted.append(await self._post(payload))

    async def _post(self, payload: Payload) -> list[_Posted]:
        if payload.get("method") != "sendRichMessage":
            sent = await self._reply(payload, "text")
            return [_Posted(sent, "text", ())] if sent is not None else []
        parts = parts_of(payload)
        buttons = "reply_markup" in payload
        if self._abilities.rich:
            try:
                sent = await self._api.call(self._replying(payload), chat=self._place.chat)
            except TelegramNotFound as error:
                log.warning("no rich messages here (%s): classic HTML", error.message)
                self._abilities.rich = False
            except TelegramAPIError as error:
                log.warning("Telegram refused a cards message (%s)", error.message)
                return await self._part_by_part(payload, parts)
            else:
                if self._on_posted is not None:
                    await self._on_posted(message_id(sent))
                return [_Posted(message_id(sent), "rich", tuple(range(len(parts))), buttons)]
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
                _, sent = await self._api.write(
                    self._replying(payload), chat=self._place.chat, skippable=False
                )
            else:
                sent = message_id(
                    await self._api.call(self._replying(payload), chat=self._place.chat)
                )
        except TelegramAPIError as error:
            log.warning("Telegram refused a thread message (%s)", error.message)
            return None
        if sent is not None and self._on_posted is not None:
            await self._on_posted(sent)
        return sent

    def _replying(self, payload: Payload) -> Payload:
        message = self._place.where(payload)
        anchor = self._anchor()
        if anchor is not None:
            message["reply_parameters"] = {
                "message_id": anchor,
                "allow_sending_without_reply": True,
            }
        return message

    async def edit(self, index: int, payload: Payload) -> None:
        """Show ``payload`` in place of thread message ``index``, in the form and the messages
        each of its parts was sent in (one Telegram refuses is logged)."""
        posted = self._posted[index] if index < len(self._posted) else []
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
                "chat_id": self._place.chat.id,
                "message_id": message.message_id,
            }
            try:
                await self._api.call(edit, chat=self._place.chat)
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


def _title(part: str) -> str:
    return plain(part).split("\n", 1)[0][:100]
