"""Where one answer goes on Discord: the interaction response, its followups, then a thread.

An answer's first message is the deferred interaction response; later messages are followups.
After the interaction token's 15 minutes (or its 401/50027) edits and new messages go through
the bot token on the channel instead. Intermediate edits that meet a 429 are dropped, and
nothing is written again until the bucket resets; the final write waits for it and lands.

Each write keeps to the bucket Discord counts it in (:data:`~.routes.DISCORD_LIMITS` in the
core's write budget): an interaction's webhook per token, bot-token messages per channel, thread
creates per parent channel. An intermediate flush whose writes do not all fit in their bucket
now is skipped whole (the next carries its text); a final one waits for its slots. A 429 holds
its bucket for Retry-After, in every answer.

Each threaded reply remembers the message(s) it became, so that the quote checks can edit its
cards in later (:meth:`DiscordAnswerSink.edit_thread`), on the same route and in the same
bucket as it was posted.
"""

from __future__ import annotations

import logging
import re
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass

import discord

from bot.adapter import Whereabouts, Window, WriteBudget, fingerprint
from bot.render.ports import Payload
from integrations.discord.limits import THREAD_NAME
from integrations.discord.refusals import log_refused, part, refused_embeds
from integrations.discord.routes import (
    INVALID_WEBHOOK_TOKEN,
    TOKEN_MARGIN,
    TOKEN_TTL,
    TOO_MANY_FOLLOWUPS,
    Dropped,
    InteractionToken,
    channel,
    pace,
    threads,
    webhook,
)
from integrations.discord.wire import (
    DiscordWire,
    RateLimitedWrite,
    message_body,
    unless_rate_limited,
)

log = logging.getLogger(__name__)

__all__ = ["DiscordAnswerSink", "answer_key", "thread_name"]


def answer_key(message_id: int) -> str:
    """The key votes on an answer are kept under: the id of its message with the buttons."""
    return f"discord:{message_id}"


def thread_name(question: str) -> str:
    """A thread name from the question: one line, 1-100 characters."""
    name = re.sub(r"\s+", " ", question).strip()
    if len(name) > THREAD_NAME:
        name = name[: THREAD_NAME - 1].rstrip() + "…"
    return name or "Sources"


@dataclass(slots=True)
class _Reply:
    """One message a threaded reply became: which of the reply's embeds it holds (all of them
    unless Discord refused some), and the :func:`fingerprint` of what it shows."""

    message_id: int
    embeds: list[int]
    shown: int


class DiscordAnswerSink:
    """An :class:`bot.answer.AnswerSink` for one answer in one channel."""

    def __init__(
        self,
        *,
        wire: DiscordWire,
        channel_id: int,
        interaction: InteractionToken | None = None,
        ephemeral: bool = False,
        can_thread: bool = False,
        thread_name: str = "Sources",
        reply_to: int | None = None,
        budget: WriteBudget,
        bot_member: bool = True,
        followups: int | None = None,
        overflow: Callable[[Sequence[Payload]], Payload | None] | None = None,
        original_taken: bool = False,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        """``bot_member`` False: the bot is not where the answer goes (a user's install in a
        server without it, a group DM), so nothing goes by the bot token; ``followups``: how
        many the interaction may still send (None: no limit), the thread's replies past them
        given to ``overflow`` to say in one message; ``original_taken``: the interaction's
        response already holds something (the claim a check quotes), so the answer starts in
        a followup."""
        self._wire = wire
        self._budget = budget
        self._channel_id = channel_id
        self._interaction = interaction
        self._ephemeral = ephemeral
        self._can_thread = can_thread and not ephemeral and bot_member
        self._thread_name = thread_name
        self._reply_to = reply_to
        self._bot_member = bot_member
        self._followups = followups
        self._overflow = overflow
        self._clock = clock
        self._token_expired = interaction is None
        self._route = channel(channel_id)
        """The bucket the last write took (a 429 holds it)."""
        answers_in_original = interaction is not None and not original_taken
        # Slot 0 of an interaction answer is its deferred response (id None: "@original").
        self.message_ids: list[int | None] = (
            [interaction.original_id] if interaction is not None and answers_in_original else []
        )
        self._shown: list[int | None] = [None] if answers_in_original else []
        """Each message's :func:`fingerprint` as last written (None: nothing yet)."""
        self.thread_id: int | None = None
        self._buttons_on: int | None = None
        """Which answer message shows the vote buttons (the last to have any)."""
        self._replies: list[list[_Reply]] = []
        """What each threaded reply became (empty: nothing that can be edited)."""

    # -- AnswerSink --------------------------------------------------------------------------

    async def show(self, messages: Sequence[Payload], *, final: bool) -> None:
        bodies = [message_body(payload, ephemeral=self._ephemeral) for payload in messages]
        with_buttons = [index for index, body in enumerate(bodies) if body.get("components")]
        self._buttons_on = with_buttons[-1] if with_buttons else self._buttons_on
        prints = [fingerprint(body) for body in bodies]
        fresh = range(len(self._shown), len(bodies))
        stale = [
            index
            for index, shown in enumerate(self._shown[: len(bodies)])
            if prints[index] != shown
        ]
        if not final and not self._room_for(len(fresh) + len(stale)):
            return  # all or nothing: a half-done flush would hide text that moved on
        try:
            # New messages first: text that moves on shows twice for a moment, never nowhere.
            for index in fresh:
                data = await self._write(self._create(bodies[index], final=final), final=final)
                if data is None:
                    return
                self.message_ids.append(int(data["id"]))
                self._shown.append(prints[index])
            for index in stale:
                edit = self._edit(self.message_ids[index], bodies[index], final=final)
                await self._write(edit, final=final)
                self._shown[index] = prints[index]
        except Dropped:
            return

    async def post_thread(self, payloads: Sequence[Payload]) -> None:
        anchor = self.message_ids[0] if self.message_ids else None
        if self._can_thread and anchor is not None:
            try:
                await pace(self._budget, threads(self._channel_id), final=True)
                self.thread_id = await self._wire.start_thread(
                    self._channel_id, anchor, self._thread_name
                )
            except discord.HTTPException as error:
                log.info(
                    "no thread on %s (%s %s); the cards follow as messages",
                    anchor,
                    error.status,
                    error.code,
                )
        kept, summary = self._within_followups(payloads)
        for index, payload in enumerate(payloads):
            self._replies.append(await self._reply(payload) if index < kept else [])
        if summary is not None:
            await self._reply(summary)

    def _within_followups(self, payloads: Sequence[Payload]) -> tuple[int, Payload | None]:
        """How many of the thread's replies go as they are, and the one message that says the
        rest (the sources they hold, linked), where the interaction's followups run out."""
        room = self._followups
        if room is None or self.thread_id is not None or len(payloads) <= room:
            return len(payloads), None
        if room <= 0:
            return 0, None
        summary = self._overflow(payloads[room - 1 :]) if self._overflow else None
        return (room - 1, summary) if summary is not None else (room, None)

    async def edit_thread(self, index: int, payload: Payload) -> None:
        """Show ``payload`` in place of threaded reply ``index``: each message it became gets
        its own embeds of it, and only if they changed. Waits for the bucket's slot."""
        for reply in self._replies[index] if index < len(self._replies) else ():
            body = self._reply_body(part(payload, reply.embeds))
            shown = fingerprint(body)
            if shown == reply.shown:
                continue
            try:
                if self.thread_id is not None:
                    await self._pace(channel(self.thread_id), final=True)
                    await self._wire.edit_message(self.thread_id, reply.message_id, body)
                elif await self._edit(reply.message_id, body, final=True) is None:
                    continue
            except discord.HTTPException as error:
                log.warning("Discord refused a card's edit (%s %s)", error.status, error.code)
                continue
            reply.shown = shown

    async def _reply(self, payload: Payload) -> list[_Reply]:
        """One threaded reply, and the messages it became. When Discord refuses a cards message
        (400), only the cards it names go: the message is sent again without them, else card by
        card; the answer is shown already, so a refusal is logged, never raised."""
        embeds = list(payload.get("embeds") or ())
        every = list(range(len(embeds)))
        try:
            return self._sent(await self._send_reply(payload, every), every)
        except discord.HTTPException as error:
            if error.status != 400 or not embeds:
                log.warning("Discord refused a thread message (%s %s)", error.status, error.code)
                return []
            named = refused_embeds(error, len(embeds))
            log_refused([embeds[i] for i in sorted(named)], error)
        kept = [index for index in every if index not in named]
        if named and kept:
            try:
                return self._sent(await self._send_reply(payload, kept), kept)
            except discord.HTTPException as error:
                if error.status != 400:
                    log.warning("Discord refused a cards message (%s %s)", error.status, error.code)
                    return []
        replies: list[_Reply] = []
        for index in kept:
            try:
                replies += self._sent(await self._send_reply(payload, [index]), [index])
            except discord.HTTPException as error:
                log_refused([embeds[index]], error)
        return replies

    async def _send_reply(self, payload: Payload, embeds: list[int]) -> tuple[Payload, int] | None:
        """Send the reply with only these of its embeds; the body sent and the message's id
        (None when it could not be sent: an ephemeral answer whose token has expired)."""
        body = self._reply_body(part(payload, embeds))
        if self.thread_id is not None:
            await self._pace(channel(self.thread_id), final=True)
            data: Payload | None = await self._wire.create_message(self.thread_id, body)
        else:
            data = await self._create(body, final=True)
        return None if data is None else (body, int(data["id"]))

    def _reply_body(self, payload: Payload) -> Payload:
        return message_body(payload, ephemeral=self._ephemeral and self.thread_id is None)

    @staticmethod
    def _sent(sent: tuple[Payload, int] | None, embeds: list[int]) -> list[_Reply]:
        if sent is None:
            return []
        body, message_id = sent
        return [_Reply(message_id=message_id, embeds=embeds, shown=fingerprint(body))]

    def vote_key(self) -> str | None:
        """Where votes on this answer arrive (``bot.answerlog.VoteKeyed``), once it shows its
        buttons."""
        index = self._buttons_on
        if index is None or index >= len(self.message_ids):
            return None
        message_id = self.message_ids[index]
        return answer_key(message_id) if message_id is not None else None

    def whereabouts(self) -> Whereabouts:
        """Where this answer is, for another worker to close it if this one dies
        (:mod:`integrations.discord.orphans`); the token while it lives."""
        interaction, alive = self._interaction, self._token_alive()
        return Whereabouts(
            conversation=str(self._channel_id),
            question=None if self._reply_to is None else str(self._reply_to),
            messages=tuple(None if i is None else str(i) for i in self.message_ids),
            shown=any(shown is not None for shown in self._shown),
            private=self._ephemeral,
            via=str(interaction.application_id) if interaction else None,
            bot_present=self._bot_member,
            secret=interaction.token if interaction and alive else None,
            secret_ttl=(
                TOKEN_TTL - TOKEN_MARGIN - (self._clock() - interaction.issued_at)
                if interaction and alive
                else 0.0
            ),
        )

    # -- writes ------------------------------------------------------------------------------

    def _room_for(self, writes: int) -> bool:
        """Whether ``writes`` calls can all go now on the route they will take: a flush whose
        edit lands but whose new message waits would show the moved text nowhere."""
        if writes == 0:
            return True
        if self._token_alive():
            assert self._interaction is not None
            route = webhook(self._interaction.token)
        else:
            route = channel(self._channel_id)
        return self._budget.free(route, spare=writes - 1)

    async def _pace(self, route: Window, *, final: bool) -> None:
        self._route = route
        await pace(self._budget, route, final=final)

    async def _write(self, call: Awaitable[Payload | None], *, final: bool) -> Payload | None:
        if final:
            return await call
        try:
            return await unless_rate_limited(call)
        except RateLimitedWrite as limited:
            log.info("dropped an intermediate edit: %s", limited)
            await self._budget.pause(self._route, limited.retry_after)
            raise Dropped from None

    def _token_alive(self) -> bool:
        interaction = self._interaction
        if interaction is None or self._token_expired:
            return False
        if self._clock() - interaction.issued_at > TOKEN_TTL - TOKEN_MARGIN:
            self._token_expired = True
        return not self._token_expired

    async def _via_token(
        self, call: Callable[[InteractionToken], Awaitable[Payload | None]], *, final: bool
    ) -> Payload | None:
        """Try the interaction webhook; None when its token has expired (use the bot token)."""
        if not self._token_alive():
            return None
        assert self._interaction is not None
        await self._pace(webhook(self._interaction.token), final=final)
        try:
            return await call(self._interaction)
        except discord.HTTPException as error:
            if error.code != INVALID_WEBHOOK_TOKEN:
                raise
            log.info("interaction token expired; continuing with the bot token")
            self._token_expired = True
            return None

    async def _followup(self, token: InteractionToken, body: Payload) -> Payload | None:
        """A followup, counted against the interaction's limit; None when Discord says the
        limit is reached (then the bot token, where the bot is a member)."""
        try:
            data: Payload = await self._wire.followup(token.application_id, token.token, body)
        except discord.HTTPException as error:
            if error.code != TOO_MANY_FOLLOWUPS:
                raise
            log.info("the interaction's followups are spent")
            self._followups = 0
            return None
        if self._followups is not None:
            self._followups -= 1
        return data

    async def _edit(self, message_id: int | None, body: Payload, *, final: bool) -> Payload | None:
        data = await self._via_token(
            lambda t: self._wire.edit_interaction_message(
                t.application_id, t.token, message_id, body
            ),
            final=final,
        )
        if data is not None:
            return data
        if not self._bot_may_write or message_id is None:
            log.info("cannot edit this answer (private, or no bot here) after its token expired")
            return None
        await self._pace(channel(self._channel_id), final=final)
        return await self._wire.edit_message(self._channel_id, message_id, body)

    @property
    def _bot_may_write(self) -> bool:
        return self._bot_member and not self._ephemeral

    async def _create(self, body: Payload, *, final: bool) -> Payload | None:
        if self._followups != 0:
            data = await self._via_token(lambda t: self._followup(t, body), final=final)
            if data is not None:
                return data
        if not self._bot_may_write:
            log.info("cannot add to this answer (private, or no bot here) by the bot token")
            return None
        if self._reply_to is not None and not self.message_ids:
            body = {
                **body,
                "message_reference": {
                    "message_id": str(self._reply_to),
                    "fail_if_not_exists": False,
                },
            }
        await self._pace(channel(self._channel_id), final=final)
        return await self._wire.create_message(self._channel_id, body)
