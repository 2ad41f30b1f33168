"""Turning Slack messages into what the core reads: a question's text and a thread's turns."""

from __future__ import annotations

import html
import re
from collections.abc import Iterable, Mapping
from typing import Any

from bot.adapter import Turn

__all__ = ["question_text", "thread_turns"]

_LINK = re.compile(r"<((?:https?|mailto):[^|>]+)(?:\|([^>]*))?>")
_CARD_BLOCKS = frozenset({"section", "header", "context", "actions", "context_actions", "divider"})


def question_text(text: str, *, bot_user_id: str) -> str:
    """The words a person typed: the bot's mention dropped, links and entities as they read."""
    text = re.sub(rf"<@{re.escape(bot_user_id)}(?:\|[^>]*)?>", "", text)
    text = _LINK.sub(lambda m: m.group(2) or m.group(1), text)
    return html.unescape(text).strip()


def _is_card(message: Mapping[str, Any]) -> bool:
    return any(block.get("type") in _CARD_BLOCKS for block in message.get("blocks") or [])


def thread_turns(
    messages: Iterable[Mapping[str, Any]],
    *,
    bot_user_id: str,
    bot_id: str,
    before_ts: str | None,
    limit: int,
) -> tuple[Turn, ...]:
    """The last ``limit`` turns of a thread read back from ``conversations.replies``.

    Answers that rolled over into several messages become one turn; citation cards, other apps
    and anything from ``before_ts`` on are left out.
    """
    turns: list[Turn] = []
    for message in messages:
        if before_ts is not None and float(message.get("ts", 0)) >= float(before_ts):
            break
        ours = message.get("bot_id") == bot_id or message.get("user") == bot_user_id
        if ours:
            if _is_card(message):
                continue
            content, role = str(message.get("text", "")).strip(), "assistant"
        elif message.get("bot_id") or message.get("subtype"):
            continue
        else:
            content, role = (
                question_text(str(message.get("text", "")), bot_user_id=bot_user_id),
                "user",
            )
        if not content:
            continue
        if turns and turns[-1].role == role == "assistant":
            turns[-1] = Turn("assistant", turns[-1].content + "\n\n" + content)
        else:
            turns.append(Turn(role, content))  # type: ignore[arg-type]
    return tuple(turns[-limit:]) if limit else ()
