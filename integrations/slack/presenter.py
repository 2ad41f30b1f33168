"""How Slack shows an answer: standard Markdown messages of 12,000 characters (streamed
natively), footnotes as linked superscripts, citation cards as Block Kit replies in the thread:
one card per source document, its passages under its one title, as on Discord."""

from __future__ import annotations

from collections.abc import Sequence

from bot.i18n.wording import ENGLISH_LABELS, Labels
from bot.render.links import by_link
from bot.render.numbering import CitationCard
from bot.render.ports import Payload
from bot.render.text import clip
from bot.render.thread import batches
from bot.upstream.citations import Citation
from integrations.slack import cards, limits
from integrations.slack.markdown import UNFURL_OFF, SlackMarkdown, link_url, mrkdwn

__all__ = ["SlackPresenter", "placeholder"]


def placeholder(text: str) -> Payload:
    """A message that holds an answer's place until its first text replaces it (in italics,
    as Slack shows an app's status)."""
    return {"markdown_text": f"*{SlackMarkdown().escape(text, line_start=True)}*", **UNFURL_OFF}


class SlackPresenter:
    name = "slack"
    markdown = SlackMarkdown()
    text_budget = 10000
    message_limit = limits.MARKDOWN
    footnote_width = 4

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
        groups = [
            cards.document(passages[start : start + cards.PASSAGES], labels)
            for passages in by_link(citation_cards, _link)
            for start in range(0, len(passages), cards.PASSAGES)
        ]
        if also_consulted:
            groups.append(cards.also_consulted(also_consulted, labels))
        questions = cards.related(related, labels)
        if questions is not None:
            groups.append(questions)
        groups.append(cards.feedback(labels))
        payloads = []
        for batch in batches(groups, size=_size, most=limits.BLOCKS, room=limits.PAYLOAD_BUDGET):
            blocks = [block for group in batch for block in group.blocks]
            text = cards.notification(batch, labels)
            payloads.append({"text": text, "blocks": blocks, **UNFURL_OFF})
        return tuple(payloads)


def _link(card: CitationCard) -> str | None:
    return link_url(card.citation.source_url) if card.citation.source_url else None


def _size(group: cards.Group) -> tuple[int, int]:
    return len(group.blocks), len(str(group.blocks))
