"""How Slack shows an answer: standard Markdown messages of 12,000 characters (streamed
natively), footnotes as linked numbers, citation cards as Block Kit replies in the thread."""

from __future__ import annotations

from collections.abc import Sequence

from bot.i18n.wording import ENGLISH_LABELS, Labels
from bot.render.numbering import CitationCard
from bot.render.ports import Payload
from bot.render.text import clip
from bot.render.thread import batches
from bot.upstream.citations import Citation
from integrations.slack import cards, limits
from integrations.slack.markdown import UNFURL_OFF, SlackMarkdown, mrkdwn

__all__ = ["SlackPresenter"]


class SlackPresenter:
    name = "slack"
    markdown = SlackMarkdown()
    text_budget = 10000
    message_limit = limits.MARKDOWN
    footnote_width = 7

    def answer_message(self, text: str, *, feedback: bool) -> Payload:
        return {"markdown_text": text, **UNFURL_OFF}

    def notice(self, text: str) -> Payload:
        return {"text": clip(mrkdwn(text), limits.TEXT), **UNFURL_OFF}

    def thread(
        self,
        citation_cards: Sequence[CitationCard],
        also_consulted: Sequence[Citation],
        related: Sequence[str],
        *,
        labels: Labels = ENGLISH_LABELS,
    ) -> tuple[Payload, ...]:
        groups = [cards.card(card, labels) for card in citation_cards]
        if also_consulted:
            groups.append(cards.also_consulted(also_consulted, labels))
        if related:
            groups.append(cards.related(related, labels))
        groups.append(cards.feedback(labels))
        payloads = []
        for batch in batches(groups, size=_size, most=limits.BLOCKS, room=limits.PAYLOAD_BUDGET):
            blocks = [block for group in batch for block in group]
            text = cards.notification(blocks, labels)
            payloads.append({"text": text, "blocks": blocks, **UNFURL_OFF})
        return tuple(payloads)


def _size(group: list[cards.Block]) -> tuple[int, int]:
    return len(group), len(str(group))
