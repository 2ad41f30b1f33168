"""Closing a Slack answer whose worker died (:mod:`bot.inflight`).

A message still streaming is stopped with the note appended, as the answer would have ended had
its worker stopped with SIGTERM; any other answer gets the note as the next reply in its thread
(which also clears "is thinking…"). The one message updated is a "thinking" placeholder that
still says only that when read back (the record may be a second old: the answer's first words
may have replaced it since): it takes the note, so nothing is left thinking. Nothing else is
updated, since an update could hide text the person already read.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable

from slack_sdk.errors import SlackApiError
from slack_sdk.web.async_client import AsyncWebClient

from bot.adapter import AnswerFormatter, Orphan
from bot.i18n.wording import Wording
from bot.render.ports import Presenter

__all__ = ["SlackOrphans"]

log = logging.getLogger(__name__)

_MARKS = re.compile(r"[*_~]|\\(?=\S)")


def _plain(text: str) -> str:
    """Words without their emphasis marks and escapes: ``*citebot is thinking…*`` as posted
    (Markdown) and ``_citebot is thinking…_`` (mrkdwn) both read ``citebot is thinking…``."""
    return " ".join(_MARKS.sub("", text).split())


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
        held = place.get("placeholder")
        if isinstance(held, dict) and messages == [str(held.get("ts"))]:
            ts, words = str(held.get("ts")), str(held.get("words"))
            if await self._still_says(channel, thread_ts, ts, words):
                await self._replace(channel, thread_ts, ts, wording.restarting())
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

    async def _still_says(self, channel: str, thread_ts: str, ts: str, words: str) -> bool:
        """Whether message ``ts`` of the thread still says ``words`` (no answer replaced it),
        however Slack writes the placeholder's italics back (Markdown or mrkdwn)."""
        try:
            replies = await self._web.conversations_replies(
                channel=channel, ts=thread_ts, limit=200
            )
        except SlackApiError as error:
            log.info("could not read an orphaned thread back: %s", error.response.get("error"))
            return False
        return any(
            m.get("ts") == ts and _plain(str(m.get("text"))) == _plain(words)
            for m in replies.get("messages") or ()
        )

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
