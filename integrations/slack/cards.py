"""Slack's threaded replies in Block Kit: each citation a group of blocks, the sources consulted
but never cited one section more, related questions as buttons, the feedback buttons last.

Quotes go in rich text blocks, which Slack does not parse, so a card shows the source's own
words; everything else is mrkdwn, escaped with :func:`~integrations.slack.markdown.mrkdwn`.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from typing import Any

from bot.i18n.wording import Labels
from bot.render.numbering import CitationCard
from bot.render.text import clip
from bot.render.thread import listed, source_title
from bot.upstream.citations import Citation
from integrations.slack import limits
from integrations.slack.markdown import kill_mentions, link_url, mrkdwn

__all__ = [
    "FEEDBACK_ACTION",
    "RELATED_ACTION",
    "Block",
    "also_consulted",
    "card",
    "feedback",
    "notification",
    "related",
]

Block = dict[str, Any]
"""One Block Kit block, as Slack's JSON has it."""
RELATED_ACTION = "citebot_related_"
"""The ``action_id`` prefix of a related-question button (its index follows)."""
FEEDBACK_ACTION = "citebot_feedback"
ALSO_CONSULTED_ROOM = 2800
"""Characters of the also-consulted section, below a section's 3,000."""


def card(card: CitationCard, labels: Labels) -> list[Block]:
    c = card.citation
    title = mrkdwn(clip(source_title(c, labels), 200))
    if c.source_url:
        title = f"<{link_url(c.source_url)}|{title}>"
    blocks: list[Block] = [_section(f"*{card.number}.* *{title}*")]
    quote: list[Block] = []
    if c.heading:
        heading = kill_mentions(clip(c.heading, 150)) + "\n"
        quote.append({"type": "text", "text": heading, "style": {"bold": True}})
    if c.cited_text:
        quote.append({"type": "text", "text": kill_mentions(clip(c.cited_text, 1500))})
    if quote:
        blocks.append(
            {"type": "rich_text", "elements": [{"type": "rich_text_quote", "elements": quote}]}
        )
    about = " · ".join(part for part in (c.author, c.year, c.reference) if part)
    if about:
        blocks.append(_context(mrkdwn(clip(about, 500))))
    if card.supports:
        said = mrkdwn(clip(" … ".join(card.supports), 1500))
        blocks.append(
            _context(f"_{mrkdwn(labels.supports_lead)}_ {labels.quoted.format(quote=said)}")
        )
    blocks.append({"type": "divider"})
    return blocks


def also_consulted(citations: Sequence[Citation], labels: Labels) -> list[Block]:
    heading = f"*{mrkdwn(labels.also_consulted)}*"

    def line(c: Citation) -> str:
        label = mrkdwn(clip(source_title(c, labels), 150))
        if c.source_url:
            label = f"<{link_url(c.source_url)}|{label}>"
        extra = ", ".join(part for part in (c.author, c.year) if part)
        return "• " + label + (" — " + mrkdwn(clip(extra, 150)) if extra else "")

    room = ALSO_CONSULTED_ROOM - len(heading)
    lines = listed(citations, line=line, room=room, rest=lambda n: f"• … +{n}")
    return [_section("\n".join([heading, *lines]))]


def related(questions: Sequence[str], labels: Labels) -> list[Block]:
    # The label is shown (mentions broken); the value only comes back on a click, as the
    # question to ask, so it keeps the upstream's words.
    buttons = [
        {
            "type": "button",
            "text": {"type": "plain_text", "text": clip(kill_mentions(q), limits.BUTTON_TEXT)},
            "action_id": f"{RELATED_ACTION}{index}",
            "value": clip(q, limits.BUTTON_VALUE),
        }
        for index, q in enumerate(q.strip() for q in questions[:5])
        if q
    ]
    if not buttons:
        return []
    return [_section(f"*{mrkdwn(labels.related)}*"), {"type": "actions", "elements": buttons}]


def feedback(labels: Labels) -> list[Block]:
    def button(emoji: str, label: str, value: str) -> Block:
        return {
            "text": {"type": "plain_text", "text": emoji},
            "accessibility_label": label,
            "value": value,
        }

    return [
        {
            "type": "context_actions",
            "elements": [
                {
                    "type": "feedback_buttons",
                    "action_id": FEEDBACK_ACTION,
                    "positive_button": button("👍", labels.good_answer, "up"),
                    "negative_button": button("👎", labels.bad_answer, "down"),
                }
            ],
        }
    ]


def notification(blocks: Sequence[Block], labels: Labels) -> str:
    """The ``text`` that goes with blocks: what a notification and a screen reader show, the
    card titles after a "Sources:" lead punctuated as the reader's language does."""
    titles = [
        b["text"]["text"]
        for b in blocks
        if b["type"] == "section" and b["text"]["text"][1:2].isdigit()
    ]
    if not titles:
        return mrkdwn(labels.sources)
    lead = mrkdwn(labels.sources_lead)
    space = "" if unicodedata.east_asian_width(lead[-1]) in "WF" else " "  # after "：" none
    return clip(lead + space + " · ".join(titles), limits.TEXT - 100)


def _section(text: str) -> Block:
    return {"type": "section", "text": {"type": "mrkdwn", "text": clip(text, limits.SECTION_TEXT)}}


def _context(text: str) -> Block:
    return {
        "type": "context",
        "elements": [{"type": "mrkdwn", "text": clip(text, limits.SECTION_TEXT)}],
    }
