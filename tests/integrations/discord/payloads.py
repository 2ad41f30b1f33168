"""Checks a Discord payload against the platform's limits and citebot's own promises.

Used by the tests on everything the formatter makes; returns problems, never raises.
"""

from __future__ import annotations

import re
from typing import Any

from integrations.discord import limits
from integrations.discord.cards import embed_size

__all__ = ["live_mentions", "validate_discord_payload"]

_LIVE = re.compile(r"@(?:everyone|here)|<[@#][!&]?[0-9]|<@[!&]", re.IGNORECASE)
_LINK_TARGET = re.compile(r"(?<!\\)\]\(<?([^)>\s]*)")


_EMBED_PART = {
    "title": limits.EMBED_TITLE,
    "description": limits.EMBED_DESCRIPTION,
    "author": limits.EMBED_AUTHOR,
    "footer": limits.EMBED_FOOTER,
}


def live_mentions(text: str) -> list[str]:
    return _LIVE.findall(text)


def validate_discord_payload(payload: dict[str, Any]) -> list[str]:
    problems: list[str] = []
    content = payload.get("content", "")
    if not isinstance(content, str) or len(content) > limits.CONTENT:
        problems.append(f"content is not a str of at most 2000 ({len(content)})")
    if payload.get("allowed_mentions") != {"parse": []}:
        problems.append("allowed_mentions is not {'parse': []}")
    if not (content or payload.get("embeds") or payload.get("components")):
        problems.append("empty message")
    texts = [content]
    embeds = payload.get("embeds", [])
    if len(embeds) > limits.EMBEDS:
        problems.append(f"{len(embeds)} embeds")
    if sum(embed_size(e) for e in embeds) > limits.EMBED_TOTAL:
        problems.append("embeds exceed 6000 characters in all")
    for embed in embeds:
        texts += _check_embed(embed, problems)
    texts += _check_components(payload.get("components", []), problems)
    for text in texts:
        if live_mentions(text):
            problems.append(f"live mention in {text[:60]!r}")
        for target in _LINK_TARGET.findall(text):
            if not target.lower().startswith(("http://", "https://")):
                problems.append(f"link to {target[:60]!r}")
    return problems


def _check_embed(embed: dict[str, Any], problems: list[str]) -> list[str]:
    parts = {
        "title": embed.get("title", ""),
        "description": embed.get("description", ""),
        "author": embed.get("author", {}).get("name", ""),
        "footer": embed.get("footer", {}).get("text", ""),
    }
    for name, text in parts.items():
        if len(text) > _EMBED_PART[name]:
            problems.append(f"embed {name} is {len(text)} long")
    fields = embed.get("fields", [])
    if len(fields) > limits.EMBED_FIELDS:
        problems.append(f"{len(fields)} fields")
    for field in fields:
        if not 0 < len(field.get("name", "")) <= limits.EMBED_FIELD_NAME:
            problems.append("field name length")
        if not 0 < len(field.get("value", "")) <= limits.EMBED_FIELD_VALUE:
            problems.append("field value length")
        parts[field.get("name", "")] = field.get("value", "")
    url = embed.get("url")
    if url is not None and not str(url).lower().startswith(("http://", "https://")):
        problems.append(f"embed url {url!r}")
    return [*parts.values(), *parts.keys()]


def _check_components(rows: list[dict[str, Any]], problems: list[str]) -> list[str]:
    labels: list[str] = []
    if len(rows) > limits.ROWS:
        problems.append(f"{len(rows)} component rows")
    for row in rows:
        buttons = row.get("components", [])
        if row.get("type") != 1 or not 0 < len(buttons) <= limits.BUTTONS_PER_ROW:
            problems.append("bad action row")
        for button in buttons:
            label = button.get("label", "")
            if len(label) > limits.BUTTON_LABEL or not (label or button.get("emoji")):
                problems.append(f"button label {label!r}")
            if not 0 < len(button.get("custom_id", "")) <= limits.CUSTOM_ID:
                problems.append("button custom_id length")
            labels.append(label)
    return labels
