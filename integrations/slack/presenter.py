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
from bot.render.thread import batches, with_room_for_verdicts
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
        documents = [
            passages[start : start + cards.PASSAGES]
            for passages in by_link(citation_cards, _link)
            for start in range(0, len(passages), cards.PASSAGES)
        ]
        groups = [cards.document(passages, labels) for passages in documents]
        # measured with the longest verdicts: a verdict edited in never moves a card
        widest = [
            cards.document(with_room_for_verdicts(passages, labels), labels)
            for passages in documents
        ]
        if also_consulted:
            groups.append(cards.also_consulted(also_consulted, labels))
        questions = cards.related(related, labels)
        if questions is not None:
            groups.append(questions)
        groups.append(cards.feedback(labels))
        widest += groups[len(widest) :]
        payloads = []
        for batch in batches(
            list(zip(groups, widest, strict=True)),
            size=_size,
            most=limits.BLOCKS,
            room=limits.PAYLOAD_BUDGET,
        ):
            shown = [group for group, _ in batch]
            blocks = [block for group in shown for block in group.blocks]
            text = cards.notification(shown, labels)
            payloads.append({"text": text, "blocks": blocks, **UNFURL_OFF})
        return tuple(payloads)


def _link(card: CitationCard) -> str | None:
    return link_url(card.citation.source_url) if card.citation.source_url else None


def _size(groups: tuple[cards.Group, cards.Group]) -> tuple[int, int]:
    """A card's size with room for its verdicts (the second of the pair)."""
    widest = groups[1]
    return len(widest.blocks), len(str(widest.blocks))
