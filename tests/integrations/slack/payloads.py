"""Checks a Slack payload against the platform's limits and citebot's own promises.

Used by the tests on everything the formatter makes; returns problems, never raises.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

__all__ = ["live_mentions", "validate_slack_payload"]

_LIVE = re.compile(r"<[!@#]")
_MRKDWN_LINK = re.compile(r"<([^|>\s]+)\|")
_MARKDOWN_LINK = re.compile(r"(?<!\\)\]\(([^)\s]*)")


def live_mentions(text: str) -> list[str]:
    return _LIVE.findall(text)


def validate_slack_payload(payload: dict[str, Any]) -> list[str]:
    problems: list[str] = []
    if payload.get("unfurl_links") is not False or payload.get("unfurl_media") is not False:
        problems.append("unfurling is not off")
    if "markdown_text" in payload:
        text = payload["markdown_text"]
        if "text" in payload or "blocks" in payload:
            problems.append("markdown_text sent with text or blocks")
        if not 0 < len(text) <= 12000:
            problems.append(f"markdown_text is {len(text)} long")
        _links(_MARKDOWN_LINK.findall(text), problems)
    else:
        if not 0 < len(payload.get("text", "")) <= 4000:
            problems.append(f"text is {len(payload.get('text', ''))} long")
        _check_blocks(payload.get("blocks", []), problems)
    for text in _strings(payload):
        if live_mentions(text):
            problems.append(f"live mention in {text[:60]!r}")
        _links(_MRKDWN_LINK.findall(text), problems)
    return problems


def _links(targets: list[str], problems: list[str]) -> None:
    for target in targets:
        if not target.lower().startswith(("http://", "https://")):
            problems.append(f"link to {target[:60]!r}")


def _strings(value: object) -> Iterator[str]:
    """Every string a person can see; a button's ``value`` only comes back to the app."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for key, item in value.items():
            if not (key == "value" and value.get("type") == "button"):
                yield from _strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from _strings(item)


def _check_blocks(blocks: list[dict[str, Any]], problems: list[str]) -> None:
    if len(blocks) > 50:
        problems.append(f"{len(blocks)} blocks")
    markdown = 0
    for block in blocks:
        kind = block.get("type")
        if kind == "section" and len(block.get("text", {}).get("text", "")) > 3000:
            problems.append("section text over 3000")
        elif kind == "header" and len(block.get("text", {}).get("text", "")) > 150:
            problems.append("header over 150")
        elif kind == "context" and not 0 < len(block.get("elements", [])) <= 10:
            problems.append("context elements")
        elif kind == "markdown":
            markdown += len(block.get("text", ""))
        for element in block.get("elements", []):
            if element.get("type") == "button":
                if not 0 < len(element.get("text", {}).get("text", "")) <= 75:
                    problems.append("button text length")
                if len(element.get("value", "")) > 2000 or len(element.get("url", "")) > 3000:
                    problems.append("button value or url length")
    if markdown > 12000:
        problems.append("markdown blocks over 12000")
    if len(str(blocks)) > 13000:
        problems.append("payload near Slack's observed 13,000 failure")
