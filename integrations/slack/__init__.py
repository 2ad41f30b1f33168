"""The Slack adapter: mentions and DMs answered in their thread, streamed natively.

slack-bolt is imported only when Slack runs, so ``citebot ask --platform slack`` (which needs
just the dialect) stays light.
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from bot.service import AnswerService
    from config.settings import Settings

__all__ = ["run_slack"]


async def run_slack(
    settings: Settings,
    service: AnswerService | None = None,
    ready: asyncio.Event | None = None,
    **options: Any,
) -> None:
    """See :func:`integrations.slack.run.run_slack` (the worker's ``Runner`` shape)."""
    from integrations.slack.run import run_slack as run

    await run(settings, service, ready, **options)
