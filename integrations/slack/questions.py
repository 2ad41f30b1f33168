"""Which Slack messages are questions for citebot besides mentions and direct messages (issue
26): a reply in a thread citebot answered (:attr:`~bot.adapter.Heard.REPLY`, answered where the
channel's ``follow_ups_without_mention`` is on, its default), and a new top-level message
(:attr:`~bot.adapter.Heard.POST`, where its ``auto_answer`` is on): the kit decides.

A thread is citebot's when its root or its first reply is citebot's message (a mention's answer
is the first reply to the mention; an auto-answered post's, to the post): replies further down a
thread someone else started, where citebot once answered a mention, stay the people's own.
A message that mentions anyone (a person, a group, ``@here``) is not a question for citebot:
with citebot's own mention it is the ``app_mention`` event's, with someone else's it is addressed
to them. Messages from bots, edits and other changes never reach here (the app filters them).
"""

from __future__ import annotations

import logging
import re
from collections import OrderedDict

from slack_sdk.errors import SlackApiError
from slack_sdk.web.async_client import AsyncWebClient

from integrations.slack.context import Me

__all__ = ["ThreadOwners", "mentions_anyone"]

log = logging.getLogger(__name__)

_MENTION = re.compile(r"<@[UW][A-Z0-9]+(?:\|[^>]*)?>|<!(?:here|channel|everyone|subteam\^)")
KEPT = 10_000
"""Threads whose owner is remembered (their root and first reply do not change)."""


def mentions_anyone(text: str) -> bool:
    """Whether ``text`` (as Slack sends it) mentions a person, a user group or everyone."""
    return _MENTION.search(text) is not None


class ThreadOwners:
    """``await owners.ours(channel, thread_ts)``: whether citebot started the thread or gave
    it its first reply; asked of Slack once per thread (``conversations.replies``, the root and
    its first reply), the answer kept once the thread has its first reply."""

    def __init__(self, web: AsyncWebClient, me: Me) -> None:
        self._web = web
        self._me = me
        self._known: OrderedDict[tuple[str, str], bool] = OrderedDict()

    async def ours(self, channel: str, thread_ts: str) -> bool:
        key = (channel, thread_ts)
        if key in self._known:
            self._known.move_to_end(key)
            return self._known[key]
        try:
            reply = await self._web.conversations_replies(channel=channel, ts=thread_ts, limit=2)
        except SlackApiError as error:
            log.info("could not read a thread's first reply: %s", error.response.get("error"))
            return False
        first = list(reply.get("messages") or [])[:2]
        owned = any(
            message.get("user") == self._me.user_id
            or (self._me.bot_id and message.get("bot_id") == self._me.bot_id)
            for message in first
        )
        if owned or len(first) == 2:
            self._known[key] = owned
            while len(self._known) > KEPT:
                self._known.popitem(last=False)
        return owned
