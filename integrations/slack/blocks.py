"""The Block Kit pieces every Slack surface of citebot's is built from (thread cards, the
settings page, modals): mrkdwn text objects that Slack parses for no mention, and plain text
made safe and cut to fit."""

from __future__ import annotations

from typing import Any

from bot.render.text import clip
from integrations.slack.markdown import SlackMarkdown, mrkdwn

__all__ = ["Block", "context", "fit", "mrkdwn_text", "plain_text", "section"]

Block = dict[str, Any]
"""One Block Kit block (or element, or text object), as Slack's JSON has it."""

_MARKDOWN = SlackMarkdown()


def fit(text: str, room: int) -> str:
    """Plain ``text`` as mrkdwn, mentions broken, clipped so that the escaped text fits in
    ``room`` (clipping after escaping could cut an ``&amp;`` in two)."""
    keep = room
    while True:
        written = mrkdwn(_MARKDOWN.kill_mentions(clip(text, keep)))
        if len(written) <= room or keep <= 1:
            return written
        keep -= max(1, len(written) - room)


def section(text: str) -> Block:
    return {"type": "section", "text": mrkdwn_text(text)}


def context(text: str) -> Block:
    return {"type": "context", "elements": [mrkdwn_text(text)]}


def mrkdwn_text(text: str) -> Block:
    """A mrkdwn text object, ``verbatim``: Slack then parses no mention words or channel names
    in it (the text objects reference); links written ``<url|label>`` still work. Every text
    is built within its limit, so none is cut here (a cut could open a link)."""
    return {"type": "mrkdwn", "text": text, "verbatim": True}


def plain_text(text: str, room: int) -> Block:
    """A plain-text object of at most ``room`` characters, mention words broken (Slack shows
    plain text as it is, but a notification or a screen reader reads it too)."""
    return {"type": "plain_text", "text": clip(_MARKDOWN.kill_mentions(text), room)}
