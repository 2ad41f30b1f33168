"""Discord's Markdown: its mention rules, links, footnotes.

Discord parses mentions (``@everyone``, ``<@id>``, ``<@&id>``) everywhere, even in code, so a
zero-width space goes after every ``<`` and inside ``@everyone``/``@here``; ``allowed_mentions``
is ``{"parse": []}`` on every payload besides. Masked links get ``<url>`` so no preview unfurls;
their targets, like embed URLs, are URIs of at most 2,048 characters (:func:`link_url`), and a
link that cannot be one shows its text alone.
"""

from __future__ import annotations

import re

from bot.render.commonmark import ZWSP, CommonMarkSyntax
from bot.render.links import safe_link
from bot.render.text import superscript
from integrations.discord.limits import EMBED_URL

__all__ = ["DiscordMarkdown", "kill_mentions", "link_url"]

_MENTION = re.compile(r"@(?=everyone|here)|<(?=[@#!&])", re.IGNORECASE)
_MENTION_AT = re.compile(r"@(?=everyone|here)", re.IGNORECASE)


def kill_mentions(text: str) -> str:
    """Every Discord mention sequence made inert with a zero-width space (idempotent)."""
    return _MENTION.sub(lambda m: m.group() + ZWSP, text)


def link_url(url: str) -> str | None:
    """``url`` as Discord takes it in an embed, a masked link or a button (RFC 3986, at most
    2,048 characters; parentheses encoded so a masked link ends where it should, and the
    ``@`` of a mention word too); None: show no link."""
    return safe_link(_MENTION_AT.sub("%40", url), limit=EMBED_URL, encode="()'")


class DiscordMarkdown(CommonMarkSyntax):
    max_heading = 3
    footnote_separator = "·"

    def kill_mentions(self, text: str) -> str:
        return kill_mentions(text)

    def link(self, inner: str, url: str) -> str:
        target = link_url(url)
        if target is None:
            return inner or self.escape(url, line_start=False)
        label = re.sub(r"\\(.)", r"\1", inner).replace("[", "(").replace("]", ")").strip()
        return f"[{label or target}](<{target}>)"

    def rule(self) -> str:
        return "─" * 12

    def footnote(self, number: int, url: str | None) -> str:
        target = link_url(url) if url else None
        return f"[{superscript(number)}](<{target}>)" if target else superscript(number)
