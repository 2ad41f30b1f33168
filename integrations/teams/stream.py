"""A personal chat's answer, streamed as Teams streams a bot's message
(learn.microsoft.com/microsoftteams/platform/bots/streaming-ux): an informative update (a
progress line) at once, then ``streaming`` updates, each the whole text so far, then the
final message, which carries what only a final message may (the citations, the AI label,
the feedback loop, cards).

Teams' rules, kept here whatever the caller does: one activity a second at most (a faster
one is throttled; the Teams SDK's own stream flushes every half second,
microsoft/teams.py#452), so an update that comes too soon is dropped and the next one
carries its text; each streamed text holds the one before it, so an update that would take
back what a person already read waits for one that does not; ``streamSequence`` counts from
1, the first activity's id names the stream; the final message comes within two minutes of
the start, so a stream still open after :data:`LIFETIME` ends there, its text so far becoming
an ordinary message the caller then edits (:attr:`TeamsStream.message_id`). A stream Teams
refuses (403: streaming not allowed, or ended) leaves the caller to post a message instead
(:attr:`TeamsStream.streaming` is then False); a throttled update is dropped.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from typing import Any

from bot.render.ports import Payload
from bot.render.text import clip
from integrations.teams.limits import INFORMATIVE, STREAM_INTERVAL, STREAM_SECONDS
from integrations.teams.wire import TeamsRefused, TeamsWire

__all__ = ["LIFETIME", "TeamsStream"]

log = logging.getLogger(__name__)

LIFETIME = STREAM_SECONDS - 20.0
"""Seconds a stream may stay open here: twenty short of Teams' two minutes, so its final
message is sent in time even through a slow connection."""


class TeamsStream:
    """One answer's stream in one personal chat."""

    def __init__(
        self,
        wire: TeamsWire,
        *,
        service_url: str,
        conversation_id: str,
        interval: float = STREAM_INTERVAL,
        lifetime: float = LIFETIME,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._wire = wire
        self._service_url = service_url
        self._conversation_id = conversation_id
        self._interval = interval
        self._lifetime = lifetime
        self._clock = clock
        self.stream_id: str | None = None
        self.message_id: str | None = None
        """The message the stream became (its final message, or where it ended early)."""
        self._sequence = 0
        self._started_at = 0.0
        self._last_at = -float("inf")
        self._streamed = ""
        self._refused = False

    @property
    def streaming(self) -> bool:
        """Whether text still goes into the stream (not ended, not refused)."""
        return not self._refused and self.message_id is None

    async def inform(self, text: str) -> None:
        """A progress line under the chat (at most 1,000 characters), if a second has passed
        since the last activity; the first one starts the stream at once."""
        if self.streaming and self._due():
            await self._send(clip(text, INFORMATIVE), "informative")

    async def update(self, message: Payload) -> None:
        """Stream ``message``'s text (the whole answer so far). Dropped when a second has not
        passed or it does not hold what was streamed already; past :data:`LIFETIME` the
        stream ends here with it (:meth:`finish`)."""
        if not self.streaming:
            return
        text = str(message.get("text") or "")
        if self.stream_id is not None and self._clock() - self._started_at >= self._lifetime:
            await self.finish(message)
            return
        if not text.strip() or not text.startswith(self._streamed) or not self._due():
            return
        if text == self._streamed:
            return
        if await self._send(text, "streaming"):
            self._streamed = text

    async def finish(self, message: Payload) -> str | None:
        """End the stream with ``message`` as its final message; the message's id (the
        stream's), or None when nothing streamed or Teams refused the stream (the caller
        posts ``message`` as an ordinary one)."""
        if not self.streaming or self.stream_id is None:
            return self.message_id
        final = {**message, "type": "message"}
        entities = [e for e in final.get("entities", []) if e.get("type") != "streaminfo"]
        final["entities"] = [
            *entities,
            {"type": "streaminfo", "streamId": self.stream_id, "streamType": "final"},
        ]
        try:
            await self._wire.send(self._service_url, self._conversation_id, final)
        except TeamsRefused as refused:
            log.warning("Teams refused a stream's final message: %s", refused)
            self._refused = True
            return None
        self.message_id = self.stream_id
        return self.message_id

    def _due(self) -> bool:
        return self._clock() - self._last_at >= self._interval

    async def _send(self, text: str, kind: str) -> bool:
        info: dict[str, Any] = {
            "type": "streaminfo",
            "streamType": kind,
            "streamSequence": self._sequence + 1,
        }
        if self.stream_id is not None:
            info["streamId"] = self.stream_id
        activity = {"type": "typing", "text": text, "entities": [info]}
        self._last_at = self._clock()
        try:
            sent = await self._wire.send(self._service_url, self._conversation_id, activity)
        except TeamsRefused as refused:
            if refused.status != 429:
                log.warning("Teams refused a stream: %s", refused)
                self._refused = True
            return False
        self._sequence += 1
        if self.stream_id is None:
            self.stream_id = sent
            self._started_at = self._last_at
        return True
