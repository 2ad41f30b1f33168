"""Discord's threaded replies: each citation an embed, the sources consulted but never cited
one embed more, related questions as buttons.

Title, author and footer are plain text on Discord (no Markdown, no masked links), so only
mentions are broken there; the description and fields are Markdown.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.i18n.wording import Labels
from bot.render.numbering import CitationCard
from bot.render.ports import Payload
from bot.render.text import clip
from bot.render.thread import listed, source_title
from bot.upstream.citations import Citation
from integrations.discord import limits
from integrations.discord.markdown import DiscordMarkdown, kill_mentions
from integrations.discord.types import NO_MENTIONS, SUPPRESS_EMBEDS, ActionRow, Button, Embed

__all__ = ["RELATED", "also_consulted", "card", "embed_size", "feedback_row", "related_message"]

RELATED = "citebot:related:"
"""The ``custom_id`` prefix of a related-question button (its index follows)."""
FEEDBACK = "citebot:feedback:"
"""The ``custom_id`` prefix of a feedback button (``up`` or ``down`` follows)."""
ALSO_CONSULTED_ROOM = 3800
"""Characters of the also-consulted list, below the description's 4,096."""

_MARKDOWN = DiscordMarkdown()


def card(card: CitationCard, labels: Labels) -> Embed:
    """One citation as an embed. The footnote number leads the author line, just above the
    title, so ``¹`` in the answer finds ``[1]`` here while the title stays the document's own."""
    c = card.citation
    author = " · ".join(part for part in (f"[{card.number}]", c.author) if part)
    embed: Embed = {
        "title": clip(kill_mentions(source_title(c, labels)), limits.EMBED_TITLE),
        "author": {"name": clip(kill_mentions(author), limits.EMBED_AUTHOR)},
    }
    if c.source_url:
        embed["url"] = c.source_url
    description = []
    if c.heading:
        description.append("**" + _MARKDOWN.escape(clip(c.heading, 150), line_start=False) + "**")
    if c.cited_text:
        # Each line starts a line of the quote, where "# " or "- " would become markup.
        lines = clip(c.cited_text, 900).split("\n")
        description.append("\n".join("> " + _quote_line(line) for line in lines))
    if description:
        embed["description"] = "\n".join(description)
    if card.supports:
        said = _MARKDOWN.escape(clip(" … ".join(card.supports), 450), line_start=False)
        embed["fields"] = [
            {"name": labels.supports, "value": labels.quoted.format(quote=said), "inline": False}
        ]
    footer = " · ".join(part for part in (c.reference, c.year) if part)
    if footer:
        embed["footer"] = {"text": clip(kill_mentions(footer), 300)}
    return embed


def _quote_line(line: str) -> str:
    text = line.lstrip(" ")
    return line[: len(line) - len(text)] + _MARKDOWN.escape(text, line_start=True)


def also_consulted(citations: Sequence[Citation], labels: Labels) -> Embed:
    def line(c: Citation) -> str:
        label = _MARKDOWN.escape(clip(source_title(c, labels), 150), line_start=False)
        if c.source_url:
            label = _MARKDOWN.link(label, c.source_url)
        extra = ", ".join(part for part in (c.author, c.year) if part)
        return (
            "- "
            + label
            + (" — " + _MARKDOWN.escape(clip(extra, 150), line_start=False) if extra else "")
        )

    lines = listed(citations, line=line, room=ALSO_CONSULTED_ROOM, rest=lambda n: f"- … +{n}")
    return {"title": labels.also_consulted, "description": "\n".join(lines)}


def related_message(questions: Sequence[str], labels: Labels) -> Payload | None:
    """The related questions as buttons under a bold label; None when there are none."""
    buttons: list[Button] = [
        {
            "type": 2,
            "style": 2,
            "label": clip(kill_mentions(question.strip()), limits.BUTTON_LABEL),
            "custom_id": f"{RELATED}{index}",
        }
        for index, question in enumerate(questions[: limits.ROWS])
        if question.strip()
    ]
    if not buttons:
        return None
    return {
        "content": f"**{_MARKDOWN.escape(labels.related, line_start=False)}**",
        "components": [_row(button) for button in buttons],
        "allowed_mentions": NO_MENTIONS,
        "flags": SUPPRESS_EMBEDS,
    }


def feedback_row() -> ActionRow:
    """👍 and 👎 under a finished answer."""
    return _row(_feedback_button("up", "👍"), _feedback_button("down", "👎"))


def embed_size(embed: Embed) -> int:
    """The characters Discord counts towards the 6000 a message may carry in embeds."""
    size = len(embed.get("title", "")) + len(embed.get("description", ""))
    size += len(embed.get("author", {"name": ""})["name"])
    size += len(embed.get("footer", {"text": ""})["text"])
    return size + sum(len(f["name"]) + len(f["value"]) for f in embed.get("fields", []))


def _row(*buttons: Button) -> ActionRow:
    return {"type": 1, "components": list(buttons)}


def _feedback_button(value: str, emoji: str) -> Button:
    return {"type": 2, "style": 2, "emoji": {"name": emoji}, "custom_id": f"{FEEDBACK}{value}"}
