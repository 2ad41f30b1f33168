"""Teams' limits, in one place: the presenter, the cards, the stream and the wire keep to them,
the tests check every activity against them. Each from Microsoft Learn's Teams pages (the URL
beside it); the simulator (tests/sim/teams) holds its own copy, so it does not agree with us by
construction."""

from __future__ import annotations

import json
from typing import Any

__all__ = [
    "ABSTRACT",
    "ACTIVITY_BYTES",
    "CITATIONS",
    "INFORMATIVE",
    "KEYWORD",
    "KEYWORDS",
    "LINK",
    "NAME",
    "PER_CONVERSATION",
    "STREAM_INTERVAL",
    "STREAM_SECONDS",
    "TEXT",
    "utf16_bytes",
]

ACTIVITY_BYTES = 100 * 1024
"""An activity's whole payload, encoded as UTF-16 (a larger one is refused 413
MessageSizeTooBig):
learn.microsoft.com/microsoftteams/platform/bots/how-to/format-your-bot-messages."""
CITATIONS = 20
"""Citations one message shows ("Bot message with more than 20 citations" is a 400):
learn.microsoft.com/microsoftteams/platform/bots/how-to/bot-messages-ai-generated-content."""
NAME = 80
"""Characters of a citation's ``appearance.name`` (the source's title), same page."""
ABSTRACT = 160
"""Characters of a citation's ``appearance.abstract``, same page."""
KEYWORDS, KEYWORD = 3, 28
"""A citation's keywords: at most three, each at most 28 characters, same page."""
INFORMATIVE = 1000
"""Characters of a stream's informative update ("must not be more than 1 kb or 1000
characters"): learn.microsoft.com/microsoftteams/platform/bots/streaming-ux."""
STREAM_INTERVAL = 1.0
"""Seconds between two activities of one stream ("The throttling limit is 1 request per
second", quoted in microsoft/teams.py#452; the streaming page asks for tokens to be buffered
1.5 to 2 seconds): a faster one is throttled with 429."""
STREAM_SECONDS = 120.0
"""A stream must end within two minutes of its start ("Content stream finished due to exceeded
streaming time", 403), same page."""
PER_CONVERSATION = ((7, 1.0), (8, 2.0), (60, 30.0), (1800, 3600.0))
"""A bot's sends to one conversation (operations, seconds): past them a 429 with
``Retry-After``: learn.microsoft.com/microsoftteams/platform/bots/how-to/rate-limit ("Per bot
per thread limit")."""
TEXT = 8000
"""Characters of an answer message's text citebot writes. Teams counts only the whole
activity (:data:`ACTIVITY_BYTES`): 8,000 characters (16 KB in UTF-16) leave the rest for
twenty citations with their popups."""
LINK = 2048
"""Characters of a link's URL citebot writes: Teams documents none (Discord's limit, for one
rule across platforms)."""


def utf16_bytes(activity: Any) -> int:
    """An activity's size as Teams measures it: its JSON encoded as UTF-16."""
    return len(json.dumps(activity, ensure_ascii=False).encode("utf-16-le"))
