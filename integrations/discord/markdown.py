"""Discord's Markdown: its mention rules, links, footnotes.

Discord parses mentions (``@everyone``, ``<@id>``, ``<@&id>``) everywhere, even in code, so a
zero-width space goes after every ``<`` and inside ``@everyone``/``@here``; ``allowed_mentions``
is ``{"parse": []}`` on every payload besides. Masked links get ``<url>`` so no preview unfurls;
their targets, like embed URLs, are URIs of at most 2,048 characters
(:meth:`~bot.render.dialect.Dialect.link_url`), and a link that cannot be one shows its text
alone.
"""

from __future__ import annotations

import re

from bot.render.commonmark import CommonMarkSyntax
from integrations.discord.limits import EMBED_URL

__all__ = ["DiscordMarkdown"]


class DiscordMarkdown(CommonMarkSyntax):
    max_heading = 3
    footnote_separator = "·"
    link_limit = EMBED_URL
    mention = re.compile(r"@(?=everyone|here)|<(?=[@#!&])", re.IGNORECASE)
    mention_word = re.compile(r"@(?=everyone|here)", re.IGNORECASE)

    def linked(self, label: str, target: str) -> str:
        return f"[{label}](<{target}>)"

    def rule(self) -> str:
        return "─" * 12
