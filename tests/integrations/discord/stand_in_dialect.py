"""A minimal Discord dialect used only until ``integrations/discord/dialect.py`` lands.

It follows FORMATTER-API.md's payload shapes so the adapter tests exercise the same wire.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from bot.citations import Citation
from bot.dialect import CitationCard

Payload = dict[str, Any]
NO_PINGS = {"parse": []}


class StandInDiscordDialect:
    name = "discord"
    text_budget = 1800
    message_limit = 2000
    footnote_width = 5
    quote_prefix = "> "

    def escape(self, text: str, *, line_start: bool) -> str:
        return re.sub(r"([\\*_~`|<>\[\]])", r"\\\1", text)

    def code_span(self, text: str) -> str:
        return f"`{text}`"

    def emphasis(self, kind: str, inner: str) -> str:
        mark = {"strong": "**", "emph": "*", "strike": "~~"}[kind]
        return f"{mark}{inner}{mark}"

    def link(self, inner: str, url: str) -> str:
        return f"[{inner}](<{url}>)"

    def heading(self, level: int, inner: str) -> str:
        return f"{'#' * min(level, 3)} {inner}"

    def fence(self, info: str) -> tuple[str, str]:
        return f"```{info}", "```"

    def code_line(self, line: str) -> str:
        return self.neutralise(line)

    def bullet(self, number: int | None) -> str:
        return "- " if number is None else f"{number}. "

    def rule(self) -> str:
        return "---"

    def footnote(self, number: int, url: str | None) -> str:
        return f"[{number}]" if url is None else f"[\\[{number}\\]](<{url}>)"

    def neutralise(self, text: str) -> str:
        return text.replace("@", "@\u200b")

    def answer_message(self, text: str, *, final: bool, feedback: bool) -> Payload:
        components = [] if not feedback else [{"type": 1, "components": [
            {"type": 2, "style": 2, "label": "👍", "custom_id": "citebot:feedback:up"},
            {"type": 2, "style": 2, "label": "👎", "custom_id": "citebot:feedback:down"}]}]
        return {"content": text, "allowed_mentions": NO_PINGS, "flags": 4, "embeds": [],
                "components": components}

    def thread(self, cards: Sequence[CitationCard], also_consulted: Sequence[Citation],
               related: Sequence[str]) -> tuple[Payload, ...]:
        embeds = [{"title": f"[{c.number}] {c.citation.title or 'Source'}"[:256],
                   "description": c.citation.cited_text[:4096],
                   **({"url": c.citation.source_url} if c.citation.source_url else {})}
                  for c in cards]
        payloads = [{"embeds": embeds[i:i + 10], "allowed_mentions": NO_PINGS}
                    for i in range(0, len(embeds), 10)]
        if related:
            buttons = [{"type": 2, "style": 2, "label": q[:80], "custom_id": f"citebot:related:{i}"}
                       for i, q in enumerate(related[:5])]
            payloads.append({"content": "Related questions", "allowed_mentions": NO_PINGS,
                             "components": [{"type": 1, "components": buttons}]})
        return tuple(payloads)

    def notice(self, text: str) -> Payload:
        return {"content": self.neutralise(text)[:2000], "allowed_mentions": NO_PINGS,
                "flags": 4, "embeds": [], "components": []}
