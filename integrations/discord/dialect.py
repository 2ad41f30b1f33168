"""Discord's dialect: its Markdown, its mention rules, embeds for cards, buttons.

Discord parses mentions (``@everyone``, ``<@id>``, ``<@&id>``) everywhere, even in code, so a
zero-width space goes after every ``<`` and inside ``@everyone``/``@here``; ``allowed_mentions``
is ``{"parse": []}`` on every payload besides. Masked links get ``<url>`` so no preview unfurls.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from bot.citations import Citation
from bot.dialect import CitationCard, Payload
from bot.formatting.commonmark import ZWSP, CommonMarkSyntax
from bot.formatting.text import clip, superscript
from bot.wording import ENGLISH_LABELS, Labels

__all__ = ["DiscordDialect"]

NO_MENTIONS: dict[str, list[str]] = {"parse": []}
SUPPRESS_EMBEDS = 4
_MENTION = re.compile(r"@(?=everyone|here)|<(?=[@#!&])", re.IGNORECASE)
_URL_UNSAFE = str.maketrans({c: f"%{ord(c):02X}" for c in "<>()\"' \\"})
EMBED_LIMITS = {
    "title": 256,
    "description": 4096,
    "field_name": 256,
    "field_value": 1024,
    "footer": 2048,
    "author": 256,
    "total": 6000,
    "embeds": 10,
}


def kill_mentions(text: str) -> str:
    """Every Discord mention sequence made inert with a zero-width space (idempotent)."""
    return _MENTION.sub(lambda m: m.group() + ZWSP, text)


def link_url(url: str) -> str:
    return re.sub(r"@(?=everyone|here)", "%40", url.translate(_URL_UNSAFE), flags=re.I)


class DiscordDialect(CommonMarkSyntax):
    name = "discord"
    text_budget = 1500
    message_limit = 2000
    footnote_width = 4
    footnote_separator = "·"
    max_heading = 3

    def kill_mentions(self, text: str) -> str:
        return kill_mentions(text)

    def link(self, inner: str, url: str) -> str:
        label = re.sub(r"\\(.)", r"\1", inner).replace("[", "(").replace("]", ")").strip()
        return f"[{label or url}](<{link_url(url)}>)"

    def rule(self) -> str:
        return "─" * 12

    def footnote(self, number: int, url: str | None) -> str:
        return f"[{superscript(number)}](<{link_url(url)}>)" if url else superscript(number)

    def answer_message(self, text: str, *, final: bool, feedback: bool) -> Payload:
        components = [_row(_feedback_button("up", "👍"), _feedback_button("down", "👎"))]
        return {
            "content": text,
            "allowed_mentions": NO_MENTIONS,
            "flags": SUPPRESS_EMBEDS,
            "embeds": [],
            "components": components if feedback else [],
        }

    def notice(self, text: str) -> Payload:
        lines = [self.escape(line, line_start=True) for line in text.split("\n")]
        return {
            "content": clip("\n".join(lines), self.message_limit),
            "allowed_mentions": NO_MENTIONS,
            "flags": SUPPRESS_EMBEDS,
        }

    def thread(
        self,
        cards: Sequence[CitationCard],
        also_consulted: Sequence[Citation],
        related: Sequence[str],
        *,
        labels: Labels = ENGLISH_LABELS,
    ) -> tuple[Payload, ...]:
        embeds = [self.card(card, labels) for card in cards]
        if also_consulted:
            embeds.append(self.also_consulted(also_consulted, labels))
        payloads: list[Payload] = [
            {"embeds": batch, "allowed_mentions": NO_MENTIONS} for batch in _batches(embeds)
        ]
        if related:
            buttons = [
                {
                    "type": 2,
                    "style": 2,
                    "label": clip(kill_mentions(question.strip()), 80),
                    "custom_id": f"citebot:related:{index}",
                }
                for index, question in enumerate(related[:5])
                if question.strip()
            ]
            if buttons:
                payloads.append(
                    {
                        "content": f"**{self.escape(labels.related, line_start=False)}**",
                        "components": [_row(button) for button in buttons],
                        "allowed_mentions": NO_MENTIONS,
                        "flags": SUPPRESS_EMBEDS,
                    }
                )
        return tuple(payloads)

    def card(self, card: CitationCard, labels: Labels = ENGLISH_LABELS) -> dict[str, Any]:
        """One citation as an embed; title, author and footer are plain text on Discord.

        The footnote number leads the author line, just above the title, so ``¹`` in the
        answer finds ``[1]`` here while the title stays the document's own."""
        c = card.citation
        embed: dict[str, Any] = {
            "title": clip(
                kill_mentions(c.title or c.reference or labels.source), EMBED_LIMITS["title"]
            ),
            "author": {
                "name": clip(
                    kill_mentions(
                        " · ".join(part for part in (f"[{card.number}]", c.author) if part)
                    ),
                    EMBED_LIMITS["author"],
                )
            },
        }
        if c.source_url:
            embed["url"] = c.source_url
        description = []
        if c.heading:
            description.append("**" + self.escape(clip(c.heading, 150), line_start=False) + "**")
        if c.cited_text:
            # Each line starts a line of the quote, where "# " or "- " would become markup.
            description.append(
                "\n".join(
                    "> " + self._quote_line(line) for line in clip(c.cited_text, 900).split("\n")
                )
            )
        if description:
            embed["description"] = "\n".join(description)
        if card.supports:
            said = self.escape(clip(" … ".join(card.supports), 450), line_start=False)
            embed["fields"] = [
                {
                    "name": labels.supports,
                    "value": labels.quoted.format(quote=said),
                    "inline": False,
                }
            ]
        footer = " · ".join(part for part in (c.reference, c.year) if part)
        if footer:
            embed["footer"] = {"text": clip(kill_mentions(footer), 300)}
        return embed

    def _quote_line(self, line: str) -> str:
        text = line.lstrip(" ")
        return line[: len(line) - len(text)] + self.escape(text, line_start=True)

    def also_consulted(
        self, citations: Sequence[Citation], labels: Labels = ENGLISH_LABELS
    ) -> dict[str, Any]:
        lines: list[str] = []
        size = 0
        for index, c in enumerate(citations):
            label = self.escape(
                clip(c.title or c.reference or labels.source, 150), line_start=False
            )
            if c.source_url:
                label = self.link(label, c.source_url)
            extra = ", ".join(part for part in (c.author, c.year) if part)
            line = (
                "- "
                + label
                + (" — " + self.escape(clip(extra, 150), line_start=False) if extra else "")
            )
            if size + len(line) > 3800:
                lines.append(f"- … +{len(citations) - index}")
                break
            lines.append(line)
            size += len(line) + 1
        return {"title": labels.also_consulted, "description": "\n".join(lines)}


def embed_size(embed: dict[str, Any]) -> int:
    """The characters Discord counts towards the 6000 a message may carry in embeds."""
    size = len(embed.get("title", "")) + len(embed.get("description", ""))
    size += len(embed.get("author", {}).get("name", "")) + len(
        embed.get("footer", {}).get("text", "")
    )
    return size + sum(
        len(f.get("name", "")) + len(f.get("value", "")) for f in embed.get("fields", [])
    )


def _batches(embeds: list[dict[str, Any]]) -> list[list[dict[str, Any]]]:
    batches: list[list[dict[str, Any]]] = []
    size = 0
    for embed in embeds:
        cost = embed_size(embed)
        if (
            not batches
            or len(batches[-1]) >= EMBED_LIMITS["embeds"]
            or size + cost > EMBED_LIMITS["total"]
        ):
            batches.append([])
            size = 0
        batches[-1].append(embed)
        size += cost
    return batches


def _row(*buttons: dict[str, Any]) -> dict[str, Any]:
    return {"type": 1, "components": list(buttons)}


def _feedback_button(value: str, emoji: str) -> dict[str, Any]:
    return {
        "type": 2,
        "style": 2,
        "emoji": {"name": emoji},
        "custom_id": f"citebot:feedback:{value}",
    }
