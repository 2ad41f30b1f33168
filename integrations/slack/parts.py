"""A thread message's parts as Slack's refusals name them: which blocks make up each card (or
the also-consulted list, the related questions, the feedback buttons and the disclaimer under
them), the part holding the block an ``invalid_blocks`` error points at, and the message without
the parts Slack refused, so that one refused card never costs the others."""

from __future__ import annotations

import re

from slack_sdk.errors import SlackApiError

from bot.render.ports import Payload

__all__ = ["groups", "refused_group", "without"]

_BLOCK_POINTER = re.compile(r"/blocks/(\d+)")


def groups(payload: Payload) -> list[list[int]]:
    """The payload's blocks by the part of the thread each shows (a card, the also-consulted
    list, the related questions, the feedback buttons with the disclaimer under them): every
    part begins with a section block, or is the feedback's ``context_actions``
    (``integrations.slack.cards``)."""
    found: list[list[int]] = []
    for index, block in enumerate(payload.get("blocks") or ()):
        if not found or block.get("type") in ("section", "context_actions"):
            found.append([])
        found[-1].append(index)
    return found


def without(payload: Payload, dropped: frozenset[int]) -> Payload:
    if not dropped:
        return payload
    blocks = payload["blocks"]
    kept = [blocks[i] for n, group in enumerate(groups(payload)) if n not in dropped for i in group]
    return {**payload, "blocks": kept}


def refused_group(error: SlackApiError, payload: Payload, dropped: frozenset[int]) -> int | None:
    """The group (of the whole payload) holding the block Slack's ``invalid_blocks`` names
    (``[json-pointer:/blocks/3/text]`` in ``response_metadata.messages``), counted in the
    blocks that were sent; None when it names none."""
    if error.response.get("error") != "invalid_blocks":
        return None
    messages = (error.response.get("response_metadata") or {}).get("messages") or []
    found = next((m for m in map(_BLOCK_POINTER.search, map(str, messages)) if m), None)
    if found is None:
        return None
    sent = [n for n in range(len(groups(payload))) if n not in dropped]
    at = int(found.group(1))
    for n in sent:
        size = len(groups(payload)[n])
        if at < size:
            return n
        at -= size
    return None
