"""Events and interactivity delivered over HTTP instead of Socket Mode: the body Slack posts
and the signature it sends with it (``v0=`` HMAC-SHA256 of ``v0:{timestamp}:{body}``), so
slack-bolt's request verification runs on the real thing."""

from __future__ import annotations

import hashlib
import hmac
import json
import time
from typing import Any
from urllib.parse import urlencode

__all__ = ["signed_delivery"]


def signed_delivery(
    kind: str, payload: dict[str, Any], secret: str, retry_attempt: int
) -> tuple[str, dict[str, str]]:
    """The body and headers of one delivery (``interactive`` and slash commands are
    form-encoded, events JSON)."""
    if kind == "interactive":
        body = urlencode({"payload": json.dumps(payload)})
        ctype = "application/x-www-form-urlencoded"
    elif kind == "slash_commands":
        body, ctype = urlencode(payload), "application/x-www-form-urlencoded"
    else:
        body, ctype = json.dumps(payload), "application/json"
    stamp = str(int(time.time()))
    digest = hmac.new(secret.encode(), f"v0:{stamp}:{body}".encode(), hashlib.sha256)
    headers = {
        "Content-Type": ctype,
        "X-Slack-Request-Timestamp": stamp,
        "X-Slack-Signature": f"v0={digest.hexdigest()}",
    }
    if retry_attempt:
        headers |= {"X-Slack-Retry-Num": str(retry_attempt), "X-Slack-Retry-Reason": "timeout"}
    return body, headers
