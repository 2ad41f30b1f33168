"""How Discord shows an answer: Markdown content in messages of 2,000 characters, footnotes as
linked superscripts, citation cards as embeds in the answer's thread: one per source document,
since Discord shows only the first of a message's embeds that share a URL."""

from __future__ import annotations

from collections.abc import Sequence

from bot.i18n.wording import ENGLISH_LABELS, Labels
from bot.render.links import by_link
from bot.render.numbering import CitationCard
from bot.render.ports import Payload
from bot.render.text import clip
from bot.render.thread import batches, with_room_for_verdicts
from bot.upstream.citations import Citation
from integrations.discord import cards, limits
from integrations.discord.markdown import DiscordMarkdown, link_url
from integrations.discord.types import NO_MENTIONS, SUPPRESS_EMBEDS, Embed

__all__ = ["DiscordPresenter"]


class DiscordPresenter:
    name = "discord"
    markdown = DiscordMarkdown()
    text_budget = 1500
    message_limit = limits.CONTENT
    footnote_width = 4

    def answer_message(self, text: str, *, feedback: bool) -> Payload:
        return {
            "content": text,
            "allowed_mentions": NO_MENTIONS,
            "flags": SUPPRESS_EMBEDS,
            "embeds": [],
            "components": [cards.feedback_row()] if feedback else [],
        }

    def notice(self, text: str) -> Payload:
        lines = [self.markdown.escape(line, line_start=True) for line in text.split("\n")]
        return {
            "content": clip("\n".join(lines), self.message_limit),
            "allowed_mentions": NO_MENTIONS,
            "flags": SUPPRESS_EMBEDS,
        }

    def thread(
        self,
        citation_cards: Sequence[CitationCard],
        also_consulted: Sequence[Citation],
        related: Sequence[str],
        *,
        labels: Labels = ENGLISH_LABELS,
    ) -> tuple[Payload, ...]:
        documents = by_link(citation_cards, _link)
        embeds = [embed for passages in documents for embed in cards.document(passages, labels)]
        # measured with the longest verdicts: a verdict edited in never moves an embed
        widest = [
            embed
            for passages in documents
            for embed in cards.document(with_room_for_verdicts(passages, labels), labels)
        ]
        if also_consulted:
            embeds.append(cards.also_consulted(also_consulted, labels))
            widest.append(embeds[-1])
        payloads: list[Payload] = [
            {"embeds": [shown for shown, _ in batch], "allowed_mentions": NO_MENTIONS}
            for batch in batches(
                list(zip(embeds, widest, strict=True)),
                size=_size,
                most=limits.EMBEDS,
                room=limits.EMBED_TOTAL,
            )
        ]
        related_message = cards.related_message(related, labels)
        if related_message is not None:
            payloads.append(related_message)
        return tuple(payloads)


def _link(card: CitationCard) -> str | None:
    return link_url(card.citation.source_url) if card.citation.source_url else None


def _size(embeds: tuple[Embed, Embed]) -> tuple[int, int]:
    """An embed's size with room for its verdicts (the second of the pair)."""
    return 1, cards.embed_size(embeds[1])
