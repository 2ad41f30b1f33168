"""How Discord shows an answer: Markdown content in messages of 2,000 characters, footnotes as
linked superscripts, citation cards as embeds in the answer's thread (:mod:`.cards`): one per
source document, since Discord shows only the first of a message's embeds that share a URL."""

from __future__ import annotations

from collections.abc import Sequence

from bot.render.ports import Button, Payload
from bot.render.text import clip
from integrations.discord import cards, limits
from integrations.discord.markdown import DiscordMarkdown
from integrations.discord.types import NO_MENTIONS, SUPPRESS_EMBEDS

__all__ = ["DiscordPresenter"]


class DiscordPresenter:
    name = "discord"
    markdown = DiscordMarkdown()
    thread_parts = cards.DiscordCards()
    text_budget = 1500
    message_limit = limits.CONTENT
    footnote_width = 4

    def answer_message(
        self, text: str, *, feedback: bool, buttons: Sequence[Button] = ()
    ) -> Payload:
        return {
            "content": text,
            "allowed_mentions": NO_MENTIONS,
            "flags": SUPPRESS_EMBEDS,
            "embeds": [],
            "components": [cards.feedback_row(buttons)] if feedback else [],
        }

    def notice(self, text: str) -> Payload:
        lines = [self.markdown.escape(line, line_start=True) for line in text.split("\n")]
        return {
            "content": clip("\n".join(lines), self.message_limit),
            "allowed_mentions": NO_MENTIONS,
            "flags": SUPPRESS_EMBEDS,
        }
