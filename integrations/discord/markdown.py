"""Discord's Markdown: its mention rules, links, footnotes.

Discord parses mentions (``@everyone``, ``<@id>``, ``<@&id>``) everywhere, even in code, so a
zero-width space goes after every ``<`` and inside ``@everyone``/``@here``; ``allowed_mentions``
is ``{"parse": []}`` on every payload besides. Masked links get ``<url>`` so no preview unfurls.
"""

from __future__ import annotations

import re

from bot.render.commonmark import ZWSP, CommonMarkSyntax
from bot.render.text import superscript

__all__ = ["DiscordMarkdown", "kill_mentions", "link_url"]

_MENTION = re.compile(r"@(?=everyone|here)|<(?=[@#!&])", re.IGNORECASE)
_URL_UNSAFE = str.maketrans({c: f"%{ord(c):02X}" for c in "<>()\"' \\"})


def kill_mentions(text: str) -> str:
    """Every Discord mention sequence made inert with a zero-width space (idempotent)."""
    return _MENTION.sub(lambda m: m.group() + ZWSP, text)


def link_url(url: str) -> str:
    return re.sub(r"@(?=everyone|here)", "%40", url.translate(_URL_UNSAFE), flags=re.I)


class DiscordMarkdown(CommonMarkSyntax):
    max_heading = 3
    footnote_separator = "·"

    def kill_mentions(self, text: str) -> str:
        return kill_mentions(text)

    def link(self, inner: str, url: str) -> str:
        label = re.sub(r"\\(.)", r"\1", inner).replace("[", "(").replace("]", ")").strip()
        return f"[{label or url}](<{link_url(url)}>)"

    def rule(self) -> str:
        return "─" * 12

    def footnote(self, number: int, url: str | None) -> str:
        return f"[{superscript(number)}](<{link_url(url)}>)" if url else superscript(number)
