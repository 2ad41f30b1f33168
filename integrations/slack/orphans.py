"""Closing a Slack answer whose worker died: its hook for the core's closer (:mod:`bot.orphans`).

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
from dataclasses import replace

from slack_sdk.errors import SlackApiError
from slack_sdk.web.async_client import AsyncWebClient

from bot.adapter import Note, Whereabouts
from bot.render.ports import Payload

__all__ = ["SlackOrphans"]

log = logging.getLogger(__name__)

_MARKS = re.compile(r"[*_~]|\\(?=\S)")


def _plain(text: str) -> str:
    """Words without their emphasis marks and escapes: ``*citebot is thinking…*`` as posted
    (Markdown) and ``_citebot is thinking…_`` (mrkdwn) both read ``citebot is thinking…``."""
    return " ".join(_MARKS.sub("", text).split())


class SlackOrphans:
    """The :class:`~bot.orphans.OrphanHook` of one workspace's answers."""

    def __init__(self, *, web: AsyncWebClient) -> None:
        self._web = web

    async def close(self, where: Whereabouts, note: Note) -> None:
        channel, thread_ts = where.conversation, str(where.thread)
        messages = [str(ts) for ts in where.messages]
        if where.holding is not None and len(messages) == 1:
            if await self._still_says(channel, thread_ts, messages[0], where.holding):
                await self._replace(channel, thread_ts, messages[0], note.restarting)
                return
            note = replace(note, shown=True)  # an answer's words replaced the placeholder
        if not messages:
            await self._reply(channel, thread_ts, note.restarting)
            return
        streaming = set(where.streaming)
        for ts in messages[:-1]:
            if ts in streaming:
                await self._stop(channel, ts, None)
        if messages[-1] in streaming and await self._stop(channel, messages[-1], note.ending):
            return
        await self._reply(channel, thread_ts, note.notice)

    async def _stop(self, channel: str, ts: str, ending: Payload | None) -> bool:
        """Stop a stream, ending it with ``ending``'s text; whether it ended with it."""
        text = None if ending is None else ending.get("markdown_text")
        try:
            if not isinstance(text, str):
                await self._web.chat_stopStream(channel=channel, ts=ts)
                return False
            await self._web.chat_stopStream(channel=channel, ts=ts, markdown_text="\n\n" + text)
            return True
        except SlackApiError as error:  # Slack dropped the stream, or refused the note
            log.info("could not stop an orphaned stream: %s", error.response.get("error"))
            if text is not None:
                await self._stop(channel, ts, None)
            return False

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

    async def _replace(self, channel: str, thread_ts: str, ts: str, notice: Payload) -> None:
        """The placeholder says what happened instead of "thinking"; if Slack refuses, a reply
        in the thread says it."""
        try:
            await self._web.chat_update(channel=channel, ts=ts, **notice)
        except SlackApiError as error:
            log.info("could not replace an orphaned placeholder: %s", error.response.get("error"))
            await self._reply(channel, thread_ts, notice)

    async def _reply(self, channel: str, thread_ts: str, notice: Payload) -> None:
        await self._web.chat_postMessage(channel=channel, thread_ts=thread_ts, **notice)
