"""Shows one answer in a Teams conversation: streamed in a personal chat, one message in a
channel (in the question's thread) or a group chat; its sources on it as Teams' citations.

In a personal chat the answer streams as Teams streams a bot's message (:mod:`.stream`): a
progress line at once, the answer's first message as it grows, then the final message. In a
channel or a group chat the answer is posted once, when it is done, with Teams' typing
indicator until then (:attr:`TYPING_SECONDS`): a message edited as it grows would show every
member a changing message and spend the conversation's quota that every answer there shares,
and its citations could only come with its last version anyway (docs/decisions.md, "Teams
SDK").

The core shows an answer's last version before its thread, and Teams' "thread" is the
addendum that puts the sources on the answer itself (:func:`~.presenter.with_addenda`): so
the final version waits for the thread (:meth:`TeamsSink.post_thread`), or for the answer to
be over without one (:meth:`TeamsSink.close`: a notice, a refusal, an answer without sources).
The quote checks rewrite the addendum (:meth:`TeamsSink.edit_thread`) and the answer's
message is updated with the verdicts in its popups. A message Teams refuses for what it holds
goes again plainer (:func:`~.presenter.plainer`: without the citation it names, without
popups, without citations), never lost; whatever fails, the person is left a worded message,
never a stream that still says it is thinking.

Every call counts in the conversation's pace (``pace``: the shared write budget, Teams' seven
a second a conversation); the typing indicator and the stream's updates are skipped when it
has no room, the answer's messages wait for theirs.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass

from bot.adapter import Whereabouts
from bot.render.ports import Payload
from integrations.teams.limits import STREAM_INTERVAL
from integrations.teams.place import Conversation, answer_key
from integrations.teams.presenter import plainer, with_addenda
from integrations.teams.stream import TeamsStream
from integrations.teams.wire import TeamsRefused, TeamsWire, TooLarge

__all__ = ["TYPING_SECONDS", "Pace", "TeamsSink", "deliver", "unpaced"]

log = logging.getLogger(__name__)

TYPING_SECONDS = 3.0
"""How often the typing indicator is sent again while a channel's answer is written (Teams
shows it for a few seconds)."""

Pace = Callable[[str, bool], Awaitable[bool]]
"""``pace(conversation, final)``: whether a write to ``conversation`` may go now; a final one
waits for its turn and goes (True)."""


async def unpaced(conversation: str, final: bool) -> bool:
    """A pace that lets every write go (``citebot ask``, a test of the sink alone)."""
    return True


async def deliver(
    wire: TeamsWire, pace: Pace, where: Conversation, message: Payload, *, to: str | None = None
) -> str | None:
    """Send ``message`` to ``where`` (in its thread; ``to``: in reply to that message), in
    plainer forms while Teams refuses what it holds; its id, or None when no form was taken."""
    form: Payload | None = message
    while form is not None:
        await pace(where.id, True)
        try:
            return await wire.send(where.service_url, where.address, form, reply_to=to)
        except (TeamsRefused, TooLarge) as refused:
            form = _plainer(form, refused)
    return None


def _plainer(form: Payload, refused: Exception) -> Payload | None:
    """The next form after ``refused``; None when Teams refused for something else (the
    conversation, the bot's rights), which no plainer form mends."""
    if isinstance(refused, TeamsRefused) and refused.status not in (400, 413):
        log.warning("Teams refused a message: %s", refused)
        return None
    log.warning("Teams refused a message for what it holds, sent plainer: %s", refused)
    return plainer(form, str(refused))


@dataclass
class _Shown:
    message_id: str
    payload: Payload


class TeamsSink:
    """The :class:`bot.answer.AnswerSink` for one answer in one Teams conversation."""

    def __init__(
        self,
        *,
        wire: TeamsWire,
        where: Conversation,
        informative: str,
        pace: Pace = unpaced,
        stream_interval: float = STREAM_INTERVAL,
        typing_seconds: float = TYPING_SECONDS,
        on_posted: Callable[[str], Awaitable[None]] | None = None,
    ) -> None:
        """``where``: the conversation and the thread the answer goes in; ``informative``:
        the progress line a personal chat's stream starts with, in the asker's words;
        ``on_posted``: told each message the answer posts (its conversation noted)."""
        self._wire = wire
        self._where = where
        self._pace = pace
        self._informative = informative
        self._typing_seconds = typing_seconds
        self._on_posted = on_posted
        self._stream = (
            TeamsStream(
                wire,
                service_url=where.service_url,
                conversation_id=where.address,
                interval=stream_interval,
                pace=lambda final: pace(where.id, final),
            )
            if where.direct
            else None
        )
        self._answer: list[Payload] = []
        self._final = False
        self._thread: list[Payload] = []
        self._shown: list[_Shown] = []
        self._delivered = False
        self._typing: asyncio.Task[None] | None = None
        self._catching_up: asyncio.Task[None] | None = None
        self._stream_interval = stream_interval
        self._writing = asyncio.Lock()

    @property
    def where(self) -> Conversation:
        return self._where

    @property
    def message_ids(self) -> tuple[str, ...]:
        return tuple(shown.message_id for shown in self._shown)

    # -- the answer's life -------------------------------------------------------------------
    async def start(self) -> None:
        """Say the answer is on its way: a personal chat's stream starts with its progress
        line; elsewhere Teams says the bot is typing until the answer is posted."""
        if self._stream is not None:
            await self._stream.inform(self._informative)
            if self._stream.streaming:
                return
        self._typing = asyncio.create_task(self._type(), name="citebot-teams-typing")

    async def close(self) -> None:
        """The answer is over: its last version shown if the thread did not bring it (a
        notice, an answer without sources), and no more typing."""
        if self._final and not self._delivered:
            async with self._writing:
                await self._deliver()
        await self._stop_typing()

    async def _type(self) -> None:
        while True:
            if await self._pace(self._where.id, False):
                try:
                    await self._wire.send(
                        self._where.service_url, self._where.address, {"type": "typing"}
                    )
                except TeamsRefused as refused:  # a nicety: the answer goes on without it
                    log.info("Teams refused the typing indicator: %s", refused)
                    return
            await asyncio.sleep(self._typing_seconds)

    async def _stop_typing(self) -> None:
        if self._catching_up is not None and self._catching_up is not asyncio.current_task():
            self._catching_up.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._catching_up
            self._catching_up = None
        if self._typing is not None:
            self._typing.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._typing
            self._typing = None

    # -- the answer's messages ---------------------------------------------------------------
    async def show(self, messages: Sequence[Payload], *, final: bool) -> None:
        """The answer as it is now: streamed while it grows (a personal chat's), kept until
        its thread comes once it is final."""
        self._answer = [dict(message) for message in messages]
        if final:
            self._final = True
            return
        stream = self._stream
        if stream is None or not messages or self._writing.locked():
            return
        async with self._writing:
            if stream.streaming:
                await stream.update(messages[0])
                if stream.streaming and stream.streamed != messages[0].get("text"):
                    self._catch_up()
            elif stream.message_id is not None and await self._pace(self._where.id, False):
                await self._update(stream.message_id, messages[0])  # a stream ended early

    def _catch_up(self) -> None:
        """Stream the answer as it is now once the stream may take it: the text Teams' pace
        held back would otherwise wait for the next text, however long the upstream takes."""
        if self._catching_up is None or self._catching_up.done():
            self._catching_up = asyncio.create_task(
                self._caught_up(), name="citebot-teams-catch-up"
            )

    async def _caught_up(self) -> None:
        await asyncio.sleep(self._stream_interval)
        if not self._final and not self._delivered:
            await self.show(self._answer, final=False)

    async def post_thread(self, payloads: Sequence[Payload]) -> None:
        """The answer's sources (the addendum) and the core's summary: the answer is shown
        with them, as Teams shows a message's citations."""
        self._thread = [dict(payload) for payload in payloads]
        async with self._writing:
            await self._deliver()

    async def edit_thread(self, index: int, payload: Payload) -> None:
        """The addendum rewritten with the quote checks' verdicts: each answer message whose
        citations changed is updated once."""
        if index >= len(self._thread):
            return
        self._thread[index] = dict(payload)
        async with self._writing:
            if not self._delivered:
                return
            shown, _ = with_addenda(self._answer, self._thread)
            for old, new in zip(self._shown, shown, strict=False):
                if new != old.payload:
                    await self._pace(self._where.id, True)
                    if await self._update(old.message_id, new):
                        old.payload = new

    async def _deliver(self) -> None:
        """Show the answer's last version with its addendum on it: a personal chat's stream
        ended with its first message, the rest (and the core's summary) as messages after
        it."""
        self._delivered = True
        await self._stop_typing()
        shown, rest = with_addenda(self._answer, self._thread)
        for index, message in enumerate([*shown, *rest]):
            sent = await self._first(message) if index == 0 else None
            if sent is None:
                sent = await deliver(self._wire, self._pace, self._where, message)
            if sent is None:
                continue
            self._shown.append(_Shown(sent, message))
            if self._on_posted is not None:
                await self._on_posted(sent)

    async def _first(self, message: Payload) -> str | None:
        """The answer's first message where a stream holds its place: the stream's final
        message (plainer while Teams refuses it), or an update of the message a stream past
        its two minutes became; None where there is no stream (it is posted)."""
        stream = self._stream
        if stream is None:
            return None
        form: Payload | None = message
        while form is not None and stream.streaming and stream.stream_id is not None:
            try:
                return await stream.finish(form)
            except TeamsRefused as refused:
                form = _plainer(form, refused)
        if stream.message_id is not None and form is not None:
            await self._pace(self._where.id, True)
            if await self._update(stream.message_id, form):
                return stream.message_id
        return None

    async def _update(self, message_id: str, message: Payload) -> bool:
        """Replace ``message_id``'s content with ``message`` (plainer while Teams refuses
        it); whether it took one."""
        form: Payload | None = message
        while form is not None:
            try:
                await self._wire.update(
                    self._where.service_url, self._where.address, message_id, form
                )
                return True
            except (TeamsRefused, TooLarge) as refused:
                form = _plainer(form, refused)
        return False

    def whereabouts(self) -> Whereabouts:
        """Where the answer is, for the worker that closes it if this one dies
        (:mod:`.orphans`): its conversation and thread, its Teams region as ``via``."""
        stream = self._stream
        streamed = stream is not None and bool(stream.streamed)
        messages = self.message_ids
        if not messages and stream is not None and stream.stream_id is not None:
            messages = (stream.message_id or stream.stream_id,)
        return Whereabouts(
            conversation=self._where.id,
            thread=self._where.thread,
            messages=messages,
            shown=bool(self._shown) or streamed,
            streaming=(stream.stream_id,)
            if stream is not None and stream.streaming and stream.stream_id is not None
            else (),
            group=not self._where.direct,
            via=self._where.service_url,
        )

    def vote_key(self) -> str | None:
        """Where votes on this answer arrive (``bot.answerlog.VoteKeyed``): its message with
        Teams' feedback loop, once shown."""
        for shown in reversed(self._shown):
            data = shown.payload.get("channelData") or {}
            if data.get("feedbackLoop") or data.get("feedbackLoopEnabled"):
                return answer_key(self._where, shown.message_id)
        return None
