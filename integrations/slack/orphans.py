"""Closing a Slack answer whose worker died (:mod:`bot.inflight`).

A message still streaming is stopped with the note appended, as the answer would have ended had
its worker stopped with SIGTERM; any other answer gets the note as the next reply in its thread
(which also clears "is thinking…"). The one message updated is a "thinking" placeholder no text
has replaced yet: it takes the note, so nothing is left thinking. Nothing else is updated: the
record may be a second old, and an update could hide text the person already read.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from slack_sdk.errors import SlackApiError
from slack_sdk.web.async_client import AsyncWebClient

from bot.i18n.wording import Wording
from bot.inflight import Orphan
from bot.render.formatter import AnswerFormatter
from bot.render.ports import Presenter

__all__ = ["SlackOrphans"]

log = logging.getLogger(__name__)


class SlackOrphans:
    """A :data:`bot.inflight.Closer` for one workspace's answers."""

    def __init__(
        self,
        *,
        web: AsyncWebClient,
        presenter: Presenter,
        wording_for: Callable[[str | None], Wording],
    ) -> None:
        self._web = web
        self._presenter = presenter
        self._wording_for = wording_for

    async def __call__(self, orphan: Orphan) -> None:
        place = orphan.place
        channel, thread_ts = str(place["channel"]), str(place["thread_ts"])
        wording = self._wording_for(orphan.language)
        messages = [str(ts) for ts in place.get("messages") or ()]
        placeholder = place.get("placeholder")
        if placeholder and messages == [str(placeholder)]:
            await self._replace(channel, thread_ts, str(placeholder), wording.restarting())
            return
        if not messages:
            await self._reply(channel, thread_ts, wording.restarting())
            return
        words = wording.interrupted()
        streaming = {str(ts) for ts in place.get("streaming") or ()}
        for ts in messages[:-1]:
            if ts in streaming:
                await self._stop(channel, ts, None)
        if messages[-1] in streaming and await self._stop(channel, messages[-1], words):
            return
        await self._reply(channel, thread_ts, words)

    async def _stop(self, channel: str, ts: str, words: str | None) -> bool:
        """Stop a stream, ending it with ``words``; whether it ended with them."""
        try:
            if words is None:
                await self._web.chat_stopStream(channel=channel, ts=ts)
                return False
            await self._web.chat_stopStream(
                channel=channel, ts=ts, markdown_text="\n\n" + self._note(words)
            )
            return True
        except SlackApiError as error:  # Slack dropped the stream, or refused the note
            log.info("could not stop an orphaned stream: %s", error.response.get("error"))
            if words is not None:
                await self._stop(channel, ts, None)
            return False

    def _note(self, words: str) -> str:
        """The note as the formatter ends an interrupted answer (an emphasised paragraph)."""
        (payload,) = AnswerFormatter(self._presenter).interrupt(words)
        text = payload.get("markdown_text")
        return text if isinstance(text, str) else words

    async def _replace(self, channel: str, thread_ts: str, ts: str, words: str) -> None:
        """The placeholder says what happened instead of "thinking"; if Slack refuses, a reply
        in the thread says it."""
        try:
            await self._web.chat_update(channel=channel, ts=ts, **self._presenter.notice(words))
        except SlackApiError as error:
            log.info("could not replace an orphaned placeholder: %s", error.response.get("error"))
            await self._reply(channel, thread_ts, words)

    async def _reply(self, channel: str, thread_ts: str, words: str) -> None:
        await self._web.chat_postMessage(
            channel=channel, thread_ts=thread_ts, **self._presenter.notice(words)
        )
