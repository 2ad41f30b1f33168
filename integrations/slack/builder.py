"""A Block Kit Builder link, so a person can see Slack's own rendering of our blocks."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any
from urllib.parse import quote

__all__ = ["BUILDER_URL", "block_kit_builder_url"]

BUILDER_URL = "https://app.slack.com/block-kit-builder/"


def block_kit_builder_url(blocks: Sequence[dict[str, Any]]) -> str:
    """The Builder opens the message its URL fragment holds (``#`` + URL-encoded JSON)."""
    body = json.dumps({"blocks": list(blocks)}, ensure_ascii=False, separators=(",", ":"))
    return BUILDER_URL + "#" + quote(body, safe="")
