"""Slack's dialect: standard Markdown for answers, mrkdwn and Block Kit for cards.

Answers go out as ``markdown_text`` (the only thing Slack's native stream methods take), so they
are written in standard Markdown and every message keeps that one dialect. Cards are Block Kit,
whose text is mrkdwn: there only ``&``, ``<`` and ``>`` are escaped, which also makes
``<!channel>`` and friends inert. Quotes go in rich text blocks, which Slack does not parse, so
a card shows the source's own words.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from bot.citations import Citation
from bot.dialect import CitationCard, Payload
from bot.formatting.commonmark import ZWSP, CommonMarkSyntax
from bot.formatting.text import clip
from bot.wording import ENGLISH_LABELS, Labels

__all__ = ["SlackDialect", "mrkdwn"]

_MENTION = re.compile(r"<(?=[!@#])")
_ENTITY = re.compile(r"&(?=#?[0-9A-Za-z]+;)")
_MRKDWN = str.maketrans({"&": "&amp;", "<": "&lt;", ">": "&gt;"})
_URL_UNSAFE = str.maketrans({c: f"%{ord(c):02X}" for c in "<>()|\"' \\"})
UNFURL_OFF = {"unfurl_links": False, "unfurl_media": False}
MAX_BLOCKS = 50
PAYLOAD_BUDGET = 11000
"""Characters of block text a thread payload may carry (Slack fails around 13,000)."""


def kill_mentions(text: str) -> str:
    return _MENTION.sub("<" + ZWSP, text)


def mrkdwn(text: str) -> str:
    """Plain text as mrkdwn: Slack wants only these three escaped."""
    return text.translate(_MRKDWN)


def link_url(url: str) -> str:
    return url.translate(_URL_UNSAFE)


class SlackDialect(CommonMarkSyntax):
    name = "slack"
    text_budget = 10000
    message_limit = 12000
    footnote_width = 7
    footnote_separator = ""

    def kill_mentions(self, text: str) -> str:
        return kill_mentions(text)

    def escape(self, text: str, *, line_start: bool) -> str:
        return _ENTITY.sub("\\\\&", super().escape(text, line_start=line_start))

    def link(self, inner: str, url: str) -> str:
        return f"[{inner or self.escape(url, line_start=False)}]({link_url(url)})"

    def rule(self) -> str:
        return "***"

    def footnote(self, number: int, url: str | None) -> str:
        plain = f"\\[{number}\\]"
        return f"[{plain}]({link_url(url)})" if url else plain

    def answer_message(self, text: str, *, final: bool, feedback: bool) -> Payload:
        return {"markdown_text": text, **UNFURL_OFF}

    def notice(self, text: str) -> Payload:
        return {"text": clip(mrkdwn(text), 4000), **UNFURL_OFF}

    def thread(
        self,
        cards: Sequence[CitationCard],
        also_consulted: Sequence[Citation],
        related: Sequence[str],
        *,
        labels: Labels = ENGLISH_LABELS,
    ) -> tuple[Payload, ...]:
        groups = [self.card(card, labels) for card in cards]
        if also_consulted:
            groups.append(self.also_consulted(also_consulted, labels))
        if related:
            groups.append(self.related(related, labels))
        groups.append([_feedback(labels)])
        payloads = []
        for batch in _batches(groups):
            blocks = [block for group in batch for block in group]
            payloads.append(
                {"text": self._fallback(blocks, labels), "blocks": blocks, **UNFURL_OFF}
            )
        return tuple(payloads)

    def card(self, card: CitationCard, labels: Labels = ENGLISH_LABELS) -> list[dict[str, Any]]:
        c = card.citation
        title = mrkdwn(clip(c.title or c.reference or labels.source, 200))
        if c.source_url:
            title = f"<{link_url(c.source_url)}|{title}>"
        blocks: list[dict[str, Any]] = [_section(f"*{card.number}.* *{title}*")]
        quote: list[dict[str, Any]] = []
        if c.heading:
            quote.append(
                {
                    "type": "text",
                    "text": kill_mentions(clip(c.heading, 150)) + "\n",
                    "style": {"bold": True},
                }
            )
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

    def also_consulted(
        self, citations: Sequence[Citation], labels: Labels = ENGLISH_LABELS
    ) -> list[dict[str, Any]]:
        lines = [f"*{mrkdwn(labels.also_consulted)}*"]
        size = len(lines[0])
        for index, c in enumerate(citations):
            label = mrkdwn(clip(c.title or c.reference or labels.source, 150))
            if c.source_url:
                label = f"<{link_url(c.source_url)}|{label}>"
            extra = ", ".join(part for part in (c.author, c.year) if part)
            line = "• " + label + (" — " + mrkdwn(clip(extra, 150)) if extra else "")
            if size + len(line) > 2800:
                lines.append(f"• … +{len(citations) - index}")
                break
            lines.append(line)
            size += len(line) + 1
        return [_section("\n".join(lines))]

    def related(
        self, questions: Sequence[str], labels: Labels = ENGLISH_LABELS
    ) -> list[dict[str, Any]]:
        # The label is shown (mentions broken); the value only comes back on a click, as the
        # question to ask, so it keeps the upstream's words.
        buttons = [
            {
                "type": "button",
                "text": {"type": "plain_text", "text": clip(kill_mentions(q), 75)},
                "action_id": f"citebot_related_{index}",
                "value": clip(q, 2000),
            }
            for index, q in enumerate(q.strip() for q in questions[:5])
            if q
        ]
        if not buttons:
            return []
        return [_section(f"*{mrkdwn(labels.related)}*"), {"type": "actions", "elements": buttons}]

    def _fallback(self, blocks: Sequence[dict[str, Any]], labels: Labels) -> str:
        titles = [
            b["text"]["text"]
            for b in blocks
            if b["type"] == "section" and b["text"]["text"][1:2].isdigit()
        ]
        sources = mrkdwn(labels.sources)
        return clip(f"{sources}: " + " · ".join(titles) if titles else sources, 3900)


def _section(text: str) -> dict[str, Any]:
    return {"type": "section", "text": {"type": "mrkdwn", "text": clip(text, 3000)}}


def _context(text: str) -> dict[str, Any]:
    return {"type": "context", "elements": [{"type": "mrkdwn", "text": clip(text, 3000)}]}


def _feedback(labels: Labels) -> dict[str, Any]:
    def button(emoji: str, label: str, value: str) -> dict[str, Any]:
        return {
            "text": {"type": "plain_text", "text": emoji},
            "accessibility_label": label,
            "value": value,
        }

    return {
        "type": "context_actions",
        "elements": [
            {
                "type": "feedback_buttons",
                "action_id": "citebot_feedback",
                "positive_button": button("👍", labels.good_answer, "up"),
                "negative_button": button("👎", labels.bad_answer, "down"),
            }
        ],
    }


def _batches(groups: list[list[dict[str, Any]]]) -> list[list[list[dict[str, Any]]]]:
    """Cards never straddle two messages: whole groups go out, within 50 blocks and a size."""
    batches: list[list[list[dict[str, Any]]]] = []
    blocks = size = 0
    for group in groups:
        cost = len(str(group))
        if not batches or blocks + len(group) > MAX_BLOCKS or size + cost > PAYLOAD_BUDGET:
            batches.append([])
            blocks = size = 0
        batches[-1].append(group)
        blocks += len(group)
        size += cost
    return batches
