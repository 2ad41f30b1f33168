"""Shows one answer in a Slack thread: Slack's native stream first, posted-and-edited after.

The flow hands over full message payloads (``markdown_text``) each time. While a message is a
live stream, text that extends what was sent is appended (only the new suffix); anything else
(footnotes linked at the end, a stream Slack dropped, a Tier-2 429, any stream error) goes
through ``chat.update`` with the whole text, at least ``update_interval`` apart per message, so
no text is lost or repeated across the switch. A message the formatter closed (the answer
rolled over into a new message) has its stream stopped at once. A placeholder (:meth:`hold`,
where Slack documents no "thinking" status) is the first message, edited like one.

With a write budget on the client (:mod:`.web`), Slack's per-workspace tiers decide: an answer
streams natively only while chat.startStream has a slot now and chat.stopStream can still close
every open stream; otherwise it posts and edits at once (the text reaches the person sooner than
a stream slot would, up to a minute later). Every open message claims its final calls (stop,
edit) in the budget; intermediate appends and edits go only when a slot is free beyond those
claims, and are otherwise skipped, their text carried by the next write (never queued).

Threaded replies keep their ``ts``, so that the quote checks can edit the cards in later
(:meth:`SlackSink.edit_thread`, one chat.update each, Tier 3 in the workspace's budget). The
thread message holding the feedback buttons gets the answer's disclaimer in a context block
under them, posted and edited alike (the cards leave room for it: :class:`SlackCards.size`).
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from slack_sdk.errors import SlackApiError
from slack_sdk.web.async_client import AsyncWebClient

from bot.adapter import Whereabouts, Window
from bot.render.ports import Payload
from integrations.slack.cards import disclaimer as disclaimer_block
from integrations.slack.markdown import UNFURL_OFF
from integrations.slack.parts import groups, refused_group, without
from integrations.slack.presenter import placeholder
from integrations.slack.wire import PacedWebClient, slack_window

__all__ = ["NativeStreams", "SlackSink", "vote_key"]

log = logging.getLogger(__name__)

_CONTENT = ("markdown_text", "text", "blocks")
STREAM_SPARE = 2
"""chat.startStream slots a new stream leaves unused in the workspace's minute: workers reserve
a slot when they decide, Slack counts it when the call lands, and a call delayed past the
window's margin (a loaded worker) would meet a 429 at the tier's edge. A stream is a nicety:
posting and editing always works."""
_GONE = "message_not_in_streaming_state"


@dataclass(frozen=True, slots=True)
class NativeStreams:
    """Whether a workspace's answers start native streams at all. chat.startStream and
    stopStream are Tier 2 (about 20 a minute per workspace): after a 429 the budget holds the
    method's window for Retry-After, and every answer posts and edits meanwhile instead of
    each one hitting the wall."""

    enabled: bool = True


@dataclass
class _Shown:
    ts: str
    payload: Payload
    streaming: bool
    updated_at: float = field(default=-float("inf"))
    claims: list[Window] = field(default_factory=list)


def _markdown(payload: Payload) -> str | None:
    value = payload.get("markdown_text")
    return value if isinstance(value, str) else None


def _content(payload: Payload) -> dict[str, Any]:
    return {key: payload[key] for key in _CONTENT if key in payload}


@dataclass(frozen=True, slots=True)
class _Reply:
    ts: str
    dropped: frozenset[int]
    """The cards (group indices, :func:`~integrations.slack.parts.groups`) Slack refused in
    it, left out."""


def vote_key(channel: str, ts: str) -> str:
    """The key a vote on the answer whose buttons are message ``ts`` is kept under."""
    return f"slack:{channel}:{ts}"


def _holds_buttons(payload: Payload) -> bool:
    return any(block.get("type") == "context_actions" for block in payload.get("blocks") or [])


class SlackSink:
    """The :class:`bot.answer.AnswerSink` for one answer in one thread."""

    def __init__(
        self,
        *,
        web: AsyncWebClient,
        channel: str,
        thread_ts: str,
        team_id: str | None,
        user_id: str,
        streams: NativeStreams,
        update_interval: float = 1.0,
        disclaimer: str | None = None,
    ) -> None:
        """``disclaimer``: the line shown under the answer's feedback buttons."""
        self._web = web
        self._disclaimer = disclaimer
        self._channel = channel
        self._thread_ts = thread_ts
        self._team_id = team_id
        self._user_id = user_id
        self._streams = streams
        self._update_interval = update_interval
        self._budget = web.budget if isinstance(web, PacedWebClient) else None
        self._shown: list[_Shown] = []
        self._native = True
        self._placeholder: Payload | None = None
        self._placeholder_words = ""
        self._replies: list[_Reply | None] = []
        """Each threaded reply; None where only its text could be posted."""
        self._buttons_on: str | None = None
        """The reply holding the feedback buttons (and the disclaimer)."""
        self.fell_back: str | None = None
        """Why this answer left the native stream (a Slack error code), if it did."""

    @property
    def channel(self) -> str:
        return self._channel

    @property
    def thread_ts(self) -> str:
        return self._thread_ts

    @property
    def message_ts(self) -> tuple[str, ...]:
        return tuple(shown.ts for shown in self._shown)

    @property
    def holding(self) -> bool:
        """Whether the placeholder is all this answer shows so far."""
        return bool(self._shown) and self._shown[0].payload is self._placeholder

    async def hold(self, words: str) -> None:
        """Post a placeholder saying ``words`` where the answer will be: its first message
        then replaces it (edited in place, so no extra message remains). One Slack refuses is
        logged: the answer is posted as it comes."""
        held = placeholder(words)
        try:
            ts = await self._post(held)
        except SlackApiError as error:
            log.info("no placeholder: %s", error.response.get("error"))
            return
        self._placeholder, self._placeholder_words = held, words
        self._shown.append(self._claim(_Shown(ts=ts, payload=held, streaming=False), "chat.update"))

    def whereabouts(self) -> Whereabouts:
        """Where this answer is, for another worker to close it if this one dies
        (:mod:`integrations.slack.orphans`)."""
        return Whereabouts(
            conversation=self._channel,
            thread=self._thread_ts,
            messages=self.message_ts,
            shown=bool(self._shown) and not self.holding,
            streaming=tuple(shown.ts for shown in self._shown if shown.streaming),
            holding=self._placeholder_words if self.holding else None,
        )

    async def show(self, messages: Sequence[Payload], *, final: bool) -> None:
        try:
            for i, payload in enumerate(messages):
                closed = final or i < len(messages) - 1
                if i < len(self._shown):
                    await self._change(self._shown[i], payload, closed=closed)
                else:
                    self._shown.append(await self._create(payload, closed=closed))
                if closed:
                    self._release(self._shown[i])
        finally:
            if final:
                for shown in self._shown:
                    self._release(shown)

    async def post_thread(self, payloads: Sequence[Payload]) -> None:
        """Cards follow an answer already shown: one Slack refuses never loses the others. A
        message Slack refuses for one card's block (its error names the block) is sent again
        without that card; what Slack refuses otherwise shows its notification text."""
        for payload in payloads:
            reply = await self._post_reply(self._with_disclaimer(payload))
            self._replies.append(reply)
            if reply is not None and _holds_buttons(payload):
                self._buttons_on = reply.ts

    def vote_key(self) -> str | None:
        """Where votes on this answer arrive (``bot.answerlog.VoteKeyed``): the key the 👍/👎
        under it send, named after the reply that holds them (:mod:`.feedback`)."""
        return None if self._buttons_on is None else vote_key(self._channel, self._buttons_on)

    async def post_disclaimer(self) -> None:
        """The disclaimer alone, under an answer that ended without its thread (cut short)."""
        if self._disclaimer:
            block = disclaimer_block(self._disclaimer)
            await self._post(
                {"text": block["elements"][0]["text"], "blocks": [block], **UNFURL_OFF}
            )

    def _with_disclaimer(self, payload: Payload) -> Payload:
        if not self._disclaimer or not _holds_buttons(payload):
            return payload
        return {**payload, "blocks": [*payload["blocks"], disclaimer_block(self._disclaimer)]}

    async def _post_reply(self, payload: Payload) -> _Reply | None:
        dropped: frozenset[int] = frozenset()
        while True:
            try:
                return _Reply(await self._post(without(payload, dropped)), dropped)
            except SlackApiError as error:
                refused = refused_group(error, payload, dropped)
                log.warning(
                    "Slack refused a thread message (%s)%s",
                    error.response.get("error"),
                    "; sending it without the card it names" if refused is not None else "",
                )
            if refused is None or len(dropped) + 1 == len(groups(payload)):
                break
            dropped |= {refused}
        if payload.get("text"):  # the notification text carries what the blocks would show
            try:
                await self._post(
                    {"text": payload["text"], "unfurl_links": False, "unfurl_media": False}
                )
            except SlackApiError as error:
                log.warning("Slack refused a card's text too (%s); skipping it", error.response)
        return None

    async def edit_thread(self, index: int, payload: Payload) -> None:
        """Show ``payload`` in place of threaded reply ``index``, without the cards Slack
        refused in it (not where Slack took only its text)."""
        reply = self._replies[index] if index < len(self._replies) else None
        if reply is None:
            return
        shown = without(self._with_disclaimer(payload), reply.dropped)
        try:
            await self._web.chat_update(channel=self._channel, ts=reply.ts, **_content(shown))
        except SlackApiError as error:
            log.warning("Slack refused a card's edit (%s)", error.response.get("error"))

    async def _post(self, payload: Payload) -> str:
        response = await self._web.chat_postMessage(
            channel=self._channel, thread_ts=self._thread_ts, **payload
        )
        return str(response["ts"])

    # -- the workspace budget ------------------------------------------------------------------
    def _free(self, method: str, *, spare: int = 0) -> bool:
        window = slack_window(method, self._channel)
        return self._budget is None or self._budget.free(window, spare=spare)

    def _claim(self, shown: _Shown, *methods: str) -> _Shown:
        if self._budget is not None:
            for method in methods:
                window = slack_window(method, self._channel)
                self._budget.claim(window)
                shown.claims.append(window)
        return shown

    def _release(self, shown: _Shown) -> None:
        if self._budget is not None:
            for window in shown.claims:
                self._budget.release(window)
        shown.claims.clear()

    def _may_stream(self) -> bool:
        return (
            self._native
            and self._streams.enabled
            and self._free("chat.startStream", spare=STREAM_SPARE)
            and self._free("chat.stopStream")
        )

    # -- one message --------------------------------------------------------------------------
    async def _create(self, payload: Payload, *, closed: bool) -> _Shown:
        text = _markdown(payload)
        if text and not closed and self._may_stream():
            try:
                response = await self._web.chat_startStream(
                    channel=self._channel,
                    thread_ts=self._thread_ts,
                    markdown_text=text,
                    recipient_team_id=self._team_id,
                    recipient_user_id=self._user_id,
                )
                return self._claim(
                    _Shown(ts=str(response["ts"]), payload=payload, streaming=True),
                    "chat.stopStream",
                    "chat.update",
                )
            except SlackApiError as error:
                self._leave_stream(error)
        ts = await self._post(payload)
        shown = _Shown(ts=ts, payload=payload, streaming=False, updated_at=time.monotonic())
        return shown if closed else self._claim(shown, "chat.update")

    async def _change(self, shown: _Shown, payload: Payload, *, closed: bool) -> None:
        if shown.streaming:
            sent, text = _markdown(shown.payload) or "", _markdown(payload)
            extends = text is not None and text.startswith(sent)
            suffix = text[len(sent) :] if text is not None and extends else ""
            try:
                if extends and closed:
                    await self._web.chat_stopStream(
                        channel=self._channel, ts=shown.ts, markdown_text=suffix or None
                    )
                    shown.streaming = False
                elif extends and suffix:
                    if not self._free("chat.appendStream"):
                        return  # skipped: the next append carries this text too
                    await self._web.chat_appendStream(
                        channel=self._channel, ts=shown.ts, markdown_text=suffix
                    )
                elif not extends:
                    # A stream only grows: close it, then edit the changed text in.
                    shown.streaming = False
                    await self._web.chat_stopStream(channel=self._channel, ts=shown.ts)
                if extends:
                    shown.payload = payload
                    return
            except SlackApiError as error:
                self._leave_stream(error)
                if shown.streaming and error.response.get("error") != _GONE:
                    await self._stop_quietly(shown)
                shown.streaming = False
        if _content(payload) != _content(shown.payload) and (closed or self._free("chat.update")):
            await self._update(shown, payload)

    async def _update(self, shown: _Shown, payload: Payload) -> None:
        wait = shown.updated_at + self._update_interval - time.monotonic()
        if wait > 0:
            await asyncio.sleep(wait)
        await self._web.chat_update(channel=self._channel, ts=shown.ts, **_content(payload))
        shown.payload = payload
        shown.updated_at = time.monotonic()

    async def _stop_quietly(self, shown: _Shown) -> None:
        """Close a stream that failed but still lives, so it stops looking unfinished."""
        try:
            await self._web.chat_stopStream(channel=self._channel, ts=shown.ts)
        except SlackApiError as error:
            log.info("could not close a failed stream: %s", error.response.get("error"))

    def _leave_stream(self, error: SlackApiError) -> None:
        code = str(error.response.get("error"))
        self._native = False
        self.fell_back = self.fell_back or code
        log.info("native stream unavailable (%s): posting and editing instead", code)
